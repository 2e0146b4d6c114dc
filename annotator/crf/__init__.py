"""crf package."""
