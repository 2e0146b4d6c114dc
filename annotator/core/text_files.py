"""Reading a small text file of ours (a project file, a decision log) with one-line errors."""

from __future__ import annotations

import stat
from pathlib import Path

from annotator.errors import InputError


def read_utf8(path: Path, what: str) -> str:
    """The text of ``path``, else an :class:`InputError` naming the file and saying it is no
    ``what`` ("a decision log") because of its bytes, or why it cannot be read (a folder,
    permissions, a pipe or device)."""
    try:
        refuse_special_file(path, what)
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start}): not {what}", path) from None
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror or type(error).__name__}", path) from None


def refuse_special_file(path: Path, what: str) -> None:
    """An :class:`InputError` when ``path`` is a pipe, socket or device: opened, a pipe waits
    for a writer forever and ``/dev/zero`` never ends. Checked before opening (a missing
    file or a folder is left to the read, which says so)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputError(f"is a pipe, socket or device, not {what}", path)
