"""Undo and redo: every edit of a document is a command.

The GUI, the CLI and tests all edit through these commands, so "annotate all" and an
adjudication decision undo as one step each (a :class:`CompositeCommand`).

Signals (on :class:`History`)
-----------------------------
changed()   after any do, undo or redo
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence

from psygnal import Signal

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.relations import Relation


class Command(ABC):
    """An edit that can be applied and reverted."""

    description: str = "edit"

    @abstractmethod
    def apply(self) -> None: ...

    @abstractmethod
    def revert(self) -> None: ...

    def document_ids(self) -> set[str]:
        """The documents the edit changes (none known for an edit of something else)."""
        document = getattr(self, "document", None)
        return {document.doc_id} if isinstance(document, Document) else set()


class AddAnnotation(Command):
    def __init__(self, document: Document, annotation: Annotation) -> None:
        self.document = document
        self.annotation = annotation
        self.description = f"add {annotation.type}"

    def apply(self) -> None:
        self.document.add(self.annotation)

    def revert(self) -> None:
        self.document.remove(self.annotation.id)


class RemoveAnnotation(Command):
    def __init__(self, document: Document, annotation_id: str) -> None:
        self.document = document
        self.annotation = document.get(annotation_id)
        self.description = f"delete {self.annotation.type}"

    def apply(self) -> None:
        self.document.remove(self.annotation.id)

    def revert(self) -> None:
        self.document.add(self.annotation)


class ReplaceAnnotation(Command):
    """Change type, boundaries, comment or review state: old and new share the id."""

    def __init__(
        self, document: Document, old: Annotation, new: Annotation, description: str = "edit"
    ) -> None:
        self.document = document
        self.old = old
        self.new = new
        self.description = description

    def apply(self) -> None:
        self.document.replace(self.old.id, self.new)

    def revert(self) -> None:
        self.document.replace(self.new.id, self.old)


class AddRelation(Command):
    def __init__(self, document: Document, relation: Relation) -> None:
        self.document = document
        self.relation = relation
        self.description = f"add {relation.type}"

    def apply(self) -> None:
        self.document.add_relation(self.relation)

    def revert(self) -> None:
        self.document.remove_relation(self.relation.id)


class RemoveRelation(Command):
    def __init__(self, document: Document, relation_id: str) -> None:
        self.document = document
        self.relation = document.get_relation(relation_id)
        self.description = f"delete {self.relation.type}"

    def apply(self) -> None:
        self.document.remove_relation(self.relation.id)

    def revert(self) -> None:
        self.document.add_relation(self.relation)


class ReplaceRelation(Command):
    """Change a relation's type, arguments or attributes (same id)."""

    def __init__(self, document: Document, old: Relation, new: Relation, description: str = "edit") -> None:
        self.document = document
        self.old = old
        self.new = new
        self.description = description

    def apply(self) -> None:
        self.document.replace_relation(self.old.id, self.new)

    def revert(self) -> None:
        self.document.replace_relation(self.new.id, self.old)


def removal_commands(document: Document, annotation_id: str) -> list[Command]:
    """Delete an annotation with what cannot stand without it: the relations that name it
    (and those naming them, an event's parent events) and its later fragments."""
    doomed = {annotation_id} | {a.id for a in document.annotations if a.fragment_of == annotation_id}
    relations: list[Relation] = []
    while True:
        more = [r for r in document.relations if r not in relations and doomed & set(r.targets)]
        if not more:
            break
        relations.extend(more)
        doomed |= {r.id for r in more}
    commands: list[Command] = [RemoveRelation(document, r.id) for r in relations]
    pieces = [a.id for a in document.annotations if a.fragment_of == annotation_id]
    commands.extend(RemoveAnnotation(document, piece) for piece in pieces)
    commands.append(RemoveAnnotation(document, annotation_id))
    return commands


class CompositeCommand(Command):
    """Several commands that apply and undo as one step."""

    def __init__(self, commands: Sequence[Command], description: str = "edits") -> None:
        self.commands = list(commands)
        self.description = description

    def apply(self) -> None:
        done: list[Command] = []
        try:
            for command in self.commands:
                command.apply()
                done.append(command)
        except Exception:
            for command in reversed(done):
                command.revert()
            raise

    def revert(self) -> None:
        for command in reversed(self.commands):
            command.revert()

    def document_ids(self) -> set[str]:
        return set().union(*(command.document_ids() for command in self.commands))


class History:
    """Undo and redo stacks for a set of documents.

    Parameters
    ----------
    limit:
        How many steps are kept for undo (oldest dropped first).
    """

    changed = Signal()

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self._undo: list[Command] = []
        self._redo: list[Command] = []

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def next_undo(self) -> Command | None:
        """The step :meth:`undo` would revert."""
        return self._undo[-1] if self._undo else None

    @property
    def next_redo(self) -> Command | None:
        """The step :meth:`redo` would apply again."""
        return self._redo[-1] if self._redo else None

    @property
    def undo_text(self) -> str:
        return self._undo[-1].description if self._undo else ""

    @property
    def redo_text(self) -> str:
        return self._redo[-1].description if self._redo else ""

    def push(self, command: Command) -> Command:
        """Apply a command and record it for undo."""
        command.apply()
        self._undo.append(command)
        del self._undo[: -self.limit]
        self._redo.clear()
        self.changed.emit()
        return command

    def push_all(self, commands: Iterable[Command], description: str) -> Command | None:
        """Apply several commands as one undo step (nothing when the list is empty)."""
        commands = list(commands)
        if not commands:
            return None
        return self.push(commands[0] if len(commands) == 1 else CompositeCommand(commands, description))

    def undo(self) -> Command | None:
        if not self._undo:
            return None
        command = self._undo.pop()
        command.revert()
        self._redo.append(command)
        self.changed.emit()
        return command

    def redo(self) -> Command | None:
        if not self._redo:
            return None
        command = self._redo.pop()
        command.apply()
        self._undo.append(command)
        self.changed.emit()
        return command

    def forget(self, doc_id: str) -> int:
        """Drop every step that touches a document (its file was read again: the steps name
        annotations of the old reading); returns how many were dropped."""
        before = len(self._undo) + len(self._redo)
        self._undo = [c for c in self._undo if doc_id not in c.document_ids()]
        self._redo = [c for c in self._redo if doc_id not in c.document_ids()]
        dropped = before - len(self._undo) - len(self._redo)
        if dropped:
            self.changed.emit()
        return dropped

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()
        self.changed.emit()
