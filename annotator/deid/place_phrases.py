"""Places read in their note: a hospital, a town, a state or an abbreviation, from the lists.

A generic location tag (``LOCATION-OTHER``; the PhysioNet corpus tags every place so) says
nothing of what the place is, and real notes tag a place in parts (``Good`` ``Sam``, ``Bel``
``Air``). Tags side by side on one line are read as one phrase; the words around it say what
it is (``UNION HOSP``, ``transfer to QUARTERMAIN 2`` and ``Baltimore Rehab`` are hospitals,
``home in Hagerstown`` a town); each run of name words gets a listed name of the same number
of words and length class, in the original's case, the same one every time within a patient.
Type words (``Rehab``, ``Hospital``), numbers, single letters and states keep their role; an
abbreviation (``GH``) becomes the initials of a listed hospital name of the same length.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.lists import load_list, state_names
from annotator.deid.places import (
    CLINICAL_CAPITALS,
    HOSPITAL_WORDS,
    SAINT_WORDS,
    abbreviation_like,
    pick,
    place_word_key,
    state_in_form,
    state_key,
    state_like,
    state_pair,
    without_words,
)
from annotator.deid.tag_runs import Span, adjacent_runs, cut_into_tags, line_after, line_before
from annotator.deid.textcase import apply_case, random_like

TYPE_WORDS = HOSPITAL_WORDS | {"univ", "area", "county", "bldg", "building"}
_TOKEN = re.compile(r"[^\W\d_]+(?:['’.][^\W\d_]+)*\.?|\d+")
_FACILITY_AFTER = re.compile(
    r"""^[\s"'(]*(?:hosp\w*|med\b|medical|ctr\b|cent(?:er|re)|clinic|heart\s+cent|rehab\w*|building|bldg|"""
    r"""memorial|nursing|infirmary|health|campus|\d+\b|unit\b|floor\b|ward\b|icu\b|attorneys?\b|md\b|cx\b|"""
    r"""scale\b|consult)""",
    re.IGNORECASE,
)
_FACILITY_BEFORE = re.compile(
    r"\b(?:transfer(?:r?ed)?|xfer|tx|admitted|adm|sent|present(?:ing|ed)|discharged?|d/c|medflight(?:ed)?|"
    r"accepted|arrived|arrival|brought|f/u\s+w/|seen\s+by|followed\s+by|pt\s+was|from|at|to)"
    r"(?:\s+(?:to|from|at|in|by|w/|the))?\s*$",
    re.IGNORECASE,
)
_CITY_BEFORE = re.compile(
    r"\b(?:lives?|living|resides?|home|vacationing|vacation|job|works?|working|born|moved|stay(?:s|ing)?|"
    r"knew\s+he\s+was|shelter)\b[^.\n]{0,20}\b(?:in|at|near|to)\s*$",
    re.IGNORECASE,
)
_CITY_AFTER = re.compile(r"^\s*(?:area\b|county\b|,\s*[A-Z]{2}\b)")
# A tag made only of type words (the corpus tags "Memorial" of "Willow Creek Memorial" apart)
# is PHI too: it becomes another type word of its group, never itself.
TYPE_SWAPS = (
    ("memorial", "general", "regional", "community", "university", "county"),
    ("hospital", "clinic", "infirmary", "center"),
    ("health", "care"),
)
CONNECTORS = frozenset({"of", "the", "and", "&", "at", "for"})
ABBREVIATION_NOTE = "an abbreviation: the initials of a listed hospital name ({name})"


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str
    role: str  # "name", "type", "state", "number", "letter", "abbreviation", "street"


