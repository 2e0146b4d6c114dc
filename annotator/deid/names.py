"""Name surrogates: one token map per patient, by gender, keeping the surface form.

Every name string is split into word tokens and the text between them (spaces, commas,
dots, hyphens, possessive ``'s``). Titles and particles (``Dr.``, ``Mrs``, ``MD``, ``van``)
stay; initials go through a per-patient letter permutation; each other token gets a role
(first or last name) from its position (``First [Middle] Last``, ``Last, First``) and is
replaced, once per patient, by a census name of the same role and gender whose first letter
is the permuted letter of the original's (seed 001 §5.2), so ``J. Smith``, ``John Smith``,
``Smith, John``, ``JS`` and ``Smith's`` stay consistent with each other. A surrogate is never
a name token found anywhere in the original corpus (seed 000 §2.2), and case is copied
(``SMITH`` -> ``JONES``).
"""

from __future__ import annotations

import random
import re
import string
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from annotator.core.composed import INVISIBLE_CLASS
from annotator.core.english import zipf
from annotator.deid.lists import first_names, is_first_name, is_last_name, load_list, name_gender
from annotator.deid.textcase import apply_case

TITLES = frozenset(
    [
        "dr",
        "doctor",
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "prof",
        "professor",
        "sir",
        "madam",
        "rev",
        "fr",
        "sister",
        "nurse",
        "md",
        "m.d",
        "do",
        "d.o",
        "rn",
        "np",
        "pa",
        "pa-c",
        "phd",
        "ph.d",
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "dds",
        "dmd",
        "pharmd",
        "cnp",
        "lpn",
        "mph",
        "facp",
        "facc",
        "aprn",
        "crnp",
        "cnm",
        "lcsw",
        "esq",
    ]
)
PARTICLES = frozenset(
    ["van", "von", "der", "den", "de", "del", "della", "di", "da", "la", "le", "du", "st", "st.", "mc"]
)
_MALE_TITLES = frozenset({"mr", "sir", "fr"})
_FEMALE_TITLES = frozenset({"mrs", "ms", "miss", "madam", "sister"})
# A letter, then letters, combining marks ("Nun" + U+0303 + "ez", as some exports write "ñ")
# and characters nobody sees inside the word (a soft hyphen, a zero-width space or joiner).
_PART = rf"[^\W\d_](?:{INVISIBLE_CLASS}*(?:[^\W\d_]|[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]))*"
_TOKEN = re.compile(rf"{_PART}(?:['’]{_PART})*")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
# What may stand inside one name written another way: "O'Rourke", "O Rourke", "O-Rourke".
_INSIDE = re.compile(rf"(?:[\s'’‘`.‐-]|{INVISIBLE_CLASS})+")
# The gap between two words that one name of the patient's writes as one ("o rourke" for
# "O'Rourke", "Bweighou se" for "Bweighouse").
_SPLIT_GAP = re.compile(r"[ '’‐-]|['’] ")


def name_key(token: str) -> str:
    """What one name token is, however it is written: lower case, without diacritics,
    apostrophes, hyphens, dots or blanks (``O'Rourke``, ``O’ROURKE``, ``o rourke`` and
    ``Orourke`` are one key). Digits stay (a placeholder's number names its person)."""
    return _INSIDE.sub("", without_diacritics(token).lower())


def name_tokens(text: str) -> list[str]:
    """The word tokens of a name string (possessive ``'s`` removed), titles included."""
    return [_POSSESSIVE.sub("", m.group()) for m in _TOKEN.finditer(text)]


