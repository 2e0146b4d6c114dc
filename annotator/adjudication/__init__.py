"""adjudication package."""
