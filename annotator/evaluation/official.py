"""``--mode i2b2``: the 42 PHI tables of the official 2014 i2b2/UTHealth evaluation script.

This module reproduces, number for number, what ``evaluate.py phi SYSTEM/ GOLD/`` of the
official script (kotfic/i2b2_evaluation_scripts, master) prints, including its quirks
(see docs/evaluation.md for the list and for how the clean mode fixes each one):

* documents are paired by the ``NNN-NN`` id in the file name; only ids present on both
  sides are scored;
* every comparison is a per-document *set* operation, so exact duplicates count once;
* strict keys compare ``start`` and ``end`` as strings and ``TYPE`` case-insensitively;
* relaxed equality is "same category, start string and upper-cased TYPE, ends at most 2
  apart", evaluated with the set semantics of CPython (near-duplicates collapse in parse
  order, TP counted over the smaller set, no one-to-one pairing);
* tokens are ASCII ``[A-Za-z0-9]+`` runs of each tag's slice of TEXT, keyed by (category,
  TYPE as written, start, end); a tag without any such run gives one empty token at the
  end of its slice;
* macro P and R are means of per-document values (0 for 0/0), macro F1 is computed from
  them (``nan`` when both are 0), SD is the population SD;
* the HIPAA filter matches category and TYPE by case-sensitive prefix and its ID/IDNUM
  pattern never matches.

Everything is computed in one pass over each document: tags are parsed and tokenised once,
and each table is a count over integer-coded keys, so the 42 tables cost about as much as
one of the original script's.
"""

from __future__ import annotations

import bisect
import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

from lxml import etree

from annotator.errors import InputError, TextMismatchError, printable_path
from annotator.evaluation import float_sums
from annotator.evaluation.official_warnings import PLAIN_TYPES, RISK_NAMES, py2_int, tag_warnings
from annotator.io.xmlsafe import parse_xml, read_bytes

# Element names read from TAGS, in the order the official script (under Python 2) parses them.
PARSE_ORDER = ("PHI", "CONTACT", "NAME", "DATE", "AGE", "PROFESSION", "ID", "OTHER", "LOCATION")
# The per-category tables, in the script's order (Python 2 dict order, PHI left out).
CATEGORY_TABLE_ORDER = PARSE_ORDER[1:]

# The script's HIPAA list: (category pattern, TYPE pattern), matched with ``re.match``
# (prefix, case-sensitive). The ID/"IDNUM " entry has a trailing space in the original,
# so it never matches a TYPE of exactly IDNUM.
HIPAA_PATTERNS = (
    ("NAME", "PATIENT"),
    ("LOCATION", "CITY"),
    ("LOCATION", "STREET"),
    ("LOCATION", "ZIP"),
    ("LOCATION", "ORGANIZATION"),
    ("DATE", ".*"),
    ("CONTACT", "PHONE"),
    ("CONTACT", "FAX"),
    ("CONTACT", "EMAIL"),
    ("ID", "SSN"),
    ("ID", "MEDICALRECORD"),
    ("ID", "HEALTHPLAN"),
    ("ID", "ACCOUNT"),
    ("ID", "LICENSE"),
    ("ID", "VEHICLE"),
    ("ID", "DEVICE"),
    ("ID", "BIOID"),
    ("ID", "IDNUM "),
    ("AGE", ".*"),
)
_HIPAA_REGEXES = tuple((re.compile(c), re.compile(t)) for c, t in HIPAA_PATTERNS)
# Python 2 matched this against the file name's bytes: ``\d`` is an ASCII digit only.
_ID_PARSER = re.compile(r"^(\d+)-(\d+)(.*)\.xml", re.ASCII)
_TOKEN = re.compile(r"[a-zA-Z0-9]+")
RELAXED_DISTANCE = 2

# Table kinds, the labels the script prints, in its order.
MAIN_LABELS = (
    "Token",
    "Strict",
    "Relaxed",
    "HIPPA Token",
    "HIPAA Strict",
    "HIPAA Relaxed",
    "Binary Token",
    "Binary Strict",
    "Binary HIPPA Token",
    "Binary HIPAA Strict",
)
CATEGORY_SUFFIXES = ("Token", "Strict", "HIPPA Token", "Binary HIPAA Strict")
TABLE_LABELS = MAIN_LABELS + tuple(
    f"{category} {suffix}" for category in CATEGORY_TABLE_ORDER for suffix in CATEGORY_SUFFIXES
)
_INDEX = {label: i for i, label in enumerate(TABLE_LABELS)}
# Where each category's counts start in a document's flat list, per table suffix.
_CATEGORY_INDEX = {
    suffix: {category: 3 * _INDEX[f"{category} {suffix}"] for category in CATEGORY_TABLE_ORDER}
    for suffix in CATEGORY_SUFFIXES
}


