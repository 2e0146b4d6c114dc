"""Asks the annotator's name once; it is remembered (see annotator.io.workstate)."""

from __future__ import annotations

import getpass

from PySide6.QtWidgets import QInputDialog, QWidget

from annotator.errors import UsageError
from annotator.io.workstate import load_identity, save_identity


def choose_identity(parent: QWidget | None = None, override: str | None = None, ask: bool = True) -> str:
    """The annotator's name: ``override`` (``--annotator``), the remembered one, or asked for.

    A name given or typed is remembered for next time. Without a display to ask on
    (``ask=False``), the login name is used and not remembered.
    """
    if override:
        save_identity(override)
        return override.strip()
    remembered = load_identity()
    if remembered:
        return remembered
    default = getpass.getuser() or "annotator"
    if not ask:
        return default
    while True:
        name, ok = QInputDialog.getText(
            parent,
            "Who is annotating?",
            "Your annotator name (used for your folder of annotations):",
            text=default,
        )
        if not ok:
            return default
        try:
            save_identity(name)
        except UsageError:
            continue
        return name.strip()
