"""Writing files so that a crash never leaves half a file: temp file, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from annotator.errors import StorageError


def atomic_write(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically.

    The bytes go to a temporary file in the same folder, are flushed to disk, and the
    temporary file is renamed over the target, so readers see the old file or the new one,
    never a mix. The target's permission bits are kept.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o7777 if path.exists() else None
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise StorageError(f"cannot write: {error.strerror}", path) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise StorageError(f"cannot write: {error.strerror}", path) from None
    pending = _deferred_folders.get()
    if pending is None:
        fsync_folder(folder)
    else:
        pending.add(folder)


# Folders whose renames are made durable together, on leaving folder_syncs_deferred().
_deferred_folders: ContextVar[set[Path] | None] = ContextVar("deferred_folder_syncs", default=None)


@contextlib.contextmanager
def folder_syncs_deferred() -> Iterator[None]:
    """Within, each folder written to is synced once when the block ends well, not after
    every file: importing 60,000 notes synced the same staging folder 60,000 times (a fifth
    of the import). Each file's bytes are still synced before its rename. For writes into a
    staging folder that is published only after the block; a block that fails syncs nothing
    (its staging is thrown away)."""
    if _deferred_folders.get() is not None:
        yield
        return
    folders: set[Path] = set()
    token = _deferred_folders.set(folders)
    try:
        yield
    finally:
        _deferred_folders.reset(token)
    for folder in sorted(folders):
        fsync_folder(folder)


def fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable; not possible on every platform, hence best effort.
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write(path, text.encode("utf-8"))
