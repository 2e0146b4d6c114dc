"""Document locks: one person edits a document at a time, nobody overwrites silently.

A lock is a small JSON file beside the document, ``.NAME.xml.lock``, holding who took it::

    {"user": "alice", "host": "ward-pc", "pid": 4242, "time": "2026-11-22T00:40:00+00:00"}

It is written whole under a private name and then hard-linked to its own, which fails when
the lock exists: of two processes racing for it exactly one wins, and a process killed while
taking it never leaves an empty lock behind (which would refuse every later run until
someone overrode it). Where the file system has no hard links, ``O_CREAT | O_EXCL``.

API
---
``DocumentLock(path, user, host=None)``
    ``acquire(force=False) -> LockInfo`` takes the lock or raises
    :class:`DocumentLockedError` (a :class:`~annotator.errors.LockedError`) naming who holds
    it and since when; its ``holder`` attribute is the holder's :class:`LockInfo`. A stale lock
    (same host, process no longer running) is taken over silently; ``taken_over`` then holds
    the old lock's info so the GUI can say so. ``acquire(force=True)`` is the explicit
    override of a live lock held by someone else (also recorded in ``taken_over``).
    Re-acquiring a lock this object already holds is a no-op; a second ``DocumentLock`` on
    the same file, even in the same process, is refused like any other.
    ``release()`` removes the lock file if it is still ours. ``held`` tells whether we hold it.
    Usable as a context manager (acquire on enter, release on exit).
``read_lock_info(path) -> LockInfo | None``
    Who holds the lock on the document at ``path`` (``None`` when unlocked).
``lock_path(path) -> Path``
    The lock file of a document.
``LockInfo``
    ``user``, ``host``, ``pid``, ``time`` (ISO 8601 UTC), ``is_stale()``, ``describe()``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import json
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from annotator.errors import LockedError, StorageError


def lock_path(path: str | Path) -> Path:
    """The lock file beside a document: ``.NAME.xml.lock`` (beside a folder, for ``.``, its own name)."""
    path = Path(path)
    if not path.name:
        path = path.absolute()  # "." has no name; the folder it stands for has
    return path.with_name(f".{path.name}.lock")


def _this_host() -> str:
    return socket.gethostname() or "localhost"


_DRAFT = ".tmp"


def _remove_abandoned_drafts(lock_file: Path) -> None:
    """Remove lock drafts of processes of this machine that are gone (killed while locking)."""
    with contextlib.suppress(OSError):
        for draft in lock_file.parent.glob(f"{glob.escape(lock_file.name)}.*{_DRAFT}"):
            pid = draft.name[len(lock_file.name) + 1 :].split(".")[0]
            if pid.isdigit() and not _pid_alive(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(draft)


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":
        # os.kill(pid, 0) would send CTRL_C_EVENT on Windows: never guess there, assume alive.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        # The process exists but belongs to another user.
        return True
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class LockInfo:
    """What a lock file says: who, on which machine and process, since when."""

    user: str
    host: str
    pid: int
    time: str
    # Why the lock file could not be read ("" when it could): empty, damaged, a folder...
    problem: str = ""
    # Seconds since the holder last touched the lock file (its heartbeat); not part of who holds it.
    age: float = field(default=0.0, compare=False)

    def is_stale(self, stale_after: float | None = None) -> bool:
        """True when the lock's holder is gone.

        A lock taken on this machine by a process that no longer runs is stale. With
        ``stale_after``, so is any lock whose holder has not touched it (heartbeat) for that
        many seconds, on any machine: this also frees a lock whose process id was reused.
        Otherwise locks from other machines are never presumed stale: we cannot see their
        processes.
        """
        if stale_after is not None and self.age > stale_after:
            return True
        return self.host == _this_host() and not _pid_alive(self.pid)

    def describe(self) -> str:
        """``alice on ward-pc since 2026-11-22 00:40 UTC``, or what is wrong with the file."""
        if self.problem:
            return f"an unreadable lock file ({self.problem})"
        try:
            when = dt.datetime.fromisoformat(self.time).astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        except ValueError:
            when = self.time or "an unknown time"
        return f"{self.user or 'someone'} on {self.host or 'an unknown machine'} since {when}"

    def to_json(self) -> str:
        return json.dumps({"user": self.user, "host": self.host, "pid": self.pid, "time": self.time})


def _unreadable(problem: str, age: float) -> LockInfo:
    # Report it and let the user override it; never guess a holder, never a dead end.
    return LockInfo(user="", host="", pid=0, time="", problem=problem, age=age)


def _parse(data: bytes, age: float) -> LockInfo:
    if not data.strip():
        return _unreadable("empty", age)
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return _unreadable("not UTF-8 text", age)
    except (json.JSONDecodeError, RecursionError):
        raw = None
    if not isinstance(raw, dict):
        return _unreadable("not a lock written by this tool", age)
    pid = raw.get("pid", 0)
    return LockInfo(
        user=str(raw.get("user", "")),
        host=str(raw.get("host", "")),
        pid=pid if isinstance(pid, int) else 0,
        time=str(raw.get("time", "")),
        age=age,
    )


def read_lock_info(path: str | Path) -> LockInfo | None:
    """Who holds the lock on the document at ``path``, or ``None`` when it is free."""
    target = lock_path(path)
    try:
        age = max(0.0, time.time() - target.stat().st_mtime)
        if target.is_dir():
            return _unreadable("a folder is at the lock path", age)
        data = target.read_bytes()[:65536]
    except FileNotFoundError:
        return None
    except OSError as error:
        return _unreadable(f"cannot be read: {error.strerror}", 0.0)
    return _parse(data, age)


class DocumentLockedError(LockedError):
    """A live lock held by someone else; ``holder`` says who (for the GUI's message)."""

    def __init__(self, message: str, path: str | Path | None, holder: LockInfo) -> None:
        super().__init__(message, path)
        self.holder = holder


class DocumentLock:
    """A lock on one document file.

    Parameters
    ----------
    path:
        The document (the lock file goes beside it).
    user:
        The annotator's name, shown to whoever finds the document locked.
    host:
        This machine's name (default: ``socket.gethostname()``).

    Attributes
    ----------
    taken_over:
        After :meth:`acquire`: the previous holder's info if a stale or forced lock was
        replaced, else ``None``.
    """

    def __init__(
        self, path: str | Path, user: str, host: str | None = None, stale_after: float | None = None
    ) -> None:
        self.stale_after = stale_after
        self.path = Path(path)
        self.lock_file = lock_path(self.path)
        self.user = user
        self.host = host or _this_host()
        self.pid = os.getpid()
        self.taken_over: LockInfo | None = None
        self._info: LockInfo | None = None

    @property
    def held(self) -> bool:
        """True while this object holds the lock (and the file still says so)."""
        if self._info is None:
            return False
        current = read_lock_info(self.path)
        return current == self._info

    def heartbeat(self) -> None:
        """Touch the lock file so others see its holder is alive (see ``stale_after``)."""
        if self._info is not None:
            with contextlib.suppress(OSError):
                os.utime(self.lock_file)

    def _new_info(self) -> LockInfo:
        now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
        return LockInfo(user=self.user, host=self.host, pid=self.pid, time=now)

    def _create(self, info: LockInfo) -> bool:
        """Create the lock file, whole, exclusively; False when it already exists."""
        _remove_abandoned_drafts(self.lock_file)
        draft = self.lock_file.with_name(
            f"{self.lock_file.name}.{os.getpid()}.{secrets.token_hex(4)}{_DRAFT}"
        )
        try:
            descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(info.to_json())
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(draft)
            raise StorageError(f"cannot write lock file: {error.strerror}", self.lock_file) from None
        try:
            os.link(draft, self.lock_file)
        except FileExistsError:
            return False
        except OSError:
            return self._create_in_place(info)  # no hard links here (some shares, FAT)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(draft)
        return True

    def _create_in_place(self, info: LockInfo) -> bool:
        try:
            descriptor = os.open(self.lock_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        except OSError as error:
            raise StorageError(f"cannot create lock file: {error.strerror}", self.lock_file) from None
        try:
            # Not fsynced: a lock only matters while its process lives, and one left empty or
            # damaged by a power cut is reported and overridable; opening a record waited for it.
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(info.to_json())
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(self.lock_file)
            raise StorageError(f"cannot write lock file: {error.strerror}", self.lock_file) from None
        return True

    def _remove_if(self, expected: LockInfo) -> None:
        """Delete the lock file if it still holds ``expected`` (someone may have replaced it)."""
        current = read_lock_info(self.path)
        if current == expected:
            try:
                if self.lock_file.is_dir() and not self.lock_file.is_symlink():
                    self.lock_file.rmdir()  # only an empty folder; anything else is reported
                else:
                    os.unlink(self.lock_file)
            except FileNotFoundError:
                pass
            except OSError as error:
                raise StorageError(
                    f"cannot remove the lock file: {error.strerror}; remove it by hand", self.lock_file
                ) from None

    def acquire(self, force: bool = False) -> LockInfo:
        """Take the lock.

        Parameters
        ----------
        force:
            Replace a live lock held by someone else (the explicit override).

        Returns
        -------
        LockInfo
            The lock as written.

        Raises
        ------
        LockedError
            Someone else holds a live lock and ``force`` is False.
        """
        if self.held and self._info is not None:
            return self._info
        self.taken_over = None
        info = self._new_info()
        # A few rounds: between seeing a stale lock and removing it, another process may do
        # the same; the exclusive create still lets exactly one of us win.
        for _ in range(5):
            if self._create(info):
                self._info = info
                return info
            current = read_lock_info(self.path)
            if current is None:
                continue
            if current.is_stale(self.stale_after) or force:
                self.taken_over = current
                self._remove_if(current)
                continue
            raise DocumentLockedError(
                f"document is locked by {current.describe()}; open it read-only, or override the lock"
                if not current.problem
                else f"document has {current.describe()}; override the lock to replace it",
                self.path,
                current,
            )
        raise LockedError("could not take the lock: other processes keep replacing it", self.path)

    def release(self) -> None:
        """Give the lock back (does nothing if someone overrode it meanwhile)."""
        if self._info is None:
            return
        info, self._info = self._info, None
        self._remove_if(info)

    def __enter__(self) -> DocumentLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


__all__ = ["DocumentLock", "DocumentLockedError", "LockInfo", "lock_path", "read_lock_info"]
