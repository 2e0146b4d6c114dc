"""The user's display preferences: saved per user, applied over a schema, bad files ignored."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from annotator.core.schema import load_schema
from annotator.io.preferences import Preferences, load_preferences, preferences_path, save_preferences


@pytest.fixture(autouse=True)
def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_preferences_round_trip_in_the_user_config_folder(tmp_path: Path) -> None:
    assert load_preferences() == Preferences()
    chosen = Preferences(
        monospace=False, type_labels=True, colours={"DOCTOR": "#aa00ff"}, keys={"DOCTOR": "q"}
    )
    save_preferences(chosen)
    assert Path(preferences_path()) == tmp_path / "config" / "phi-annotator" / "preferences.json"
    assert stat.S_IMODE(Path(preferences_path()).stat().st_mode) == 0o600
    assert load_preferences() == chosen


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", '{"types": {"DOCTOR": {"color": "red; drop", "key": "toolong"}}}'],
)
def test_a_bad_preferences_file_gives_the_defaults(content: str) -> None:
    path = Path(preferences_path())
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    assert load_preferences() == Preferences()
    assert path.read_text(encoding="utf-8") == content  # left alone until the user saves


def test_apply_changes_colours_and_keys_but_never_makes_keys_clash() -> None:
    schema = load_schema("i2b2-2014")
    mine = Preferences(colours={"DOCTOR": "#aa00ff"}, keys={"DOCTOR": "q"}).apply(schema)
    assert mine.color_of("DOCTOR") == "#aa00ff" and mine.type_def("DOCTOR").key == "q"
    assert mine.type_for_key("q") is not None and mine.type_for_key("q").name == "DOCTOR"  # type: ignore[union-attr]
    assert schema.type_def("DOCTOR").key == "r"  # the shipped schema is untouched
    clash = Preferences(colours={"CITY": "#123456"}, keys={"DOCTOR": "p"}).apply(schema)
    assert clash.type_def("DOCTOR").key == "r" and clash.type_def("PATIENT").key == "p"
    assert clash.color_of("CITY") == "#123456"