def tokens(phrase: str, capitals_line: bool = False, acronyms: Collection[str] = ()) -> list[Token]:
    """The words of a place phrase, each with its role. In a line written in capitals a word
    of four or five capitals (``UNION``) is a name; elsewhere it is an abbreviation. A word
    alone that the patient's notes write elsewhere as an abbreviation (``acronyms``, keys of
    :func:`place_word_key`) is one in any case (``gh`` and ``Mgh`` beside ``GH`` and ``MGH``)."""
    found = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(phrase)]
    out = []
    for start, end, word in found:
        bare = word.rstrip(".").lower()
        if word.isdigit():
            role = "number"
        elif len(bare) == 1:
            role = "letter"
        elif bare in TYPE_WORDS:
            role = "type"
        elif bare in state_names() and (len(bare) > 2 or word.isupper()):
            role = "state"
        elif len(found) == 1 and (
            (word.isupper() and 2 <= len(word) <= (3 if capitals_line else 5))
            or (word.isalpha() and place_word_key(word) in acronyms)
        ):
            role = "abbreviation"
        else:
            role = "name"
        out.append(Token(start, end, word, role))
    return _street_suffixes(phrase, out)


# A street's suffix in a place phrase ("Elm St", "Elm Street"): kept as written, like a type
# word, so a street written both ways is one name. Only the common ones: "Court", "Place",
# "Point" or "Square" end the names of towns and hospitals too.
STREET_SUFFIXES = frozenset({
    "street", "st", "avenue", "ave", "road", "rd", "drive", "dr", "boulevard", "blvd", "lane", "ln",
})  # fmt: skip


def _street_suffixes(phrase: str, found: list[Token]) -> list[Token]:
    """``found`` with a street suffix right after a name word made a ``street`` token; ``St``
    before another name word is a saint's (``Good St Mary's``), not a street's."""
    out = list(found)
    for index in range(1, len(out)):
        token, previous = out[index], out[index - 1]
        bare = token.text.rstrip(".").lower()
        if bare not in STREET_SUFFIXES or token.role != "name" or previous.role != "name":
            continue
        if phrase[previous.end : token.start] != " ":
            continue
        after = out[index + 1] if index + 1 < len(out) else None
        if bare == "st" and after is not None and after.role == "name":
            continue
        out[index] = Token(token.start, token.end, token.text, "street")
    return out


def place_class(phrase: str, before: str, after: str) -> str:
    """``facility`` or ``city``: what the words around a place phrase say it is."""
    words = {t.text.rstrip(".").lower() for t in tokens(phrase)}
    if _CITY_BEFORE.search(before) or _CITY_AFTER.match(after):
        return "city"
    if words & (TYPE_WORDS - {"area", "county", "of", "the", "and", "&", "at", "for"}):
        return "facility"
    if _FACILITY_AFTER.match(after) or _FACILITY_BEFORE.search(before):
        return "facility"
    return "city"


def _length_class(text: str) -> int:
    letters = sum(c.isalpha() for c in text)
    return 0 if letters <= 5 else 1 if letters <= 8 else 2


def name_like(words: Sequence[str], kind: str, rng: random.Random, avoid: Collection[str] = ()) -> list[str]:
    """A listed name with as many words as ``words`` and of the same length class, as a list
    of words (``Good Sam`` -> ``Cedar Ridge``); the caller writes each in its original's case."""
    pool = load_list("hospital_names" if kind == "facility" else "cities")
    fits = [n for n in without_words(pool, words) if len(n.split()) == len(words) and n.lower() not in avoid]
    if not fits:  # three words and more: one listed one-word name per word
        return [name_like([w], kind, rng, avoid)[0] for w in words]
    wanted = _length_class(" ".join(words))
    same = [n for n in fits if _length_class(n) == wanted] or fits
    return pick(rng, same, avoid).split()


