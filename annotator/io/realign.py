"""Repairing offsets that another tool counted differently, using each tag's ``text``.

Java and JavaScript tools (MAE, MedTator, INCEpTION) count UTF-16 code units, so every
character outside the Basic Multilingual Plane (emoji, some CJK) before a tag shifts its
offsets by one. Tools that read a file without XML line-end normalisation count CRLF as two
characters. Both shifts are recognised exactly; anything else falls back to the nearest
occurrence of the tag's text within a small window. A tag whose right place is ambiguous or
cannot be found is reported and left alone.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.history import Command, CompositeCommand, History, ReplaceAnnotation
from annotator.errors import printable_path
from annotator.io.i2b2 import parse_i2b2, write_i2b2
from annotator.io.xmlsafe import read_bytes

# How far (in code points, either side) the fallback search looks for the tag's text.
SEARCH_WINDOW = 64

_ATTRIBUTE_WHITESPACE = str.maketrans({"\n": " ", "\t": " ", "\r": " "})


def text_matches(text: str, start: int, end: int, expected: str) -> bool:
    """True when ``text[start:end]`` is ``expected``, allowing XML attribute whitespace normalisation.

    An XML parser turns a literal newline or tab inside an attribute value into a space, so a
    tag whose ``text`` attribute shows a line break as a space still matches.
    """
    if not 0 <= start <= end <= len(text):
        return False
    found = text[start:end]
    return found == expected or found.translate(_ATTRIBUTE_WHITESPACE) == expected


def _is_astral(char: str) -> bool:
    return ord(char) > 0xFFFF


def _is_line_feed(char: str) -> bool:
    return char == "\n"


def _is_either(char: str) -> bool:
    return char == "\n" or ord(char) > 0xFFFF


class UnitMap:
    """Converts between code points and a unit system in which some characters count twice.

    Parameters
    ----------
    text:
        The note text (code points).
    wide:
        Which characters count as two units (astral characters for UTF-16, line feeds for
        CRLF counting).
    """

    def __init__(self, text: str, wide: Callable[[str], bool]) -> None:
        self._length = len(text)
        positions = [index for index, char in enumerate(text) if wide(char)]
        # Unit position of the k-th wide character: its code-point index plus k.
        self._unit_positions = [index + k for k, index in enumerate(positions)]
        self._cp_positions = positions
        self.units = self._length + len(positions)

    @property
    def is_identity(self) -> bool:
        return not self._cp_positions

    def to_codepoint(self, unit: int) -> int | None:
        """The code-point offset of a unit offset; None inside a two-unit character or outside."""
        if not 0 <= unit <= self.units:
            return None
        k = bisect_right(self._unit_positions, unit - 2)
        if k < len(self._unit_positions) and self._unit_positions[k] == unit - 1:
            return None
        return unit - k

    def from_codepoint(self, offset: int) -> int:
        """The unit offset of a code-point offset."""
        return offset + bisect_right(self._cp_positions, offset - 1)


def utf16_map(text: str) -> UnitMap:
    """Code points <-> UTF-16 code units (Java and JavaScript string offsets)."""
    return UnitMap(text, _is_astral)


@dataclass(frozen=True)
class Repair:
    """A tag moved to where its text is."""

    tag_id: str
    old_start: int
    old_end: int
    new_start: int
    new_end: int
    reason: str

    def one_line(self, path: str | Path | None = None, written: bool = False) -> str:
        verb = "realigned" if written else "can realign"
        head = f"{printable_path(path)}: " if path is not None else ""
        line = (
            f"{head}[tag {printable_path(self.tag_id)} {self.old_start}-{self.old_end}] {verb} to "
            f"{self.new_start}-{self.new_end} ({self.reason})"
        )
        return line if written else line + "; add --write to save it"

    def to_dict(self) -> dict[str, object]:
        return {
            "tag_id": self.tag_id,
            "old": [self.old_start, self.old_end],
            "new": [self.new_start, self.new_end],
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Unresolved:
    """A tag whose text does not match and could not be placed safely."""

    tag_id: str
    start: int
    end: int
    reason: str

    def one_line(self, path: str | Path | None = None) -> str:
        head = f"{printable_path(path)}: " if path is not None else ""
        return (
            f"{head}[tag {printable_path(self.tag_id)} {self.start}-{self.end}] cannot realign: {self.reason}"
        )

    def to_dict(self) -> dict[str, object]:
        return {"tag_id": self.tag_id, "offsets": [self.start, self.end], "reason": self.reason}


@dataclass
class RealignResult:
    repairs: list[Repair] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    # Other hard links to the file written: they keep the old text (see realign_file).
    other_links: int = 0


class Realigner:
    """Finds the right offsets of tags in one text; the unit maps are built once, on demand."""

    def __init__(self, text: str, window: int = SEARCH_WINDOW) -> None:
        self.text = text
        self.window = window
        self._maps: dict[str, UnitMap] = {}

    def _map(self, name: str) -> UnitMap:
        if name not in self._maps:
            wide = {"utf16": _is_astral, "crlf": _is_line_feed, "both": _is_either}[name]
            self._maps[name] = UnitMap(self.text, wide)
        return self._maps[name]

    def locate(self, start: int, end: int, expected: str) -> tuple[int, int, str] | str:
        """``(start, end, reason)`` of the repair, or a string saying why there is none.

        Offsets that already match return themselves with the reason ``"ok"``.
        """
        if text_matches(self.text, start, end, expected):
            return start, end, "ok"
        if not expected:
            return "the tag has no text to look for"
        for name, reason in (
            ("utf16", "offsets counted in UTF-16 code units"),
            ("crlf", "offsets counted CRLF line ends as two characters"),
            ("both", "offsets counted in UTF-16 units with CRLF line ends"),
        ):
            unit_map = self._map(name)
            if unit_map.is_identity:
                continue
            new_start, new_end = unit_map.to_codepoint(start), unit_map.to_codepoint(end)
            if (
                new_start is not None
                and new_end is not None
                and text_matches(self.text, new_start, new_end, expected)
            ):
                return new_start, new_end, reason
        return self._search(start, end, expected)

    def _search(self, start: int, end: int, expected: str) -> tuple[int, int, str] | str:
        pattern = re.compile("".join("[ \t\n\r]" if c == " " else re.escape(c) for c in expected))
        anchor = max(0, min(start, len(self.text)))
        low = max(0, anchor - self.window)
        high = min(len(self.text), max(anchor, min(end, len(self.text))) + self.window + len(expected))
        best: list[int] = []
        best_distance: int | None = None
        position = low
        while True:
            match = pattern.search(self.text, position, high)
            if match is None:
                break
            distance = abs(match.start() - start)
            if best_distance is None or distance < best_distance:
                best, best_distance = [match.start()], distance
            elif distance == best_distance:
                best.append(match.start())
            position = match.start() + 1
        if not best:
            return f"text not found within {self.window} characters"
        if len(best) > 1:
            return f"text found {len(best)} times at the same distance"
        found = best[0]
        return found, found + len(expected), f"nearest occurrence, {best_distance} characters away"


def realign_tags(
    text: str, tags: Iterable[tuple[str, int, int, str]], window: int = SEARCH_WINDOW
) -> RealignResult:
    """Repairs for ``(tag_id, start, end, text)`` tuples whose text does not match."""
    realigner = Realigner(text, window)
    result = RealignResult()
    for tag_id, start, end, expected in tags:
        found = realigner.locate(start, end, expected)
        if isinstance(found, str):
            result.unresolved.append(Unresolved(tag_id, start, end, found))
        elif found[2] != "ok":
            result.repairs.append(Repair(tag_id, start, end, found[0], found[1], found[2]))
    return result


def realign_document(document: Document, window: int = SEARCH_WINDOW) -> RealignResult:
    """Repairs for every annotation of a document whose ``text`` does not match its offsets."""
    return realign_tags(document.text, ((a.id, a.start, a.end, a.text) for a in document.annotations), window)


def apply_repairs(
    document: Document, repairs: Iterable[Repair], history: History | None = None
) -> Command | None:
    """Move the repaired annotations, as one undoable command.

    The ``text`` of each moved annotation becomes the exact slice of the note text (it may
    have shown a line break as a space).
    """
    commands: list[Command] = []
    for repair in repairs:
        old: Annotation = document.get(repair.tag_id)
        new = old.replace(
            start=repair.new_start, end=repair.new_end, text=document.text[repair.new_start : repair.new_end]
        )
        commands.append(ReplaceAnnotation(document, old, new, "realign"))
    if not commands:
        return None
    if history is not None:
        return history.push_all(commands, "realign offsets")
    command = CompositeCommand(commands, "realign offsets")
    command.apply()
    return command


def realign_file(path: str | Path, write: bool = False, window: int = SEARCH_WINDOW) -> RealignResult:
    """Find (and with ``write``, save atomically) offset repairs of one i2b2 file.

    Raises
    ------
    InputError
        The file cannot be read as an i2b2 document; nothing is written.
    """
    document = parse_i2b2(read_bytes(path), path, check_offsets=False)
    result = realign_document(document, window)
    if write and result.repairs:
        apply_repairs(document, result.repairs)
        # Repaired in place: through a link, the file it names (renaming over the link would
        # leave that file broken and turn the link into a copy). A hard link cannot be kept
        # by an atomic rename: the other names keep the old text, as after `sed -i`, and
        # the caller says so.
        target = Path(path).resolve()
        result.other_links = max(target.stat().st_nlink - 1, 0)
        write_i2b2(document, target)
    return result
