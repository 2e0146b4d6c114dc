"""The documents an annotator works on, and how they are opened, locked, saved and recovered.

Qt-free (the window asks the questions, this module does the file work), so the never-lose-
work rules are tested without widgets:

* a project's working copy of a document is ``annotations/<annotator>/<doc>.xml``; it is
  created on first open from ``preannotations/<doc>.xml`` (pending model suggestions) when
  present, else from ``source/<doc>.xml``;
* a plain folder of XML files, or a single XML file, is edited in place; so is a brat folder
  (``NAME.txt`` + ``NAME.ann``, the ``.ann`` created on first save) or one brat document;
* the working copy is locked while open (:class:`~annotator.io.locking.DocumentLock`);
  someone else's live lock opens the document read-only until an explicit override;
* unsaved edits are written to a recovery file a few seconds after each edit
  (:class:`~annotator.io.autosave.AutosaveStore`), offered again after a crash;
* unsaved edits made over another text of the note than its file holds now (the file changed
  between the crash and the recovery) are never applied to it: their journal or recovery file
  is set aside (``….stale-DATE``) and the session says so;
* saving writes the i2b2 file atomically and removes the recovery file.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.brat_conf import CONF_NAME
from annotator.core.document import Document, split_record_name
from annotator.core.project import PROJECT_FILE, Project
from annotator.core.schema import DEFAULT_SCHEMA, Schema, load_schema
from annotator.core.span import offsets_problem
from annotator.core.task import is_task_file
from annotator.errors import AnnotatorError, InputError, LockedError, OffsetError, SchemaError, StorageError
from annotator.io.autosave import AutosaveStore, recovery_path
from annotator.io.brat import brat_paths, read_brat, write_brat
from annotator.io.corpus import list_document_files, no_documents
from annotator.io.edit_history import history_path, start_entry, timed
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.journal import (
    JournalWriter,
    added,
    document_tag_changed,
    journal_path,
    over_text,
    read_journal,
    relation_changed,
    removed,
    replaced,
    replay,
    text_digest,
    written_over_other_text,
)
from annotator.io.locking import DocumentLock, read_lock_info
from annotator.io.task_files import find_task

_ELEMENT = re.compile(rb"<[A-Za-z_]")
# brat lines that are annotations: text-bound, relations, events, normalizations, equivalences.
_BRAT_TAG = re.compile(rb"(?m)^(?:[TREN]\d+|\*)\t")
_PENDING_COUNT = re.compile(rb"\bpending=\"(?:yes|true|1)\"")


@dataclass
class DocumentEntry:
    """One document of the workspace (nothing read yet).

    Attributes
    ----------
    doc_id: file stem, ``PPP-RR``.
    patient_id, record: from the file name.
    source_path: the note as distributed (``source/``, or the file itself).
    working_path: where this annotator's version is saved.
    preannotation_path: model suggestions, if the project has them.
    """

    doc_id: str
    patient_id: str
    record: int
    source_path: Path
    working_path: Path
    preannotation_path: Path | None = None


LOCK_STALE_AFTER = 600.0
HEARTBEAT_SECONDS = 60.0


@dataclass
class OpenState:
    """What the window needs to know before showing a document."""

    read_only: bool = False
    lock_holder: str = ""
    recovery_available: bool = False
    # Who held the stale lock this open took over ("" when none was taken over).
    taken_over: str = ""


BRAT_SUFFIXES = (".txt", ".ann")


def is_brat_path(path: Path) -> bool:
    return path.suffix.lower() in BRAT_SUFFIXES


def read_checked(path: Path, schema: Schema | None = None) -> Document:
    """Read an i2b2 (or MAE) file or a brat document; refuse offsets outside the text.

    The reader leaves offset checks to ``annotator validate``; the window cannot highlight
    a tag that lies outside the note, so such a file is refused with the tag named. ``schema``
    gives a brat label its category.
    """
    document = read_brat(path, schema) if is_brat_path(path) else read_i2b2(path)
    length = len(document.text)
    for annotation in document.annotations:
        problem = offsets_problem(annotation.start, annotation.end, length)
        if problem is not None:
            raise OffsetError(
                f"tag {annotation.id} has {problem}; check the file with 'annotator validate'", path
            )
    return document


def write_document(document: Document, path: Path, schema: Schema | None = None) -> None:
    """Save a working copy in its own format: brat for a ``.ann`` (``schema`` gives each label
    its category), else i2b2 (or MAE: ``schema`` gives a new tag the task's attributes)."""
    if is_brat_path(path):
        write_brat(document, path, schema)
    else:
        write_i2b2(document, path, schema=schema)


def quick_counts(path: Path) -> tuple[int, int]:
    """``(annotations, pending)`` of a file without parsing it (for the document list)."""
    try:
        data = path.read_bytes()
    except OSError:
        return 0, 0
    if is_brat_path(path):
        return (len(_BRAT_TAG.findall(data)) if path.suffix.lower() == ".ann" else 0), 0
    tags = data.rfind(b"<TAGS")
    if tags < 0:
        return 0, 0
    end = data.find(b"</TAGS", tags)
    section = data[tags : end if end >= 0 else len(data)]
    # Every element inside TAGS (extent tags, links, document-level tags), not TAGS itself.
    return max(0, len(_ELEMENT.findall(section)) - 1), len(_PENDING_COUNT.findall(section))


def tag_count(document: Document) -> int:
    """How many tags a document holds as its file counts them: a tag in several pieces once,
    links and document-level tags too (what :func:`quick_counts` finds in the file)."""
    pieces = sum(1 for a in document.annotations if a.fragment_of and a.fragment_of in document)
    return len(document) - pieces + len(document.relations) + len(document.document_tags)


class Workspace:
    """The open project, folder or file, for one annotator.

    Parameters
    ----------
    project:
        The project (a plain folder is a project with ``plain_folder`` set).
    annotator:
        Whose working copies are edited.
    entries:
        The documents, ordered by patient then record.
    """

    def __init__(self, project: Project, annotator: str, entries: list[DocumentEntry]) -> None:
        self.project = project
        self.annotator = annotator
        self.entries = entries
        self._by_id = {e.doc_id: e for e in entries}
        self.documents: dict[str, Document] = {}
        self.locks: dict[str, DocumentLock] = {}
        self.read_only: set[str] = set()
        self.autosave = AutosaveStore()
        self.single_file = False
        # A look that changes nothing on disk (screenshots): no working copy made, the
        # annotator not added to project.toml.
        self.looking_only = False
        # Reading a long record takes ~100 ms, so the neighbours of the open document are
        # read ahead in a background thread (see prefetch).
        self._executor: ThreadPoolExecutor | None = None
        self._prefetched: dict[str, tuple[Future[Document], Path, tuple[int, int]]] = {}
        self._touched: set[str] = set()
        # Pending suggestions per loaded document, kept up to date by its signals: the
        # document list and status bar ask after every edit, and counting 5,000 tags is not free.
        self._pending: dict[str, int] = {}
        self.unreadable: set[str] = set()
        # Every edit goes to the document's write-ahead journal (fsynced off this thread).
        self.journal = JournalWriter()
        self.recovered_edits: dict[str, int] = {}
        # Journals and recovery files of an earlier session set aside unapplied because the
        # note's text changed since (taken by the session, which tells the user).
        self.stale_edits_kept: dict[str, list[Path]] = {}
        # Why each document of the last save_all() could not be saved (one line each).
        self.save_errors: dict[str, str] = {}
        self._schema: Schema | None = None
        # A document lock whose holder has not touched it for this long is stale (a crashed
        # session on another machine, or a reused process id); ours are touched every
        # HEARTBEAT_SECONDS while open.
        self.lock_stale_after = LOCK_STALE_AFTER
        # Stamps the kept edit history (seconds since 1970; replaced in tests).
        self.wall_clock: Callable[[], float] = time.time
        # Each loaded document's working copy as it was on disk when read or last saved
        # (None: no file): another annotator's sync or a git pull changes it under us.
        self._on_disk: dict[str, tuple[int, int, int] | None] = {}
        # The version found on disk that a save kept aside instead of overwriting it.
        self.kept_outside: dict[str, Path] = {}

    # -- opening ----------------------------------------------------------------------------------
    @classmethod
    def open(
        cls, path: str | Path, annotator: str, schema: str | None = None, looking_only: bool = False
    ) -> Workspace:
        """A workspace on a project folder, a ``project.toml``, a plain folder (i2b2, MAE or
        brat) or one document (an XML file, or a brat ``.txt`` / ``.ann``); ``schema`` (a
        bundled name or a task file) overrides the project's tag set. ``looking_only`` (a
        screenshot): nothing is written, not the annotator's name nor a working copy."""
        workspace = cls._open(Path(path), annotator)
        workspace.looking_only = looking_only
        if schema is not None:
            file = Path(schema)
            workspace.project.schema = str(file.resolve()) if file.is_file() else schema
        # Read it now, so a bad name is refused before any window, and before the annotator
        # is listed in project.toml: a session that cannot open changes nothing on disk.
        try:
            workspace.schema  # noqa: B018
        except SchemaError as error:
            if schema is not None or workspace.project.plain_folder or error.path is not None:
                raise
            # The name came from project.toml: say so, or the user looks for it elsewhere.
            raise SchemaError(error.message, workspace.project.root / PROJECT_FILE) from None
        if not looking_only:
            workspace.project.add_annotator(annotator)
        return workspace

    @classmethod
    def _open(cls, path: Path, annotator: str) -> Workspace:
        if path.is_file() and (path.suffix.lower() == ".xml" or is_brat_path(path)):
            project = Project.open(path.parent)
            project.plain_folder = True
            entry = _brat_entry(brat_paths(path)[0]) if is_brat_path(path) else _plain_entry(path)
            workspace = cls(project, annotator, [entry])
            workspace.single_file = True
            return workspace
        project = Project.open(path)
        if project.plain_folder:
            entries = [_plain_entry(p) for p in list_document_files(project.root)]
            if not entries:
                # A brat folder: one document per .txt, its annotations in the .ann beside it.
                entries = [_brat_entry(p) for p in list_document_files(project.root, "*.txt")]
        else:
            entries = []
            for doc_id in project.document_ids():
                patient, record = split_record_name(doc_id)
                pre = project.preannotations_dir / f"{doc_id}.xml"
                entries.append(
                    DocumentEntry(
                        doc_id,
                        patient,
                        record,
                        project.source_dir / f"{doc_id}.xml",
                        project.annotations_dir(annotator) / f"{doc_id}.xml",
                        pre if pre.is_file() else None,
                    )
                )
        if not entries:
            raise no_documents(
                path if project.plain_folder else project.source_dir,
                what="documents (i2b2 or MAE .xml, brat .txt/.ann)",
            )
        entries.sort(key=lambda e: (e.patient_id, e.record, e.doc_id))
        return cls(project, annotator, entries)

    @property
    def schema(self) -> Schema:
        if self._schema is None:
            self._schema = load_schema(self._schema_name())
        return self._schema

    def _schema_name(self) -> str:
        name = self.project.schema
        relative = not Path(name).is_absolute()
        if relative and (is_task_file(name) or Path(name).name == CONF_NAME):
            # A DTD / YAML task or a brat annotation.conf named in project.toml (convert
            # --to project copies the one it read into the project).
            return str(self.project.root / name)
        if self.project.plain_folder and name == DEFAULT_SCHEMA and self.entries:
            # A MAE / MedTator folder or file sits with its task (beside it, or up to two
            # folders above: MedTator's TASK/ann_xml/Annotator_A/), a brat folder with its
            # annotation.conf.
            sample = self.entries[0].source_path
            task = find_task(sample, brat=is_brat_path(sample))
            if task is not None:
                return str(task)
        return name

    def _read(self, path: Path) -> Document:
        document = read_checked(path, self._brat_schema(path))
        task = self.schema.task
        if task is not None:
            # New tags get the task's id prefixes, so MAE and MedTator never give one again.
            document.id_prefixes = task.id_prefixes()
        return document

    def _brat_schema(self, path: Path) -> Schema | None:
        return self.schema if is_brat_path(path) else None

    @property
    def state_dir(self) -> Path:
        return self.project.state_dir

    def entry(self, doc_id: str) -> DocumentEntry:
        try:
            return self._by_id[doc_id]
        except KeyError:
            raise InputError(f"no document {doc_id!r} in this workspace", self.project.root) from None

    def doc_ids(self) -> list[str]:
        return [e.doc_id for e in self.entries]

    def patients(self) -> dict[str, list[DocumentEntry]]:
        groups: dict[str, list[DocumentEntry]] = {}
        for entry in self.entries:
            groups.setdefault(entry.patient_id, []).append(entry)
        return groups

    def has_own_copy(self, doc_id: str) -> bool:
        """True when the annotator has a working copy of the document (a project, not a folder
        edited in place, where every document is its own copy)."""
        return not self.project.plain_folder and self.entry(doc_id).working_path.exists()

    def own_copies(self) -> set[str]:
        """Ids of the documents the annotator has a working copy of (one folder listing)."""
        if self.project.plain_folder:
            return set()
        folder = self.project.annotations_dir(self.annotator)
        try:
            names = {p.name for p in folder.iterdir()}
        except OSError:
            return set()
        return {e.doc_id for e in self.entries if e.working_path.name in names}

    def counts(self, doc_id: str) -> tuple[int, int]:
        """``(annotations, pending)`` of a document: exact when loaded, else from its file."""
        document = self.documents.get(doc_id)
        if document is not None:
            return tag_count(document), self._pending.get(doc_id, 0)
        entry = self.entry(doc_id)
        for path in (entry.working_path, entry.preannotation_path, entry.source_path):
            if path is not None and path.is_file():
                return quick_counts(path)
        return 0, 0

    # -- lock, working copy, recovery -------------------------------------------------------------
    def prepare(self, doc_id: str, force_lock: bool = False) -> OpenState:
        """Lock the working copy (or note who holds it) and create it if it does not exist."""
        entry = self.entry(doc_id)
        state = OpenState()
        if self.looking_only:
            return state  # nothing to lock: nothing will be written
        lock = self.locks.get(doc_id) or DocumentLock(
            entry.working_path, self.annotator, stale_after=self.lock_stale_after
        )
        try:
            lock.acquire(force=force_lock)
        except LockedError as error:
            state.read_only = True
            state.lock_holder = error.message.split(";")[0]
            self.read_only.add(doc_id)
        else:
            self.locks[doc_id] = lock
            self.read_only.discard(doc_id)
            if lock.taken_over is not None and not force_lock:
                state.taken_over = lock.taken_over.describe()
            if not entry.working_path.exists():
                origin = entry.preannotation_path or entry.source_path
                document = self._read(origin)
                document.doc_id = doc_id
                write_document(document, entry.working_path, self.schema)
                _as_readable_as_folder(entry.working_path)
                if doc_id in self.documents:
                    # Read before its copy existed ("annotate all"): this copy is ours, made
                    # from the same file, not a change from outside.
                    self._remember_disk(doc_id)
        if not state.read_only:
            # Before the question: edits that cannot be applied are not offered.
            self._set_aside_stale_edits(doc_id)
            state.recovery_available = self.has_journal(doc_id) or self.autosave.has_recovery(
                entry.working_path
            )
        return state

    def _set_aside_stale_edits(self, doc_id: str) -> None:
        """Set aside the unsaved edits of an earlier session made over another text of the note
        than its file holds now (a colleague's sync, a re-import, a hand edit since the crash):
        replayed, the journal's offsets would put tags on other words, and the recovery file
        (which holds its own text) would put the old text back over the new one. Renamed, never
        deleted; the new names wait in :attr:`stale_edits_kept`. When the file or the journal
        cannot be read, nothing is decided here: opening says what is wrong, as before."""
        if doc_id in self.documents:
            return  # its unsaved edits are in memory, over the text read this session
        entry = self.entry(doc_id)
        journal = journal_path(entry.working_path)
        known: list[str] = []

        def current_text() -> str | None:
            if not known:
                try:
                    known.append(self._read(self._source_of(entry)).text)
                except AnnotatorError:
                    return None
            return known[0]

        if self.has_journal(doc_id):
            try:
                entries = read_journal(journal)
            except StorageError:
                entries = []
            text = current_text() if entries else None
            if text is not None and written_over_other_text(entries, text):
                self._keep_stale(doc_id, journal)
        if self.autosave.has_recovery(entry.working_path):
            try:
                recovered_text: str | None = self.autosave.load_recovery(entry.working_path).text
            except AnnotatorError:
                recovered_text = None  # not offered either (has_recovery reads it the same way)
            text = current_text() if recovered_text is not None else None
            if text is not None and recovered_text != text:
                self._keep_stale(doc_id, recovery_path(entry.working_path))

    def _keep_stale(self, doc_id: str, path: Path) -> None:
        self.stale_edits_kept.setdefault(doc_id, []).append(self._keep_aside(path, "stale"))

    def _keep_aside(self, path: Path, why: str) -> Path:
        """Rename a journal or recovery file to ``NAME.WHY-DATE`` beside it; a name not taken, so
        nothing set aside earlier (in the same second) is replaced."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = path.with_name(f"{path.name}.{why}-{stamp}")
        number = 1
        while kept.exists():
            number += 1
            kept = path.with_name(f"{path.name}.{why}-{stamp}-{number}")
        self.journal.close_file(path)
        try:
            os.replace(path, kept)
        except OSError as error:
            raise StorageError(f"cannot set the unsaved edits aside: {error.strerror}", path) from None
        return kept

    def has_journal(self, doc_id: str) -> bool:
        """True when the document has edits journalled since its last save."""
        path = journal_path(self.entry(doc_id).working_path)
        return doc_id not in self.documents and path.is_file() and path.stat().st_size > 0

    def waiting_recovery(self) -> list[str]:
        """Documents not loaded whose edits of an earlier session wait in an edit journal or
        a recovery file (a crash): each is offered when it is opened."""
        found = []
        for entry in self.entries:
            if entry.doc_id in self.documents:
                continue
            try:
                if journal_path(entry.working_path).stat().st_size > 0:
                    found.append(entry.doc_id)
                    continue
            except OSError:
                pass
            if recovery_path(entry.working_path).exists():
                try:
                    waiting = self.autosave.has_recovery(entry.working_path)
                except StorageError:
                    waiting = True
                if waiting:
                    found.append(entry.doc_id)
        return found

    def load(self, doc_id: str, recovered: bool = False) -> Document:
        """The document (cached once read); ``recovered`` takes the autosaved version."""
        if doc_id in self.documents and not recovered:
            return self.documents[doc_id]
        entry = self.entry(doc_id)
        journal = read_journal(journal_path(entry.working_path)) if recovered else []
        if journal:
            # The journal holds every edit since the last save: replay it over the saved file,
            # if that still holds the text the edits were made over (checked when prepared;
            # again here, in case the file changed while the question was asked).
            document = self._read(self._source_of(entry))
            document.origin.path = entry.working_path
            if written_over_other_text(journal, document.text):
                self._keep_stale(doc_id, journal_path(entry.working_path))
            else:
                self.recovered_edits[doc_id] = replay(document, journal)
        elif recovered:
            document = self.autosave.load_recovery(entry.working_path)
        else:
            path = self._source_of(entry)
            document = self._take_prefetched(doc_id) or self._read(path)
            # Saving always goes to the working copy, never over the source or suggestions.
            document.origin.path = entry.working_path
        self._keep_loaded(doc_id, document)
        return document

    def _keep_loaded(self, doc_id: str, document: Document) -> None:
        document.doc_id = doc_id
        self.documents[doc_id] = document
        self._remember_disk(doc_id)
        self._watch(document)

    def _source_of(self, entry: DocumentEntry) -> Path:
        if entry.working_path.exists():
            return entry.working_path
        return entry.preannotation_path or entry.source_path

    def prefetch(self, doc_ids: Iterable[str]) -> None:
        """Start reading documents in the background (used when they are opened next)."""
        for doc_id in doc_ids:
            if doc_id in self.documents or doc_id in self._prefetched or doc_id not in self._by_id:
                continue
            path = self._source_of(self.entry(doc_id))
            try:
                stamp = _stamp(path)
            except OSError:
                continue
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prefetch")
            self._prefetched[doc_id] = (self._executor.submit(self._read, path), path, stamp)

    def _take_prefetched(self, doc_id: str) -> Document | None:
        """A prefetched document, if its file has not changed since it was read."""
        found = self._prefetched.pop(doc_id, None)
        if found is None:
            return None
        future, path, stamp = found
        try:
            document = future.result()
            if _stamp(path) != stamp:
                return None
        except (OSError, InputError):
            return None
        return document

    def shutdown(self) -> None:
        """Stop the background reader (at the end of a session)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        self._prefetched.clear()

    def discard_recovery(self, doc_id: str) -> Path | None:
        """Drop the autosaved copy; set the journal aside under a dated name (returned)."""
        self.autosave.discard_recovery(self.entry(doc_id).working_path)
        return self.set_journal_aside(doc_id)

    def set_journal_aside(self, doc_id: str) -> Path | None:
        """Move the document's journal to ``.NAME.xml.journal.declined-DATE`` (never deleted, so
        declined edits can still be looked at); the new path, or None without a journal."""
        journal = journal_path(self.entry(doc_id).working_path)
        if not journal.is_file() or doc_id in self.documents:
            return None
        return self._keep_aside(journal, "declined")

    def read_many(
        self,
        doc_ids: Iterable[str],
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> list[Document]:
        """Read documents not open yet (for "annotate all" over a patient or the project).

        Safe to call from a worker thread: nothing of the workspace changes; hand the result
        to :meth:`adopt` on the GUI thread.
        """
        wanted = [d for d in doc_ids if d not in self.documents]
        documents = []
        for done, doc_id in enumerate(wanted, 1):
            if cancelled is not None and cancelled():
                break
            entry = self.entry(doc_id)
            try:
                document = self._read(self._source_of(entry))
            except AnnotatorError:
                # One broken file must not stop a project-wide search; it is left out.
                self.unreadable.add(doc_id)
                continue
            document.doc_id = doc_id
            document.origin.path = entry.working_path
            documents.append(document)
            if progress is not None and (done % 50 == 0 or done == len(wanted)):
                progress(done, len(wanted))
        return documents

    def adopt(self, documents: Iterable[Document]) -> None:
        """Keep documents read by :meth:`read_many` (ones opened meanwhile win)."""
        for document in documents:
            if document.doc_id not in self.documents:
                self.documents[document.doc_id] = document
                self._remember_disk(document.doc_id)
                self._watch(document)

    def load_many(self, doc_ids: Iterable[str]) -> list[Document]:
        """Read (if needed) and return several documents, on the calling thread."""
        wanted = list(doc_ids)
        self.adopt(self.read_many(wanted))
        return [self.documents[d] for d in wanted if d in self.documents]

    def release(self, doc_id: str) -> None:
        lock = self.locks.pop(doc_id, None)
        if lock is not None:
            lock.release()

    def heartbeat(self) -> None:
        """Touch every lock we hold, so nobody takes them over as stale."""
        for lock in self.locks.values():
            lock.heartbeat()

    def release_all(self) -> None:
        for doc_id in list(self.locks):
            self.release(doc_id)
        self.shutdown()
        self.journal.close()

    # -- saving -----------------------------------------------------------------------------------
    def is_dirty(self, doc_id: str) -> bool:
        document = self.documents.get(doc_id)
        return document is not None and not document.is_pristine()

    def _watch(self, document: Document) -> None:
        # Only documents that were edited can be dirty: checking just those keeps every
        # edit cheap even with the whole project in memory after a project-wide search.
        doc_id = document.doc_id

        path = journal_path(self.entry(doc_id).working_path)
        kept = history_path(self.state_dir, self.annotator, doc_id)
        # The annotations as loaded: the history's start line, written before its first edit.
        loaded: list[Annotation] | None = document.annotations if not kept.exists() else None
        # The digest of the text the offsets refer to, made at the first edit (a project-wide
        # search loads thousands of notes it never edits).
        digest = ""

        def append(journal: Path, entry: dict[str, Any]) -> None:
            nonlocal loaded, digest
            digest = digest or text_digest(document.text)
            self.journal.append(journal, over_text(entry, digest))
            now = self.wall_clock()
            if loaded is not None:
                self.journal.append(kept, start_entry(loaded, now))
                loaded = None
            self.journal.append(kept, timed(entry, now))

        def touched(*_args: object) -> None:
            self._touched.add(doc_id)

        pending = self._pending
        pending[doc_id] = sum(1 for a in document.annotations if a.pending)

        def added_one(annotation: Annotation) -> None:
            pending[doc_id] += annotation.pending

        def removed_one(annotation: Annotation) -> None:
            pending[doc_id] -= annotation.pending

        def replaced_one(old: Annotation, new: Annotation) -> None:
            pending[doc_id] += new.pending - old.pending

        document.annotation_added.connect(added_one)
        document.annotation_removed.connect(removed_one)
        document.annotation_replaced.connect(replaced_one)

        for signal in document.change_signals():
            signal.connect(touched)
        document.annotation_added.connect(lambda a: append(path, added(a)))
        document.annotation_removed.connect(lambda a: append(path, removed(a)))
        document.annotation_replaced.connect(lambda old, new: append(path, replaced(old, new)))
        document.relation_added.connect(lambda r: append(path, relation_changed(r)))
        document.relation_replaced.connect(lambda _old, new: append(path, relation_changed(new)))
        document.relation_removed.connect(lambda r: append(path, relation_changed(None, r.id)))
        document.document_tag_added.connect(lambda t: append(path, document_tag_changed(t)))
        document.document_tag_replaced.connect(lambda _old, new: append(path, document_tag_changed(new)))
        document.document_tag_removed.connect(lambda t: append(path, document_tag_changed(None, t.id)))
        if not document.is_pristine():
            self._touched.add(doc_id)

    def edited(self) -> set[str]:
        """Ids of the documents edited at least once this session (saved or not)."""
        return set(self._touched)

    def dirty(self) -> list[str]:
        """Ids of the documents with unsaved changes."""
        return [
            d for d in sorted(self._touched) if d in self.documents and not self.documents[d].is_pristine()
        ]

    def save(self, doc_id: str) -> None:
        """Write the working copy atomically (taking the lock first if needed)."""
        if doc_id in self.read_only:
            raise LockedError(
                "document is open read-only (locked by someone else); override the lock to save",
                self.entry(doc_id).working_path,
            )
        document = self.documents[doc_id]
        entry = self.entry(doc_id)
        if self.changed_outside(doc_id) == "changed":
            # Someone else's version (a sync, a git pull) is never overwritten unseen.
            self.kept_outside[doc_id] = self.keep_outside_version(doc_id)
        # "Annotate all" can edit records never opened: their first save makes the copy.
        new_copy = not entry.working_path.exists()
        if doc_id not in self.locks:
            lock = DocumentLock(entry.working_path, self.annotator)
            lock.acquire()
            try:
                write_document(document, entry.working_path, self.schema)
            finally:
                lock.release()
        else:
            lock = self.locks[doc_id]
            if not lock.held:
                holder = read_lock_info(entry.working_path)
                who = holder.describe() if holder is not None else "nobody"
                raise LockedError(
                    f"the lock was taken over (now held by {who}); not saved, to avoid "
                    "overwriting their work",
                    entry.working_path,
                )
            write_document(document, entry.working_path, self.schema)
        if new_copy:
            _as_readable_as_folder(entry.working_path)
        self._remember_disk(doc_id)
        # The file now holds every journalled edit (written atomically): fold the journal in.
        self.journal.truncate(journal_path(entry.working_path))
        self.autosave.discard_recovery(entry.working_path)

    # -- changes made outside the tool -------------------------------------------------------------
    def _remember_disk(self, doc_id: str) -> None:
        self._on_disk[doc_id] = _disk_stamp(self.entry(doc_id).working_path)

    def remember_disk(self, doc_id: str) -> None:
        """Take the working copy as it is on disk now as the one seen (a change said once)."""
        self._remember_disk(doc_id)

    def read_again(self, doc_id: str) -> Document:
        """Read a loaded document's file again in place of the copy in memory: for a document
        open read-only, whose file its lock holder saved. Nothing on disk is touched: the
        journal and recovery file beside it are theirs. A file that cannot be read (caught
        half-written, or damaged) raises and the copy in memory stays; said once, it is tried
        again when the file changes next."""
        entry = self.entry(doc_id)
        try:
            document = self._read(self._source_of(entry))
        except AnnotatorError:
            self._remember_disk(doc_id)
            raise
        document.origin.path = entry.working_path
        self.forget(doc_id)
        self._keep_loaded(doc_id, document)
        return document

    def changed_outside(self, doc_id: str) -> str | None:
        """``"changed"`` or ``"deleted"`` when the working copy of a loaded document is no longer
        the file it was read from or last saved to (another annotator's sync, a git pull, a
        file replaced by hand); None when it is, or when the document is not loaded."""
        if doc_id not in self.documents or doc_id not in self._on_disk:
            return None
        now = _disk_stamp(self.entry(doc_id).working_path)
        if now == self._on_disk[doc_id]:
            return None
        return "deleted" if now is None else "changed"

    def keep_outside_version(self, doc_id: str) -> Path:
        """Copy the working copy as it is on disk to ``NAME.xml.outside-DATE`` beside it."""
        path = self.entry(doc_id).working_path
        kept = path.with_name(f"{path.name}.outside-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            data = path.read_bytes()
        except OSError as error:
            raise StorageError(f"cannot read the version changed outside: {error.strerror}", path) from None
        atomic_write(kept, data)
        return kept

    def keep_mine_aside(self, doc_id: str) -> Path:
        """Write the loaded version (with its unsaved edits) to ``NAME.xml.mine-DATE`` beside the
        working copy, before the version on disk replaces it."""
        path = self.entry(doc_id).working_path
        kept = path.with_name(f"{path.name}.mine-{time.strftime('%Y%m%d-%H%M%S')}")
        write_document(self.documents[doc_id], kept, self.schema)
        return kept

    def forget(self, doc_id: str) -> None:
        """Drop a loaded document, so that the next :meth:`load` reads its file again (the
        edits journalled since the last save are set aside, never replayed over the new file).
        Of a document last opened read-only, the journal and recovery file beside it are
        left alone: they are the lock holder's, who may still be writing them."""
        self.documents.pop(doc_id, None)
        self._touched.discard(doc_id)
        self._pending.pop(doc_id, None)
        self._on_disk.pop(doc_id, None)
        if doc_id in self.read_only:
            return
        self.autosave.discard_recovery(self.entry(doc_id).working_path)
        journal = journal_path(self.entry(doc_id).working_path)
        if journal.is_file() and journal.stat().st_size > 0:
            self.set_journal_aside(doc_id)
        else:
            self.journal.truncate(journal)

    def deleted_outside(self, doc_id: str) -> None:
        """Keep a document whose file was deleted outside the tool: it counts as unsaved, so
        that the next save (or closing the window) writes it back."""
        document = self.documents[doc_id]
        document.origin.fingerprint = None
        self._touched.add(doc_id)
        self._on_disk[doc_id] = None

    def fold_clean_journal(self, doc_id: str) -> None:
        """Empty the journal of a document edited back to what its file holds (an undo redone):
        kept, it offered on every later opening to "recover" edits the file already has."""
        if doc_id in self._touched and doc_id not in self.read_only and not self.is_dirty(doc_id):
            self.journal.truncate(journal_path(self.entry(doc_id).working_path))

    def save_all(self) -> list[str]:
        """Save every modified document; returns the ids that could not be saved."""
        failed = []
        self.save_errors = {}
        dirty = self.dirty()
        for doc_id in sorted(self._touched - set(dirty)):
            try:
                self.fold_clean_journal(doc_id)
            except StorageError as error:
                failed.append(doc_id)
                self.save_errors[doc_id] = error.one_line()
        for doc_id in dirty:
            try:
                self.save(doc_id)
            except StorageError as error:
                failed.append(doc_id)
                self.save_errors[doc_id] = error.one_line()
        return failed

    def autosave_all(self) -> int:
        """Write recovery files for every modified document; returns how many were written."""
        written = 0
        for doc_id in self.dirty():
            if doc_id in self.read_only:
                continue
            if self.autosave.save_recovery(self.documents[doc_id], self.entry(doc_id).working_path):
                written += 1
        return written


def _as_readable_as_folder(path: Path) -> None:
    """Give a new working copy the read/write bits of its folder (a shared project folder
    stays shared, a private one private); saves then keep whatever mode it has."""
    try:
        os.chmod(path, path.parent.stat().st_mode & 0o666)
    except OSError as error:
        raise StorageError(f"cannot set the file's permissions: {error.strerror}", path) from None


def _disk_stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of a file from another: time, size and inode (an atomic
    replacement is a new inode even within the same second and size); None: no file."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


def _stamp(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_mtime_ns, status.st_size


def _plain_entry(path: Path) -> DocumentEntry:
    patient, record = split_record_name(path.stem)
    return DocumentEntry(path.stem, patient, record, path, path, None)


def _brat_entry(txt_path: Path) -> DocumentEntry:
    """A brat document: the note is the ``.txt``, the working copy its ``.ann``."""
    patient, record = split_record_name(txt_path.stem)
    return DocumentEntry(txt_path.stem, patient, record, txt_path, brat_paths(txt_path)[1], None)
