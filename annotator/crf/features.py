"""CRF features for each token (seeds 002, 003, 004).

Families: the word and its affixes; word shape; capitalisation, digit and punctuation
classes; regular-expression templates matched over the text (:mod:`templates`); lexicon
membership (:mod:`lexicons`); how common the word is in public English (seed 004:
identifiers are rare in public text; the ``wordfreq`` package ships the frequencies); what
kind of word it is in public English (:mod:`word_clusters`: a rare town or surname shares a
class with known ones); the section heading; trigger words before and after; and a window of
neighbouring tokens.

Everything that depends only on a token's text is cached per distinct string, already in
crfsuite's form (attribute names, :func:`document_attributes`), so a note costs little more
than a few list concatenations per token. Change :data:`FEATURE_VERSION`
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
from itertools import pairwise

from annotator.core.english import zipf
from annotator.crf.lexicons import NAME_LEXICONS, Lexicons, default_lexicons
from annotator.crf.templates import template_matches
from annotator.crf.tokenizer import Token
from annotator.crf.triggers import TRIGGER_INDEX, TRIGGERS
from annotator.crf.word_clusters import word_classes

FEATURE_VERSION = 4

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

_SHAPE_TABLE = str.maketrans(
    {
        **{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"},
        **{c: "d" for c in "0123456789"},
    }
)
_REPEATS = re.compile(r"(.)\1+")
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
    """Whether a (lower-case) token is public vocabulary, safe to name in a shared model.

    Public English (:func:`is_english_vocabulary`) or clinical vocabulary: a word written
    outside PHI in many patients' notes (``resources/lexicons/clinical_words.txt``).
    """
    return is_english_vocabulary(lower) or default_lexicons().contains("CLINICAL", lower)


def is_english_vocabulary(lower: str) -> bool:
    """Common in public English per ``wordfreq`` (a name needs :data:`NAME_ZIPF`), a number of at
    most two digits, or punctuation."""
    if lower.isdigit():
        return len(lower) <= 2
    if not any(c.isalnum() for c in lower):
        return True
    if not lower.isalpha():
        return False
    frequency = zipf(lower)
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
    value = zipf(word)
    if value <= 0:
        return "0"
    return str(min(int(value), 7))


def _number_class(word: str) -> str:
    # Before int(): a run over 4,300 digits, or superscripts ("²²" is isdigit()), raised ValueError.
    if len(word) > 4 or not word.isdecimal():
        return f"{len(word)}d"
    value = int(word)
    if len(word) == 4:
        return "year" if 1800 <= value <= 2199 else "4d"
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
        classes = word_classes(lower)
        if classes is not None:
            features["cl"], features["cl2"] = classes
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
_WINDOW_KEYS = ("w", "ss", "caps", "num", "zipf", "punct", "cl")


def _window_features(own: FeatureDict, offset: int) -> FeatureDict:
    prefix = f"{offset:+d}:"
    window: FeatureDict = {prefix + key: own[key] for key in _WINDOW_KEYS if key in own}
    if abs(offset) <= 2:
        for key in own:
            if key.startswith("lex:"):
                window[prefix + key] = 1.0
    return window


def _far_features(word: str, offset: int, public: bool) -> FeatureDict:
    lower = word.lower()
    return {f"{offset:+d}:w": public_form(lower) if public else lower}


def _contexts_of(word: str, public: bool) -> tuple[FeatureDict, ...]:
    """A word's own features, then those it gives the token it is the neighbour of.

    In order: as that token's neighbour at -2, -1, +1, +2 (the window), then at -3 and +3.
    """
    # Uncached: each caller caches what it builds from these (a second cache would only hold memory).
    own = word_features.__wrapped__(word, public)
    return (
        own,
        _window_features(own, -2),
        _window_features(own, -1),
        _window_features(own, 1),
        _window_features(own, 2),
        _far_features(word, -3, public),
        _far_features(word, 3, public),
    )


_word_contexts = lru_cache(maxsize=500_000)(_contexts_of)


def as_attributes(features: FeatureDict) -> tuple[str, ...]:
    """crfsuite's own reading of a feature dictionary, in its order.

    ``{"w": "dr"}`` is the attribute ``w:dr``; an indicator ``{"bias": 1.0}`` is ``bias``.
    Every feature here is a string or an indicator: a list of attribute names is then what
    ``pycrfsuite`` makes of the dictionary, so a model sees the same input either way.
    """
    attributes = []
    for key, value in features.items():
        if isinstance(value, str):
            attributes.append(key + ":" + value)
        elif value == 1.0:
            attributes.append(key)
        else:
            raise ValueError(f"feature {key} weighs {value}: attributes carry indicators only")
    return tuple(attributes)


# A word's contexts as attributes (see _contexts_of), then its name in word pairs.
_WordAttributes = tuple[
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    str,
]
_NOTHING: _WordAttributes = ((), (), (), (), (), (), (), "")


@lru_cache(maxsize=500_000)
def _word_attributes(word: str, public: bool) -> _WordAttributes:
    own, at_minus2, at_minus1, at_plus1, at_plus2, at_minus3, at_plus3 = (
        as_attributes(c) for c in _contexts_of(word, public)
    )
    lower = word.lower()
    pair_name = public_form(lower) if public else lower
    return own, at_minus2, at_minus1, at_plus1, at_plus2, at_minus3, at_plus3, pair_name


@lru_cache(maxsize=20_000)
def _public_section(section: str) -> str:
    return " ".join(public_form(word) for word in section.split(" "))


def _trigger_spans(lowers: Sequence[str]) -> list[tuple[str, int, int]]:
    spans = []
    for index, word in enumerate(lowers):
        for cue, rest in TRIGGER_INDEX.get(word, ()):
            end = index + 1 + len(rest)
            if tuple(lowers[index + 1 : end]) == rest:
                spans.append((cue, index, end))
    return spans


def _token_template_names(text: str, tokens: Sequence[Token], offset: int) -> dict[int, list[str]]:
    """``re:`` features by token position (only positions a template covers), each once.

    ``text`` is the note from character ``offset`` on.
    """
    names: dict[int, list[str]] = {}
    starts = [t.start for t in tokens]
    count = len(tokens)
    for name, relative_start, relative_end in template_matches(text):
        start, end = relative_start + offset, relative_end + offset
        first = bisect.bisect_right(starts, start) - 1
        if first < 0 or tokens[first].end <= start:
            first += 1
        position = first
        while position < count and starts[position] < end:
            here = names.setdefault(position, [])
            feature = "re:" + name if position == first else "re:" + name + "+"
            if feature not in here:
                here.append(feature)
            position += 1
    return names


@lru_cache(maxsize=100_000)
def _short_chunk_shape(chunk: str) -> str:
    return word_shape(chunk)


def _chunk_shapes(text: str, tokens: Sequence[Token]) -> list[str]:
    """The shape of the whitespace-delimited chunk each token sits in (short chunks only).

    A chunk is a run of tokens with no space between them: tokens cover every character
    that is not whitespace.
    """
    shapes: list[str] = []
    count = len(tokens)
    first = 0
    for index in range(1, count + 1):
        if index == count or tokens[index].space_before:
            chunk = text[tokens[first].start : tokens[index - 1].end]
            shapes += [_short_chunk_shape(chunk) if len(chunk) <= _MAX_CHUNK else "long"] * (index - first)
            first = index
    return shapes


@lru_cache(maxsize=500_000)
def caps_class(word: str) -> str:
    """``all``, ``init``, ``low``, ``mix`` or ``one`` for a word of letters; ``""`` otherwise."""
    if not word.isalpha():
        return ""
    if word.isupper():
        return "all" if len(word) > 1 else "one"
    if word[0].isupper():
        return "init" if word[1:].islower() else "mix"
    return "low" if word.islower() else "mix"


_MODE_SHARE = 0.7


def _case_mode(classes: Sequence[str]) -> str:
    words = [c for c in classes if c in ("all", "init", "low")]
    if not words:
        return ""
    if words.count("all") >= _MODE_SHARE * len(words):
        return "U"
    if words.count("low") >= _MODE_SHARE * len(words):
        return "L"
    return "M"


_LETTER_RUN = re.compile(r"[^\W\d_]{2,}")


def line_case_mode(line: str) -> str:
    """How a line is written: ``U`` capitals, ``L`` lower case, ``M`` mixed (or no words)."""
    return _case_mode([caps_class(word) for word in _LETTER_RUN.findall(line)]) or "M"


class LineModes:
    """:func:`line_case_mode` of the lines of one note, each line read once.

    A note tagged in chunks asks for the mode of a line once per chunk, and the clean-ups once
    per span on it: on a note of one 2 MB line (no line breaks) that was the whole line read
    again and again. Keep one per note.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks: list[int] | None = None
        self._modes: dict[int, str] = {}

    def of_span(self, start: int, end: int) -> str:
        """The mode of the text from the line of ``start`` to the line of ``end``."""
        if self._breaks is None:
            self._breaks = [m.start() for m in _LINE_BREAK.finditer(self.text)]
        breaks = self._breaks
        line = bisect.bisect_left(breaks, start)
        if line < len(breaks) and breaks[line] < end:
            # A span across lines (no token is): its lines together, read as they are.
            return line_case_mode(self.text[breaks[line - 1] + 1 if line else 0 : self._line_end(end)])
        mode = self._modes.get(line)
        if mode is None:
            first = breaks[line - 1] + 1 if line else 0
            last = breaks[line] if line < len(breaks) else len(self.text)
            mode = self._modes[line] = line_case_mode(self.text[first:last])
        return mode

    def _line_end(self, offset: int) -> int:
        end = self.text.find("\n", offset)
        return end if end >= 0 else len(self.text)


