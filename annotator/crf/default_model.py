"""The pre-annotation model bundled with PHI Annotator, for projects without gold yet.

It lives in ``resources/models/`` (inside the package), is trained on the three synthetic note
styles with public features only (:mod:`annotator.crf.features`), and is rebuilt by one
command: ``python -m annotator.workflows.default_model``. ``annotator preannotate default
IN -o OUT`` and the GUI's Model menu (when the project has no model of its own) use it.
"""

from __future__ import annotations

from pathlib import Path

from annotator.core.resources import resource_path
from annotator.crf.tagger import CrfTagger
from annotator.errors import ModelError

# The word that stands for the bundled model where a model file is expected.
DEFAULT_MODEL_NAME = "default"
DEFAULT_MODEL_FILE = "phi-default.model"


def default_model_path() -> Path:
    """Where the bundled model is (it may be missing from a source checkout mid-rebuild)."""
    return resource_path("models", DEFAULT_MODEL_FILE)


def has_default_model() -> bool:
    return default_model_path().is_file()


def resolve_model(value: str | Path) -> Path:
    """A model file path, or the bundled model's for ``default`` (when no such file exists)."""
    path = Path(value)
    if str(value) == DEFAULT_MODEL_NAME and not path.exists():
        if not has_default_model():
            raise ModelError(
                "the bundled default model is missing from this installation", default_model_path()
            )
        return default_model_path()
    return path


def load_default_model() -> CrfTagger:
    """The bundled model, loaded."""
    return CrfTagger.load(resolve_model(DEFAULT_MODEL_NAME))
