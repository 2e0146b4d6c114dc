"""Links, events, equivalences, normalizations and document tags in i2b2 / MAE XML.

Both formats write them as MAE does, so MAE, MedTator and the i2b2 2012 tools read them:

* a link is an element named after its type whose arguments are attribute pairs
  ``ROLEID="P3" ROLEText="Smith"`` (``<TLINK fromID=.. fromText=.. toID=.. toText=.. />``);
* an event is an ``<EVENT type="..." triggerID=.. triggerText=..>`` link whose other
  arguments are its roles;
* an equivalence or a normalization is a link marked ``_kind="equivalence"`` /
  ``_kind="normalization"`` (MedTator keeps attributes starting with ``_`` as they are);
* a document tag has ``spans="-1~-1"`` in MAE and ``start="-1" end="-1"`` in i2b2 (MAE 1's
  non-consuming tags, which i2b2 2014 files descend from);
* a brat note of kind ``Lemma`` is the attribute ``_note_Lemma``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from lxml import etree

from annotator.core.document import Document
from annotator.core.relations import (
    NOTE_PREFIX,
    Argument,
    DocumentTag,
    Relation,
    RelationKind,
)
from annotator.errors import StorageError

Pairs = Sequence[tuple[str, str]]
KIND_ATTRIBUTE = "_kind"
NOTE_ATTRIBUTE = "_note_"
EVENT_TAG = "EVENT"
EVENT_TYPE = "type"
TRIGGER = "trigger"
EQUIVALENCE_ROLE = "arg"
NORMALIZATION_ROLE = "target"
# i2b2: a later fragment of a discontinuous tag names the tag holding the first one.
CONTINUES = "continues"
# Asking libxml2 builds an element; a document repeats a handful of names thousands of times.
_NAME_VERDICTS: dict[str, bool] = {}
_MAX_VERDICTS = 4096
_KINDS = {kind.value: kind for kind in (RelationKind.EQUIVALENCE, RelationKind.NORMALIZATION)}


def link_arguments(attributes: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """A link's ``(role, id)`` pairs: every ``ROLEID`` with a ``ROLEText`` beside it."""
    attributes = list(attributes)
    names = {name for name, _ in attributes}
    return [
        (name[:-2], value)
        for name, value in attributes
        if name.endswith("ID") and len(name) > 2 and f"{name[:-2]}Text" in names
    ]


def model_name(name: str) -> str:
    """An XML attribute name as the model names it (``_note_Lemma`` -> ``#Lemma``)."""
    return NOTE_PREFIX + name[len(NOTE_ATTRIBUTE) :] if name.startswith(NOTE_ATTRIBUTE) else name


def xml_name(name: str, document: Document) -> str:
    """A model attribute name as XML writes it; refused when XML cannot name it."""
    written = NOTE_ATTRIBUTE + name[len(NOTE_PREFIX) :] if name.startswith(NOTE_PREFIX) else name
    return check_name(written, document)


def is_xml_name(name: str) -> bool:
    """Whether ``name`` can name an XML element or attribute: an XML 1.0 Name without a colon.

    libxml2 decides, the parser our reader and ``validate`` use, so the writer and the reader
    cannot disagree; a regular expression's ``\\w`` or ``$`` let ``PAT\u00b2`` or a trailing
    newline through. Readers of labels add an ASCII rule of their own (``check_label``).
    """
    verdict = _NAME_VERDICTS.get(name)
    if verdict is None:
        # lxml reads "{uri}name" as a namespaced name, which would write an undeclared prefix.
        verdict = not name.startswith("{")
        if verdict:
            try:
                etree.Element(name)
            except ValueError:
                verdict = False
        if len(_NAME_VERDICTS) < _MAX_VERDICTS:  # a hostile file's endless names must not grow it
            _NAME_VERDICTS[name] = verdict
    return verdict


def check_name(name: str, document: Document) -> str:
    if not is_xml_name(name):
        raise StorageError(
            f"document {document.doc_id}: {name!r} cannot name an XML element or attribute",
            document.origin.path,
        )
    return name


def relation_from_xml(tag: str, attributes: Pairs, relation_id: str) -> Relation:
    """A link element (one with argument pairs) as a relation."""
    arguments = link_arguments(attributes)
    argument_names = {f"{role}{suffix}" for role, _ in arguments for suffix in ("ID", "Text")}
    values = dict(attributes)
    kind = _KINDS.get(values.get(KIND_ATTRIBUTE, ""), RelationKind.LINK)
    roles = [role for role, _ in arguments]
    if kind is RelationKind.LINK and tag == EVENT_TAG and TRIGGER in roles:
        kind = RelationKind.EVENT
    skipped = {"id", "comment", KIND_ATTRIBUTE} | argument_names
    if kind is RelationKind.EVENT:
        skipped.add(EVENT_TYPE)
    rest = tuple((model_name(n), v) for n, v in attributes if n not in skipped)
    trigger = ""
    if kind is RelationKind.EVENT:
        trigger = dict(arguments)[TRIGGER]
        arguments = [(role, target) for role, target in arguments if role != TRIGGER]
    if kind is RelationKind.EQUIVALENCE:
        arguments = [("", target) for _, target in arguments]
    return Relation(
        id=relation_id,
        type=(values.get(EVENT_TYPE) or tag) if kind is RelationKind.EVENT else tag,
        kind=kind,
        arguments=tuple(Argument(role, target) for role, target in arguments),
        trigger=trigger,
        attributes=rest,
        comment=values.get("comment", ""),
    )


