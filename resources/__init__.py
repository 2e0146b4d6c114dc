"""Data shipped with PHI Annotator, installed as ``annotator.resources``; read it through
``annotator.core.resources``."""
