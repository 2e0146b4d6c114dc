"""The user's own settings files (preferences, window layouts, places in notes, identity) are
read only when they are plain files: a pipe put in their place was opened and waited on for
ever, so the window never opened."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.errors import InputError
from annotator.io.places import load_places, places_path
from annotator.io.preferences import Preferences, load_preferences, preferences_path
from annotator.io.window_layouts import layouts_path, load_window_layout
from annotator.io.workstate import load_identity


def _finishes(call: Callable[[], object]) -> object:
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert result, "still waiting on the pipe after 10 s"
    return result[0]


@pytest.mark.parametrize(
    ("where", "load", "default"),
    [
        (lambda: Path(preferences_path()), load_preferences, Preferences()),
        (layouts_path, lambda: load_window_layout("annotation"), {}),
        (places_path, lambda: load_places(Path("/nowhere"), "alice"), {}),
    ],
)
def test_a_pipe_in_place_of_a_settings_file_gives_the_defaults_without_waiting(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: Callable[[], Path],
    load: Callable[[], object],
    default: object,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    path = where()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    assert _finishes(load) == default


def test_a_pipe_in_place_of_the_identity_file_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    from annotator.io.workstate import identity_path

    identity_path().parent.mkdir(parents=True)
    os.mkfifo(identity_path())

    def load() -> object:
        try:
            return load_identity()
        except InputError as error:
            return error.one_line()

    said = _finishes(load)
    assert isinstance(said, str) and "is a pipe, socket or device" in said
