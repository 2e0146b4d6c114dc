"""How a MAE / MedTator file was laid out, so an edited file changes only what was edited.

Every tag of the file is in the document model (annotations, relations, document tags);
this layout remembers the rest: the task's root element and its attributes, ``<META>`` and
other root children, the order of the tags, each tag's attributes as written (their order,
a text attribute that differs from the spans in case...), and the attribute set each tag
name carries in the file (for new tags of that name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotator.core.document import Document
from annotator.core.relations import DocumentTag, Relation

LAYOUT_KEY = "mae"


@dataclass(frozen=True)
class OriginalTag:
    """An extent tag as the file stated it, so an untouched tag is written back as it was.

    Attributes
    ----------
    attributes: every attribute, in file order.
    spans: the ``spans`` value as written (UTF-16 units).
    fragments: the fragments in code points; one annotation holds each.
    type_attribute: the attribute the annotation's type came from (``TYPE``, ``type``), or "".
    """

    tag: str
    attributes: tuple[tuple[str, str], ...]
    spans: str
    fragments: tuple[tuple[int, int], ...]
    type_attribute: str = ""


@dataclass(frozen=True)
class OriginalItem:
    """A link or document tag as the file stated it, and what it was read as."""

    tag: str
    attributes: tuple[tuple[str, str], ...]
    item: Relation | DocumentTag


@dataclass
class MaeLayout:
    """The parts of a MAE file that are not in the document model.

    Attributes
    ----------
    root_tag: the task name (MAE and MedTator refuse a file whose root is not it).
    text: the note as read; the layout is used only while the document's text is this one,
        so a de-identified copy never carries the original text in a link's ``fromText``.
    order: the ids of the TAGS children in file order.
    originals: annotation id -> the extent tag as read.
    items: relation or document tag id -> the element as read.
    before, after: other root children (serialised), before and after TAGS (``<META>``...).
    attribute_sets: tag name -> the attribute names its tags carry in this file, in order,
        for new tags of that name.
    """

    root_tag: str
    text: str
    root_attributes: tuple[tuple[str, str], ...] = ()
    order: list[str] = field(default_factory=list)
    originals: dict[str, OriginalTag] = field(default_factory=dict)
    items: dict[str, OriginalItem] = field(default_factory=dict)
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    attribute_sets: dict[str, tuple[str, ...]] = field(default_factory=dict)


def mae_layout(document: Document) -> MaeLayout | None:
    """The MAE layout of a document, while its text is still the one read (else None)."""
    layout = document.origin.layout.get(LAYOUT_KEY)
    if isinstance(layout, MaeLayout) and layout.text == document.text:
        return layout
    return None