def saint_like(word: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    """Another saint for the name after ``St`` (``Agnes`` -> ``Clara``): a listed given name,
    none of the corpus's place words, never the original."""
    own = place_word_key(word)
    names = load_list("first_names_female") + load_list("first_names_male")
    # Another initial too: "St A." for the saint's place then reads as another saint's.
    pool = [n for n in names if n.lower() != own and n[:1].lower() != own[:1]]
    return pick(rng, pool, avoid)


# "St Agnes", "Saint Mary's", "Ste. Anne": a saint's name after it.
SAINTS = frozenset({"st", "ste"})
_POSSESSIVE_END = re.compile(r"['’]s$", re.IGNORECASE)
_CLINICAL = frozenset(c.lower() for c in CLINICAL_CAPITALS)


class PlaceMapper:
    """One patient's place surrogates: the same phrase gets the same surrogate everywhere."""

    def __init__(self, rng: random.Random, avoid: Collection[str] = (), own: Collection[str] = ()) -> None:
        self.rng = rng
        self.avoid = frozenset(a.lower() for a in avoid)
        # The patient's own place words: a type word swapped in must not be one of them.
        self.own = frozenset(o.lower() for o in own)
        self._runs: dict[str, list[str]] = {}
        # Abbreviations of the patient's (keys of place_word_key): the same letters in any
        # case are the same place.
        self.acronyms: set[str] = set()
        self._abbreviations: dict[str, tuple[str, str] | None] = {}
        # Type words swapped in for a tag made only of type words ("Memorial" -> "Regional").
        self._swaps: dict[str, str] = {}
        # Each state's surrogate, keyed by the state it names (state_key): shared by every
        # tag type that writes a state (see state()).
        self._states: dict[str, str] = {}
        self._numbers: dict[str, str] = {}
        # The patient's saints' places, as (saint word, name) keys: ("st", "agnes").
        self.saints: set[tuple[str, str]] = set()

    def learn(self, text: str, before: str = "") -> None:
        """Read a place tag of the patient's before any is replaced: a tag of one word of two
        or three capitals (``GH``, ``MGH``) is an abbreviation wherever the patient's notes
        write it (:attr:`acronyms`); a saint's place (``St. Agnes``, or ``Agnes`` tagged after
        the ``St.`` of ``before``) is one that ``St A.`` may stand for (:attr:`saints`)."""
        word = text.strip()
        if word.isalpha() and word.isupper() and 2 <= len(word) <= 3:
            self.acronyms.add(place_word_key(word))
        lead = before[-8:] + " "
        for saint, name in itertools.pairwise(tokens(lead + text)):
            tagged = name.start >= len(lead)  # the name is the tag's, not only the text's before it
            if place_word_key(saint.text) in SAINTS and name.role == "name" and tagged and len(name.text) > 2:
                self.saints.add((place_word_key(saint.text), place_word_key(name.text)))
                break

    def _unused(self, draw: Callable[[frozenset[str]], list[str]]) -> list[str]:
        """A name no other place of the patient's has (two places given one name would read as
        one): drawn again, avoiding the names taken, when the first draw is taken."""
        taken = {" ".join(map(place_word_key, words)) for words in self._runs.values()}
        made = draw(self.avoid)
        for _ in range(20):
            if " ".join(map(place_word_key, made)) not in taken:
                break
            made = draw(self.avoid | taken)
        return made

    def _unused_abbreviation(self, text: str) -> tuple[str, str] | None:
        """An abbreviation no other abbreviation of the patient's has."""
        taken = {made[0].lower() for made in self._abbreviations.values() if made is not None}
        made = abbreviation_like(text, self.rng, self.avoid)
        for _ in range(20):
            if made is None or made[0].lower() not in taken:
                break
            made = abbreviation_like(text, self.rng, self.avoid | taken)
        return made

    def _swap(self, word: str) -> str:
        """Another type word of the same group (else of any), none of the patient's own place
        words (the leak check would read it as the original)."""
        key = word.rstrip(".").lower()
        if key not in self._swaps:
            group = next((g for g in TYPE_SWAPS if key in g), TYPE_SWAPS[0])
            same = [w for w in group if w != key and w not in self.own]
            other = [w for g in TYPE_SWAPS for w in g if w != key and w not in self.own]
            self._swaps[key] = self.rng.choice(same or other or [w for w in group if w != key]).capitalize()
        return self._swaps[key]

    def state(self, text: str) -> str:
        """The patient's surrogate of a state, in ``text``'s form and case (``MA`` -> ``NY``,
        ``Massachusetts`` -> ``New York``).

        One map for every tag type that writes a state: a ``STATE`` tag, a state word in a
        ``LOCATION-OTHER`` phrase and the state of a ``CITY`` tag (``Boston, MA``) name the same
        thing, and a reader would take two surrogates for two states. ``COUNTRY`` stays apart:
        a country tag "Georgia" names the country, and its surrogate must be a country. Two
        states of the patient never share a surrogate."""
        key = state_key(text) or text.strip().lower()
        if key not in self._states:
            taken = {form.lower() for made in self._states.values() for form in _state_forms(made)}
            made = state_like(text, self.rng, self.avoid | _CLINICAL)
            for _ in range(20):
                if not taken & {form.lower() for form in _state_forms(made)}:
                    break
                made = state_like(text, self.rng, self.avoid | _CLINICAL | taken)
            self._states[key] = made
        return apply_case(text, state_in_form(text, self._states[key]))

    def _saint(self, key: str, words: Sequence[str]) -> list[str]:
        """The surrogate words of a saint's place (``St. Agnes`` -> ``St. Clara``), the same
        for the patient every time however it is written or abbreviated."""
        if key not in self._runs:
            self._runs[key] = self._unused(lambda avoid: [words[0], saint_like(words[1], self.rng, avoid)])
        return self._runs[key]

    def _saint_initial(self, saint: Token, letter: Token) -> str:
        """``St A.``: the initial of the surrogate of the patient's one saint of that letter
        (``St. Agnes`` -> ``St. Clara``, so ``St C.``); with none or several, of a saint drawn
        for the initial alone (the same one for the patient)."""
        initial = letter.text.rstrip(".")
        word = place_word_key(saint.text)
        named = sorted(name for w, name in self.saints if w == word and name[:1] == initial.lower())
        if len(named) == 1:
            made = self._saint(f"{word} {named[0]}", [saint.text, named[0]])
        else:
            made = self._saint(f"{word} {initial.lower()}.", [saint.text, initial])
        return apply_case(initial, made[1][:1].upper()) + letter.text[len(initial) :]

    def _number(self, digits: str) -> str:
        """Another number of as many digits, the same one for the same number."""
        if digits not in self._numbers:
            leading_zero = digits.startswith("0")
            made = digits
            while made == digits:
                made = random_like(digits, self.rng, nonzero_first=not leading_zero)
            self._numbers[digits] = made
        return self._numbers[digits]

    def replace(
        self, phrase: str, before: str, after: str, tags: Sequence[Span] = ()
    ) -> tuple[str, list[tuple[int, int, str]], str | None]:
        """The phrase's surrogate, each token's replacement (offsets in ``phrase``), and a note.
        ``tags`` are the spans of the tags in the phrase (default: one tag, the phrase)."""
        kind = place_class(phrase, before, after)
        context = before + phrase + after
        spans = list(tags) or [(0, len(phrase))]
        # A word's dot outside its tag ("St" "Mary's" tagged apart, "St. Mary's" written) is
        # left as it is: every replacement lies inside one tag.
        found = [
            Token(t.start, min(t.end, end), t.text[: min(t.end, end) - t.start], t.role)
            for t in tokens(phrase, not any(c.islower() for c in context), self.acronyms)
            for end in [next((e for s, e in spans if s <= t.start < e), t.end)]
        ]
        replaced: list[tuple[int, int, str]] = []
        note = None
        run: list[Token] = []

        def flush() -> None:
            if run:
                # Keyed by its words alone: "living in Rome" (a town) and "from ROME" (read
                # as a hospital) are one place of the patient's; its first reading picks the list.
                # Each word as any spelling reads it: "St. Mary's", "ST MARY", "Saint Mary".
                key = " ".join(place_word_key(t.text) for t in run)
                saint = len(run) == 2 and place_word_key(run[0].text) in SAINTS
                words = [t.text for t in run]
                if saint:
                    new = self._saint(key, words)
                elif key not in self._runs:
                    new = self._runs[key] = self._unused(
                        lambda avoid: name_like(words, kind, self.rng, avoid)
                    )
                else:
                    new = self._runs[key]
                if saint:
                    # "St. Agnes" -> "St. Clara": the saint's word stays as written (it names
                    # no one), the saint is another; a possessive stays ("St Mary's").
                    possessive = _POSSESSIVE_END.search(run[1].text)
                    new = [run[0].text, new[1] + (possessive.group() if possessive else "")]
                replaced.extend(
                    (t.start, t.end, apply_case(t.text, w)) for t, w in zip(run, new, strict=True)
                )
                run.clear()

        def only_types(token: Token) -> bool:
            tag = next((s for s in spans if s[0] <= token.start < s[1]), (0, len(phrase)))
            inside = [t for t in found if tag[0] <= t.start < tag[1]]
            return all(t.role in ("type", "number", "letter") for t in inside)

        for index, token in enumerate(found):
            gap = phrase[found[index - 1].end : token.start] if index else ""
            if token.role == "type" and only_types(token) and token.text.lower() not in CONNECTORS:
                replaced.append((token.start, token.end, apply_case(token.text, self._swap(token.text))))
                continue
            if token.role == "name" and (not run or gap.strip() in ("", "-", ".")):
                run.append(token)
                continue
            if token.role == "letter" and len(run) == 1 and place_word_key(run[0].text) in SAINTS:
                # "St A.": a saint's initial; the saint's word stays as written.
                replaced.append((token.start, token.end, self._saint_initial(run[0], token)))
                run.clear()
                continue
            flush()
            if token.role == "name":
                run.append(token)
            elif token.role == "state":
                # "MA" and "Massachusetts": one state, one surrogate, each in its own form.
                replaced.append((token.start, token.end, self.state(token.text)))
            elif token.role == "number" and len(token.text) >= 2:
                # "Pier 21": a number of two digits or more is part of the name; one digit
                # ("QUARTERMAIN 2", a unit) names no place.
                replaced.append((token.start, token.end, self._number(token.text)))
            elif token.role == "abbreviation":
                key = place_word_key(token.text)
                if key not in self._abbreviations:
                    self._abbreviations[key] = self._unused_abbreviation(token.text.upper())
                made = self._abbreviations[key]
                if made is not None:
                    replaced.append((token.start, token.end, _acronym_case(token.text, made[0])))
                    note = ABBREVIATION_NOTE.format(name=made[1])
                else:
                    run.append(token)
        flush()
        text = phrase
        for start, end, new in sorted(replaced, reverse=True):
            text = text[:start] + new + text[end:]
        return text, replaced, note


def _state_forms(state: str) -> tuple[str, ...]:
    """A state's name and code (``New York``, ``NY``), or the string alone when unlisted."""
    return state_pair(state) or (state,)


def _acronym_case(model: str, acronym: str) -> str:
    """An abbreviation written as ``model`` is: ``LGH``, ``lgh`` or ``Lgh``."""
    if model.isupper():
        return acronym.upper()
    if model.islower():
        return acronym.lower()
    return acronym[:1].upper() + acronym[1:].lower()


# Place tags side by side ("Good" "Sam", "Bel" "Air") are one phrase; so are a saint's or a
# mountain's abbreviation and the name after its dot, the dot left out of the tags ("St" "Mary's").
_PLACE_GAP = re.compile(r"[ -]|\. ")


def _one_place(previous: str, between: str) -> bool:
    return "." not in between or previous.strip().lower() in SAINT_WORDS


def plan_places(
    document: Document, tags: Iterable[Annotation], mapper: PlaceMapper
) -> dict[Span, tuple[str, str | None]]:
    """Each place tag's surrogate and note, read as phrases in their context."""
    planned: dict[Span, tuple[str, str | None]] = {}
    text = document.text
    for run in adjacent_runs(text, tags, _PLACE_GAP, longest=2, joins=_one_place):
        start, end = run[0][0], run[-1][1]
        spans = [(s - start, e - start) for s, e in run]
        _, replaced, note = mapper.replace(
            text[start:end], line_before(text, start, 40), line_after(text, end, 30), spans
        )
        for span, new in cut_into_tags(text, run, replaced).items():
            planned[span] = (new, note)
    return planned
