"""The annotation session: which document is open, what is selected, and keeping work safe.

:class:`AnnotationSession` is the window's brain without widgets: it opens documents
through the :class:`~annotator.session.workspace.Workspace`, owns the undo history, decides
what a tag key means for the current selection, autosaves a few seconds after each edit,
counts active working time and records the document status. It is Qt-free: it announces
changes with psygnal signals, and its timers come from the face that runs it (Qt timers in
the window, :class:`~annotator.session.timers.ManualTimers` in tests). Widgets subscribe to
its signals and the core's; it never touches a widget.

Signals
-------
document_changed(object)        the open document (a Document, or None)
current_changed(object)         the current annotation (an Annotation, or None)
save_state_changed(str)         "saved", "unsaved", "autosaved" or "read-only"
read_only_changed(bool, str)    read-only and who holds the lock
entry_changed(str)              a document's status, counts or time changed (doc id)
notice(str)                     something the user must be told: what an action did (accepted,
                                rejected, saved, undone), recovered edits, where declined
                                edits were kept
edits_not_recovered(str)        one line: unsaved edits of an earlier session were not applied
                                (the note's text changed on disk since) and where they are kept
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from psygnal import Signal

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, History
from annotator.core.propagation import Scope, scope_documents
from annotator.core.worktime import WorkTimer
from annotator.errors import AnnotatorError, StorageError
from annotator.io.autosave import AutosaveScheduler
from annotator.io.journal import journal_failure_message
from annotator.io.rejections import RejectedSuggestions
from annotator.io.workstate import DONE, IN_PROGRESS, NOT_STARTED, WorkState, effective_status
from annotator.session.editing import AnnotationEditor
from annotator.session.suggestions import SuggestionOutcome, sort_suggestions
from annotator.session.timers import ManualTimers, TimerFactory
from annotator.session.workspace import HEARTBEAT_SECONDS, Workspace

Clock = Callable[[], float]
RecoveryQuestion = Callable[[str], bool | None]


class AnnotationSession:
    """One annotator's session on a workspace.

    Parameters
    ----------
    workspace:
        The documents.
    clock:
        Monotonic seconds (injected in tests to check the time tracking).
    autosave_delay:
        Quiet seconds after an edit before the recovery file is written.
    idle_after:
        A pause longer than this is not counted as working time.
    track:
        Record document status and working time (off for screenshots).
    timers:
        Makes the autosave poll and the delayed work-state write (the window passes Qt
        timers; by default they fire only when told to, see ManualTimers).
    """

    document_changed = Signal(object)
    current_changed = Signal(object)
    save_state_changed = Signal(str)
    read_only_changed = Signal(bool, str)
    entry_changed = Signal(str)
    notice = Signal(str)
    edits_not_recovered = Signal(str)

    def __init__(
        self,
        workspace: Workspace,
        clock: Clock = time.monotonic,
        autosave_delay: float = 3.0,
        idle_after: float = 120.0,
        track: bool = True,
        timers: TimerFactory | None = None,
    ) -> None:
        self.workspace = workspace
        self.schema = workspace.schema
        self.annotator = workspace.annotator
        self.history = History()
        self.clock = clock
        self.track = track
        self.state = WorkState.load(workspace.project)
        self.rejections = RejectedSuggestions.load(workspace.project, self.annotator)
        self.timer = WorkTimer(idle_after=idle_after)
        self.scheduler = AutosaveScheduler(delay=autosave_delay, max_wait=max(30.0, autosave_delay))
        self.document: Document | None = None
        self.editor: AnnotationEditor | None = None
        self.current_id: str | None = None
        self.snap_to_words = False
        self.save_state = "saved"
        self.lock_holder = ""
        self._last_heartbeat = clock()
        make_timer = timers or ManualTimers()
        self._autosave_timer = make_timer(0.25, False, self._on_autosave_timer_timeout)
        self._autosave_timer.start()
        self.history.changed.connect(self._on_history_changed)
        # The work state is written shortly after it changes, not while a document opens.
        self._state_timer = make_timer(0.3, True, self.flush_state)
        self._state_failure = ""
        self._prefetch_timer = make_timer(0.2, True, self._prefetch_neighbours)

    # -- documents --------------------------------------------------------------------------------
    @property
    def doc_id(self) -> str | None:
        return self.document.doc_id if self.document is not None else None

    @property
    def read_only(self) -> bool:
        return self.doc_id is not None and self.doc_id in self.workspace.read_only

    def open_document(
        self, doc_id: str, ask_recovery: RecoveryQuestion | None = None, force_lock: bool = False
    ) -> Document:
        """Open a document, then leave the current one (saving it).

        ``ask_recovery(doc_id)`` is asked when an autosaved version newer than the file
        exists: True opens the recovered version, False discards it, None opens the saved
        version and keeps the recovery file for later. A document that cannot be read
        raises (its lock is released) and the current document stays open.
        """
        if doc_id == self.doc_id and not force_lock and self.document is not None:
            return self.document
        switching = self.document is not None and doc_id != self.doc_id
        reread = ""
        if (
            doc_id != self.doc_id
            and self.workspace.changed_outside(doc_id) == "changed"
            and not self.workspace.is_dirty(doc_id)
        ):
            # Read earlier this session and changed on disk since (a sync, a git pull): the
            # file is read again rather than the old reading shown and saved over it.
            self.history.forget(doc_id)
            self.workspace.forget(doc_id)
            reread = f"{doc_id} had been changed outside the tool since you last had it open: read again."
        try:
            opened = self.workspace.prepare(doc_id, force_lock=force_lock)
            recovered = False
            kept_aside = None
            # A document already in memory with unsaved edits is newer than its recovery file.
            if opened.recovery_available and not self.workspace.is_dirty(doc_id):
                answer = ask_recovery(doc_id) if ask_recovery is not None else True
                recovered = bool(answer)
                if answer is False:
                    kept_aside = self.workspace.discard_recovery(doc_id)
                elif answer is None:
                    # New edits start a new journal; the old one is kept for later.
                    kept_aside = self.workspace.set_journal_aside(doc_id)
            document = self.workspace.load(doc_id, recovered=recovered)
        except AnnotatorError:
            if doc_id != self.doc_id:
                self.workspace.release(doc_id)
            raise
        if switching:
            self.leave_document()
        self._take_document(document, opened.read_only)
        self.lock_holder = opened.lock_holder
        if self.track and not opened.read_only and self.state.status(doc_id, self.annotator) == NOT_STARTED:
            self.state.set_status(doc_id, self.annotator, IN_PROGRESS)
            self._save_state()
        if self.track and self.state.last_document(self.annotator) != doc_id:
            self.state.set_last_document(self.annotator, doc_id)
            self._save_state()
        self.timer.activity(self.clock())
        self.current_id = None
        self.document_changed.emit(document)
        self.current_changed.emit(None)
        self.read_only_changed.emit(opened.read_only, opened.lock_holder)
        # One notice: the status bar shows one message, and a second would hide the first.
        notices = [reread] if reread else []
        if recovered:
            self.scheduler.note_edit(self.clock())
            count = self.workspace.recovered_edits.pop(doc_id, None)
            if count is not None:
                notices.append(f"Recovered {count} unsaved edit(s) of {doc_id} from its edit journal.")
        if kept_aside is not None:
            notices.append(f"The unsaved edits of {doc_id} were kept in {kept_aside.name}.")
        stale = self.workspace.stale_edits_kept.pop(doc_id, [])
        if stale:
            not_recovered = stale_edits_message(doc_id, stale)
            notices.append(not_recovered)
            self.edits_not_recovered.emit(not_recovered)
        if opened.taken_over:
            notices.append(f"Took over the stale lock on {doc_id} held by {opened.taken_over}.")
        if notices:
            self.notice.emit(" ".join(notices))
        self._set_save_state()
        self.entry_changed.emit(doc_id)
        # The neighbours are read ahead once this document is on screen: a reader thread
        # started now would compete with the window for the interpreter while it paints.
        self._prefetch_timer.start()
        return document

    def _take_document(self, document: Document, read_only: bool) -> None:
        """Make ``document`` the open one, with an editor of its own (no signal said yet)."""
        self.document = document
        self.editor = AnnotationEditor(
            document, self.history, self.schema, self.annotator, read_only, self.rejections
        )
        self.editor.snap_to_words = self.snap_to_words
        document.annotation_removed.connect(self._on_document_annotation_removed)
        document.annotation_replaced.connect(self._on_document_annotation_replaced)

    def _drop_document(self) -> None:
        """Stop following the open document's signals (it is being replaced)."""
        if self.document is not None:
            self.document.annotation_removed.disconnect(self._on_document_annotation_removed)
            self.document.annotation_replaced.disconnect(self._on_document_annotation_replaced)

    def _prefetch_neighbours(self) -> None:
        if self.doc_id is None:
            return
        ids = self.workspace.doc_ids()
        here = ids.index(self.doc_id)
        self.workspace.prefetch(ids[max(here - 1, 0) : here + 2])

    def leave_document(self) -> None:
        """Save the current document if it changed (auto-save on switch), count the time, unlock."""
        if self.document is None:
            return
        doc_id = self.document.doc_id
        if self.workspace.is_dirty(doc_id) and not self.read_only:
            try:
                self.workspace.save(doc_id)
            except StorageError:
                # Not saved (e.g. the lock was taken over): keep the edits in the recovery file.
                self.workspace.autosave_all()
        else:
            try:
                self.workspace.fold_clean_journal(doc_id)
            except StorageError as error:
                self.notice.emit(error.one_line())  # left in place; the next save tries again
        self.timer.stop(self.clock())
        self.record_time()
        self._drop_document()
        self.workspace.release(doc_id)
        self.entry_changed.emit(doc_id)

    # -- a working copy changed outside the tool ------------------------------------------------
    def outside_change(self) -> str | None:
        """``"changed"`` or ``"deleted"`` when the open document's file is no longer the one
        it was read from or saved to (another annotator's sync, a git pull, a replaced file).
        None for a document open read-only: :meth:`follow_read_only_note` reads that one again."""
        if self.doc_id is None or self.read_only:
            return None
        return self.workspace.changed_outside(self.doc_id)

    def follow_read_only_note(self) -> bool:
        """Show the new version of a document open read-only when its file changed on disk (the
        one who holds the lock saved, or a sync brought theirs): nothing here is ours to keep,
        so it is read again, and the status bar says so. The current annotation stays current
        when the new version still has it. True when the file had changed."""
        doc_id = self.doc_id
        if doc_id is None or not self.read_only:
            return False
        change = self.workspace.changed_outside(doc_id)
        if change is None:
            return False
        # "locked by alice on ward-pc since ...": whose saving this most likely was.
        holder = self.lock_holder.removeprefix("document is ") or "locked by someone else"
        if change == "deleted":
            # Nothing to read: what was read last stays on screen, said once.
            self.workspace.remember_disk(doc_id)
            self.notice.emit(f"{doc_id} was deleted on disk: the last version read stays shown ({holder}).")
            return True
        kept_current = self.current_id
        document = self.workspace.read_again(doc_id)
        self._drop_document()
        self._take_document(document, read_only=True)
        self.current_id = None
        self.document_changed.emit(document)
        self.current_changed.emit(None)
        # Made current again once shown: showing a note puts its caret at the start.
        if kept_current is not None and kept_current in document:
            self.set_current(kept_current)
        self.entry_changed.emit(doc_id)
        self.notice.emit(f"{doc_id} was changed on disk: showing the new version (read-only, {holder}).")
        return True

    def take_outside_version(self) -> Path | None:
        """Reopen the open document from its file as changed outside the tool. Unsaved edits
        are first written to ``NAME.xml.mine-DATE`` (returned), never dropped; the undo steps on
        the old reading are dropped (they name its annotations)."""
        doc_id = self.doc_id
        if doc_id is None or self.document is None:
            return None
        mine = self.workspace.keep_mine_aside(doc_id) if self.workspace.is_dirty(doc_id) else None
        self.timer.stop(self.clock())
        self.record_time()
        self._drop_document()
        self.history.forget(doc_id)
        self.workspace.forget(doc_id)
        self.document = None
        self.open_document(doc_id)
        self.scheduler.saved()
        self._set_save_state()
        return mine

    def keep_deleted_document(self) -> None:
        """The open document's file was deleted outside the tool: keep it open, unsaved."""
        if self.doc_id is not None:
            self.workspace.deleted_outside(self.doc_id)
            self._set_save_state()

    def override_lock(self) -> None:
        """Take the lock from whoever holds it (the explicit override) and make the document editable."""
        if self.doc_id is not None:
            doc_id = self.doc_id
            self.workspace.documents.pop(doc_id, None)
            self.document = None
            self.open_document(doc_id, force_lock=True)

    def close(self) -> None:
        """End the session: record time, save the state, release every lock."""
        self.leave_document()
        self.document = None
        self._autosave_timer.stop()
        self._prefetch_timer.stop()
        self.flush_state()
        self.workspace.release_all()

    def scope_ids(self, scope: Scope) -> list[str]:
        """Ids of the documents of a scope around the open document."""
        if self.document is None:
            return []
        if scope == "document":
            return [self.document.doc_id]
        return [
            e.doc_id
            for e in self.workspace.entries
            if scope == "project" or e.patient_id == self.document.patient_id
        ]

    def load_scope(self, scope: Scope) -> list[Document]:
        """The documents "annotate all" searches for a scope (read on demand)."""
        if self.document is None:
            return []
        documents = self.workspace.load_many(self.scope_ids(scope))
        return scope_documents(scope, self.document, documents)

    def add_suggestions(self, document: Document, suggestions: list[Annotation]) -> SuggestionOutcome:
        """Add model suggestions (pending) to the open document as one undo step.

        Suggestions where the annotator already rejected one, or overlapping an annotation,
        are skipped; the outcome says how many of each.
        """
        if document is not self.document or self.editor is None:
            return SuggestionOutcome(document.doc_id, refused="it is no longer the open document")
        if self.editor.read_only:
            return SuggestionOutcome(document.doc_id, refused="it is read-only (locked by someone else)")
        outcome = sort_suggestions(document, suggestions, self.rejections.spans(document.doc_id))
        commands: list[Command] = [AddAnnotation(document, a) for a in outcome.added]
        self.history.push_all(commands, "pre-annotate")
        return outcome

    # -- current annotation -------------------------------------------------------------------------
    def current(self) -> Annotation | None:
        if self.document is None or self.current_id is None or self.current_id not in self.document:
            return None
        return self.document.get(self.current_id)

    def set_current(self, annotation_id: str | None) -> None:
        if annotation_id == self.current_id:
            return
        self.current_id = annotation_id
        self.current_changed.emit(self.current())

    def _on_document_annotation_removed(self, annotation: Annotation) -> None:
        if annotation.id == self.current_id:
            self.set_current(None)

    def _on_document_annotation_replaced(self, old: Annotation, new: Annotation) -> None:
        if old.id == self.current_id:
            self.current_id = new.id
            self.current_changed.emit(new)

    # -- what the keys mean ------------------------------------------------------------------------
    def apply_type(self, type_name: str, start: int, end: int, cursor: int) -> Annotation | None:
        """A type key or palette click, given the selection ``[start, end)`` and the cursor.

        * a selection equal to the current annotation, or no selection while the cursor is
          in an annotation: change that annotation's type;
        * a selection overlapping the current annotation: move its boundaries there;
        * any other selection: a new annotation.
        """
        editor = self.editor
        if editor is None or editor.read_only:
            return None
        current = self.current()
        if start == end:
            target = (
                current
                if current is not None and current.start <= cursor <= current.end
                else editor.innermost_at(cursor)
            )
            if target is None:
                return None
            result = editor.change(target.id, type_name=type_name)
        elif current is not None and current.start < end and start < current.end:
            result = editor.change(current.id, type_name=type_name, start=start, end=end)
        else:
            result = editor.tag(start, end, type_name)
        if result is not None:
            self.set_current(result.id)
        return result

    def delete_current(self) -> None:
        current = self.current()
        if current is None or self.editor is None:
            self.notice.emit("Nothing to delete: click an annotation or press Tab first.")
            return
        if self._refused_read_only():
            return
        # Said before the edit: a warning the edit raises (an unwritable journal) then stays.
        if current.pending:
            self.notice.emit(f"Rejected the {current.type} suggestion; it will not be suggested here again.")
        else:
            self.notice.emit(f"Deleted the {current.type} tag at {current.start}-{current.end}.")
        self.editor.delete(current.id)

    def _refused_read_only(self) -> bool:
        if self.read_only:
            self.notice.emit("Read-only: this document is locked by someone else.")
        return self.read_only

    def accept_current(self) -> None:
        current = self.current()
        if current is None or self.editor is None:
            return
        if self._refused_read_only():
            return
        if current.pending:
            # Said before the edit: a warning the edit raises (an unwritable journal) then stays.
            self.notice.emit(f"Accepted the {current.type} suggestion at {current.start}-{current.end}.")
            self.editor.accept(current.id)

    def accept_all(self, of_current_type: bool) -> int:
        """Accept every pending suggestion (of the current annotation's type) and say how many."""
        if self.editor is None or self._refused_read_only():
            return 0
        current = self.current()
        type_name = current.type if of_current_type and current is not None else None
        if of_current_type and type_name is None:
            self.notice.emit("Select an annotation first: its type's suggestions are accepted.")
            return 0
        accepted = self.editor.accept_all(type_name)
        which = f"{type_name} " if type_name else ""
        if accepted:
            self.notice.emit(f"Accepted {accepted} pending {which}suggestion{'s' if accepted != 1 else ''}.")
        else:
            self.notice.emit(f"No pending {which}suggestions to accept.")
        return accepted

    def undo(self) -> None:
        self._undo_or_redo(self.history.next_undo, self.history.undo, "Undid", "undo")

    def redo(self) -> None:
        self._undo_or_redo(self.history.next_redo, self.history.redo, "Redid", "redo")

    def _undo_or_redo(
        self, command: Command | None, step: Callable[[], object], done: str, verb: str
    ) -> None:
        if command is None:
            self.notice.emit(f"Nothing to {verb}.")
            return
        where = sorted(command.document_ids())
        if len(where) == 1 and where[0] != self.doc_id and where[0] in self.workspace.documents:
            # The step changed another record (the history spans records): open it first, so the
            # change happens where the user sees it, not silently in a record left behind.
            try:
                self.open_document(where[0])
            except AnnotatorError as error:
                self.notice.emit(f"Cannot {verb} in {where[0]}: {error.one_line()}")
                return
            if self.read_only:
                self.notice.emit(f"Cannot {verb} in {where[0]}: it is locked by someone else now.")
                return
        step()
        elsewhere = [doc_id for doc_id in where if doc_id != self.doc_id]
        if len(elsewhere) == 1:
            self.notice.emit(f"{done} {command.description} (also in {elsewhere[0]}).")
        elif elsewhere:
            self.notice.emit(f"{done} {command.description} (also in {len(elsewhere)} other records).")
        else:
            self.notice.emit(f"{done} {command.description}.")

    def step(self, direction: int, position: int, pending_only: bool = False) -> Annotation | None:
        """Make the next / previous (pending) annotation current."""
        if self.editor is None:
            return None
        current = self.current()
        if pending_only and current is not None and not current.pending:
            current = None
        found = self.editor.neighbour(position, direction, pending_only, current.id if current else None)
        self.set_current(found.id if found is not None else None)
        return found

    def set_snap_to_words(self, snap: bool) -> None:
        self.snap_to_words = snap
        if self.editor is not None:
            self.editor.snap_to_words = snap
        self.notice.emit(
            "Snap to word boundaries on: selections widen to whole words."
            if snap
            else "Snap to word boundaries off: tags take the selection as it is."
        )

    # -- saving ---------------------------------------------------------------------------------------
    def save(self) -> list[str]:
        """Save every modified document (Ctrl+S); returns ids that could not be saved."""
        waiting = set(self.workspace.dirty())
        failed = self.workspace.save_all()
        if self.track:
            self.flush_state()  # rejections too; a refusal is said, never raised
        saved = len(waiting - set(failed))
        kept = self.workspace.kept_outside
        if saved or not failed:
            self.notice.emit(
                (
                    f"Saved {saved} document{'s' if saved != 1 else ''}."
                    if saved
                    else "Nothing to save: all on disk."
                )
                + "".join(
                    f" {doc_id} had been changed outside the tool: that version is kept in {path.name}."
                    for doc_id, path in sorted(kept.items())
                )
            )
        kept.clear()
        if failed:
            # What could not be saved (e.g. the lock was taken over) goes to the recovery file
            # now, and the scheduler keeps counting it as unsaved.
            self.workspace.autosave_all()
        else:
            self.scheduler.saved()
        self._set_save_state()
        for doc_id in self.workspace.documents:
            self.entry_changed.emit(doc_id)
        return failed

    def autosave_now(self) -> int:
        written = self.workspace.autosave_all()
        self.scheduler.saved()
        self._set_save_state("autosaved" if written else None)
        return written

    def _on_autosave_timer_timeout(self) -> None:
        now = self.clock()
        if self.scheduler.due(now):
            self.autosave_now()
        if now - self._last_heartbeat >= HEARTBEAT_SECONDS:
            self._last_heartbeat = now
            self.workspace.heartbeat()

    def _on_history_changed(self) -> None:
        failures = self.workspace.journal.take_failures()
        if failures:
            self.notice.emit(journal_failure_message(failures))
        now = self.clock()
        self.scheduler.note_edit(now)
        self.timer.activity(now)
        self._set_save_state()
        # Annotate all and its undo change other records too: refresh every edited one.
        changed = set(self.workspace.edited())
        if self.doc_id is not None:
            changed.add(self.doc_id)
        for doc_id in sorted(changed):
            self.entry_changed.emit(doc_id)

    def _set_save_state(self, forced: str | None = None) -> None:
        if self.read_only:
            state = "read-only"
        elif forced is not None:
            state = forced
        elif self.workspace.dirty():
            state = "unsaved"
        else:
            state = "saved"
        if state != self.save_state or forced:
            self.save_state = state
            self.save_state_changed.emit(state)

    # -- status and time --------------------------------------------------------------------------------
    def note_activity(self) -> None:
        """A keystroke or click: counts as active time."""
        self.timer.activity(self.clock())

    def record_time(self) -> None:
        """Move the counted seconds into the work state and save it."""
        seconds = self.timer.take()
        if seconds > 0 and self.doc_id is not None and self.track:
            self.state.add_seconds(self.doc_id, self.annotator, seconds)
            self._save_state()

    def seconds(self, doc_id: str) -> float:
        extra = self.timer.current(self.clock()) if doc_id == self.doc_id else 0.0
        return self.state.seconds(doc_id, self.annotator) + extra

    def status(self, doc_id: str) -> str:
        """Not started, in progress or done: the one rule the list, the menus and the dashboard share."""
        return effective_status(
            self.state.status(doc_id, self.annotator), self.workspace.has_own_copy(doc_id)
        )

    def last_document(self) -> str | None:
        """The document this annotator had open last in this workspace (None when not known)."""
        last = self.state.last_document(self.annotator)
        return last if last is not None and last in self.workspace.doc_ids() else None

    def statuses(self) -> dict[str, str]:
        """The status of every document of the workspace."""
        copies = self.workspace.own_copies()
        return {
            e.doc_id: effective_status(self.state.status(e.doc_id, self.annotator), e.doc_id in copies)
            for e in self.workspace.entries
        }

    def mark_done(self, done: bool = True) -> None:
        if self.doc_id is not None:
            self.state.set_status(self.doc_id, self.annotator, DONE if done else IN_PROGRESS)
            self._save_state()
            self.entry_changed.emit(self.doc_id)
            self.notice.emit(f"{self.doc_id} marked {'done' if done else 'in progress again'}.")

    def _save_state(self) -> None:
        self._state_timer.start()

    def flush_state(self) -> None:
        """Write the work state now (status and time), if anything is waiting."""
        self._state_timer.stop()
        if not self.track:
            return
        try:
            self.state.save()
            self.rejections.save()
        except StorageError as error:
            # A read-only project folder, a full disk: what was not written stays in memory
            # and is written with the next change; the user is told, once per reason.
            message = (
                f"Status, working time and rejections not recorded: {error.one_line()} "
                "(kept, and tried again at the next change)."
            )
            if message != self._state_failure:
                self._state_failure = message
                self.notice.emit(message)
        else:
            self._state_failure = ""


def stale_edits_message(doc_id: str, kept: list[Path]) -> str:
    """What the user is told when unsaved edits of an earlier session were set aside because
    the note's text changed on disk since they were made."""
    names = " and ".join(path.name for path in kept)
    return (
        f"The unsaved edits of {doc_id} from an earlier session were not applied: the note's text "
        f"changed on disk since they were made, so their tags would land on other words; they are "
        f"kept in {names}."
    )
