"""The lines of a brat ``.ann`` file, parsed as brat parses them and written back.

=====  ==========================================================  =====================
kind   line                                                        record
=====  ==========================================================  =====================
T      ``T1<TAB>Person 0 5;9 12<TAB>Ann Lee``                       :class:`TextBound`
R      ``R1<TAB>Family Arg1:T1 Arg2:T2``                            :class:`RelationLine`
E      ``E1<TAB>Marry:T3 Person-Arg:T1 Person-Arg2:T2``             :class:`EventLine`
A, M   ``A1<TAB>Negation E1`` / ``A2<TAB>Mention T1 Name``          :class:`AttributeLine`
N      ``N1<TAB>Reference T1 Wikipedia:534366<TAB>Ann Lee``         :class:`NormalizationLine`
\\*    ``*<TAB>Equiv T1 T4``                                        :class:`EquivalenceLine`
#      ``#1<TAB>AnnotatorNotes T1<TAB>checked``                     :class:`NoteLine`
=====  ==========================================================  =====================

Lines are split at their first tab (id) and second tab (the free text after the data), as
brat does. ``M`` (brat's older name for a binary attribute) is read as ``A``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import InputError

# brat takes any id that starts with letters and a number (``T1a``, ``T12-b``); a dot is left
# out of the rest, since the later pieces of a tag in pieces are named ``T1.1``.
_ID = re.compile(r"^([A-Za-z]+|#[A-Za-z]*)([0-9]+)([A-Za-z0-9_-]*)$")
# BioNLP Shared Task 2013's normalizations, which brat reads (its BIONLP_ST_2013_COMPATIBILITY):
# ``Reference Annotation:T1 Referent:UniProt:P12345`` is ``Reference T1 UniProt:P12345``.
_BIONLP_2013 = (
    (re.compile(r"^(Reference) Annotation:(\S+) Referent:(\S+)"), r"\1 \2 \3"),
    (re.compile(r"^(Reference) Referent:(\S+) Annotation:(\S+)"), r"\1 \3 \2"),
)
# ASCII digits, a dozen at most: other scripts' digits are no offsets brat writes, and int()
# refuses over 4,300 digits.
_SPAN = re.compile(r"^([0-9]{1,12}) ([0-9]{1,12})$")
_NORMALIZATION = re.compile(r"^(\S+) (\S+) (\S+?):(\S+)$")
# Every character str.splitlines() breaks on, and the tab that separates columns.
LINE_BREAKS = str.maketrans(dict.fromkeys("\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029", " "))


@dataclass(frozen=True)
class TextBound:
    id: str
    type: str
    spans: tuple[tuple[int, int], ...]
    text: str


@dataclass(frozen=True)
class RelationLine:
    id: str
    type: str
    arguments: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class EventLine:
    id: str
    type: str
    trigger: str
    arguments: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class AttributeLine:
    id: str
    type: str
    target: str
    value: str | None  # None: a binary attribute (present or absent)


@dataclass(frozen=True)
class NormalizationLine:
    id: str
    type: str
    target: str
    resource: str
    entry: str
    text: str


@dataclass(frozen=True)
class EquivalenceLine:
    type: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class NoteLine:
    id: str
    type: str
    target: str
    text: str


AnnLine = (
    TextBound | RelationLine | EventLine | AttributeLine | NormalizationLine | EquivalenceLine | NoteLine
)


def parse_ann(text: str, path: str | Path | None = None) -> Iterator[tuple[int, AnnLine]]:
    """``(line number, record)`` for every non-blank line; a line brat would refuse raises."""
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        yield number, _parse_line(line, number, path)


def _parse_line(line: str, number: int, path: str | Path | None) -> AnnLine:
    line_id, _, rest = line.partition("\t")
    data, _, tail = rest.partition("\t")
    kind = line_id[:1]
    try:
        if kind == "*":
            equivalence_type, *members = data.split()
            if not members:
                raise ValueError
            return EquivalenceLine(equivalence_type, tuple(members))
        if _ID.match(line_id) is None:
            raise ValueError
        if kind == "T":
            return _text_bound(line_id, data, tail)
        if kind == "R":
            relation_type, *arguments = data.split(" ")
            pairs = tuple(_argument(a) for a in arguments if a)
            if len(pairs) != 2 or pairs[0][0] == pairs[1][0]:
                raise ValueError
            return RelationLine(line_id, relation_type, pairs)
        if kind == "E":
            head, *arguments = data.split(" ")
            event_type, trigger = head.split(":")
            return EventLine(line_id, event_type, trigger, tuple(_argument(a) for a in arguments if a))
        if kind in ("A", "M"):
            parts = data.split(" ", 2)
            if len(parts) < 2 or not all(parts[:2]):
                raise ValueError
            return AttributeLine(line_id, parts[0], parts[1], parts[2] if len(parts) == 3 else None)
        if kind == "N":
            for pattern, replacement in _BIONLP_2013:
                data = pattern.sub(replacement, data, count=1)
            match = _NORMALIZATION.match(data)
            if match is None:
                raise ValueError
            norm_type, target, resource, entry = match.groups()
            return NormalizationLine(line_id, norm_type, target, resource, entry, tail)
        if kind == "#":
            note_type, target = data.split()
            return NoteLine(line_id, note_type, target, tail)
    except ValueError:
        raise InputError(f"line {number}: malformed {kind or 'empty'} annotation", path) from None
    raise InputError(f"line {number}: unknown annotation kind {line_id[:1]!r}", path)


def _text_bound(line_id: str, data: str, tail: str) -> TextBound:
    label, _, spans = data.partition(" ")
    fragments = []
    for fragment in spans.split(";"):
        match = _SPAN.match(fragment)
        if match is None:
            raise ValueError
        start, end = int(match.group(1)), int(match.group(2))
        if start >= end:
            raise ValueError  # reversed: brat's own syntax error; empty: a tag on no text
        fragments.append((start, end))
    return TextBound(line_id, label, tuple(fragments), tail)


def _argument(text: str) -> tuple[str, str]:
    role, target = text.split(":")
    if not role or not target:
        raise ValueError
    return role, target


def line_of(record: AnnLine) -> str:
    """The ``.ann`` line of a record."""
    if isinstance(record, TextBound):
        spans = ";".join(f"{s} {e}" for s, e in record.spans)
        return f"{record.id}\t{record.type} {spans}\t{record.text.translate(LINE_BREAKS)}"
    if isinstance(record, RelationLine):
        return f"{record.id}\t{record.type} " + " ".join(f"{r}:{t}" for r, t in record.arguments)
    if isinstance(record, EventLine):
        arguments = "".join(f" {r}:{t}" for r, t in record.arguments)
        return f"{record.id}\t{record.type}:{record.trigger}{arguments}"
    if isinstance(record, AttributeLine):
        value = "" if record.value is None else f" {record.value.translate(LINE_BREAKS)}"
        return f"{record.id}\t{record.type} {record.target}{value}"
    if isinstance(record, NormalizationLine):
        data = f"{record.type} {record.target} {record.resource}:{record.entry}"
        return f"{record.id}\t{data}\t{_one_line(record.text)}"
    if isinstance(record, EquivalenceLine):
        return f"*\t{record.type} " + " ".join(record.members)
    return f"{record.id}\t{record.type} {record.target}\t{_one_line(record.text)}"


# Free text keeps its tabs (brat splits only the first two), not its line breaks.
_FREE_TEXT_BREAKS = str.maketrans(dict.fromkeys("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029", " "))


def _one_line(text: str) -> str:
    return text.translate(_FREE_TEXT_BREAKS)


def dropped_tail(line: str) -> str:
    """The free text after the data of an ``R``, ``E``, ``A`` / ``M`` or ``*`` line, which brat
    keeps and the document model has no place for ("" for other lines, or none)."""
    line_id, _, rest = line.removesuffix("\r").partition("\t")
    _, _, tail = rest.partition("\t")
    return tail.strip() if line_id[:1] in ("R", "E", "A", "M", "*") else ""
