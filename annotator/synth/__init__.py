"""synth package."""
