"""The write-ahead journal of an open document: every edit on disk before it is needed.

Each change to a document's annotations (a tag, a boundary or type change, accept, reject,
annotate all, undo, redo: they all reach the document as add / remove / replace) becomes one
JSON line in ``.NAME.xml.journal`` beside the working copy. The line is written (into the
kernel's cache) before the edit is shown, so a killed process loses nothing it showed; a
background thread fsyncs, grouping what arrived meanwhile, so an edit survives a power cut a
few milliseconds later without the UI thread waiting on the disk. Opening the document after
a crash replays the journal over the saved file; saving folds it into the file (the file is
written atomically first) and truncates it.

A line holds the annotation's fields (offsets, category, type, provenance, comment), never
the note text: the text is in the file the journal is replayed over. Relations and document
tags are journalled the same way (``relation-add`` ..., ``document-tag-add`` ...). The journal
is created 0600, like the recovery files.

Each line also holds ``note_sha256``: a short SHA-256 of the note text the edit was made over
(a digest, never the text). Offsets mean something only over that text: if the file's text
changed between the crash and the recovery (a colleague's sync, a re-import, a hand edit),
:func:`written_over_other_text` says so, and the journal is set aside instead of replayed, so
that no tag lands on other words. A journal written before digests (no ``note_sha256``) is
replayed as before, with the offset checks only.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.relations import DocumentTag, Relation
from annotator.core.text_files import refuse_special_file
from annotator.errors import AnnotatorError, InputError, StorageError
from annotator.io.records import document_tag_record, record_document_tag, record_relation, relation_record

JOURNAL_SUFFIX = ".journal"
FORMAT = "phi-annotator/journal/1"
# The key of the digest of the note text a line was written over.
TEXT_DIGEST = "note_sha256"
_SOURCES = {source.value: source for source in Source}


def journal_path(path: str | Path) -> Path:
    """The journal beside a working copy: ``.NAME.xml.journal``."""
    path = Path(path)
    return path.with_name(f".{path.name}{JOURNAL_SUFFIX}")


def text_digest(text: str) -> str:
    """A short SHA-256 hex of a note text: tells two versions of it apart without holding it.

    64 bits: these guard against an honest change of the file, not against forgery.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def over_text(entry: dict[str, Any], digest: str) -> dict[str, Any]:
    """A journal entry marked with the digest of the note text it was made over."""
    return {**entry, TEXT_DIGEST: digest}


def written_over_other_text(entries: Iterable[dict[str, Any]], text: str) -> bool:
    """True when some entry was made over another note text than ``text`` (its offsets would
    fall on other words); False when every digest matches, or the journal has none (older)."""
    digests = {str(entry[TEXT_DIGEST]) for entry in entries if TEXT_DIGEST in entry}
    return bool(digests) and digests != {text_digest(text)}


def annotation_record(annotation: Annotation) -> dict[str, Any]:
    return {
        "id": annotation.id,
        "tag": annotation.tag,
        "type": annotation.type,
        "start": annotation.start,
        "end": annotation.end,
        "comment": annotation.comment,
        "source": annotation.source.value,
        "confidence": annotation.confidence,
        "annotator": annotation.annotator,
        "pending": annotation.pending,
        "extra": [list(pair) for pair in annotation.extra],
        **({"fragment_of": annotation.fragment_of} if annotation.fragment_of else {}),
    }


def record_annotation(record: dict[str, Any], text: str) -> Annotation:
    start, end = int(record["start"]), int(record["end"])
    if not 0 <= start <= end <= len(text):
        raise ValueError("offsets outside the text")
    confidence = record.get("confidence")
    return Annotation(
        id=str(record["id"]),
        tag=str(record["tag"]),
        type=str(record["type"]),
        start=start,
        end=end,
        text=text[start:end],
        comment=str(record.get("comment", "")),
        source=_SOURCES.get(str(record.get("source")), Source.HUMAN),
        confidence=float(confidence) if confidence is not None else None,
        annotator=str(record.get("annotator", "")),
        pending=bool(record.get("pending", False)),
        extra=tuple((str(k), str(v)) for k, v in record.get("extra", [])),
        fragment_of=str(record.get("fragment_of", "")),
    )