def relation_element(relation: Relation) -> str:
    """The element a relation is written as."""
    return EVENT_TAG if relation.kind is RelationKind.EVENT else relation.type


def relation_to_xml(
    relation: Relation, document: Document, text_of: Callable[[str], str], original: Pairs = ()
) -> list[tuple[str, str]]:
    """A relation's attributes, in the order of ``original`` (the element as read) where
    it names them; a ``comment`` is written only when not empty or read."""
    check_name(relation_element(relation), document)
    arguments: list[tuple[str, str]] = []
    if relation.kind is RelationKind.EVENT:
        arguments.append((TRIGGER, relation.trigger))
    for number, argument in enumerate(relation.arguments):
        role = f"{EQUIVALENCE_ROLE}{number}" if relation.kind is RelationKind.EQUIVALENCE else argument.role
        arguments.append((role, argument.target))
    generated: list[tuple[str, str]] = [("id", relation.id)]
    if relation.kind is RelationKind.EVENT:
        generated.append((EVENT_TYPE, relation.type))
    elif relation.kind is not RelationKind.LINK:
        generated.append((KIND_ATTRIBUTE, relation.kind.value))
    for role, target in arguments:
        check_name(f"{role}ID", document)
        generated += [(f"{role}ID", target), (f"{role}Text", text_of(target) if target else "")]
    generated += [(xml_name(name, document), value) for name, value in relation.attributes]
    if relation.comment or any(name == "comment" for name, _ in original):
        generated.append(("comment", relation.comment))
    return in_original_order(generated, original)


def document_tag_from_xml(tag: str, attributes: Pairs, tag_id: str) -> DocumentTag:
    skipped = {"id", "spans", "text", "start", "end", "comment"}
    return DocumentTag(
        id=tag_id,
        tag=tag,
        attributes=tuple((model_name(n), v) for n, v in attributes if n not in skipped),
        comment=dict(attributes).get("comment", ""),
    )


def document_tag_to_xml(
    tag: DocumentTag, document: Document, mae: bool, original: Pairs = ()
) -> list[tuple[str, str]]:
    check_name(tag.tag, document)
    generated = [("id", tag.id)]
    if mae:
        # MAE 2 writes no spans for a document-level tag, MedTator -1~-1: keep what was read.
        spans = dict(original).get("spans", "-1~-1") if original else "-1~-1"
        generated += [("spans", spans)] if any(n == "spans" for n, _ in original) or not original else []
    else:
        generated += [("start", "-1"), ("end", "-1")]
    generated.append(("text", ""))
    generated += [(xml_name(name, document), value) for name, value in tag.attributes]
    if tag.comment or any(name == "comment" for name, _ in original):
        generated.append(("comment", tag.comment))
    if original and not any(name == "text" for name, _ in original):
        generated = [pair for pair in generated if pair[0] != "text"]
    return in_original_order(generated, original)


def in_original_order(generated: list[tuple[str, str]], original: Pairs) -> list[tuple[str, str]]:
    """``generated`` with the names ``original`` has first, in its order, then the others."""
    if not original:
        return generated
    values = dict(generated)
    ordered = [(name, values[name]) for name, _ in original if name in values]
    named = {name for name, _ in ordered}
    return ordered + [(name, value) for name, value in generated if name not in named]


def is_document_offsets(attributes: dict[str, str]) -> bool:
    """i2b2: ``start="-1" end="-1"`` marks a document tag (MAE 1's non-consuming tags)."""
    return attributes.get("start") == "-1" and attributes.get("end") == "-1"


def fragments_of(document: Document) -> dict[str, list[tuple[int, int]]]:
    """Id of each annotation that is not a later fragment -> its fragments, in order."""
    fragments: dict[str, list[tuple[int, int]]] = {}
    for annotation in document.annotations:
        head = annotation.fragment_of if annotation.fragment_of in document else annotation.id
        fragments.setdefault(head, []).append((annotation.start, annotation.end))
    return fragments


class TargetTexts:
    """What a link's ``ROLEText`` says for the id it names: the tag's text (a discontinuous
    tag's fragments joined by `` ... ``, as MAE writes them); "" for anything else."""

    def __init__(self, document: Document) -> None:
        self.text = document.text
        self.fragments = fragments_of(document)

    def __call__(self, item_id: str) -> str:
        return " ... ".join(self.text[s:e] for s, e in self.fragments.get(item_id, ()))
