"""What a MAE / MedTator file holds beyond PHI spans, carried through load-edit-save.

The core edits extent tags with one span. A MAE file also holds link tags (``fromID``,
``toID``...), non-consuming and document-level tags (``spans="-1~-1"``), the later
fragments of discontinuous tags, ``<META>`` and attributes we have no field for. The reader
puts them here, on ``Document.origin.layout["mae"]``, and the writer puts them back, so a
file opened, edited and saved loses nothing it did not touch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotator.core.document import Document

LAYOUT_KEY = "mae"


@dataclass(frozen=True)
class KeptTag:
    """A tag the core cannot edit, kept as it stands (shown read-only in the window).

    Attributes
    ----------
    kind: ``link`` (it has arguments), ``non-consuming`` (``spans="-1~-1"`` or empty) or
        ``document`` (no ``spans`` at all: a document-level label).
    """

    tag: str
    attributes: tuple[tuple[str, str], ...]
    kind: str

    @property
    def id(self) -> str:
        return dict(self.attributes).get("id", "")

    def arguments(self) -> list[tuple[str, str]]:
        """A link's ``(argument, target id)`` pairs (``fromID="P1"`` -> ``("from", "P1")``)."""
        names = {name for name, _ in self.attributes}
        return [
            (name[:-2], value)
            for name, value in self.attributes
            if name.endswith("ID") and f"{name[:-2]}Text" in names
        ]

    @property
    def summary(self) -> str:
        """One line for a list: the non-empty attributes but id and the text-bearing ones.

        Argument texts (``fromText``) and ``text`` repeat the note, so they stay out of it.
        """
        shown = [
            f"{name}={value}"
            for name, value in self.attributes
            if value and name != "id" and name != "text" and not name.endswith("Text")
        ]
        return " ".join(shown)


@dataclass(frozen=True)
class OriginalTag:
    """An extent tag as the file stated it, so an untouched tag is written back as it was.

    Attributes
    ----------
    attributes: every attribute, in file order.
    spans: the ``spans`` value as written (UTF-16 units).
    fragments: the fragments in code points; one annotation holds each.
    fragment_ids: the ids of the annotations holding the fragments after the first.
    type_attribute: the attribute the annotation's type came from (``TYPE``, ``type``), or "".
    """

    tag: str
    attributes: tuple[tuple[str, str], ...]
    spans: str
    fragments: tuple[tuple[int, int], ...]
    fragment_ids: tuple[str, ...] = ()
    type_attribute: str = ""


@dataclass
class MaeLayout:
    """The parts of a MAE file that are not PHI annotations.

    Attributes
    ----------
    root_tag: the task name (MAE and MedTator refuse a file whose root is not it).
    text: the note as read; the layout is used only while the document's text is this one,
        so a de-identified copy never carries the original text in a link's ``fromText``.
    order: the TAGS children in file order: annotation ids and kept tags.
    originals: annotation id -> the tag as read.
    fragment_of: id of an annotation holding a later fragment -> the id of its tag.
    before, after: other root children (serialised), before and after TAGS (``<META>``...).
    attribute_sets: tag name -> the attribute names its tags carry in this file, in order,
        for new tags of that name.
    """

    root_tag: str
    text: str
    root_attributes: tuple[tuple[str, str], ...] = ()
    order: list[str | KeptTag] = field(default_factory=list)
    originals: dict[str, OriginalTag] = field(default_factory=dict)
    fragment_of: dict[str, str] = field(default_factory=dict)
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    attribute_sets: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def kept(self) -> list[KeptTag]:
        return [item for item in self.order if isinstance(item, KeptTag)]


def mae_layout(document: Document) -> MaeLayout | None:
    """The MAE layout of a document, while its text is still the one read (else None)."""
    layout = document.origin.layout.get(LAYOUT_KEY)
    if isinstance(layout, MaeLayout) and layout.text == document.text:
        return layout
    return None


def kept_tags(document: Document) -> list[KeptTag]:
    """The links, non-consuming and document-level tags of a document read from MAE."""
    layout = mae_layout(document)
    return layout.kept if layout is not None else []
