"""What a note's annotations say beyond spans: links, events, equivalences, normalizations,
and tags that belong to the whole document.

One model holds what any supported format can express, so a conversion loses nothing the
target can hold:

* a **link** (MAE / MedTator link tag, brat ``R`` relation) names its arguments by role
  (``from``/``to``, ``Arg1``/``Arg2``, ``link_AE``...); a MAE link may have any number of
  them, a brat relation exactly two;
* an **event** (brat ``E``) has a trigger annotation and role arguments that name
  annotations or other events;
* an **equivalence** (brat ``*``) is an unordered set of annotations;
* a **normalization** (brat ``N``) ties one annotation to an entry of an external resource;
* a **document tag** (MAE / MedTator non-consuming or document-level tag) has no span.

Attributes ride on each of them as ``(name, value)`` pairs in file order. A name starting
with ``#`` is a brat note of that kind (``#Lemma``); the annotator's own note is ``comment``.
Annotations carry theirs in :attr:`Annotation.extra <annotator.core.annotation.Annotation.extra>`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

# The attributes a normalization keeps its reference in.
RESOURCE, ENTRY, ENTRY_TEXT = "resource", "entry", "entry_text"
NOTE_PREFIX = "#"


class RelationKind(StrEnum):
    LINK = "link"
    EVENT = "event"
    EQUIVALENCE = "equivalence"
    NORMALIZATION = "normalization"


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a relation: its role and the id it names ("" for an empty MAE slot)."""

    role: str
    target: str


@dataclass(frozen=True, slots=True)
class Relation:
    """A link, event, equivalence or normalization between annotations (immutable).

    Attributes
    ----------
    id: unique among the document's annotations, relations and document tags.
    type: the link tag, relation, event, equivalence or normalization type.
    kind: which of those it is.
    arguments: in order; an equivalence's members have the role "".
    trigger: an event's trigger annotation.
    attributes: other attributes, in file order (a normalization's reference among them).
    comment: the annotator's note.
    """

    id: str
    type: str
    kind: RelationKind = RelationKind.LINK
    arguments: tuple[Argument, ...] = ()
    trigger: str = ""
    attributes: tuple[tuple[str, str], ...] = ()
    comment: str = ""

    @property
    def targets(self) -> list[str]:
        """Every id this relation names (trigger first), empty slots left out."""
        named = [self.trigger] if self.trigger else []
        return named + [a.target for a in self.arguments if a.target]

    @property
    def filled(self) -> list[Argument]:
        """The arguments that name something."""
        return [a for a in self.arguments if a.target]

    def attribute(self, name: str, default: str = "") -> str:
        return next((value for key, value in self.attributes if key == name), default)

    def replace(self, **changes: object) -> Relation:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def renamed(self, ids: dict[str, str]) -> Relation:
        """A copy whose trigger and arguments name ``ids[old]`` instead of ``old``."""
        return self.replace(
            trigger=ids.get(self.trigger, self.trigger),
            arguments=tuple(Argument(a.role, ids.get(a.target, a.target)) for a in self.arguments),
        )


@dataclass(frozen=True, slots=True)
class DocumentTag:
    """A tag without a span: about the whole note (MedTator's document-level tags, MAE's
    non-consuming tags).

    Attributes
    ----------
    id: unique among the document's annotations, relations and document tags.
    tag: its element name (``PYREXIA``).
    attributes: other attributes, in file order.
    comment: the annotator's note.
    """

    id: str
    tag: str
    attributes: tuple[tuple[str, str], ...] = ()
    comment: str = ""

    def replace(self, **changes: object) -> DocumentTag:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def set_attribute(pairs: tuple[tuple[str, str], ...], name: str, value: str) -> tuple[tuple[str, str], ...]:
    """``pairs`` with ``name`` set to ``value`` (in place when present, else appended)."""
    if any(key == name for key, _ in pairs):
        return tuple((key, value if key == name else old) for key, old in pairs)
    return (*pairs, (name, value))
