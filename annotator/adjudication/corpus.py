"""Adjudicating a whole corpus: load the folders, align, add candidates, auto-merge, save."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.adjudication.consistency import Scope, missed_candidates
from annotator.adjudication.decisions import (
    AdjudicationSession,
    AutoAccept,
    log_is_finalised,
    log_path,
    read_log,
)
from annotator.adjudication.units import Alignment, add_candidates, align_documents
from annotator.adjudication.versions import VersionSet, load_versions
from annotator.core.document import Document
from annotator.errors import InputError
from annotator.io.corpus import list_document_files
from annotator.io.i2b2 import read_i2b2
from annotator.io.journal import JournalWriter

Progress = Callable[[int, int], None]


@dataclass
class PreparedCorpus:
    """Every document's alignment, ready for sessions.

    Attributes
    ----------
    versions: the paired folders (with documents missing from some folder).
    alignments: document id -> alignment (with missed candidates when asked for).
    gold_dir: where the gold files and decision logs go.
    """

    versions: VersionSet
    alignments: dict[str, Alignment]
    gold_dir: Path

    @property
    def doc_ids(self) -> list[str]:
        return sorted(self.alignments)

    def existing_log(self, doc_id: str) -> list[dict[str, object]]:
        return read_log(log_path(self.gold_dir, doc_id))

    def is_finalised(self, doc_id: str) -> bool:
        return log_is_finalised(self.existing_log(doc_id))

    def has_foreign_gold(self, doc_id: str) -> bool:
        """True when a gold file exists that no adjudication session wrote (no decision log):
        it may hold hand-made work, so it is never overwritten without ``force``."""
        return (self.gold_dir / f"{doc_id}.xml").exists() and not log_path(self.gold_dir, doc_id).exists()

    def open_session(
        self,
        doc_id: str,
        adjudicator: str = "adjudicator",
        auto: AutoAccept | str = AutoAccept.UNANIMOUS,
        resume: bool = True,
        journal: JournalWriter | None = None,
    ) -> AdjudicationSession:
        """A session for one document, replaying its decision log when ``resume``; with a
        ``journal`` writer, each decision is appended to the log on disk as it is made."""
        log = self.existing_log(doc_id) if resume else []
        alignment = self.alignments[doc_id]
        # A document some annotator lacks: its versions keep the keys of their folders.
        keys = [self.versions.names.index(name) + 1 for name in alignment.names]
        session = AdjudicationSession(alignment, adjudicator, auto, log, key_numbers=keys)
        # A gold file no session wrote is never overwritten, so its decisions are not logged
        # either (a log beside it would make it look like ours).
        if journal is not None and not self.has_foreign_gold(doc_id):
            session.journal_to(journal, log_path(self.gold_dir, doc_id))
        return session


def _read_suggestions(folder: Path, doc_ids: Sequence[str]) -> dict[str, Document]:
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    wanted = set(doc_ids)
    return {p.stem: read_i2b2(p) for p in list_document_files(folder) if p.stem in wanted}


def prepare_corpus(
    folders: Sequence[str | Path],
    gold_dir: str | Path,
    *,
    candidates: bool = True,
    scope: Scope = "patient",
    suggestions_dir: str | Path | None = None,
    progress: Progress | None = None,
) -> PreparedCorpus:
    """Read, pair and align every document of the annotator folders.

    Parameters
    ----------
    folders:
        Two or more annotator folders (file names pair the versions).
    gold_dir:
        The gold folder (existing decision logs there are resumed by sessions).
    candidates:
        Add missed-PHI candidate units (text annotated elsewhere in ``scope``).
    suggestions_dir:
        A folder of pre-annotated files whose tags no version kept become candidates too.
    """
    versions = load_versions(folders, progress=progress)
    alignments = {
        doc_id: align_documents(documents, versions.names_of(doc_id))
        for doc_id, documents in versions.documents.items()
    }
    if candidates:
        suggestions = _read_suggestions(Path(suggestions_dir), list(alignments)) if suggestions_dir else None
        found = missed_candidates(list(alignments.values()), scope=scope, suggestions=suggestions)
        for doc_id, units in found.items():
            add_candidates(alignments[doc_id], units)
    return PreparedCorpus(versions, alignments, Path(gold_dir))


@dataclass
class DocumentReport:
    """What the automatic pass left for one document (offsets only, no text)."""

    doc_id: str
    status: str  # "written", "finalised" or "existing" (both kept untouched)
    units: int
    resolved: int
    unresolved: dict[str, int] = field(default_factory=dict)
    unresolved_units: list[dict[str, object]] = field(default_factory=list)
    #: units whose logged decision was left out: an annotator changed their version since
    stale: list[str] = field(default_factory=list)
    #: links of the versions the written gold does not hold (they disagree, or name a tag left out)
    links_left_out: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "doc_id": self.doc_id,
            "status": self.status,
            "units": self.units,
            "resolved": self.resolved,
            "unresolved": self.unresolved,
            "unresolved_units": self.unresolved_units,
            "links_left_out": self.links_left_out,
            "stale_units": list(self.stale),
        }


@dataclass
class AdjudicationReport:
    versions: list[str]
    gold_dir: Path
    documents: list[DocumentReport]
    missing: dict[str, list[str]]

    def to_dict(self) -> dict[str, object]:
        return {
            "versions": self.versions,
            "gold_dir": str(self.gold_dir),
            "documents": [d.to_dict() for d in self.documents],
            "missing": self.missing,
            "totals": {
                "documents": len(self.documents),
                "units": sum(d.units for d in self.documents),
                "resolved": sum(d.resolved for d in self.documents),
                "unresolved": sum(d.units - d.resolved for d in self.documents),
                # Some folder lacks them: skipped (one version), or adjudicated from the others.
                "missing_documents": len(self.missing.keys() - {d.doc_id for d in self.documents}),
                "documents_with_fewer_versions": len(
                    self.missing.keys() & {d.doc_id for d in self.documents}
                ),
            },
        }


def session_report(session: AdjudicationSession, status: str = "written") -> DocumentReport:
    pending = session.unresolved()
    counts: dict[str, int] = {}
    for unit in pending:
        counts[unit.kind.value] = counts.get(unit.kind.value, 0) + 1
    resolved, total = session.progress()
    return DocumentReport(
        doc_id=session.doc_id,
        status=status,
        units=total,
        resolved=resolved,
        unresolved=counts,
        unresolved_units=[
            {"id": u.id, "kind": u.kind.value, "start": u.start, "end": u.end} for u in pending
        ],
        stale=list(session.stale),
        links_left_out=session.links_left_out,
    )


def adjudicate_corpus(
    prepared: PreparedCorpus,
    *,
    adjudicator: str = "adjudicator",
    auto: AutoAccept | str = AutoAccept.UNANIMOUS,
    force: bool = False,
    progress: Progress | None = None,
    stage: Callable[[Path], Path] | None = None,
) -> AdjudicationReport:
    """Auto-merge every document and write its gold file and decision log.

    A document whose decision log says it was finalised, or whose gold file was not written
    by an adjudication session (no decision log beside it), is left untouched unless
    ``force``; then it is adjudicated afresh (its old log replaced). Other documents resume
    their log. ``stage`` maps the gold folder to where files are written for now (the
    caller publishes them together, see annotator.io.publish).
    """
    target = stage(prepared.gold_dir) if stage is not None else prepared.gold_dir
    reports = []
    doc_ids = prepared.doc_ids
    for number, doc_id in enumerate(doc_ids, 1):
        finalised = prepared.is_finalised(doc_id)
        foreign = prepared.has_foreign_gold(doc_id)
        if (finalised or foreign) and not force:
            session = prepared.open_session(doc_id, adjudicator, auto)
            reports.append(session_report(session, "finalised" if finalised else "existing"))
        else:
            session = prepared.open_session(doc_id, adjudicator, auto, resume=not finalised)
            session.save(target)
            reports.append(session_report(session))
        if progress is not None:
            progress(number, len(doc_ids))
    return AdjudicationReport(prepared.versions.names, prepared.gold_dir, reports, prepared.versions.missing)