def hipaa_match(category: str, type_: str) -> bool:
    """The official HIPAA predicate (prefix match, case-sensitive, IDNUM never matches)."""
    return any(c.match(category) and t.match(type_) for c, t in _HIPAA_REGEXES)


# -- reading --------------------------------------------------------------------------------
RawTagTuple = tuple[str, str, str, str]  # (category, start, end, TYPE) as written


@dataclass
class OfficialDocument:
    """One file as the official script sees it.

    Attributes
    ----------
    doc_id: ``PPP-RR`` from the file name (``stem-`` when the name does not fit).
    sys_id: whatever follows the id in the file name (``300-01runA.xml`` -> ``runA``).
    text: the TEXT content after XML parsing; ``None`` when the script's lxml gives None
        (no TEXT element, ``<TEXT/>``, or TEXT opening with a comment or an element), which
        is not the same as an empty text.
    tags: (category, start, end, TYPE) strings in the script's parse order.
    warnings: the script's WARNING lines for this file.
    """

    doc_id: str
    sys_id: str
    text: str | None
    tags: list[RawTagTuple]
    path: Path | None = None
    #: the WARNING lines the script prints while reading this file
    warnings: list[str] = field(default_factory=list)


def official_ids(file_name: str) -> tuple[str, str]:
    """(document id, system id) as the script derives them from a file name."""
    base = os.path.basename(file_name)
    match = _ID_PARSER.match(base)
    if match is None:
        return os.path.splitext(base)[0] + "-", ""
    return f"{match[1]}-{match[2]}", match[3]


def parse_official(data: bytes, path: str | Path) -> OfficialDocument:
    """Parse i2b2 bytes keeping the attribute strings exactly as written.

    Raises
    ------
    InputError
        Where the official script crashes while reading the file: bytes that are not UTF-8,
        XML it cannot parse, no TAGS element, or a tag it cannot read
        (:func:`annotator.evaluation.official_warnings.tag_warnings`).
    """
    try:
        data.decode("utf-8")  # the script decodes every file as UTF-8 before parsing it
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start}); the official "
            "script reads every file as UTF-8 and crashes on this one",
            path,
        ) from None
    root = _parse_as_the_script(data, path)
    text: str | None = None
    text_element = tags_element = None
    for child in root:
        if child.tag == "TEXT" and text_element is None:
            text_element = child
            text = child.text
        elif child.tag == "TAGS" and tags_element is None:
            tags_element = child
    if tags_element is None:
        raise InputError(
            f"no TAGS element under <{printable_path(str(root.tag))}> (the official script crashes on such a file)",
            path,
        )
    by_name: dict[str, list[RawTagTuple]] = {name: [] for name in PARSE_ORDER}
    checked: dict[str, list[Any]] = {}  # the tags the script may warn about, by element name
    for element in tags_element:
        name = element.tag
        bucket = by_name.get(name)  # type: ignore[call-overload]
        if bucket is None:  # the script ignores unknown elements, but builds risk-factor tags
            if name in RISK_NAMES:
                checked.setdefault(name, []).append(element)
            continue
        get = element.get
        start, end, type_ = get("start"), get("end"), get("TYPE")
        if not (
            type_ in PLAIN_TYPES[name]
            and start is not None
            and end is not None
            and start.isdigit()
            and end.isdigit()
            and start.isascii()
            and end.isascii()
        ):
            checked.setdefault(name, []).append(element)
        bucket.append((name, start or "", end or "", type_ or ""))
    warnings = tag_warnings(checked, path) if checked else []
    doc_id, sys_id = official_ids(str(path))
    tags = [t for name in PARSE_ORDER for t in by_name[name]]
    return OfficialDocument(
        doc_id, sys_id, text, tags, path if isinstance(path, Path) else Path(path), warnings
    )


# libxml2 2.10 (the lxml 4.9 the script runs on) without huge_tree: the deepest nesting it
# reads, the longest CDATA section (bytes), and about the longest attribute value (bytes;
# "Huge input lookup" past about this many). The libxml2 we parse with is stricter on the
# first two, so a file it refuses is parsed again with huge_tree and these are checked.
_SCRIPT_MAX_DEPTH = 257
_SCRIPT_MAX_CDATA = 10_000_000
_SCRIPT_MAX_ATTRIBUTE = 9_999_988
_CDATA_START = re.compile(rb"<!\[CDATA\[")


