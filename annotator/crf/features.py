"""CRF features for each token (seeds 002, 003, 004).

Families: the word and its affixes; word shape; capitalisation, digit and punctuation
classes; regular-expression templates matched over the text (:mod:`templates`); lexicon
membership (:mod:`lexicons`); how common the word is in public English (seed 004:
identifiers are rare in public text; the ``wordfreq`` package ships the frequencies); the
section heading; trigger words before and after; and a window of neighbouring tokens.

Everything that depends only on a token's text is cached per distinct string, so a note
costs little more than a few dictionary merges per token. Change :data:`FEATURE_VERSION`
whenever a feature changes: models record it and refuse to load under another version.

*Public* features (the default) make a model safe to share: a trained crfsuite model holds
every feature string it learnt a weight for, so a feature that names a token of the training
text (the word, its affixes, its neighbours, word pairs, a heading) would carry names, record
numbers and phone digits out of the site. In public mode such a feature names the token only
when it is public vocabulary (:func:`is_public`: common in public English per ``wordfreq``,
or a number of at most two digits, or punctuation); a rare token is replaced by its class
(``~rare`` or ``~num``; its shape, capitalisation and frequency bucket are features anyway).
That also stops the model memorising the names of its training notes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from functools import lru_cache

from annotator.crf.lexicons import NAME_LEXICONS, Lexicons, default_lexicons
from annotator.crf.templates import template_matches
from annotator.crf.tokenizer import Token

FEATURE_VERSION = 2

# wordfreq Zipf value from which a word counts as public vocabulary (3.5: about three times
# per million words of public English text). Person names are common words too ("Kelsey"
# 3.3, "Morgan" 4.4), so a word of the name lists needs NAME_ZIPF ("Young", "Brown", "John"):
# a shared model then names hardly any person, and cannot learn the names of its notes.
PUBLIC_ZIPF = 3.5
NAME_ZIPF = 5.0
RARE_WORD = "~rare"
RARE_NUMBER = "~num"

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
        ("gp",),
        ("consultant",),
        ("registrar",),
        ("surgeon",),
        ("anaesthetist",),
        ("anesthesiologist",),
        ("physician",),
        ("radiologist",),
        ("pathologist",),
        ("clinician",),
        ("reported", "by"),
        ("verified", "by"),
        ("reviewed", "by"),
        ("authorised", "by"),
        ("authorized", "by"),
    ),
    # Form fields that hold a person's name.
    "NAME_FIELD": (
        ("name",),
        ("surname",),
        ("forename",),
        ("forenames",),
        ("first", "name"),
        ("last", "name"),
        ("family", "name"),
        ("given", "name"),
        ("nok",),
        ("next", "of", "kin"),
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
        ("hosp", "no"),
        ("hospital", "number"),
        ("nhs",),
        ("chart",),
        ("patient", "id"),
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
        ("no",),
        ("number",),
        ("ref",),
        ("reference",),
        ("lab", "no"),
        ("accession",),
        ("specimen",),
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
        ("d", ".", "o", ".", "b"),
        ("born",),
        ("received",),
        ("reported",),
        ("seen",),
        ("visit",),
        ("admitted",),
        ("discharged",),
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


def _shape(word: str) -> str:
    shape = word.translate(_SHAPE_TABLE)
    if not shape.isascii():
        # Non-ASCII letters and digits take their class too, so a shape never spells a name.
        shape = "".join(
            ("X" if c.isupper() else "x") if c.isalpha() else "d" if c.isdigit() else c for c in shape
        )
    return shape


def word_shape(word: str) -> str:
    """``Smith`` -> ``Xxxxx``, ``70yo`` -> ``ddxx``, ``Dvořák`` -> ``Xxxxxx``."""
    shape = _shape(word)
    return shape if len(shape) <= 12 else shape[:12] + "~"


def short_shape(word: str) -> str:
    """The shape with repeats collapsed: ``Xxxxx`` -> ``Xx``."""
    return _REPEATS.sub(r"\1", _shape(word))


@lru_cache(maxsize=500_000)
def is_public(lower: str) -> bool:
    """Whether a (lower-case) token is public vocabulary, safe to name in a shared model."""
    if lower.isdigit():
        return len(lower) <= 2
    if not any(c.isalnum() for c in lower):
        return True
    if not lower.isalpha():
        return False
    from wordfreq import zipf_frequency

    frequency = zipf_frequency(lower, "en")
    if frequency >= NAME_ZIPF:
        return True
    lexicons = default_lexicons()
    return frequency >= PUBLIC_ZIPF and not any(lexicons.contains(name, lower) for name in NAME_LEXICONS)


def public_form(lower: str) -> str:
    """The token itself when public, else its class (``~rare``, ``~num``)."""
    if is_public(lower):
        return lower
    return RARE_NUMBER if lower.isdigit() else RARE_WORD


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
def word_features(word: str, public: bool = True) -> FeatureDict:
    """Features of one token that depend on its text alone (cached).

    ``public``: a token that is not public vocabulary loses its identity features (the
    word, its prefixes and suffixes); a rare word of six letters or more keeps its last two
    and three letters (``-ez``, ``-son``: evidence of a name that spells none).
    """
    lower = word.lower()
    named = not public or is_public(lower)
    features: FeatureDict = {
        "bias": 1.0,
        "w": lower if named else public_form(lower),
        "shape": word_shape(word),
        "ss": short_shape(word),
        "len": str(min(len(word), 10)),
    }
    if named and len(word) > 1:
        for size in range(1, 5):
            if len(word) > size:
                features[f"p{size}"] = lower[:size]
                features[f"s{size}"] = lower[-size:]
    elif word.isalpha() and len(word) >= 6:
        features["s2"] = lower[-2:]
        features["s3"] = lower[-3:]
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
def _window_features(word: str, offset: int, public: bool) -> FeatureDict:
    own = word_features(word, public)
    prefix = f"{offset:+d}:"
    window: FeatureDict = {prefix + key: own[key] for key in _WINDOW_KEYS if key in own}
    if abs(offset) <= 2:
        for key in own:
            if key.startswith("lex:"):
                window[prefix + key] = 1.0
    return window


@lru_cache(maxsize=500_000)
def _word_contexts(word: str, public: bool) -> tuple[FeatureDict, ...]:
    """A word's own features, then what it lends a token 2, 1 before / 1, 2 after it, then 3."""
    return (
        word_features(word, public),
        _window_features(word, -2, public),
        _window_features(word, -1, public),
        _window_features(word, 1, public),
        _window_features(word, 2, public),
        _far_features(word, -3, public),
        _far_features(word, 3, public),
    )


