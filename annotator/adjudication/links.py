"""Links in the gold: the ones every version holds, between tags the gold holds.

Adjudication decides tags unit by unit; a link (a relation between tags) follows them. A link
that every annotator made (same type and kind, the same roles naming tags over the same
offsets, the same attributes) is carried into the gold when the gold holds one tag over each
span it names: the tags' types are adjudicated as tags, so a link follows whichever type the
gold took. A link the versions disagree on, or that names a tag the gold left out, is no agreed
judgement: it is counted, so the command can say how many links the gold does not hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.relations import Argument, Relation, RelationKind

# A tag's span: where the versions and the gold name the same tag.
_TagKey = tuple[int, int]
# What a link says, with its ids replaced by the keys of the tags they name.
_LinkKey = tuple[
    str, RelationKind, _TagKey | None, tuple[tuple[str, _TagKey | None], ...], tuple[tuple[str, str], ...]
]


def _tag_key(annotation: Annotation) -> _TagKey:
    return (annotation.start, annotation.end)


def _link_key(document: Document, relation: Relation) -> _LinkKey | None:
    """The link in terms of tags, or None when it names something that is no tag."""

    def key(target: str) -> _TagKey | None:
        annotation = document.find(target)
        return _tag_key(annotation) if annotation is not None else None

    if any(document.find(target) is None for target in relation.targets):
        return None
    arguments = tuple((a.role, key(a.target) if a.target else None) for a in relation.arguments)
    trigger = key(relation.trigger) if relation.trigger else None
    return (relation.type, relation.kind, trigger, arguments, relation.attributes)


def agreed_links(versions: Sequence[Document], gold: Document) -> tuple[list[Relation], int]:
    """The links to put in ``gold`` (fresh ids, naming gold tags), and how many distinct links
    of the versions are left out."""
    by_version: list[dict[_LinkKey, Relation]] = []
    unreadable = 0
    for document in versions:
        links: dict[_LinkKey, Relation] = {}
        for relation in document.relations:
            link = _link_key(document, relation)
            if link is None:
                unreadable += 1
            else:
                links.setdefault(link, relation)
        by_version.append(links)
    every = set().union(*by_version) if by_version else set()
    agreed = set.intersection(*(set(links) for links in by_version)) if by_version else set()
    spans: dict[_TagKey, list[str]] = {}
    for annotation in gold:
        spans.setdefault(_tag_key(annotation), []).append(annotation.id)
    # Two gold tags over one span (B took both versions): which one a link names is no one's call.
    gold_ids = {span: ids[0] for span, ids in spans.items() if len(ids) == 1}
    carried: list[Relation] = []
    numbers = (f"L{n}" for n in range(1, 1 << 30))
    for link in sorted(agreed, key=repr):
        named = [link[2], *(tag for _, tag in link[3])]
        if not all(tag is None or tag in gold_ids for tag in named):
            continue
        relation = by_version[0][link]
        trigger, arguments = link[2], link[3]
        carried.append(
            relation.replace(
                id=next(i for i in numbers if not gold.has_id(i)),
                trigger=gold_ids[trigger] if trigger is not None else "",
                arguments=tuple(
                    Argument(role, gold_ids[tag] if tag is not None else "") for role, tag in arguments
                ),
            )
        )
    return carried, len(every) - len(carried) + unreadable