_LINE_BREAK = re.compile("\n")


def case_modes(text: str, tokens: Sequence[Token], lines: LineModes | None = None) -> list[str]:
    """:func:`line_case_mode` of each token's whole line of ``text``.

    Clinicians write whole notes in capitals or in lower case: there a capital says nothing
    about a name. The whole line is read (not only the tokens given), so a note cut into
    chunks gets the modes it gets whole. ``lines``: the note's modes found so far (one for
    all the chunks of a note).
    """
    lines = lines if lines is not None and lines.text is text else LineModes(text)
    return [lines.of_span(token.start, token.end) for token in tokens]


def _case_attributes(word: str, mode: str) -> tuple[str, ...]:
    kind = caps_class(word)
    return ("lc:" + mode, "caps@" + mode + ":" + kind) if kind else ("lc:" + mode,)


# Each cue's features (inside, after, before), and their order in a token's features:
# all trig< by cue name, then trig>, then trig=.
_CUE_FEATURES = {cue: ("trig=" + cue, "trig<" + cue, "trig>" + cue) for cue in TRIGGERS}
_CUE_ORDER = {
    kind + cue: rank
    for rank, (kind, cue) in enumerate((k, c) for k in ("trig<", "trig>", "trig=") for c in sorted(TRIGGERS))
}