def added(annotation: Annotation) -> dict[str, Any]:
    return {"op": "add", "annotation": annotation_record(annotation)}


def removed(annotation: Annotation) -> dict[str, Any]:
    return {"op": "remove", "id": annotation.id}


def replaced(old: Annotation, new: Annotation) -> dict[str, Any]:
    return {"op": "replace", "id": old.id, "annotation": annotation_record(new)}


def relation_changed(relation: Relation | None, removed_id: str = "") -> dict[str, Any]:
    """A relation added or replaced (``relation``), or removed (``removed_id``)."""
    if relation is None:
        return {"op": "relation-remove", "id": removed_id}
    return {"op": "relation-set", "relation": relation_record(relation)}


def document_tag_changed(tag: DocumentTag | None, removed_id: str = "") -> dict[str, Any]:
    if tag is None:
        return {"op": "document-tag-remove", "id": removed_id}
    return {"op": "document-tag-set", "tag": document_tag_record(tag)}


def _replay_other(document: Document, entry: dict[str, Any]) -> bool:
    """Apply a relation or document-tag entry; whether it changed the document."""
    op = str(entry.get("op"))
    if op.startswith("relation-"):
        relations = {r.id: r for r in document.relations}
        if op == "relation-remove":
            return _remove(relations, str(entry["id"]), document.remove_relation)
        relation = record_relation(entry["relation"])
        return _set(relations, relation.id, relation, document.add_relation, document.replace_relation)
    tags = {t.id: t for t in document.document_tags}
    if op == "document-tag-remove":
        return _remove(tags, str(entry["id"]), document.remove_document_tag)
    tag = record_document_tag(entry["tag"])
    return _set(tags, tag.id, tag, document.add_document_tag, document.replace_document_tag)


_Item = TypeVar("_Item")


def _remove(items: dict[str, _Item], item_id: str, remove: Callable[[str], object]) -> bool:
    if item_id not in items:
        return False
    remove(item_id)
    return True


def _set(
    items: dict[str, _Item],
    item_id: str,
    item: _Item,
    add: Callable[[_Item], object],
    replace: Callable[[str, _Item], object],
) -> bool:
    current = items.get(item_id)
    if current == item:
        return False
    if current is None:
        add(item)
    else:
        replace(item_id, item)
    return True


def read_journal(path: str | Path, what: str = "edit journal") -> list[dict[str, Any]]:
    """The entries of a journal, oldest first.

    A crash while a line was being appended leaves it torn: an unparsable *last* line is
    dropped (its edit was never acknowledged as durable). An unparsable line before the last
    one means the file is not a journal of ours, and is an error.
    """
    path = Path(path)
    try:
        refuse_special_file(path, f"an {what}" if what[0] in "aeiou" else f"a {what}")
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except InputError as error:
        raise StorageError(error.message, path) from None  # a pipe would block the read forever
    except OSError as error:
        raise StorageError(f"cannot read the {what}: {error.strerror}", path) from None
    lines = data.split(b"\n")
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            if not isinstance(entry, dict):
                raise ValueError
        except ValueError:
            if number >= len(lines) - 1:
                break
            raise StorageError(f"line {number} of the {what} is damaged", path) from None
        entries.append(entry)
    return entries


def replay(document: Document, entries: Iterable[dict[str, Any]]) -> int:
    """Apply journal entries to a document read from its saved file; how many changed it.

    Idempotent over a file that already holds some of them (a crash between saving the file
    and truncating the journal): an add of an existing id replaces it, a remove of a missing
    id is skipped.
    """
    applied = 0
    for entry in entries:
        op = entry.get("op")
        try:
            if str(op).startswith(("relation-", "document-tag-")):
                applied += _replay_other(document, entry)
                continue
            if op == "remove":
                if str(entry["id"]) in document:
                    document.remove(str(entry["id"]))
                    applied += 1
                continue
            annotation = record_annotation(entry["annotation"], document.text)
            target = str(entry["id"]) if op == "replace" else annotation.id
            if target in document:
                if document.get(target) != annotation:
                    if annotation.id != target and annotation.id in document:
                        document.remove(annotation.id)
                    document.replace(target, annotation)
                    applied += 1
            elif annotation.id in document:
                document.replace(annotation.id, annotation)
                applied += 1
            else:
                document.add(annotation)
                applied += 1
        except (KeyError, TypeError, ValueError, AnnotatorError) as error:
            path = document.origin.path
            reason = error.message if isinstance(error, AnnotatorError) else str(error)
            raise StorageError(f"an edit journal entry cannot be applied ({reason})", path) from None
    return applied


