"""The files shipped with the package (schemas, mappings, lexicons, surrogate lists, the demo
project, the default model).

They live in ``resources/`` at the top of the repository and are installed as the package
``annotator.resources`` (a setuptools ``package-dir`` mapping), so an editable install and a
wheel find them the same way: through :mod:`importlib.resources`, never by path arithmetic.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from annotator.errors import StorageError

RESOURCE_PACKAGE = "annotator.resources"


@cache
def resources_root() -> Path:
    """The installed resources folder as a real path (wheels and editable installs unpack to disk)."""
    try:
        root = files(RESOURCE_PACKAGE)
    except ModuleNotFoundError:
        raise StorageError("the bundled resources are missing from this installation") from None
    path = Path(str(root))
    if not path.is_dir():
        raise StorageError("the bundled resources are not on the file system", path)
    return path


def resource_path(*parts: str) -> Path:
    """A file or folder inside the bundled resources, e.g. ``resource_path("schemas")``."""
    return resources_root().joinpath(*parts)
