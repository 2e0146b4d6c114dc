"""Where the user left the splitters of each window, per arrangement, between sessions.

``$XDG_CONFIG_HOME/phi-annotator/layouts.json``::

    {"version": 1, "windows": {"annotation": {"wide": [[300, 680, 420], [300, 170, 390]],
                                              "narrow": [[520, 300]]}}}

A display preference like the others: per user, never worth refusing to start over, so an
unreadable or malformed file gives no saved layout (the window checks the shapes again).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Final

from annotator.core.atomic import atomic_write_text
from annotator.errors import StorageError
from annotator.io.workstate import config_dir

LAYOUTS_FILE: Final = "layouts.json"

WindowLayout = dict[str, list[list[int]]]


def layouts_path() -> Path:
    return config_dir() / LAYOUTS_FILE


def _read_all() -> dict[str, WindowLayout]:
    if not layouts_path().is_file():
        return {}  # none yet, or a pipe or device put there: opened, it would never end
    try:
        raw = json.loads(layouts_path().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    windows = raw.get("windows") if isinstance(raw, dict) else None
    if not isinstance(windows, dict):
        return {}
    return {str(k): _well_formed(v) for k, v in windows.items() if isinstance(v, dict)}


# Layouts are pixels: a number past this is no screen's (and past a C int Qt refuses it with
# an OverflowError, so the window would not open).
_LARGEST_PIXELS = 1_000_000


def _well_formed(layout: dict[object, object]) -> WindowLayout:
    """The entries of a saved layout that are lists of rows of pixel counts; the rest dropped."""
    return {
        str(name): value
        for name, value in layout.items()
        if isinstance(value, list)
        and all(
            isinstance(row, list)
            and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _LARGEST_PIXELS for v in row)
            for row in value
        )
    }


def load_window_layout(window: str) -> WindowLayout:
    """The splitter sizes saved for a window (``{}`` when none or unreadable)."""
    return _read_all().get(window, {})


def save_window_layout(window: str, layout: WindowLayout) -> None:
    """Remember a window's splitter sizes (other windows' entries are kept).

    Best effort: a layout is not worth an error when the window closes.
    """
    windows = _read_all()
    windows[window] = layout
    with contextlib.suppress(StorageError):
        atomic_write_text(layouts_path(), json.dumps({"version": 1, "windows": windows}, indent=1) + "\n")