class JournalWriter:
    """Appends journal lines at once and fsyncs them on one background thread.

    :meth:`append` writes the line before it returns (a few microseconds into the kernel's
    cache: a crash of the process can no longer lose it) and never waits for the disk. The
    background thread fsyncs each file that was written to; lines that arrive while a sync is
    under way are synced together (group commit), so a burst of edits costs one fsync.
    """

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Path, int] | None] = queue.SimpleQueue()
        self._files: dict[Path, int] = {}
        self._submitted = 0
        self._durable = 0
        # Counters under the condition; descriptors and writes under their own lock, which
        # the sync thread holds only to duplicate a descriptor, never across an fsync.
        self._condition = threading.Condition()
        self._files_lock = threading.Lock()
        self._failures: list[str] = []
        self.sync_seconds: list[float] = []
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    def append(self, path: Path, entry: dict[str, Any]) -> None:
        line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        with self._files_lock:
            try:
                descriptor = self._files.get(path)
                if descriptor is None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                    self._files[path] = descriptor
                _write_all(descriptor, line)
            except OSError as error:
                # The edit stays in memory and goes to the autosave; take_failures() says so.
                self._fail(path, error)
                return
            # Numbered and queued in the order written, so a sync covers every earlier line.
            with self._condition:
                self._submitted += 1
                number = self._submitted
            self._queue.put((path, number))

    def take_failures(self) -> list[str]:
        """What could not be written or synced since the last call (file name: reason)."""
        with self._condition:
            failures, self._failures = self._failures, []
        return failures

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything appended so far is synced; False on timeout."""
        with self._condition:
            target = self._submitted
            return self._condition.wait_for(lambda: self._durable >= target, timeout)

    def truncate(self, path: Path) -> None:
        """Empty a journal (after its edits were saved into the document file)."""
        self.flush()
        with self._files_lock:
            descriptor = self._files.pop(path, None)
            if descriptor is not None:
                os.close(descriptor)
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError as error:
                # Left in place it would replay over the newer file: the save must not pass.
                raise StorageError(
                    f"saved, but the edit journal cannot be removed: {error.strerror}", path
                ) from None

    def close_file(self, path: Path) -> None:
        self.flush()
        with self._files_lock:
            descriptor = self._files.pop(path, None)
            if descriptor is not None:
                os.close(descriptor)

    def close(self) -> None:
        self.flush()
        self._queue.put(None)
        self._thread.join(timeout=5)
        with self._files_lock:
            for descriptor in self._files.values():
                os.close(descriptor)
            self._files.clear()

    def _fail(self, path: Path, error: OSError) -> None:
        with self._condition:
            self._failures.append(f"{path.name}: {error.strerror or error}")

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            # Group commit: take whatever else is already waiting.
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            self._sync({path for path, _ in batch}, max(number for _, number in batch))

    def _sync(self, paths: set[Path], through: int) -> None:
        started = time.perf_counter()
        for path in paths:
            with self._files_lock:
                descriptor = self._files.get(path)
                # A duplicate, so the file may be closed (after a save) while it is synced.
                duplicate = os.dup(descriptor) if descriptor is not None else None
            if duplicate is None:
                continue  # closed after a flush: already synced
            try:
                os.fsync(duplicate)
            except OSError as error:
                self._fail(path, error)
            finally:
                os.close(duplicate)
        self.sync_seconds.append(time.perf_counter() - started)
        with self._condition:
            self._durable = max(self._durable, through)
            self._condition.notify_all()


def journal_failure_message(failures: list[str]) -> str:
    """What the window says when journal lines could not be written or synced."""
    return (
        f"The edit journal could not be written ({failures[-1]}): a crash could lose recent edits; "
        "save now (Ctrl+S)"
    )


def _write_all(descriptor: int, data: bytes) -> None:
    # A short write (a full disk part-way) leaves a torn last line, which reading drops.
    while data:
        written = os.write(descriptor, data)
        data = data[written:]