# Letters that Unicode does not write as a plain letter with a mark, and their plain spelling.
_PLAIN_LETTERS = str.maketrans(
    {"ß": "ss", "ẞ": "SS", "ı": "i", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D"}
    | {"ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe"}
)


def without_diacritics(text: str) -> str:
    """``text`` as a system without accents writes it: ``Nunez`` for ``Nuñez``, ``Nguyen`` for
    ``Nguyễn``, ``Strauss`` for ``Strauß``, ``Lodz`` for ``Łódź``, ``ISIK`` for ``IŞIK``."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def is_title(token: str) -> bool:
    return token.lower().rstrip(".") in TITLES or token.lower() in TITLES


@cache
def is_common_word(name: str) -> bool:
    """A name that is also a frequent English word (wordfreq Zipf >= 4)."""
    return zipf(name.lower()) >= 4.0


@cache
def _names_by_letter(role: str, gender: str) -> dict[str, tuple[str, ...]]:
    names = load_list("last_names") if role == "last" else first_names(gender)
    by_letter: dict[str, list[str]] = {}
    for name in names:
        by_letter.setdefault(name[0].upper(), []).append(name)
    return {letter: tuple(group) for letter, group in by_letter.items()}


@dataclass(frozen=True)
class _Word:
    """Two words of a name read as one (``o rourke``), where a regex match stands otherwise."""

    begin: int
    stop: int
    text: str

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.stop

    def group(self) -> str:
        return self.text


_Piece = _Word | re.Match[str]


class NameMapper:
    """One patient's name surrogates.

    Parameters
    ----------
    rng:
        The patient's random generator.
    forbidden:
        Lower-cased name tokens of the whole original corpus: never used as surrogates.
    """

    def __init__(self, rng: random.Random, forbidden: Iterable[str] = ()) -> None:
        self.rng = rng
        self.forbidden = frozenset(t.lower() for t in forbidden)
        shuffled = list(string.ascii_uppercase)
        rng.shuffle(shuffled)
        # No letter stands for itself: a lone initial would otherwise stay as it was.
        for index, letter in enumerate(string.ascii_uppercase):
            if shuffled[index] == letter:
                other = (index + 1) % len(shuffled)
                shuffled[index], shuffled[other] = shuffled[other], shuffled[index]
        self.letters = dict(zip(string.ascii_uppercase, shuffled, strict=True))
        self.tokens: dict[str, str] = {}
        self._used: set[str] = set()
        # Keys of the name words the patient's notes write as one word ("O'Rourke"): two
        # words that run together to one of them are that name ("o rourke").
        self.whole: set[str] = set()
        # Keys of the words the patient's notes write in small letters too ("Ojo"): in
        # capitals ("OJO") such a word is the name, not initials.
        self.spelled: set[str] = set()

    def learn(self, text: str) -> None:
        """Read a name string of the patient's before any is replaced (see :attr:`whole`)."""
        for match in _TOKEN.finditer(text):
            key = name_key(_POSSESSIVE.sub("", match.group()))
            if len(key) > 2:
                self.whole.add(key)
            if len(key) > 1 and not match.group().isupper():
                self.spelled.add(key)

    # -- pieces --------------------------------------------------------------------------
    def initial(self, letter: str) -> str:
        mapped = self.letters.get(letter.upper(), letter.upper())
        return mapped if letter.isupper() else mapped.lower()

    def token(self, original: str, role: str, gender: str = "any") -> str:
        """The surrogate of one name token, in the original's case; one surrogate for every
        way the name is written (:func:`name_key`)."""
        key = name_key(original)
        if key not in self.tokens:
            self.tokens[key] = self._pick(original, role, gender)
            self._used.add(self.tokens[key].lower())
        return apply_case(original, self.tokens[key])

    def _pick(self, original: str, role: str, gender: str) -> str:
        by_letter = _names_by_letter(role, gender)
        wanted = self.initial(original[0].upper()) if original[:1].isalpha() else ""
        for pool in (by_letter.get(wanted, ()), tuple(n for group in by_letter.values() for n in group)):
            allowed = [n for n in pool if n.lower() not in self.forbidden and n.lower() not in self._used]
            # A surname that is no first name reads as one ("Daniel" for "Tranfaglia" does not).
            # Nor does a common English word ("Good", "Day"): a reader would stumble on it.
            other = is_first_name if role == "last" else is_last_name
            pure = [n for n in allowed if not other(n) and not is_common_word(n)]
            if pure or allowed:
                return self.rng.choice(pure or allowed)
        # Every listed name is taken: alter two letters of one (seed 000), until it is new.
        while True:
            base = list(self.rng.choice(load_list("last_names")))
            for position in self.rng.sample(range(1, len(base)), min(2, len(base) - 1)):
                base[position] = self.rng.choice(string.ascii_lowercase)
            candidate = "".join(base)
            if candidate.lower() not in self.forbidden and candidate.lower() not in self._used:
                return candidate

    # -- whole names ---------------------------------------------------------------------
    def replace(self, text: str, slot: str | None = None, gender: str | None = None) -> str:
        """The surrogate of a whole name string, keeping its surface form."""
        pieces: list[str] = []
        position = 0
        for start, end, new in self.replace_tokens(text, slot, gender, [(0, len(text))]):
            pieces.append(text[position:start])
            pieces.append(new)
            position = end
        pieces.append(text[position:])
        return "".join(pieces)

    def replace_tokens(
        self,
        text: str,
        slot: str | None = None,
        gender: str | None = None,
        tags: Sequence[tuple[int, int]] = (),
    ) -> list[tuple[int, int, str]]:
        """Each word token of a name string with its surrogate (``(start, end, new)``).

        ``slot`` (``first`` or ``last``), when the words around the name said it, decides the
        role of a name of one word, and keeps a short word in capitals from being read as
        initials (``NP JEN``, ``DR. KOH``); ``gender`` is the gender that context gave.
        ``tags`` are the spans of the tags ``text`` holds: two words of one tag that the
        patient's notes write as one name elsewhere (``o rourke``, ``O'Rourke``) are that name."""
        matches = self._joined(text, list(_TOKEN.finditer(text)), tags)
        # A particle ("de", "van", "le") is kept only before the name it belongs to; as the
        # last word it is the surname itself ("J. Le") and is replaced like any other.
        last = max((m.start() for m in matches if len(m.group()) > 1 and not is_title(m.group())), default=-1)

        def kept(match: _Piece, token: str) -> bool:
            return self._kept(token) and not (match.start() == last and token.lower() in PARTICLES)

        words = [m for m in matches if not kept(m, m.group())]
        initials_only = (
            len(matches) == 1
            and words
            and matches[0].group().isupper()
            and 2 <= len(matches[0].group()) <= 3
            and not (is_first_name(matches[0].group()) or is_last_name(matches[0].group()))
            and name_key(matches[0].group()) not in self.spelled
            and slot is None
        )
        named = [m for m in words if not self._is_initial(m.group())]
        roles = self._roles(text, named)
        if slot is not None and len(named) == 1:
            roles = {named[0].start(): slot}
        if gender is None or gender == "any":
            gender = self._gender(text, matches, roles)
        replaced: list[tuple[int, int, str]] = []
        for match in matches:
            pieces: list[str] = []
            token = match.group()
            possessive = _POSSESSIVE.search(token) if len(token) > 3 else None
            base = token[: possessive.start()] if possessive else token
            if kept(match, base):
                pieces.append(token)
            elif initials_only or self._is_initial(base):
                pieces.append("".join(self.initial(c) if c.isalpha() else c for c in base))
                pieces.append(possessive.group() if possessive else "")
            else:
                role = roles.get(match.start(), "last")
                pieces.append(self.token(base, role, gender if role == "first" else "any"))
                pieces.append(possessive.group() if possessive else "")
            replaced.append((match.start(), match.end(), "".join(pieces)))
        return replaced

    def _joined(self, text: str, matches: Sequence[_Piece], tags: Sequence[tuple[int, int]]) -> list[_Piece]:
        """``matches`` with two words of one tag joined when together they are a name the
        patient's notes write as one word."""
        out: list[_Piece] = []
        for match in matches:
            previous = out[-1] if out else None
            if (
                previous is not None
                and _SPLIT_GAP.fullmatch(text[previous.end() : match.start()])
                and name_key(previous.group() + match.group()) in self.whole
                and not is_title(previous.group())
                and any(s <= previous.start() and match.end() <= e for s, e in tags)
            ):
                out[-1] = _Word(previous.start(), match.end(), text[previous.start() : match.end()])
            else:
                out.append(match)
        return out

    @staticmethod
    def _kept(token: str) -> bool:
        return is_title(token) or token.lower() in PARTICLES

    @staticmethod
    def _is_initial(token: str) -> bool:
        return len(token) == 1

    def _roles(self, text: str, words: list[_Piece]) -> dict[int, str]:
        """First or last name for each word token (keyed by its start offset)."""
        if not words:
            return {}
        # Tokens joined by a hyphen or apostrophe ("Smith-Jones") share one role.
        groups: list[list[_Piece]] = [[words[0]]]
        for match in words[1:]:
            gap = text[groups[-1][-1].end() : match.start()]
            if gap in ("-", "‐"):
                groups[-1].append(match)
            else:
                groups.append([match])
        roles: list[str]
        first_gap = text[groups[0][-1].end() : groups[1][0].start()] if len(groups) > 1 else ""
        if len(groups) > 1 and "," in first_gap:
            roles = ["last"] + ["first"] * (len(groups) - 1)
        elif len(groups) > 1:
            roles = ["first"] * (len(groups) - 1) + ["last"]
        else:
            roles = [self._single_role(text, groups[0])]
        return {m.start(): role for group, role in zip(groups, roles, strict=True) for m in group}

    def _single_role(self, text: str, group: list[_Piece]) -> str:
        token = _POSSESSIVE.sub("", group[0].group())
        before = text[: group[0].start()].lower()
        if self.tokens.get(name_key(token)) is not None:
            return "last" if self._known_role(token) == "last" else "first"
        if any(name_tokens(before)) and any(is_title(t) for t in name_tokens(before)):
            return "last"
        if is_first_name(token) and not is_last_name(token):
            return "first"
        return "last"

    def _known_role(self, token: str) -> str:
        surrogate = self.tokens[name_key(token)]
        return "first" if is_first_name(surrogate) and not is_last_name(surrogate) else "last"

    @staticmethod
    def _gender(text: str, matches: list[_Piece], roles: dict[int, str]) -> str:
        for match in matches:
            word = match.group().lower().rstrip(".")
            if word in _MALE_TITLES:
                return "male"
            if word in _FEMALE_TITLES:
                return "female"
        for match in matches:
            if roles.get(match.start()) == "first":
                return name_gender(_POSSESSIVE.sub("", match.group()))
        return "any"
