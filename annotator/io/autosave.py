"""Autosave and crash recovery: unsaved edits live in a recovery file beside the document.

The recovery file of ``notes/110-01.xml`` is ``notes/.110-01.xml.autosave``: the whole
document as i2b2 XML, written atomically (temp file + rename), so a crash while autosaving
leaves the previous recovery file intact. The document file itself is only written by an
explicit save.

API
---
``AutosaveStore()``
    ``save_recovery(document, path) -> bool``: write the recovery file for the document
    that is (or will be) saved at ``path``; returns False (and removes any old recovery
    file) when the document equals the file on disk.
    ``has_recovery(path) -> bool``: a recovery file exists, is not older than the document
    and holds a different text or different annotations: offer it after a crash.
    ``load_recovery(path) -> Document``: the recovered document, with ``origin.path`` set to
    the document (so saving writes the document, not the recovery file); it counts as
    modified (``is_pristine()`` is False) because it is not saved yet.
    ``discard_recovery(path)``: remove the recovery file (after saving, or when the user
    declines the recovered version).
    ``recovery_path(path) -> Path``.
``AutosaveScheduler(delay=3.0, max_wait=30.0)``
    Debouncing, pure logic with the clock passed in (the GUI drives it from a QTimer with
    ``time.monotonic()``): ``note_edit(now)`` after each edit, ``due(now)`` is True once
    ``delay`` seconds passed without another edit, or ``max_wait`` seconds after the first
    unsaved edit even if edits keep coming; ``remaining(now)`` gives the seconds left (None
    when nothing is pending); ``saved()`` after writing the recovery file or the document.
"""

from __future__ import annotations

import os
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.errors import InputError, StorageError
from annotator.io.i2b2 import document_to_i2b2, parse_i2b2

RECOVERY_SUFFIX = ".autosave"


def recovery_path(path: str | Path) -> Path:
    """The recovery file beside a document: ``.NAME.xml.autosave``."""
    path = Path(path)
    return path.with_name(f".{path.name}{RECOVERY_SUFFIX}")


def _content(document: Document) -> tuple[object, ...]:
    # Order-free comparison: undo and redo may leave the same tags in another order.
    return (
        document.text,
        tuple(sorted(document.annotations, key=lambda a: (a.start, a.end, a.id, a.tag, a.type))),
        tuple(sorted(document.relations, key=lambda r: r.id)),
        tuple(sorted(document.document_tags, key=lambda t: t.id)),
    )


class AutosaveStore:
    """Reads and writes recovery files (stateless; one instance can serve every document)."""

    def recovery_path(self, path: str | Path) -> Path:
        return recovery_path(path)

    def save_recovery(self, document: Document, path: str | Path) -> bool:
        """Write the recovery file for ``document``, whose own file is ``path``.

        Returns
        -------
        bool
            True when a recovery file was written; False when the document has no unsaved
            change (any old recovery file is then removed).
        """
        if (
            document.is_pristine()
            and document.origin.path is not None
            and Path(document.origin.path) == Path(path)
        ):
            self.discard_recovery(path)
            return False
        atomic_write(recovery_path(path), document_to_i2b2(document))
        return True

    def has_recovery(self, path: str | Path) -> bool:
        """True when a recovery file newer than the document holds something different."""
        path = Path(path)
        recovery = recovery_path(path)
        try:
            recovery_stat = recovery.stat()
        except FileNotFoundError:
            return False
        except OSError as error:
            raise StorageError(f"cannot read recovery file: {error.strerror}", recovery) from None
        try:
            document_stat = path.stat()
        except FileNotFoundError:
            return True
        except OSError as error:
            raise StorageError(f"cannot read: {error.strerror}", path) from None
        if recovery_stat.st_mtime_ns < document_stat.st_mtime_ns:
            return False
        recovered_bytes = recovery.read_bytes()
        document_bytes = path.read_bytes()
        if recovered_bytes == document_bytes:
            return False
        try:
            recovered = parse_i2b2(recovered_bytes, recovery, doc_id=path.stem)
        except InputError:
            # A damaged recovery file is not worth offering (atomic writes make this rare).
            return False
        try:
            saved = parse_i2b2(document_bytes, path)
        except InputError:
            return True
        return _content(recovered) != _content(saved)

    def load_recovery(self, path: str | Path) -> Document:
        """The recovered document, marked modified, to be saved to ``path``."""
        path = Path(path)
        recovery = recovery_path(path)
        try:
            data = recovery.read_bytes()
        except FileNotFoundError:
            raise StorageError("no recovery file for this document", path) from None
        except OSError as error:
            raise StorageError(f"cannot read recovery file: {error.strerror}", recovery) from None
        document = parse_i2b2(data, recovery, doc_id=path.stem)
        document.origin.path = path
        # Not saved yet: the document file still holds the old version.
        document.origin.raw = None
        document.origin.fingerprint = None
        return document

    def discard_recovery(self, path: str | Path) -> None:
        """Remove the recovery file, if any."""
        recovery = recovery_path(path)
        try:
            os.unlink(recovery)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise StorageError(f"cannot remove recovery file: {error.strerror}", recovery) from None


class AutosaveScheduler:
    """When to autosave: a few seconds after the last edit, and at least every ``max_wait``.

    Parameters
    ----------
    delay:
        Quiet seconds after an edit before autosaving.
    max_wait:
        Autosave at the latest this many seconds after the first unsaved edit, so that
        continuous typing is still saved.
    """

    def __init__(self, delay: float = 3.0, max_wait: float = 30.0) -> None:
        if delay < 0 or max_wait < delay:
            raise ValueError("need 0 <= delay <= max_wait")
        self.delay = delay
        self.max_wait = max_wait
        self._first_edit: float | None = None
        self._last_edit: float | None = None

    @property
    def pending(self) -> bool:
        """True when there are edits not yet autosaved."""
        return self._last_edit is not None

    def note_edit(self, now: float) -> None:
        if self._first_edit is None:
            self._first_edit = now
        self._last_edit = now

    def remaining(self, now: float) -> float | None:
        """Seconds until an autosave is due (0 when due; None when nothing is pending)."""
        if self._first_edit is None or self._last_edit is None:
            return None
        deadline = min(self._last_edit + self.delay, self._first_edit + self.max_wait)
        return max(0.0, deadline - now)

    def due(self, now: float) -> bool:
        remaining = self.remaining(now)
        return remaining is not None and remaining <= 0.0

    def saved(self) -> None:
        """Edits are safe (autosaved or saved): nothing pending."""
        self._first_edit = None
        self._last_edit = None