def _parse_as_the_script(data: bytes, path: str | Path) -> Any:
    """Parse as the script's lxml does (no huge_tree), refusing in one line what it refuses."""
    try:
        return parse_xml(data, path, huge=False)
    except InputError as error:
        try:
            root = parse_xml(data, path, huge=True)
        except InputError:
            raise error from None
    problem = None
    for match in _CDATA_START.finditer(data):
        end = data.find(b"]]>", match.end())
        if end - match.end() > _SCRIPT_MAX_CDATA:
            problem = f"a CDATA section over {_SCRIPT_MAX_CDATA:,} bytes"
    for element in root.iter(etree.Element):
        if any(len(str(value).encode("utf-8")) > _SCRIPT_MAX_ATTRIBUTE for value in element.attrib.values()):
            problem = f"an attribute value over {_SCRIPT_MAX_ATTRIBUTE:,} bytes"
    depth = 0
    for event, _ in etree.iterwalk(root, events=("start", "end")):
        depth += 1 if event == "start" else -1
        if depth > _SCRIPT_MAX_DEPTH:
            problem = f"elements nested deeper than {_SCRIPT_MAX_DEPTH}"
            break
    if problem is None:
        return root  # within the script's limits (a long text outside CDATA, say)
    raise InputError(
        f"{problem}, which lxml refuses without huge_tree: the official script crashes on it", path
    )


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def read_official_folder(folder: str | Path, every_entry: bool = False) -> list[OfficialDocument]:
    """The files of a folder, parsed the official way, in ``os.listdir`` order (the order
    the script reads them in, which decides which of two files with one id is kept).

    The script reads every name ending in ``xml`` of a system folder, and every entry of the
    gold folder whatever its name (``every_entry``). An entry it would read that is a folder,
    or a file that does not parse, makes it crash: here that is an ``InputError``.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    names = [name for name in os.listdir(folder) if every_entry or name.endswith("xml")]
    with os.scandir(folder) as listing:  # a directory entry knows whether it is a folder: no stat
        folders = {entry.name for entry in listing if _is_dir(entry)}
    documents = []
    for name in names:
        path = folder / name
        if name in folders:
            raise InputError(
                "is a folder; the official script reads every "
                + ("entry of the gold folder" if every_entry else "name ending in xml")
                + " as a file and crashes on it",
                path,
            )
        try:
            documents.append(parse_official(read_bytes(path), path))
        except InputError as error:
            if every_entry and not name.endswith(".xml"):  # a .DS_Store, a README: say why it is read
                error.message += (
                    " (the official script reads every file of the gold folder, whatever its name)"
                )
                error.args = (error.one_line(),)
            raise
    return documents


# -- scoring --------------------------------------------------------------------------------
@dataclass
class OfficialTable:
    """One summary table: per-document counts and the scores the script prints.

    ``doc_ids``, ``tp``, ``fp`` and ``fn`` are aligned; the counts are those of the script's
    sets (after its deduplication), so ``tp + fn`` is not always the number of gold tags.
    """

    label: str
    doc_ids: list[str]
    tp: list[int]
    fp: list[int]
    fn: list[int]

    @property
    def n(self) -> int:
        return len(self.doc_ids)

    def _per_document(self) -> tuple[list[float], list[float]]:
        precision = [tp / (tp + fp) if tp + fp > 0 else 0.0 for tp, fp in zip(self.tp, self.fp, strict=True)]
        recall = [tp / (tp + fn) if tp + fn > 0 else 0.0 for tp, fn in zip(self.tp, self.fn, strict=True)]
        return precision, recall

    def scores(self) -> dict[str, float]:
        """Macro P/R with SD, macro F1, micro P/R/F1, exactly as the script computes them
        (numpy's sums: :mod:`annotator.evaluation.float_sums`)."""
        precision, recall = self._per_document()
        macro_p, macro_p_sd = float_sums.mean(precision), float_sums.std(precision)
        macro_r, macro_r_sd = float_sums.mean(recall), float_sums.std(recall)
        # numpy division: 0/0 is nan (the script prints nan here).
        both = macro_p + macro_r
        macro_f = 2 * ((macro_p * macro_r) / both) if both != 0 else math.nan
        tp, fp, fn = sum(self.tp), sum(self.fp), sum(self.fn)
        micro_p = tp / float(tp + fp) if tp + fp else 0.0
        micro_r = tp / float(tp + fn) if tp + fn else 0.0
        micro_f = 2 * ((micro_r * micro_p) / (micro_r + micro_p)) if micro_r + micro_p else 0.0
        return {
            "macro_precision": float(macro_p),
            "macro_precision_sd": float(macro_p_sd),
            "macro_recall": float(macro_r),
            "macro_recall_sd": float(macro_r_sd),
            "macro_f1": macro_f,
            "micro_precision": micro_p,
            "micro_recall": micro_r,
            "micro_f1": micro_f,
        }

    def to_dict(self) -> dict[str, object]:
        scores = self.scores()
        return {
            "label": self.label,
            "documents": self.n,
            "tp": sum(self.tp),
            "fp": sum(self.fp),
            "fn": sum(self.fn),
            **{k: (None if math.isnan(v) else v) for k, v in scores.items()},
        }


@dataclass
class OfficialRun:
    """The 42 tables of one system run (one ``sys_id``)."""

    sys_id: str
    tables: list[OfficialTable] = field(default_factory=list)

    def table(self, label: str) -> OfficialTable:
        for table in self.tables:
            if table.label == label:
                return table
        raise KeyError(label)


def _slice_tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if 0 <= start <= end <= len(text):  # nearly always
        runs = [m.span() for m in _TOKEN.finditer(text, start, end)]
        return runs or [(end, end)]
    # Python's slice of odd offsets (negative ones count from the end, as in the script).
    piece = text[start:end]
    runs = [(start + m.start(), start + m.end()) for m in _TOKEN.finditer(piece)]
    if not runs:
        position = start + len(piece)
        runs.append((position, position))
    return runs


class _Runs:
    """A document's ``[a-zA-Z0-9]+`` runs, to give the token units of many tags at once.

    The script cuts each tag's slice of the text into runs; for a tag inside the text those are
    the document's runs clipped to the tag. Taking, per label, the union of whole runs as
    merged index ranges makes a pile of nested tags cost the runs they cover once (a tuple per
    token per tag took gigabytes for a few thousand nested tags); the sets are the same.
    """

    __slots__ = ("ends", "runs", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.runs: list[tuple[int, int]] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def units(self, spans: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
        """The (start, end) token units of every span, as a set (the script's are sets)."""
        if self.text and not self.runs:  # found on first use: most notes have no long tag
            self.runs = [m.span() for m in _TOKEN.finditer(self.text)]
            self.starts = [a for a, _ in self.runs]
            self.ends = [b for _, b in self.runs]
        out: set[tuple[int, int]] = set()
        ranges: list[tuple[int, int]] = []
        for s, e in spans:
            if not 0 <= s <= e <= len(self.text):
                out.update(_slice_tokens(self.text, s, e))
                continue
            lo = bisect.bisect_right(self.ends, s)  # the first run ending after the start
            hi = bisect.bisect_left(self.starts, e)  # past the last run starting before the end
            if lo >= hi:
                out.add((e, e))  # no letter or digit: the script's one empty unit
                continue
            a, b = self.runs[lo]
            if a < s or b > e:  # cut by the tag's start (or, inside one run, by both ends)
                out.add((max(a, s), min(b, e)))
                lo += 1
            if lo < hi and self.runs[hi - 1][1] > e:  # cut by the tag's end
                out.add((self.runs[hi - 1][0], e))
                hi -= 1
            if lo < hi:
                ranges.append((lo, hi))
        ranges.sort()
        reached = 0
        for lo, hi in ranges:
            if hi > reached:
                out.update(self.runs[max(lo, reached) : hi])
                reached = hi
        return out


def _offset(value: str, doc: OfficialDocument) -> int:
    try:
        return py2_int(value)
    except ValueError:
        raise InputError(
            f"document {doc.doc_id}: offset {value!r} is not an integer (the official script crashes here)",
            doc.path,
        ) from None


_Derived = tuple[
    tuple[str, ...],  # strict key
    tuple[str, ...],  # binary strict key
    bool,  # passes the HIPAA filter
    tuple[str, str, str],  # relaxed key (name, START, TYPE)
    int,  # end as an int
    tuple[tuple[str, str, int, int], ...],  # token keys (of a short tag)
    tuple[tuple[int, int], ...],  # binary token keys (of a short tag)
    tuple[str, str, int, int] | None,  # a long tag's name, TYPE as written, start and end
]

# Tags longer than this get their token units from the document's runs, merged per label.
_LONG_TAG = 64


class _Side:
    """One side's sets for one document: every key, and the keys of HIPAA-passing items."""

    __slots__ = (
        "binary",
        "binary_h",
        "btokens",
        "btokens_h",
        "relaxed",
        "strict",
        "strict_h",
        "tokens",
        "tokens_h",
    )

    def __init__(self) -> None:
        self.strict: set[tuple[str, ...]] = set()
        self.strict_h: set[tuple[str, ...]] = set()
        self.binary: set[tuple[str, ...]] = set()
        self.binary_h: set[tuple[str, ...]] = set()
        self.tokens: set[tuple[str, str, int, int]] = set()
        self.tokens_h: set[tuple[str, str, int, int]] = set()
        self.btokens: set[tuple[int, int]] = set()
        self.btokens_h: set[tuple[int, int]] = set()
        self.relaxed: list[tuple[tuple[str, str, str], int, bool]] = []


# Attribute values of the cardiac-risk classes (tags.py): a --filter value among them filters
# on that attribute, which PHI tags do not have, so it keeps nothing.
_RISK_VALUES = frozenset(
    [
        *("before dct", "during dct", "after dct", "continuing"),
        *("mention", "a1c", "glucose", "event", "test", "symptom", "high bp"),
        *("high chol.", "high ldl", "high-ldl", "high-chol", "bmi", "waist circum."),
        *("present", "not present", "current", "past", "ever", "never", "unknown", ""),
        *(
            "ace inhibitor", "amylin", "anti diabetes", "arb", "aspirin", "beta blocker",
            "calcium channel blocker", "diuretic", "dpp4 inhibitors", "ezetimibe", "fibrate",
            "glp1 agonists", "meglitinides", "insulin", "metformin", "niacin", "nitrate", "obesity",
            "statin", "sulfonylureas", "thiazolidinedione", "thienopyridine",
        ),
    ]
)  # fmt: skip


@dataclass(frozen=True)
class OfficialFilter:
    """The script's ``--filter F,... [--invert] [--conjunctive]`` (``phi``).

    Each value is an element name (``NAME``: keep that category), a cardiac-risk attribute
    value (keeps nothing) or anything else (keeps everything, with a WARNING line). The
    filter applies to the Token, Strict and Relaxed tables; the HIPAA tables replace it by
    the HIPAA predicate and the per-category tables by their category, but ``--invert``
    (and, in the per-category HIPAA tables, a conjunction) stays on; Binary Token and Binary
    Strict are never filtered. With an empty ``--filter`` the script ignores all three.
    """

    values: tuple[str, ...]
    invert: bool = False
    conjunctive: bool = False

    def warnings(self) -> str:
        """The WARNING lines the script prints before reading anything."""
        return "".join(
            f'WARNING: could not find valid class attribute for "{value}", + skipping.\n'
            for value in self.values
            if value not in PARSE_ORDER and value not in _RISK_VALUES
        )

    def keeps(self, name: str) -> bool:
        """Whether a tag (or token) of element ``name`` passes the user's filter."""
        matches = [
            name == value if value in PARSE_ORDER else value not in _RISK_VALUES for value in self.values
        ]
        passed = all(matches) if self.conjunctive else any(matches)
        return passed != self.invert


class _DocumentScorer:
    """Counts for all 42 tables of one document pair.

    A filtered set in the script is the set of keys of the items passing the filter, so a
    key belongs to a HIPAA table when *some* item with that key passes (which matters when
    two items share a key but differ in TYPE case). Each side therefore keeps two sets.
    """

    def __init__(self) -> None:
        self._hipaa_cache: dict[tuple[str, str], bool] = {}

    def hipaa(self, name: str, type_: str) -> bool:
        key = (name, type_)
        value = self._hipaa_cache.get(key)
        if value is None:
            value = self._hipaa_cache[key] = hipaa_match(name, type_)
        return value

    def _derive(self, raw: RawTagTuple, doc: OfficialDocument, text: str) -> _Derived:
        name, start, end, type_ = raw
        start_u, end_u, type_u = start.upper(), end.upper(), type_.upper()
        # Plain ASCII digits (nearly every offset) convert directly; the rest as the script would.
        s = int(start) if start.isascii() and start.isdigit() else _offset(start, doc)
        e = int(end) if end.isascii() and end.isdigit() else _offset(end, doc)
        hipaa = self._hipaa_cache.get((name, type_))
        long = e - s > _LONG_TAG and s >= 0 and e <= len(text)
        runs = () if long else _slice_tokens(text, s, e)
        return (
            (name, start_u, end_u, type_u),
            (name, start_u, end_u, type_u) if name == "PHI" else (start_u, end_u),
            self.hipaa(name, type_) if hipaa is None else hipaa,
            (name, start_u, type_u),
            e,
            tuple([(name, type_, a, b) for a, b in runs]),
            tuple(runs),
            (name, type_, s, e) if long else None,  # its units are found with the others'
        )

    def _side(self, doc: OfficialDocument, runs: _Runs, cache: dict[RawTagTuple, _Derived]) -> _Side:
        every: list[_Derived] = []
        for raw in doc.tags:
            derived = cache.get(raw)
            if derived is None:
                derived = cache[raw] = self._derive(raw, doc, runs.text)
            every.append(derived)
        passing = [d for d in every if d[2]]
        # Sets built by comprehension: the same sets, a third of the time of adding one by one.
        side = _Side()
        side.strict = {d[0] for d in every}
        side.binary = {d[1] for d in every}
        side.tokens = {key for d in every for key in d[5]}
        side.btokens = {key for d in every for key in d[6]}
        side.relaxed = [(d[3], d[4], d[2]) for d in every]
        side.strict_h = {d[0] for d in passing}
        side.binary_h = {d[1] for d in passing}
        side.tokens_h = {key for d in passing for key in d[5]}
        side.btokens_h = {key for d in passing for key in d[6]}
        long = [d for d in every if d[7] is not None]
        if not long:
            return side
        # A pile of long tags costs the runs it covers once per label, not once per tag.
        by_label: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        passing_long: list[tuple[int, int]] = []
        for d in long:
            if d[7] is not None:
                name, type_, s, e = d[7]
                by_label[(name, type_)].append((s, e))
                if d[2]:
                    passing_long.append((s, e))
        for (name, type_), spans in by_label.items():
            keys = {(name, type_, a, b) for a, b in runs.units(spans)}
            side.tokens |= keys
            if self.hipaa(name, type_):  # the filter passes a label or not as a whole
                side.tokens_h |= keys
        side.btokens |= runs.units(span for spans in by_label.values() for span in spans)
        side.btokens_h |= runs.units(passing_long)
        return side

    def _derived(
        self, doc: OfficialDocument, runs: _Runs, cache: dict[RawTagTuple, _Derived]
    ) -> list[_Derived]:
        out = []
        for raw in doc.tags:
            derived = cache.get(raw)
            if derived is None:
                derived = cache[raw] = self._derive(raw, doc, runs.text)
            out.append(derived)
        return out

    @staticmethod
    def _sets(items: list[_Derived], runs: _Runs) -> tuple[list[set[Any]], list[Any]]:
        """strict, binary, token and binary-token sets and relaxed items of some tags."""
        strict = {d[0] for d in items}
        binary = {d[1] for d in items}
        tokens = {key for d in items for key in d[5]}
        btokens = {key for d in items for key in d[6]}
        by_label: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        for d in items:
            if d[7] is not None:
                name, type_, s, e = d[7]
                by_label[(name, type_)].append((s, e))
        for (name, type_), spans in by_label.items():
            tokens |= {(name, type_, a, b) for a, b in runs.units(spans)}
        if by_label:
            btokens |= runs.units(span for spans in by_label.values() for span in spans)
        return [strict, binary, tokens, btokens], [(d[3], d[4]) for d in items]

    def score_filtered(
        self, gold: OfficialDocument, system: OfficialDocument, chosen: OfficialFilter
    ) -> list[int]:
        """As :meth:`score`, under the script's --filter/--invert/--conjunctive."""
        counts = [0] * (3 * len(TABLE_LABELS))
        runs = _Runs(gold.text or "")
        cache: dict[RawTagTuple, _Derived] = {}
        g_all, s_all = self._derived(gold, runs, cache), self._derived(system, runs, cache)
        invert = chosen.invert

        def put(label: str, gs: set[Any], ss: set[Any]) -> None:
            base = 3 * _INDEX[label]
            both = len(gs & ss)
            counts[base : base + 3] = [both, len(ss) - both, len(gs) - both]

        def tables(
            keep: Callable[[_Derived], bool], labels: dict[int, str], relaxed: str | None = None
        ) -> None:
            g, g_relaxed = self._sets([d for d in g_all if keep(d)], runs)
            s, s_relaxed = self._sets([d for d in s_all if keep(d)], runs)
            for index, label in labels.items():
                put(label, g[index], s[index])
            if relaxed:
                base = 3 * _INDEX[relaxed]
                counts[base : base + 3] = list(relaxed_counts(g_relaxed, s_relaxed))

        def of_category(category: str, hipaa_too: bool) -> Callable[[_Derived], bool]:
            return lambda d: (d[0][0] == category and (d[2] or not hipaa_too)) != invert

        tables(lambda d: chosen.keeps(d[0][0]), {2: "Token", 0: "Strict"}, "Relaxed")
        tables(
            lambda d: d[2] != invert,
            {2: "HIPPA Token", 0: "HIPAA Strict", 3: "Binary HIPPA Token", 1: "Binary HIPAA Strict"},
            "HIPAA Relaxed",
        )
        tables(lambda d: True, {3: "Binary Token", 1: "Binary Strict"})
        for category in CATEGORY_TABLE_ORDER:
            tables(of_category(category, False), {2: f"{category} Token", 0: f"{category} Strict"})
            tables(
                of_category(category, True),
                {2: f"{category} HIPPA Token", 0: f"{category} Binary HIPAA Strict"},
            )
        return counts

    def score(self, gold: OfficialDocument, system: OfficialDocument) -> list[int]:
        """A flat list: for each table in TABLE_LABELS order, tp, fp, fn."""
        counts = [0] * (3 * len(TABLE_LABELS))
        runs = _Runs(gold.text or "")
        cache: dict[RawTagTuple, _Derived] = {}
        g = self._side(gold, runs, cache)
        s = self._side(system, runs, cache)

        def put(label: str, tp: int, fp: int, fn: int) -> None:
            base = 3 * _INDEX[label]
            counts[base] += tp
            counts[base + 1] += fp
            counts[base + 2] += fn

        def by_category(gs: set[Any], ss: set[Any], label: str, suffix: str) -> None:
            tp, fp, fn = gs & ss, ss - gs, gs - ss
            put(label, len(tp), len(fp), len(fn))
            where = _CATEGORY_INDEX[suffix]
            for index, found in enumerate((tp, fp, fn)):
                for name, n in Counter(map(itemgetter(0), found)).items():
                    if name != "PHI":
                        counts[where[name] + index] += n

        def plain(gs: set[Any], ss: set[Any], label: str) -> None:
            both = len(gs & ss)
            put(label, both, len(ss) - both, len(gs) - both)

        by_category(g.tokens, s.tokens, "Token", "Token")
        by_category(g.tokens_h, s.tokens_h, "HIPPA Token", "HIPPA Token")
        by_category(g.strict, s.strict, "Strict", "Strict")
        by_category(g.strict_h, s.strict_h, "HIPAA Strict", "Binary HIPAA Strict")
        plain(g.btokens, s.btokens, "Binary Token")
        plain(g.btokens_h, s.btokens_h, "Binary HIPPA Token")
        plain(g.binary, s.binary, "Binary Strict")
        plain(g.binary_h, s.binary_h, "Binary HIPAA Strict")
        put("Relaxed", *relaxed_counts([(k, e) for k, e, _ in g.relaxed], [(k, e) for k, e, _ in s.relaxed]))
        put(
            "HIPAA Relaxed",
            *relaxed_counts([(k, e) for k, e, h in g.relaxed if h], [(k, e) for k, e, h in s.relaxed if h]),
        )
        return counts


def relaxed_set(items: Iterable[tuple[tuple[str, str, str], int]]) -> dict[tuple[str, str, str], list[int]]:
    """Insert items into a CPython set under the relaxed equality: ends within 2 collapse.

    An item is dropped when an already kept item with the same key has an end at most 2
    away, so the first one in parse order survives (and the relation is not transitive).
    """
    groups: dict[tuple[str, str, str], list[int]] = {}
    for key, end in items:
        ends = groups.get(key)
        if ends is None:
            groups[key] = [end]
        elif all(abs(end - kept) > RELAXED_DISTANCE for kept in ends):
            ends.append(end)
    return groups


def _partnered(
    groups: dict[tuple[str, str, str], list[int]], others: dict[tuple[str, str, str], list[int]]
) -> int:
    """How many items of ``groups`` have at least one relaxed-equal item in ``others``."""
    n = 0
    for key, ends in groups.items():
        candidates = others.get(key)
        if candidates is None:
            continue
        if len(candidates) == 1 and len(ends) == 1:  # nearly every key: no generator needed
            n += -RELAXED_DISTANCE <= ends[0] - candidates[0] <= RELAXED_DISTANCE
        elif len(candidates) == 1:
            other = candidates[0]
            n += sum(1 for e in ends if -RELAXED_DISTANCE <= e - other <= RELAXED_DISTANCE)
        else:
            n += sum(
                1 for e in ends if any(-RELAXED_DISTANCE <= e - o <= RELAXED_DISTANCE for o in candidates)
            )
    return n


def relaxed_counts(
    gold: Sequence[tuple[tuple[str, str, str], int]], system: Sequence[tuple[tuple[str, str, str], int]]
) -> tuple[int, int, int]:
    """tp, fp, fn of the script's relaxed set operations.

    ``gold.intersection(sys)`` iterates over the smaller set (the system set when the sizes
    are equal) and counts its items with a partner in the other set; ``sys - gold`` and
    ``gold - sys`` count the items without a partner.
    """
    g = relaxed_set(gold)
    s = relaxed_set(system)

    g_total = sum(len(v) for v in g.values())
    s_total = sum(len(v) for v in s.values())
    s_partnered = _partnered(s, g)
    g_partnered = _partnered(g, s)
    tp = s_partnered if s_total <= g_total else g_partnered
    return tp, s_total - s_partnered, g_total - g_partnered


def score_official(
    gold: Sequence[OfficialDocument],
    system: Sequence[OfficialDocument],
    progress: Callable[[int, int], None] | None = None,
    chosen: OfficialFilter | None = None,
) -> list[OfficialRun]:
    """All 42 tables for every system run (one run per ``sys_id``), as the script computes them.

    Raises
    ------
    TextMismatchError
        When a paired gold and system document do not have the same TEXT (the script aborts).
    """
    from annotator.evaluation.official_verbose import official_document_order

    gold_by_id: dict[str, OfficialDocument] = {}
    for document in gold:
        gold_by_id[document.doc_id] = document  # the last one wins, as in the script
    runs_docs: dict[str, dict[str, OfficialDocument]] = {}
    for document in system:
        runs_docs.setdefault(document.sys_id, {})[document.doc_id] = document
    runs = []
    scorer = _DocumentScorer()
    total = sum(len(set(docs) & set(gold_by_id)) for docs in runs_docs.values())
    done = 0
    gold_ids = [document.doc_id for document in gold]
    for sys_id in sorted(runs_docs):
        docs = runs_docs[sys_id]
        # The script's order (Python 2 set order), which numpy's mean sums in.
        doc_ids = official_document_order(gold_ids, [d.doc_id for d in system if d.sys_id == sys_id])
        rows = []
        for doc_id in doc_ids:
            g, s = gold_by_id[doc_id], docs[doc_id]
            if g.text != s.text:
                raise TextMismatchError(
                    f"document {doc_id}: gold and system TEXT differ (the official script aborts)", s.path
                )
            if g.text is None and (g.tags or s.tags):
                raise InputError(
                    f"document {doc_id}: tags but no TEXT (no TEXT element, an empty one, or one opening "
                    "with a comment or an element); the official script crashes on it",
                    s.path if s.tags else g.path,
                )
            rows.append(scorer.score(g, s) if chosen is None else scorer.score_filtered(g, s, chosen))
            done += 1
            if progress is not None:
                progress(done, total)
        run = OfficialRun(sys_id)
        for index, label in enumerate(TABLE_LABELS):
            base = 3 * index
            run.tables.append(
                OfficialTable(
                    label=(f"{sys_id} {label}" if sys_id else label),
                    doc_ids=list(doc_ids),
                    tp=[row[base] for row in rows],
                    fp=[row[base + 1] for row in rows],
                    fn=[row[base + 2] for row in rows],
                )
            )
        runs.append(run)
    return runs


# -- printing -------------------------------------------------------------------------------
def format_number(value: float, digits: int) -> str:
    return format(float(value), f".{digits}")


def pad_bytes(value: str, width: int) -> str:
    """``"{:<width}".format(value)`` of Python 2 on a byte string: a name taken from a file
    name is bytes there, so it is padded by its UTF-8 length, not its length in characters."""
    return value + " " * (width - len(value.encode("utf-8", "surrogateescape")))


def format_table(table: OfficialTable) -> str:
    """One summary table, byte-identical to the script's output (trailing spaces included)."""
    scores = table.scores()
    row = "{:<25}{:<15}{:<15}{:<20}"
    lines = [
        # The label holds the run's sys_id, taken from file names: escaped like every path.
        pad_bytes(f"{printable_path(table.label)} ({table.n})", 25)
        + row.format("", "Measure", "Macro (SD)", "Micro (Primary)")[25:],
        "-" * 75,
        row.format(
            "Total",
            "Precision",
            f"{format_number(scores['macro_precision'], 4)} ({format_number(scores['macro_precision_sd'], 2)})",
            format_number(scores["micro_precision"], 4),
        ),
        row.format(
            "",
            "Recall",
            f"{format_number(scores['macro_recall'], 4)} ({format_number(scores['macro_recall_sd'], 2)})",
            format_number(scores["micro_recall"], 4),
        ),
        row.format("", "F1", format_number(scores["macro_f1"], 4), format_number(scores["micro_f1"], 4)),
        "",
        "",
    ]
    return "\n".join(lines)


def format_runs(runs: Sequence[OfficialRun]) -> str:
    """The script's whole stdout for ``phi`` (without its WARNING lines)."""
    return "".join(format_table(table) + "\n" for run in runs for table in run.tables)


def read_official_sides(
    gold_dir: str | Path, system_dir: str | Path
) -> tuple[list[OfficialDocument], list[OfficialDocument]]:
    """The gold folder (every entry) and the system folder (names ending in xml), read as the
    script reads them, in its order."""
    return read_official_folder(gold_dir, every_entry=True), read_official_folder(system_dir)


def official_warnings(gold: Sequence[OfficialDocument], system: Sequence[OfficialDocument]) -> str:
    """The script's WARNING lines, printed before its tables: gold files first."""
    return "".join(line + "\n" for document in (*gold, *system) for line in document.warnings)


def evaluate_official_folders(
    gold_dir: str | Path, system_dir: str | Path, progress: Callable[[int, int], None] | None = None
) -> list[OfficialRun]:
    """Read two folders and score them the official way."""
    gold, system = read_official_sides(gold_dir, system_dir)
    return score_official(gold, system, progress)
