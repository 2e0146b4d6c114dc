"""PHI Annotator: build de-identification gold standards from clinical notes."""

__version__ = "0.1.0"
