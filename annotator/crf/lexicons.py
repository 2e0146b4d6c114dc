"""Word lists shipped in ``resources/lexicons/`` and their matching over token sequences.

Each list is plain text, one entry per line, ``#`` starts a comment line. An entry may hold
several words (``New Hampshire``, ``St. Patrick's Day``); it is tokenised like note text
and matched as a token sequence, so every token of a match gets the list's name as a
feature. Matching ignores case except for lists where case carries the meaning (state
abbreviations: ``IN``, ``OR`` and ``ME`` are words in lower case).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from annotator.core.resources import resource_path
from annotator.crf.tokenizer import Token, tokenize
from annotator.errors import ModelError

LEXICON_DIR = resource_path("lexicons")

# Feature name -> (files, case-sensitive).
LEXICON_FILES: dict[str, tuple[tuple[str, ...], bool]] = {
    "FIRST_M": (("first_names_male.txt",), False),
    "FIRST_F": (("first_names_female.txt",), False),
    "SURNAME": (("surnames.txt",), False),
    "FIRST_WORLD": (("first_names_world.txt",), False),
    "SURNAME_WORLD": (("surnames_world.txt",), False),
    "CITY_WORLD": (("cities_world.txt",), False),
    "STATE": (("us_states.txt",), False),
    "STATE_ABBR": (("us_state_abbreviations.txt",), True),
    "COUNTRY": (("countries.txt",), False),
    "NATIONALITY": (("nationalities.txt",), False),
    "MONTH": (("months.txt",), False),
    "DAY": (("days.txt",), False),
    "SEASON": (("seasons.txt",), False),
    "HOLIDAY": (("holidays.txt",), False),
    "PROFESSION": (("professions_common.txt", "professions_faker.txt"), False),
    "DEPARTMENT": (("hospital_departments.txt",), False),
    # Words clinicians write outside PHI (learnt from real notes; see build_vocabulary.py).
    "CLINICAL": (("clinical_words.txt",), False),
    # Drug names (none a name or place we know): text that is not PHI, as in a medication
    # list written "Zestril, Zocor" that reads like a surname and a first name.
    "DRUG": (("drugs.txt",), False),
}

NAME_LEXICONS = ("FIRST_M", "FIRST_F", "SURNAME", "FIRST_WORLD", "SURNAME_WORLD")
FIRST_NAME_LEXICONS = ("FIRST_M", "FIRST_F")


def read_entries(path: Path) -> list[str]:
    """The entries of one list file (comments and blank lines skipped)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ModelError(f"cannot read lexicon: {error.strerror}", path) from None
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


@dataclass
class Lexicons:
    """All lists, indexed by their first token for sequence matching.

    Attributes
    ----------
    words: lexicon name -> set of single-token entries (lower-cased unless case-sensitive).
    """

    words: dict[str, frozenset[str]] = field(default_factory=dict)
    # first token key -> [(lexicon, remaining token keys)] for multi-token entries.
    _phrases: dict[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    _case_sensitive: frozenset[str] = field(default_factory=frozenset)
    # Lexicon names -> their entries pooled (lower-case, exact), built on first use.
    _unions: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def contains(self, lexicon: str, word: str) -> bool:
        key = word if lexicon in self._case_sensitive else word.lower()
        return key in self.words.get(lexicon, frozenset())

    def contains_any(self, lexicons: tuple[str, ...], word: str) -> bool:
        """Whether any of ``lexicons`` holds ``word``: :meth:`contains` of each, in two set
        look-ups (the name rule asks it of every capitalised word of every note)."""
        union = self._unions.get(lexicons)
        if union is None:
            empty: frozenset[str] = frozenset()
            lower = frozenset().union(
                *(self.words.get(n, empty) for n in lexicons if n not in self._case_sensitive)
            )
            exact = frozenset().union(
                *(self.words.get(n, empty) for n in lexicons if n in self._case_sensitive)
            )
            union = self._unions[lexicons] = (lower, exact)
        return word.lower() in union[0] or word in union[1]

    def word_memberships(self, word: str) -> tuple[str, ...]:
        """Single-token lists holding ``word``."""
        lower = word.lower()
        return tuple(
            name
            for name, entries in self.words.items()
            if (word if name in self._case_sensitive else lower) in entries
        )

    def match(self, tokens: Sequence[Token]) -> list[tuple[str, ...]]:
        """For each token, the lists with a multi-token entry covering it."""
        matched: list[tuple[str, ...]] = [()] * len(tokens)
        if not self._phrases:
            return matched
        # Few tokens are covered: sets only for those (not one per token of the note).
        covered: dict[int, set[str]] = {}
        lowers = [t.text.lower() for t in tokens]
        for index, token in enumerate(tokens):
            for key in (lowers[index], "=" + token.text):
                for name, rest in self._phrases.get(key, ()):
                    end = index + 1 + len(rest)
                    if end > len(tokens):
                        continue
                    exact = name in self._case_sensitive
                    candidate = (
                        tuple(t.text for t in tokens[index + 1 : end])
                        if exact
                        else tuple(lowers[index + 1 : end])
                    )
                    if candidate == rest:
                        for position in range(index, end):
                            covered.setdefault(position, set()).add(name)
        for position, names in covered.items():
            matched[position] = tuple(sorted(names))
        return matched


def build_lexicons(directory: Path = LEXICON_DIR) -> Lexicons:
    """Read every list of :data:`LEXICON_FILES` from ``directory``."""
    words: dict[str, set[str]] = {}
    phrases: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    case_sensitive = set()
    for name, (files, exact) in LEXICON_FILES.items():
        if exact:
            case_sensitive.add(name)
        single = words.setdefault(name, set())
        for file_name in files:
            for entry in read_entries(directory / file_name):
                parts = tuple(t.text if exact else t.text.lower() for t in tokenize(entry))
                if not parts:
                    continue
                if len(parts) == 1:
                    single.add(parts[0])
                else:
                    key = ("=" + parts[0]) if exact else parts[0]
                    phrases.setdefault(key, []).append((name, parts[1:]))
    return Lexicons(
        words={k: frozenset(v) for k, v in words.items()},
        _phrases=phrases,
        _case_sensitive=frozenset(case_sensitive),
    )


@cache
def default_lexicons() -> Lexicons:
    """The shipped lists, read once per process."""
    return build_lexicons()


@cache
def census_first_names() -> frozenset[str]:
    """The 1990 US Census's 5,163 given names, lower case (``first_names_census.txt``)."""
    return frozenset(e.lower() for e in read_entries(LEXICON_DIR / "first_names_census.txt"))


def is_given_name(lower: str) -> bool:
    """A listed first name: ours (SSA, through Faker) or the 1990 US Census's."""
    return default_lexicons().contains_any(FIRST_NAME_LEXICONS, lower) or lower in census_first_names()


def is_listed_name(lower: str) -> bool:
    """A word of any name list: a given name or a surname, ours or the world's."""
    lexicons = default_lexicons()
    return is_given_name(lower) or any(lexicons.contains(name, lower) for name in NAME_LEXICONS)
