"""What the annotator's keys and clicks do to a document, as undoable history commands.

Qt-free, so the rules (what "accept" keeps, what an edit of a model suggestion records) are
tested without widgets. Review rules:

* accepting a pre-annotation keeps ``source=model`` and its confidence, clears ``pending``
  and records the annotator, so the effect of pre-annotation stays measurable;
* changing the type or the boundaries of a pre-annotation makes it the annotator's own
  (``source=human``, not pending);
* rejecting a pre-annotation removes it (undoable like every other edit) and records where
  it was, so that pre-annotating the document again does not offer it a second time.
"""

from __future__ import annotations

from collections.abc import Callable

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.history import (
    AddAnnotation,
    Command,
    History,
    RemoveAnnotation,
    ReplaceAnnotation,
    removal_commands,
)
from annotator.core.schema import Schema
from annotator.io.rejections import RejectedSuggestions


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char in "_'"


def trim_spaces(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without the whitespace around it: no PHI span begins or ends with a
    space or a line break, and a selection dragged from the space before a word holds one."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def snap_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim surrounding whitespace, then widen ``[start, end)`` to whole words.

    Used only when the annotator turned "snap to word boundaries" on: offsets are never
    widened silently otherwise.
    """
    start, end = trim_spaces(text, start, end)
    if start == end:
        return start, end
    while start > 0 and _is_word_char(text[start - 1]) and _is_word_char(text[start]):
        start -= 1
    while end < len(text) and _is_word_char(text[end]) and _is_word_char(text[end - 1]):
        end += 1
    return start, end


def word_step(text: str, position: int, direction: int) -> int:
    """The next word boundary from ``position`` going left (-1) or right (+1)."""
    n = len(text)
    if direction > 0:
        while position < n and not _is_word_char(text[position]):
            position += 1
        while position < n and _is_word_char(text[position]):
            position += 1
    else:
        while position > 0 and not _is_word_char(text[position - 1]):
            position -= 1
        while position > 0 and _is_word_char(text[position - 1]):
            position -= 1
    return position


class RejectSuggestion(RemoveAnnotation):
    """Remove a pending suggestion and record the rejection (undo forgets it again)."""

    def __init__(self, document: Document, annotation_id: str, rejections: RejectedSuggestions) -> None:
        super().__init__(document, annotation_id)
        self.rejections = rejections
        self.description = f"reject {self.annotation.type}"

    def _key(self) -> tuple[str, int, int, str]:
        a = self.annotation
        return self.document.doc_id, a.start, a.end, a.type

    def apply(self) -> None:
        super().apply()
        self.rejections.add(*self._key())

    def revert(self) -> None:
        super().revert()
        self.rejections.discard(*self._key())


class AnnotationEditor:
    """Edits one document through a shared :class:`History`.

    Parameters
    ----------
    document:
        The document being annotated.
    history:
        The undo stack (shared by every document of the window).
    schema:
        The tag set (type -> category).
    annotator:
        Recorded on new, accepted and edited annotations.
    read_only:
        When True every edit is refused (the document is locked by someone else).
    rejections:
        Where rejected suggestions are recorded (none: rejecting only removes them).
    """

    def __init__(
        self,
        document: Document,
        history: History,
        schema: Schema,
        annotator: str,
        read_only: bool = False,
        rejections: RejectedSuggestions | None = None,
    ) -> None:
        self.document = document
        self.history = history
        self.schema = schema
        self.annotator = annotator
        self.read_only = read_only
        self.rejections = rejections
        self.snap_to_words = False

    def _push(self, command: Command) -> Command | None:
        if self.read_only:
            return None
        return self.history.push(command)

    # -- creating and changing ------------------------------------------------------------
    def tag(self, start: int, end: int, type_name: str) -> Annotation | None:
        """Tag ``[start, end)`` with a type; ``None`` when there is nothing to tag."""
        bounds = snap_to_words if self.snap_to_words else trim_spaces
        start, end = bounds(self.document.text, start, end)
        if start >= end or self.read_only:
            return None
        same = [a for a in self.document.at(start) if (a.start, a.end) == (start, end)]
        if same:
            # The span is tagged already (a suggestion, or a tag selected by a drag that did not
            # make it current): the key means that tag, never a second one on the same span.
            return self.change(min(same, key=lambda a: not a.pending).id, type_name=type_name)
        annotation = self.document.make_annotation(
            self.schema.category_of(type_name),
            type_name,
            start,
            end,
            source=Source.HUMAN,
            annotator=self.annotator,
        )
        self._push(AddAnnotation(self.document, annotation))
        return annotation

    def change(
        self,
        annotation_id: str,
        type_name: str | None = None,
        start: int | None = None,
        end: int | None = None,
    ) -> Annotation | None:
        """Change the type and/or boundaries of an annotation (one undo step)."""
        old = self.document.get(annotation_id)
        new_start = old.start if start is None else start
        new_end = old.end if end is None else end
        if start is not None or end is not None:
            bounds = snap_to_words if self.snap_to_words else trim_spaces
            new_start, new_end = bounds(self.document.text, new_start, new_end)
        type_name = type_name or old.type
        if new_start >= new_end:
            return None
        if (type_name, new_start, new_end) == (old.type, old.start, old.end) and not old.pending:
            return old
        changed = (type_name, new_start, new_end) != (old.type, old.start, old.end)
        new = old.replace(
            tag=self.schema.category_of(type_name),
            type=type_name,
            start=new_start,
            end=new_end,
            text=self.document.text[new_start:new_end],
            pending=False,
            annotator=self.annotator,
            source=Source.HUMAN if changed and old.source is Source.MODEL else old.source,
        )
        what = "change type" if type_name != old.type else ("resize" if changed else "accept")
        self._push(ReplaceAnnotation(self.document, old, new, f"{what} {type_name}"))
        return new

    def set_comment(self, annotation_id: str, comment: str) -> None:
        old = self.document.get(annotation_id)
        if old.comment != comment:
            self._push(ReplaceAnnotation(self.document, old, old.replace(comment=comment), "comment"))

    def set_attribute(self, annotation_id: str, name: str, value: str) -> None:
        """Set one of a task's extra attributes (MAE / MedTator ``certainty``...), one undo step."""
        old = self.document.get(annotation_id)
        extra = dict(old.extra)
        if extra.get(name) == value:
            return
        extra[name] = value
        new = old.replace(extra=tuple(extra.items()))
        self._push(ReplaceAnnotation(self.document, old, new, f"set {name}"))

    def delete(self, annotation_id: str) -> None:
        """Delete an annotation; for a pending pre-annotation this is "reject". The links that
        name it (and its later pieces) go with it, in the same undo step."""
        commands = removal_commands(self.document, annotation_id)
        # The annotation itself goes last: as a rejection when it is a pending suggestion.
        commands[-1] = self._removal(annotation_id)
        if len(commands) == 1:
            self._push(commands[0])
        elif not self.read_only:
            self.history.push_all(commands, f"delete {self.document.get(annotation_id).type}")

    def _removal(self, annotation_id: str) -> RemoveAnnotation:
        if self.rejections is not None and self.document.get(annotation_id).pending:
            return RejectSuggestion(self.document, annotation_id, self.rejections)
        return RemoveAnnotation(self.document, annotation_id)

    # -- reviewing pre-annotations ---------------------------------------------------------
    def accept(self, annotation_id: str) -> None:
        old = self.document.get(annotation_id)
        if old.pending:
            new = old.replace(pending=False, annotator=self.annotator)
            self._push(ReplaceAnnotation(self.document, old, new, f"accept {old.type}"))

    def accept_all(self, type_name: str | None = None) -> int:
        """Accept every pending pre-annotation (of one type, if given) as one undo step."""
        return self._review_all(lambda a: type_name is None or a.type == type_name, accept=True)

    def reject_all(self, type_name: str | None = None) -> int:
        """Reject every pending pre-annotation (of one type, if given) as one undo step."""
        return self._review_all(lambda a: type_name is None or a.type == type_name, accept=False)

    def _review_all(self, wanted: Callable[[Annotation], bool], accept: bool) -> int:
        if self.read_only:
            return 0
        chosen = [a for a in self.document.annotations if a.pending and wanted(a)]
        commands: list[Command] = [
            ReplaceAnnotation(self.document, a, a.replace(pending=False, annotator=self.annotator))
            if accept
            else self._removal(a.id)
            for a in chosen
        ]
        self.history.push_all(commands, "accept all" if accept else "reject all")
        return len(chosen)

    # -- navigation helpers -----------------------------------------------------------------
    def neighbour(
        self, position: int, direction: int, pending_only: bool = False, current_id: str | None = None
    ) -> Annotation | None:
        """The next (+1) or previous (-1) annotation from ``position``, wrapping around."""
        ordered = [a for a in self.document.sorted_annotations() if a.pending or not pending_only]
        if not ordered:
            return None
        if current_id is not None and current_id in self.document:
            ids = [a.id for a in ordered]
            if current_id in ids:
                return ordered[(ids.index(current_id) + direction) % len(ordered)]
        if direction > 0:
            return next((a for a in ordered if a.start >= position), ordered[0])
        return next((a for a in reversed(ordered) if a.start < position), ordered[-1])

    def innermost_at(self, position: int) -> Annotation | None:
        """The shortest annotation covering ``position`` (the one a click means)."""
        covering = self.document.at(position)
        return min(covering, key=lambda a: (a.end - a.start, a.start)) if covering else None
