"""CRF features for each token (seeds 002, 003, 004).

Families: the word and its affixes; word shape; capitalisation, digit and punctuation
classes; regular-expression templates matched over the text (:mod:`templates`); lexicon
membership (:mod:`lexicons`); how common the word is in public English (seed 004:
identifiers are rare in public text; the ``wordfreq`` package ships the frequencies); the
section heading; trigger words before and after; and a window of neighbouring tokens.

Everything that depends only on a token's text is cached per distinct string, so a note
costs little more than a few dictionary merges per token. Change :data:`FEATURE_VERSION`
whenever a feature changes: models record it and refuse to load under another version.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from functools import lru_cache

from annotator.crf.lexicons import Lexicons, default_lexicons
from annotator.crf.templates import template_matches
from annotator.crf.tokenizer import Token

FEATURE_VERSION = 1

FeatureValue = str | float
FeatureDict = dict[str, FeatureValue]

# Trigger phrases (lower-case token sequences, tokenised like the notes) by cue name.
TRIGGERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "TITLE_DR": (
        ("dr",),
        ("doctor",),
        ("md",),
        ("m", ".", "d"),
        ("np",),
        ("pa",),
        ("rn",),
        ("attending",),
        ("pcp",),
    ),
    "TITLE_PERSON": (("mr",), ("mrs",), ("ms",), ("miss",), ("mister",)),
    "SIGNED": (
        ("dictated", "by"),
        ("transcribed", "by"),
        ("signed", "by"),
        ("electronically", "signed"),
        ("cc",),
        ("dictated",),
        ("signed",),
        ("seen", "by"),
        ("referred", "by"),
        ("evaluated", "by"),
    ),
    "MRN": (
        ("mrn",),
        ("mr", "#"),
        ("medical", "record"),
        ("record", "number"),
        ("unit", "no"),
        ("unit", "number"),
    ),
    "ID": (
        ("id",),
        ("acct",),
        ("account",),
        ("ssn",),
        ("social", "security"),
        ("license",),
        ("lic",),
        ("policy",),
        ("member",),
        ("plan",),
        ("device",),
        ("serial",),
        ("vin",),
        ("no", "."),
        ("#",),
    ),
    "AGE": (
        ("age",),
        ("aged",),
        ("y", "/", "o"),
        ("yo",),
        ("year", "old"),
        ("years", "old"),
        ("yr", "old"),
        ("years",),
        ("year",),
        ("month", "old"),
        ("old",),
    ),
    "PHONE": (
        ("phone",),
        ("tel",),
        ("telephone",),
        ("pager",),
        ("beeper",),
        ("cell",),
        ("ph",),
        ("call",),
        ("contact",),
        ("mobile",),
        ("ext",),
        ("x",),
    ),
    "FAX": (("fax",), ("facsimile",)),
    "EMAIL": (("email",), ("e", "-", "mail"), ("mail",)),
    "ADDRESS": (
        ("address",),
        ("lives", "in"),
        ("lives", "at"),
        ("resides", "in"),
        ("from",),
        ("moved", "to"),
        ("street",),
        ("st",),
        ("ave",),
        ("avenue",),
        ("road",),
        ("rd",),
        ("blvd",),
        ("lane",),
        ("apt",),
    ),
    "HOSPITAL": (
        ("hospital",),
        ("medical", "center"),
        ("clinic",),
        ("health", "center"),
        ("infirmary",),
        ("transferred", "from"),
        ("transferred", "to"),
        ("admitted", "to"),
        ("at",),
    ),
    "ROOM": (("room",), ("rm",), ("bed",), ("floor",), ("suite",), ("unit",)),
    "WORK": (
        ("works", "as"),
        ("worked", "as"),
        ("occupation",),
        ("employed", "as"),
        ("retired",),
        ("job",),
        ("works", "at"),
        ("profession",),
        ("employed", "by"),
    ),
    "DATE": (
        ("on",),
        ("dated",),
        ("date",),
        ("since",),
        ("until",),
        ("admission",),
        ("discharge",),
        ("dob",),
        ("born",),
        ("in",),
        ("of",),
    ),
    "RELATION": (
        ("wife",),
        ("husband",),
        ("son",),
        ("daughter",),
        ("mother",),
        ("father",),
        ("sister",),
        ("brother",),
        ("friend",),
        ("partner",),
        ("patient",),
        ("pt",),
        ("name",),
    ),
}
_TRIGGER_INDEX: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
for _cue, _phrases in TRIGGERS.items():
    for _phrase in _phrases:
        _TRIGGER_INDEX.setdefault(_phrase[0], []).append((_cue, _phrase[1:]))

_SHAPE_TABLE = str.maketrans(
    {
        **{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"},
        **{c: "d" for c in "0123456789"},
    }
)
_REPEATS = re.compile(r"(.)\1+")
_CHUNK = re.compile(r"\S+")
_MAX_CHUNK = 24


def word_shape(word: str) -> str:
    """``Smith`` -> ``Xxxxx``, ``70yo`` -> ``ddxx`` (non-ASCII letters kept as themselves)."""
    shape = word.translate(_SHAPE_TABLE)
    return shape if len(shape) <= 12 else shape[:12] + "~"


def short_shape(word: str) -> str:
    """The shape with repeats collapsed: ``Xxxxx`` -> ``Xx``."""
    return _REPEATS.sub(r"\1", word.translate(_SHAPE_TABLE))


@lru_cache(maxsize=500_000)
def zipf_bucket(word: str) -> str:
    """How common ``word`` is in public English, bucketed (``wordfreq`` Zipf scale 0..8)."""
    if not word.isalpha():
        return "na"
    from wordfreq import zipf_frequency

    value = zipf_frequency(word, "en")
    if value <= 0:
        return "0"
    return str(min(int(value), 7))


def _number_class(word: str) -> str:
    value = int(word)
    if len(word) == 4:
        return "year" if 1800 <= value <= 2199 else "4d"
    if len(word) > 3:
        return f"{len(word)}d"
    if word.startswith("0") and len(word) > 1:
        return "lead0"
    if value <= 12:
        return "le12"
    if value <= 31:
        return "le31"
    if value <= 89:
        return "le89"
    return "le120" if value <= 120 else "gt120"


@lru_cache(maxsize=500_000)
def word_features(word: str) -> FeatureDict:
    """Features of one token that depend on its text alone (cached)."""
    lower = word.lower()
    features: FeatureDict = {
        "bias": 1.0,
        "w": lower,
        "shape": word_shape(word),
        "ss": short_shape(word),
        "len": str(min(len(word), 10)),
    }
    if len(word) > 1:
        for size in range(1, 5):
            if len(word) > size:
                features[f"p{size}"] = lower[:size]
                features[f"s{size}"] = lower[-size:]
    if word.isalpha():
        if word.isupper():
            features["caps"] = "all" if len(word) > 1 else "one"
        elif word[0].isupper():
            features["caps"] = "init" if word[1:].islower() else "mix"
        elif word.islower():
            features["caps"] = "low"
        else:
            features["caps"] = "mix"
        features["zipf"] = zipf_bucket(lower)
    elif word.isdigit():
        features["num"] = _number_class(word)
        features["ndig"] = str(min(len(word), 11))
    else:
        features["punct"] = word if len(word) == 1 else "other"
    if not word.isascii():
        features["nonascii"] = 1.0
    lexicons = default_lexicons()
    for name in lexicons.word_memberships(word):
        features[f"lex:{name}"] = 1.0
    return features


# Features a neighbour contributes to the window (a subset keeps the model small).
_WINDOW_KEYS = ("w", "ss", "caps", "num", "zipf", "punct")


@lru_cache(maxsize=500_000)
def _window_features(word: str, offset: int) -> FeatureDict:
    own = word_features(word)
    prefix = f"{offset:+d}:"
    window: FeatureDict = {prefix + key: own[key] for key in _WINDOW_KEYS if key in own}
    if abs(offset) <= 2:
        for key in own:
            if key.startswith("lex:"):
                window[prefix + key] = 1.0
    return window


@lru_cache(maxsize=500_000)
def _far_features(word: str, offset: int) -> FeatureDict:
    return {f"{offset:+d}:w": word.lower()}


def _trigger_spans(lowers: Sequence[str]) -> list[tuple[str, int, int]]:
    spans = []
    for index, word in enumerate(lowers):
        for cue, rest in _TRIGGER_INDEX.get(word, ()):
            end = index + 1 + len(rest)
            if tuple(lowers[index + 1 : end]) == rest:
                spans.append((cue, index, end))
    return spans


def _token_template_names(text: str, tokens: Sequence[Token]) -> list[list[str]]:
    names: list[list[str]] = [[] for _ in tokens]
    starts = [t.start for t in tokens]
    for name, start, end in template_matches(text):
        first = bisect.bisect_right(starts, start) - 1
        if first < 0 or tokens[first].end <= start:
            first += 1
        position = first
        while position < len(tokens) and tokens[position].start < end:
            names[position].append(name if position == first else name + "+")
            position += 1
    return names


def _chunk_shapes(text: str, tokens: Sequence[Token]) -> list[str]:
    """The shape of the whitespace-delimited chunk each token sits in (short chunks only)."""
    shapes = [""] * len(tokens)
    index = 0
    for match in _CHUNK.finditer(text):
        while index < len(tokens) and tokens[index].end <= match.start():
            index += 1
        position = index
        shape = word_shape(match.group()) if len(match.group()) <= _MAX_CHUNK else "long"
        while position < len(tokens) and tokens[position].start < match.end():
            shapes[position] = shape
            position += 1
        index = position
    return shapes


def document_features(
    text: str, tokens: Sequence[Token], lexicons: Lexicons | None = None
) -> list[FeatureDict]:
    """The feature dictionary of every token of one note.

    Parameters
    ----------
    text:
        The note text the tokens were cut from.
    tokens:
        ``tokenize(text)``.
    lexicons:
        Lists for multi-token matching; the shipped ones by default.
    """
    lexicons = lexicons or default_lexicons()
    count = len(tokens)
    words = [t.text for t in tokens]
    lowers = [w.lower() for w in words]
    templates = _token_template_names(text, tokens)
    phrase_lexicons = lexicons.match(tokens)
    chunks = _chunk_shapes(text, tokens)
    before: list[set[str]] = [set() for _ in tokens]
    after: list[set[str]] = [set() for _ in tokens]
    inside: list[set[str]] = [set() for _ in tokens]
    for cue, start, end in _trigger_spans(lowers):
        for position in range(start, end):
            inside[position].add(cue)
        for position in range(end, min(end + 3, count)):
            before[position].add(cue)
        for position in range(max(start - 3, 0), start):
            after[position].add(cue)
    sequence: list[FeatureDict] = []
    for index, token in enumerate(tokens):
        features: FeatureDict = dict(word_features(words[index]))
        for offset in (-2, -1, 1, 2):
            position = index + offset
            if 0 <= position < count:
                features.update(_window_features(words[position], offset))
        for offset in (-3, 3):
            position = index + offset
            if 0 <= position < count:
                features.update(_far_features(words[position], offset))
        if index == 0:
            features["BOS"] = 1.0
        else:
            features["-1|0"] = lowers[index - 1] + "|" + lowers[index]
        if index == count - 1:
            features["EOS"] = 1.0
        else:
            features["0|+1"] = lowers[index] + "|" + lowers[index + 1]
        for name in templates[index]:
            features["re:" + name] = 1.0
        for name in phrase_lexicons[index]:
            features["phrase:" + name] = 1.0
        # Sorted: the same note always gives the same feature order (reproducible training).
        for cue in sorted(before[index]):
            features["trig<" + cue] = 1.0
        for cue in sorted(after[index]):
            features["trig>" + cue] = 1.0
        for cue in sorted(inside[index]):
            features["trig=" + cue] = 1.0
        if chunks[index]:
            features["chunk"] = chunks[index]
        if token.section:
            features["sec"] = token.section
        if token.in_heading:
            features["heading"] = 1.0
        if token.line_start:
            features["line0"] = 1.0
        if not token.space_before:
            features["glued"] = 1.0
        sequence.append(features)
    return sequence
