"""Links between annotations, edited as undoable history commands (Qt-free).

A link is added between two annotations with the roles its type has: the task's (a MAE /
MedTator link tag's arguments, ``link_AE`` / ``link_SVRT``), else those the document's links
of that type use, else brat's ``Arg1`` / ``Arg2`` for a brat document and MAE's ``from`` /
``to`` otherwise. Its id takes the task's prefix for that link tag, never a number the
document has used. Deleting a link deletes the events that name it, in the same step.
"""

from __future__ import annotations

from annotator.core.history import AddRelation, Command, RemoveRelation, ReplaceRelation
from annotator.core.relations import Argument, Relation, RelationKind
from annotator.session.editing import AnnotationEditor

BRAT_ROLES = ("Arg1", "Arg2")
MAE_ROLES = ("from", "to")


class RelationEditor:
    """Adds, retypes and deletes the links of the document an :class:`AnnotationEditor` edits."""

    def __init__(self, editor: AnnotationEditor) -> None:
        self.editor = editor

    def types(self) -> list[str]:
        """Link types to offer: the task's link tags, then those the document uses."""
        task = self.editor.schema.task
        names = [t.name for t in task.link_tags] if task is not None else []
        for relation in self.editor.document.relations:
            if relation.kind is RelationKind.LINK and relation.type not in names:
                names.append(relation.type)
        return names

    def fixed_types(self) -> bool:
        """True when the task declares its link tags: a file of that task holds no other (MAE
        and MedTator refuse an element their DTD does not declare), so none is typed anew."""
        task = self.editor.schema.task
        return task is not None and bool(task.link_tags)

    def _allowed(self, relation_type: str) -> bool:
        task = self.editor.schema.task
        return not self.fixed_types() or (
            task is not None and relation_type in {t.name for t in task.link_tags}
        )

    def roles(self, relation_type: str) -> tuple[str, str]:
        """The two roles a new link of this type gets."""
        task = self.editor.schema.task
        tag = task.tag(relation_type) if task is not None else None
        if tag is not None:
            arguments = [a.argument for a in tag.attributes if a.idref]
            if len(arguments) >= 2:
                return arguments[0], arguments[1]
        for relation in self.editor.document.relations:
            if relation.type == relation_type and len(relation.arguments) == 2:
                return relation.arguments[0].role, relation.arguments[1].role
        return BRAT_ROLES if self.editor.document.origin.format == "brat" else MAE_ROLES

    def link(self, relation_type: str, first: str, second: str) -> Relation | None:
        """Link two annotations (one undo step); None when read-only or not two annotations."""
        document = self.editor.document
        relation_type = relation_type.strip()
        if self.editor.read_only or not relation_type or first == second or not self._allowed(relation_type):
            return None
        if first not in document or second not in document:
            return None
        role1, role2 = self.roles(relation_type)
        relation = Relation(
            document.new_id(self._prefix(relation_type)),
            relation_type,
            RelationKind.LINK,
            (Argument(role1, first), Argument(role2, second)),
        )
        self.editor.history.push(AddRelation(document, relation))
        return relation

    def _prefix(self, relation_type: str) -> str:
        document = self.editor.document
        if relation_type in document.id_prefixes:
            return document.id_prefixes[relation_type]
        same = [r.id for r in document.relations if r.type == relation_type]
        if same:
            return document.id_prefix(relation_type)
        return "R" if document.origin.format == "brat" else "L"

    def retype(self, relation_id: str, relation_type: str) -> None:
        old = self.editor.document.get_relation(relation_id)
        relation_type = relation_type.strip()
        if (
            self.editor.read_only
            or not relation_type
            or relation_type == old.type
            or not self._allowed(relation_type)
        ):
            return
        new = old.replace(type=relation_type)
        self.editor.history.push(
            ReplaceRelation(self.editor.document, old, new, f"link type {relation_type}")
        )

    def unlink(self, relation_id: str) -> None:
        """Delete a link, and the events and links that name it, as one undo step."""
        if self.editor.read_only:
            return
        document = self.editor.document
        doomed = [relation_id]
        changed = True
        while changed:
            changed = False
            for relation in document.relations:
                if relation.id not in doomed and set(relation.targets) & set(doomed):
                    doomed.append(relation.id)
                    changed = True
        commands: list[Command] = [RemoveRelation(document, i) for i in reversed(doomed)]
        self.editor.history.push_all(commands, f"delete link {relation_id}")
