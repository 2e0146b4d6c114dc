"""What a workflow tells its caller besides the result: typed notes and the callbacks.

A note has a :class:`NoteKind` and the facts (a document id, a count, a path); the faces
decide how to show it (:meth:`Note.message` is the CLI's and the GUI's wording), and code
that reacts to a note branches on its ``kind``, never on its text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from annotator.errors import AnnotatorError, printable_path

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


class WorkflowCancelled(AnnotatorError):
    """The user cancelled the job; nothing was written."""


def check_cancel(cancelled: Cancelled | None, what: str = "job") -> None:
    if cancelled is not None and cancelled():
        raise WorkflowCancelled(f"{what} cancelled; nothing was written")


class NoteKind(Enum):
    """Every kind of note a workflow gives."""

    #: a document pair was not scored: reference and predicted TEXT differ (``subject``: doc id)
    TEXT_DIFFERS = "text-differs"
    #: ``count`` reference documents have no predicted file (counted as missed)
    ONLY_REFERENCE = "only-reference"
    #: ``count`` predicted documents have no reference file (counted as spurious)
    ONLY_PREDICTED = "only-predicted"
    #: annotator ``subject`` has no copy of ``count`` gold documents (left out of their score)
    NOT_ANNOTATED = "not-annotated"
    #: system ``subject`` has no file for ``count`` gold documents (left out for both systems)
    NOT_IN_BOTH_SYSTEMS = "not-in-both-systems"
    #: a document is missing from some versions (``subject``: doc id, ``detail``: the versions)
    MISSING_VERSION = "missing-version"
    #: ``count`` documents (``subject``: their ids) are missing from the folders ``detail`` but
    #: adjudicated from the two or more versions they have
    FEWER_VERSIONS = "fewer-versions"
    #: ``count`` logged decisions of document ``subject`` were made on versions an annotator has
    #: changed since (``detail``: their units), so they were not replayed
    VERSIONS_CHANGED = "versions-changed"
    #: ``count`` links of the versions of document ``subject`` are not in its gold
    LINKS_LEFT_OUT = "links-left-out"
    #: a reader's warning about an input file (``detail``: its one-line text, no note text)
    INPUT_WARNING = "input-warning"
    #: a file's offsets are wrong but other errors keep it from being realigned
    NOT_REALIGNED = "not-realigned"
    #: ``count`` gold annotations have types the schema lacks (``detail``: the schema)
    UNKNOWN_TYPES_SKIPPED = "unknown-types-skipped"
    #: an ``--exclude`` item matches no annotation of any input (``detail``: the item)
    EXCLUDE_MATCHES_NOTHING = "exclude-matches-nothing"


@dataclass(frozen=True)
class Note:
    """One typed note.

    Attributes
    ----------
    kind:
        What happened.
    subject:
        The document id or path it concerns ("" for the whole job).
    count:
        How many, where the kind counts something.
    detail:
        A further fact (a version list, a schema name, a reader's warning).
    """

    kind: NoteKind
    subject: str = ""
    count: int = 0
    detail: str = ""

    def message(self) -> str:
        """The note as one line for people (never note text; ids and paths escaped)."""
        return _MESSAGES[self.kind].format(
            subject=printable_path(self.subject), count=self.count, detail=printable_path(self.detail)
        )


_MESSAGES = {
    NoteKind.TEXT_DIFFERS: "{subject}: reference and predicted TEXT differ",
    NoteKind.ONLY_REFERENCE: "{count} gold document(s) have no system file (counted as missed)",
    NoteKind.ONLY_PREDICTED: "{count} system document(s) have no gold file (counted as spurious)",
    NoteKind.NOT_ANNOTATED: "{subject} has no copy of {count} gold document(s): scored against gold on the rest",
    NoteKind.NOT_IN_BOTH_SYSTEMS: "{subject} has no file for {count} gold document(s): left out for both "
    "systems, which are compared on the same documents",
    NoteKind.MISSING_VERSION: "document {subject} is missing from {detail}; skipped",
    NoteKind.FEWER_VERSIONS: "{count} document(s) missing from {detail}, adjudicated from the versions they "
    "have: {subject}",
    NoteKind.VERSIONS_CHANGED: "document {subject}: the versions changed since {count} decision(s) were made "
    "({detail}); those units are open again",
    NoteKind.LINKS_LEFT_OUT: "document {subject}: {count} link(s) of the versions are not in the gold (the "
    "versions do not all hold them, or a tag they name was left out)",
    NoteKind.INPUT_WARNING: "{detail}",
    NoteKind.NOT_REALIGNED: "{subject}: not realigned: fix the other errors of this file first",
    NoteKind.UNKNOWN_TYPES_SKIPPED: "skipped {count} annotations whose type is not in schema {detail}",
    NoteKind.EXCLUDE_MATCHES_NOTHING: "excluded type {detail} matches no annotation (a typo?); nothing was excluded for it",
}