@lru_cache(maxsize=500_000)
def _far_features(word: str, offset: int, public: bool) -> FeatureDict:
    lower = word.lower()
    return {f"{offset:+d}:w": public_form(lower) if public else lower}


@lru_cache(maxsize=20_000)
def _public_section(section: str) -> str:
    return " ".join(public_form(word) for word in section.split(" "))


def _trigger_spans(lowers: Sequence[str]) -> list[tuple[str, int, int]]:
    spans = []
    for index, word in enumerate(lowers):
        for cue, rest in _TRIGGER_INDEX.get(word, ()):
            end = index + 1 + len(rest)
            if tuple(lowers[index + 1 : end]) == rest:
                spans.append((cue, index, end))
    return spans


def _token_template_names(text: str, tokens: Sequence[Token], offset: int) -> list[list[str]]:
    """Template names per token; ``text`` is the note from character ``offset`` on."""
    names: list[list[str]] = [[] for _ in tokens]
    starts = [t.start for t in tokens]
    for name, relative_start, relative_end in template_matches(text):
        start, end = relative_start + offset, relative_end + offset
        first = bisect.bisect_right(starts, start) - 1
        if first < 0 or tokens[first].end <= start:
            first += 1
        position = first
        while position < len(tokens) and tokens[position].start < end:
            names[position].append(name if position == first else name + "+")
            position += 1
    return names


