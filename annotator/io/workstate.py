"""Per-project work state (document status, working time) and the annotator's identity.

The state lives in ``<project>/.annotator/state.json``::

    {"version": 1,
     "documents": {"110-01": {"alice": {"status": "done", "seconds": 512.4}}},
     "last": {"alice": "110-01"}}

``last`` is the document each annotator had open last: the window reopens there.

It is written atomically. Saving merges with what is on disk, so two annotators working on
one shared project do not erase each other's entries: statuses this process set replace
the stored ones, seconds this process added are added to the stored ones.

API
---
``WorkState.load(project) -> WorkState``
    ``project`` is a :class:`~annotator.core.project.Project` or its folder. A missing file
    is an empty state; a corrupt one raises :class:`~annotator.errors.InputError` naming the
    file (it is never silently reset).
``.status(doc_id, annotator) -> str``: ``"not started"``, ``"in progress"`` or ``"done"``.
``.set_status(doc_id, annotator, status)``
``.add_seconds(doc_id, annotator, seconds)`` / ``.seconds(doc_id, annotator) -> float``
``.statuses(annotator) -> dict[str, str]``: every document with a recorded status.
``.last_document(annotator) -> str | None`` / ``.set_last_document(annotator, doc_id)``
``effective_status(recorded, has_own_copy) -> str``
    The status everything shows: the recorded one, except that a document the annotator
    has a working copy of is at least *in progress* (copies made outside the window, by
    ``annotator synth`` or by hand, are work too).
``.save()``
``load_identity() -> str | None`` / ``save_identity(name)``
    The annotator's name, chosen once, kept in ``$XDG_CONFIG_HOME/phi-annotator/identity.json``
    (``~/.config`` when the variable is unset).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

from annotator.core.atomic import atomic_write_text
from annotator.core.file_names import file_name_problem, shown_name
from annotator.core.project import STATE_DIR, Project
from annotator.core.text_files import refuse_special_file
from annotator.errors import InputError, UsageError

NOT_STARTED: Final = "not started"
IN_PROGRESS: Final = "in progress"
DONE: Final = "done"
STATUSES: Final = (NOT_STARTED, IN_PROGRESS, DONE)
STATE_FILE: Final = "state.json"
CONFIG_FOLDER: Final = "phi-annotator"
IDENTITY_FILE: Final = "identity.json"

Entries = dict[str, dict[str, dict[str, object]]]

# A century: more is no time an annotator spent (json reads 1e999 as infinity).
_MAX_SECONDS = 100 * 365.25 * 24 * 3600


def state_path(project: Project | str | Path) -> Path:
    root = project.root if isinstance(project, Project) else Path(project)
    return root / STATE_DIR / STATE_FILE


def _read_state(path: Path) -> Entries:
    return _read_full(path)[0]


def _read_full(path: Path) -> tuple[Entries, dict[str, str]]:
    """The documents' entries and the last document per annotator."""
    try:
        refuse_special_file(path, "a work state file")
        data = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, {}
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the work state: {error}", path) from None
    try:
        raw = json.loads(data)
    except json.JSONDecodeError as error:
        raise InputError(
            f"work state is not valid JSON (line {error.lineno}); fix or move the file away", path
        ) from None
    except RecursionError:
        raise InputError(
            "work state is not valid JSON (nested too deeply); fix or move the file away", path
        ) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("documents", {}), dict):
        raise InputError("work state has an unexpected structure; fix or move the file away", path)
    documents: Entries = {}
    for doc_id, by_annotator in raw.get("documents", {}).items():
        if not isinstance(by_annotator, dict):
            raise InputError(f"work state entry for document {doc_id} is not an object", path)
        for annotator, entry in by_annotator.items():
            if not isinstance(entry, dict):
                raise InputError(f"work state entry for {doc_id}/{annotator} is not an object", path)
            status = entry.get("status", NOT_STARTED)
            seconds = entry.get("seconds", 0.0)
            if status not in STATUSES:
                raise InputError(f"work state: unknown status {status!r} for {doc_id}/{annotator}", path)
            # NaN and infinity pass "< 0" and broke the window's time column.
            if (
                not isinstance(seconds, int | float)
                or isinstance(seconds, bool)
                or not 0 <= seconds < _MAX_SECONDS
            ):
                raise InputError(f"work state: bad seconds for {doc_id}/{annotator}", path)
            documents.setdefault(doc_id, {})[annotator] = {"status": status, "seconds": float(seconds)}
    last = raw.get("last", {})
    # Only a convenience: entries that are not names of documents are dropped, not refused.
    kept = {str(k): v for k, v in last.items() if isinstance(v, str)} if isinstance(last, dict) else {}
    return documents, kept


def effective_status(recorded: str, has_own_copy: bool) -> str:
    """The status a document has for an annotator: recorded, or in progress once they have a copy.

    One rule for the document list, the Model menu's "not started" and the dashboard.
    """
    return IN_PROGRESS if recorded == NOT_STARTED and has_own_copy else recorded