def _indicators(
    text: str, tokens: Sequence[Token], lowers: Sequence[str], lexicons: Lexicons | None
) -> dict[int, list[str]]:
    """Template, lexicon phrase and trigger indicators by token position, in feature order.

    Only positions that have any are present: most tokens have none.
    """
    offset = tokens[0].start
    count = len(tokens)
    indicators = _token_template_names(text[offset : tokens[-1].end], tokens, offset)
    for index, names in enumerate((lexicons or default_lexicons()).match(tokens)):
        if names:
            indicators.setdefault(index, []).extend("phrase:" + name for name in names)
    # Trigger cues by position: inside a phrase, within three tokens after it, before it.
    cues: dict[int, set[str]] = {}
    for cue, start, end in _trigger_spans(lowers):
        inside, after, before = _CUE_FEATURES[cue]
        for position in range(start, end):
            cues.setdefault(position, set()).add(inside)
        for position in range(end, min(end + 3, count)):
            cues.setdefault(position, set()).add(after)
        for position in range(max(start - 3, 0), start):
            cues.setdefault(position, set()).add(before)
    for index, here in cues.items():
        # A fixed order: the same note always gives the same feature order (reproducible training).
        indicators.setdefault(index, []).extend(sorted(here, key=_CUE_ORDER.__getitem__))
    return indicators


def document_features(
    text: str,
    tokens: Sequence[Token],
    lexicons: Lexicons | None = None,
    public: bool = True,
    lines: LineModes | None = None,
) -> list[FeatureDict]:
    """The feature dictionary of every token of a run of a note's tokens.

    The readable form; tagging and training use :func:`document_attributes`, the same
    features in crfsuite's form, built faster.

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
    lines:
        The note's :class:`LineModes`, shared by its chunks (each line's case read once).
    """
    count = len(tokens)
    if not count:
        return []
    words = [t.text for t in tokens]
    lowers = [w.lower() for w in words]
    named = [public_form(w) for w in lowers] if public else lowers
    indicators = _indicators(text, tokens, lowers, lexicons)
    chunks = _chunk_shapes(text, tokens)
    modes = case_modes(text, tokens, lines)
    contexts = [_word_contexts(word, public) for word in words]
    sequence: list[FeatureDict] = []
    last = count - 1
    for index, token in enumerate(tokens):
        features: FeatureDict = dict(contexts[index][0])
        for distance, lent in ((-2, 1), (-1, 2), (1, 3), (2, 4), (-3, 5), (3, 6)):
            if 0 <= index + distance <= last:
                features.update(contexts[index + distance][lent])
        if index == 0:
            features["BOS"] = 1.0
        else:
            features["-1|0"] = named[index - 1] + "|" + named[index]
        if index == last:
            features["EOS"] = 1.0
        else:
            features["0|+1"] = named[index] + "|" + named[index + 1]
        features.update(dict.fromkeys(indicators.get(index, ()), 1.0))
        features["chunk"] = chunks[index]
        features.update(dict.fromkeys(_case_attributes(token.text, modes[index]), 1.0))
        if token.section:
            features["sec"] = _public_section(token.section) if public else token.section
        features.update(dict.fromkeys(_token_flags(token), 1.0))
        sequence.append(features)
    return sequence