def _chunk_shapes(text: str, tokens: Sequence[Token], offset: int) -> list[str]:
    """The shape of the whitespace-delimited chunk each token sits in (short chunks only)."""
    shapes = [""] * len(tokens)
    index = 0
    for match in _CHUNK.finditer(text):
        start, end = match.start() + offset, match.end() + offset
        while index < len(tokens) and tokens[index].end <= start:
            index += 1
        position = index
        shape = word_shape(match.group()) if len(match.group()) <= _MAX_CHUNK else "long"
        while position < len(tokens) and tokens[position].start < end:
            shapes[position] = shape
            position += 1
        index = position
    return shapes


def document_features(
    text: str, tokens: Sequence[Token], lexicons: Lexicons | None = None, public: bool = True
) -> list[FeatureDict]:
    """The feature dictionary of every token of a run of a note's tokens.

    Parameters
    ----------
    text:
        The note text the tokens were cut from.
    tokens:
        ``tokenize(text)``, or a consecutive run of it (a chunk with its context): only the
        text from the first token to the last is read.
    lexicons:
        Lists for multi-token matching; the shipped ones by default.
    public:
        Name only public vocabulary in features (see the module's docstring).
    """
    lexicons = lexicons or default_lexicons()
    count = len(tokens)
    if not count:
        return []
    offset = tokens[0].start
    region = text[offset : tokens[-1].end]
    words = [t.text for t in tokens]
    lowers = [w.lower() for w in words]
    named = [public_form(w) for w in lowers] if public else lowers
    templates = _token_template_names(region, tokens, offset)
    phrase_lexicons = lexicons.match(tokens)
    chunks = _chunk_shapes(region, tokens, offset)
    # Trigger cues by position (few positions have any).
    cues: dict[int, dict[str, set[str]]] = {}
    for cue, start, end in _trigger_spans(lowers):
        for position in range(start, end):
            cues.setdefault(position, {}).setdefault("trig=", set()).add(cue)
        for position in range(end, min(end + 3, count)):
            cues.setdefault(position, {}).setdefault("trig<", set()).add(cue)
        for position in range(max(start - 3, 0), start):
            cues.setdefault(position, {}).setdefault("trig>", set()).add(cue)
    # Each word's features and the features it lends its neighbours: one cache look-up a token.
    contexts = [_word_contexts(word, public) for word in words]
    sequence: list[FeatureDict] = []
    last = count - 1
    for index, token in enumerate(tokens):
        features: FeatureDict = dict(contexts[index][0])
        update = features.update
        if index >= 2:
            update(contexts[index - 2][1])
        if index >= 1:
            update(contexts[index - 1][2])
        if index < last:
            update(contexts[index + 1][3])
        if index + 2 <= last:
            update(contexts[index + 2][4])
        if index >= 3:
            update(contexts[index - 3][5])
        if index + 3 <= last:
            update(contexts[index + 3][6])
        if index == 0:
            features["BOS"] = 1.0
        else:
            features["-1|0"] = named[index - 1] + "|" + named[index]
        if index == last:
            features["EOS"] = 1.0
        else:
            features["0|+1"] = named[index] + "|" + named[index + 1]
        for name in templates[index]:
            features["re:" + name] = 1.0
        for name in phrase_lexicons[index]:
            features["phrase:" + name] = 1.0
        here = cues.get(index)
        if here is not None:
            # Sorted: the same note always gives the same feature order (reproducible training).
            for kind in ("trig<", "trig>", "trig="):
                for cue in sorted(here.get(kind, ())):
                    features[kind + cue] = 1.0
        if chunks[index]:
            features["chunk"] = chunks[index]
        if token.section:
            features["sec"] = _public_section(token.section) if public else token.section
        if token.in_heading:
            features["heading"] = 1.0
        if token.line_start:
            features["line0"] = 1.0
        if not token.space_before:
            features["glued"] = 1.0
        sequence.append(features)
    return sequence
