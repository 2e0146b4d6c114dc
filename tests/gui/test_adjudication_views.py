"""Adjudication window: versions side by side, fonts, identity, decided colours, menus, quit."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.adjudication.corpus import prepare_corpus
from annotator.adjudication.decisions import log_path, read_log
from annotator.gui.adjudication.highlighter import STATE_COLOURS, UnitState, unit_state
from annotator.gui.adjudication.launch import build_adjudication_window
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.gui.theme import apply_theme
from annotator.io.preferences import load_preferences
from annotator.io.workstate import save_identity
from tests.adjudication.helpers import NOTE, version, write_versions
from tests.gui.conftest import columns_align

LONG_NOTE = NOTE + "".join(f"Line {i} of the plan, nothing identifying here.\n" for i in range(120))


@pytest.fixture
def two(tmp_path: Path) -> list[Path]:
    alice = [version("100-01", LONG_NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))]
    bob = [
        version("100-01", LONG_NOTE, ("John Smith", "NAME", "PATIENT"), ("617-555-0199", "CONTACT", "PHONE"))
    ]
    return write_versions(tmp_path / "versions", {"alice": alice, "bob": bob})


def open_window(qtbot: QtBot, folders: list[Path], gold: Path, dark: bool = False) -> AdjudicationWindow:
    window = AdjudicationWindow(prepare_corpus(folders, gold), adjudicator="dana", dark=dark)
    qtbot.addWidget(window)
    window.resize(1500, 900)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    window.note_view.setFocus()
    return window


def test_v_switches_to_versions_side_by_side_aligned_and_scrolled_together(
    qtbot: QtBot, two: list[Path], tmp_path: Path
) -> None:
    window = open_window(qtbot, two, tmp_path / "gold")
    qtbot.keyClick(window.note_view, Qt.Key.Key_V)
    assert window.views.currentWidget() is window.side_by_side
    columns = window.side_by_side.columns
    assert [c.header.full_text() for c in columns] == ["1: alice", "2: bob"]
    # Each column paints its own version: alice's CITY, bob's PHONE.
    assert [a.type for a in columns[0].highlighter.index.overlapping(0, len(LONG_NOTE))] == ["DOCTOR", "CITY"]
    assert {a.type for a in columns[1].highlighter.index.overlapping(0, len(LONG_NOTE))} == {
        "PATIENT",
        "PHONE",
    }
    # Same text, same width: the lines line up, and scrolling one column scrolls the other.
    assert columns[0].view.document().blockCount() == columns[1].view.document().blockCount()
    bar = columns[1].view.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum() // 2)
    assert columns[0].view.verticalScrollBar().value() == bar.maximum() // 2
    # The current unit is outlined in both columns.
    assert all(len(c.view.extraSelections()) == 1 for c in columns)
    qtbot.keyClick(window.side_by_side, Qt.Key.Key_V)
    assert window.views.currentWidget() is window.note_view


def test_menus_offer_only_the_versions_there_are_and_quit(
    qtbot: QtBot, two: list[Path], tmp_path: Path
) -> None:
    window = open_window(qtbot, two, tmp_path / "gold")
    takes = [text for text in window.actions_by_text if text.startswith("Take version")]
    assert takes == ["Take version 1 (alice)", "Take version 2 (bob)"]
    assert "1–2 take version" in window.unit_panel.toPlainText()
    quit_action = window.actions_by_text["Quit"]
    assert quit_action.shortcut().toString() == "Ctrl+Q"
    qtbot.keyClick(window.note_view, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()


def test_decided_phi_and_decided_not_phi_look_different(
    qtbot: QtBot, two: list[Path], tmp_path: Path
) -> None:
    window = open_window(qtbot, two, tmp_path / "gold")
    session = window.session
    assert session is not None
    name_unit = window.current_unit
    assert name_unit is not None
    qtbot.keyClick(window.note_view, Qt.Key.Key_1)  # DOCTOR, as alice had it
    assert unit_state(session, name_unit) is UnitState.DECIDED_PHI
    window.go_to(next(u for u in session.units if u.start == LONG_NOTE.index("Boston")))
    boston = window.current_unit
    assert boston is not None
    qtbot.keyClick(window.note_view, Qt.Key.Key_X)  # neither: not PHI
    assert unit_state(session, boston) is UnitState.DECIDED_NOT_PHI
    assert STATE_COLOURS[UnitState.DECIDED_PHI] != STATE_COLOURS[UnitState.DECIDED_NOT_PHI]
    assert window._highlighter is not None
    formats = window._highlighter._formats
    assert formats[UnitState.DECIDED_NOT_PHI].fontStrikeOut()
    assert not formats[UnitState.DECIDED_PHI].fontStrikeOut()


def test_monospace_option_switches_both_views_and_is_remembered(
    qtbot: QtBot, two: list[Path], tmp_path: Path
) -> None:
    window = open_window(qtbot, two, tmp_path / "gold")
    assert columns_align(window.note_view.font())
    assert columns_align(window.side_by_side.columns[0].view.font())
    action = window.actions_by_text["Monospace font"]
    action.trigger()
    assert not action.isChecked()
    assert not columns_align(window.note_view.font())
    assert not columns_align(window.side_by_side.columns[0].view.font())
    assert load_preferences().monospace is False
    again = open_window(qtbot, two, tmp_path / "gold2")
    assert not columns_align(again.note_view.font())


@pytest.mark.parametrize(("option", "expected"), [(None, "remembered-rita"), ("dana", "dana")])
def test_adjudicator_is_the_annotator_option_or_the_remembered_name(
    qtbot: QtBot, two: list[Path], tmp_path: Path, option: str | None, expected: str
) -> None:
    save_identity("remembered-rita")
    window = build_adjudication_window(two, tmp_path / "gold", option, ask=False)
    qtbot.addWidget(window)
    assert window.adjudicator_label.full_text() == f"Adjudicator: {expected}"
    session = window.session
    assert session is not None and session.adjudicator == expected
    window.show()
    window.go_to(session.units[0])
    window.take(0)
    window.save()
    assert read_log(log_path(tmp_path / "gold", "100-01"))[-1]["adjudicator"] == expected
    window.close()


def contrast(one: QColor, two: QColor) -> float:
    """WCAG contrast ratio of two colours (4.5 is the minimum for body text)."""

    def luminance(colour: QColor) -> float:
        channels = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
            for c in (colour.redF(), colour.greenF(), colour.blueF())
        ]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_current_unit_panel_is_readable_in_both_themes(
    qtbot: QtBot, qapp: QApplication, two: list[Path], tmp_path: Path, theme: str
) -> None:
    dark = apply_theme(qapp, "dark" if theme == "dark" else "light")
    window = open_window(qtbot, two, tmp_path / "gold", dark=dark)
    panel = window.unit_panel
    palette = panel.palette()
    seen: dict[str, float] = {}
    block = panel.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            text, char = fragment.text().strip(), fragment.charFormat()
            # What is painted: the fragment's own colours, else the panel's text on its page.
            fg = char.foreground().color() if char.hasProperty(char.Property.ForegroundBrush) else None
            bg = char.background().color() if char.hasProperty(char.Property.BackgroundBrush) else None
            if text:
                seen[text] = contrast(
                    fg or palette.color(QPalette.ColorRole.Text), bg or palette.color(QPalette.ColorRole.Base)
                )
            iterator += 1
        block = block.next()
    # The version's tagged text (in its box) and the key help are among what was checked.
    assert "617-555-0199" in seen or "John Smith" in seen
    assert any("next" in text for text in seen)
    unreadable = {text: round(ratio, 2) for text, ratio in seen.items() if ratio < 4.5}
    assert not unreadable