def _token_flags(token: Token) -> tuple[str, ...]:
    return tuple(
        name
        for name, on in (
            ("heading", token.in_heading),
            ("line0", token.line_start),
            ("glued", not token.space_before),
        )
        if on
    )


@lru_cache(maxsize=500_000)
def _known_word_attributes(word: str, public: bool, vocabulary: frozenset[str]) -> _WordAttributes:
    """:func:`_word_attributes` without the attributes a model has no weight for."""
    *parts, pair_name = _word_attributes(word, public)
    own, at_minus2, at_minus1, at_plus1, at_plus2, at_minus3, at_plus3 = (
        tuple(name for name in part if name in vocabulary) for part in parts
    )
    return own, at_minus2, at_minus1, at_plus1, at_plus2, at_minus3, at_plus3, pair_name


def document_attributes(
    text: str,
    tokens: Sequence[Token],
    lexicons: Lexicons | None = None,
    public: bool = True,
    vocabulary: frozenset[str] | None = None,
    lines: LineModes | None = None,
) -> list[list[str]]:
    """:func:`document_features` as crfsuite attribute names (:func:`as_attributes`), fast.

    What tagging and training hand crfsuite: a list of names is the cheapest input it
    takes, and each word's part is built once per distinct word, then only concatenated.

    ``vocabulary``: a trained model's attributes. Words' and word pairs' attributes outside it
    are left out: crfsuite ignores them anyway, after converting and looking each one up
    (a seventh of the attributes of a nursing note, and of the time tagging takes).
    """
    count = len(tokens)
    if not count:
        return []
    if vocabulary is None:
        words = [_word_attributes(t.text, public) for t in tokens]
    else:
        words = [_known_word_attributes(t.text, public, vocabulary) for t in tokens]
    # Three empty words on each side: a token's window then never needs a bounds check.
    padded = [_NOTHING, _NOTHING, _NOTHING, *words, _NOTHING, _NOTHING, _NOTHING]
    lowers = [t.text.lower() for t in tokens]
    indicators = _indicators(text, tokens, lowers, lexicons)
    shapes = ["chunk:" + shape for shape in _chunk_shapes(text, tokens)]
    modes = case_modes(text, tokens, lines)
    # "a|b": the word pair of each token and the next one.
    pairs = [a[7] + "|" + b[7] for a, b in pairwise(words)]
    opening: list[tuple[str, ...]] = [("BOS",), *[("-1|0:" + pair,) for pair in pairs]]
    closing: list[tuple[str, ...]] = [*[("0|+1:" + pair,) for pair in pairs], ("EOS",)]
    if vocabulary is not None:
        opening = [name if name[0] in vocabulary else () for name in opening]
        closing = [name if name[0] in vocabulary else () for name in closing]
    sections: dict[str, str] = {}
    sequence: list[list[str]] = []
    for index, token in enumerate(tokens):
        at = index + 3
        item = [
            *padded[at][0],
            *padded[at - 2][1],
            *padded[at - 1][2],
            *padded[at + 1][3],
            *padded[at + 2][4],
            *padded[at - 3][5],
            *padded[at + 3][6],
            *opening[index],
            *closing[index],
        ]
        here = indicators.get(index)
        if here is not None:
            item += here
        item.append(shapes[index])
        item += _case_attributes(token.text, modes[index])
        section = token.section
        if section:
            name = sections.get(section)
            if name is None:
                name = sections[section] = "sec:" + (_public_section(section) if public else section)
            item.append(name)
        if token.in_heading:
            item.append("heading")
        if token.line_start:
            item.append("line0")
        if not token.space_before:
            item.append("glued")
        sequence.append(item)
    return sequence
