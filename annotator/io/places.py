"""Where the annotator was in each note: selection and scroll, kept between sessions.

``$XDG_CONFIG_HOME/phi-annotator/places.json``::

    {"version": 1, "projects": {"alice@/data/deid-batch-3": {"110-01": [812, 824, 640]}}}

Each note's place is ``[selection anchor, caret, first character on screen]``, in code points
of the note text. Per user and per project folder (a moved folder starts at the top of its
notes again; the note you were on is kept by the project itself). A display preference like
the layouts: an unreadable file gives no places, and a place that no longer fits the note is
clamped by the window. The most recently used :data:`MAX_PROJECTS` projects are kept.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Final

from annotator.core.atomic import atomic_write_text
from annotator.errors import StorageError
from annotator.io.workstate import config_dir

PLACES_FILE: Final = "places.json"
MAX_PROJECTS: Final = 30

Place = tuple[int, int, int]


def places_path() -> Path:
    return config_dir() / PLACES_FILE


def _key(root: Path, annotator: str) -> str:
    return f"{annotator}@{root.resolve()}"


def _read_all() -> dict[str, object]:
    if not places_path().is_file():
        return {}  # none yet, or a pipe or device put there: opened, it would never end
    try:
        raw = json.loads(places_path().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    projects = raw.get("projects") if isinstance(raw, dict) else None
    return dict(projects) if isinstance(projects, dict) else {}


def load_places(root: Path, annotator: str) -> dict[str, Place]:
    """The places saved for one annotator in one project (``{}`` when none or unreadable)."""
    found = _read_all().get(_key(root, annotator))
    if not isinstance(found, dict):
        return {}
    places: dict[str, Place] = {}
    for doc_id, value in found.items():
        if (
            isinstance(value, list)
            and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
        ):
            places[str(doc_id)] = (value[0], value[1], value[2])
    return places


def save_places(root: Path, annotator: str, places: dict[str, Place]) -> None:
    """Remember one annotator's places in one project (best effort: never an error)."""
    projects = _read_all()
    key = _key(root, annotator)
    projects.pop(key, None)
    projects[key] = {doc_id: list(place) for doc_id, place in places.items()}
    kept = dict(list(projects.items())[-MAX_PROJECTS:])
    with contextlib.suppress(StorageError, OSError):
        atomic_write_text(places_path(), json.dumps({"version": 1, "projects": kept}) + "\n")