class WorkState:
    """Document status and working time per annotator, for one project.

    Parameters
    ----------
    path:
        The state file (use :meth:`load` to read one).
    """

    def __init__(
        self, path: Path, documents: Entries | None = None, last: dict[str, str] | None = None
    ) -> None:
        self.path = path
        self._documents: Entries = documents or {}
        self._last: dict[str, str] = last or {}
        self._set_statuses: dict[tuple[str, str], str] = {}
        self._added_seconds: dict[tuple[str, str], float] = {}
        self._set_last: dict[str, str] = {}

    @classmethod
    def load(cls, project: Project | str | Path) -> WorkState:
        """Read the project's state (empty when there is none yet)."""
        path = state_path(project)
        return cls(path, *_read_full(path))

    def last_document(self, annotator: str) -> str | None:
        """The document the annotator had open last (None when not known)."""
        return self._last.get(annotator)

    def set_last_document(self, annotator: str, doc_id: str) -> None:
        if self._last.get(annotator) != doc_id:
            self._last[annotator] = doc_id
            self._set_last[annotator] = doc_id

    def _entry(self, doc_id: str, annotator: str) -> dict[str, object]:
        return self._documents.get(doc_id, {}).get(annotator, {})

    def status(self, doc_id: str, annotator: str) -> str:
        return str(self._entry(doc_id, annotator).get("status", NOT_STARTED))

    def set_status(self, doc_id: str, annotator: str, status: str) -> None:
        if status not in STATUSES:
            raise UsageError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")
        entry = self._documents.setdefault(doc_id, {}).setdefault(
            annotator, {"status": NOT_STARTED, "seconds": 0.0}
        )
        entry["status"] = status
        self._set_statuses[(doc_id, annotator)] = status

    def seconds(self, doc_id: str, annotator: str) -> float:
        value = self._entry(doc_id, annotator).get("seconds", 0.0)
        return float(value) if isinstance(value, int | float) else 0.0

    def add_seconds(self, doc_id: str, annotator: str, seconds: float) -> None:
        if seconds < 0:
            raise UsageError(f"cannot add negative working time to document {doc_id}")
        if seconds == 0:
            return
        entry = self._documents.setdefault(doc_id, {}).setdefault(
            annotator, {"status": NOT_STARTED, "seconds": 0.0}
        )
        entry["seconds"] = self.seconds(doc_id, annotator) + seconds
        key = (doc_id, annotator)
        self._added_seconds[key] = self._added_seconds.get(key, 0.0) + seconds

    def statuses(self, annotator: str) -> dict[str, str]:
        """Recorded statuses of one annotator, by document id."""
        return {
            doc_id: str(by_annotator[annotator]["status"])
            for doc_id, by_annotator in self._documents.items()
            if annotator in by_annotator
        }

    def total_seconds(self, annotator: str | None = None) -> float:
        """Working time over all documents (of one annotator, or everyone)."""
        return sum(
            self.seconds(doc_id, name)
            for doc_id, by_annotator in self._documents.items()
            for name in by_annotator
            if annotator is None or name == annotator
        )

    def save(self) -> None:
        """Write the state atomically, merged with any changes another process saved."""
        merged, last = _read_full(self.path)
        last.update(self._set_last)
        for (doc_id, annotator), status in self._set_statuses.items():
            entry = merged.setdefault(doc_id, {}).setdefault(
                annotator, {"status": NOT_STARTED, "seconds": 0.0}
            )
            entry["status"] = status
        for (doc_id, annotator), seconds in self._added_seconds.items():
            entry = merged.setdefault(doc_id, {}).setdefault(
                annotator, {"status": NOT_STARTED, "seconds": 0.0}
            )
            stored = entry.get("seconds", 0.0)
            entry["seconds"] = (float(stored) if isinstance(stored, int | float) else 0.0) + seconds
        payload: dict[str, object] = {"version": 1, "documents": merged}
        if last:
            payload["last"] = last
        atomic_write_text(self.path, json.dumps(payload, indent=1, sort_keys=True) + "\n")
        self._documents, self._last = merged, last
        self._set_statuses.clear()
        self._added_seconds.clear()
        self._set_last.clear()


# -- identity ------------------------------------------------------------------------------


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/phi-annotator`` (``~/.config/phi-annotator`` by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / CONFIG_FOLDER


def identity_path() -> Path:
    return config_dir() / IDENTITY_FILE


def check_annotator_name(name: str) -> str:
    """The name stripped; a UsageError when it cannot be a folder (annotations/<name>/)."""
    cleaned = name.strip()
    if not cleaned:
        raise UsageError("the annotator name must not be empty")
    # The name becomes a folder (annotations/<name>/): the rules of a document's file name.
    problem = file_name_problem(cleaned)
    if problem is not None:
        raise UsageError(f"the annotator name {cleaned!r} cannot be used as a folder name: {problem}")
    return cleaned


def load_identity() -> str | None:
    """The remembered annotator name, or ``None`` when none was chosen yet."""
    path = identity_path()
    try:
        refuse_special_file(path, "an identity file")
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except OSError as error:  # its strerror alone: the message names the file once
        raise InputError(f"cannot read the annotator identity: {error.strerror or error}", path) from None
    except ValueError as error:  # bad UTF-8, bad JSON, an integer of more than 4,300 digits
        raise InputError(f"cannot read the annotator identity: {error}", path) from None
    except RecursionError:
        raise InputError("cannot read the annotator identity: JSON nested too deeply", path) from None
    name = raw.get("annotator") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise InputError("the identity file has no annotator name", path)
    # The same rule as --annotator: the name becomes annotations/<name>/, so a remembered
    # "../x" or "/abs" would write outside the project. Refused, not replaced by the login
    # name: work would silently go to someone else's folder.
    problem = file_name_problem(name.strip())
    if problem is not None:
        raise InputError(
            f"the remembered annotator name {shown_name(name.strip())} cannot be used as a folder "
            f"name: {problem}; give --annotator NAME or fix the file",
            path,
        )
    return name.strip()


def save_identity(name: str) -> None:
    """Remember the annotator name for this user (atomic write)."""
    cleaned = check_annotator_name(name)
    atomic_write_text(identity_path(), json.dumps({"annotator": cleaned}) + "\n")
