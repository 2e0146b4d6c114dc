"""Opening the adjudication window: who adjudicates, the theme, and screenshot mode."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from annotator.adjudication.corpus import prepare_corpus
from annotator.adjudication.decisions import AutoAccept
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.gui.identity_dialog import choose_identity
from annotator.gui.screenshot import write_screenshot
from annotator.gui.theme import ThemeName, apply_theme


def build_adjudication_window(
    version_dirs: list[Path],
    output_dir: Path,
    adjudicator: str | None = None,
    *,
    auto: AutoAccept | str = AutoAccept.UNANIMOUS,
    theme: ThemeName = "auto",
    ask: bool = True,
) -> AdjudicationWindow:
    """The adjudication window (not shown), for ``adjudicator`` (``--annotator``), else the
    remembered name, else the name asked for (the login name only when nothing can be asked)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    dark = apply_theme(app, theme)
    name = choose_identity(None, adjudicator, ask=ask)
    return AdjudicationWindow(
        prepare_corpus(version_dirs, output_dir), adjudicator=name, auto=auto, dark=dark
    )


def launch_adjudication(
    version_dirs: list[Path],
    output_dir: Path,
    screenshot: Path | None = None,
    document_id: str | None = None,
    *,
    adjudicator: str | None = None,
    auto: AutoAccept | str = AutoAccept.UNANIMOUS,
    size: tuple[int, int] | None = None,
    side_by_side: bool = False,
    theme: ThemeName = "auto",
) -> int:
    """Open the adjudication window on annotator folders (gold written to ``output_dir``).

    With ``screenshot``, render the window to that PNG and return 0 without running the
    event loop. The adjudicator is ``adjudicator`` (``--annotator``), else the remembered
    name, else asked for (the login name only when nothing can be asked).
    """
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    window = build_adjudication_window(
        version_dirs, output_dir, adjudicator, auto=auto, theme=theme, ask=screenshot is None
    )
    if document_id is not None:
        window.open_document(document_id)
    if side_by_side:
        window.set_side_by_side(True)
    if screenshot is not None:
        try:
            write_screenshot(window, Path(screenshot), size)
        finally:
            window.close()
        return 0
    if size is not None:
        window.resize(*size)
    window.show()
    window.note_view.setFocus()
    return int(app.exec())
