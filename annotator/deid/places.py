"""Surrogates for places, institutions and professions, keeping each string's pattern.

Streets keep number + name + suffix (number of the same length, suffix in the same full or
abbreviated form); ``City, ST`` stays a city and a state abbreviation; a state keeps its
form (name or postal code); hospitals and organisations keep their type words (``Hospital``,
``Medical Center``, ``Inc``) and get a new name from a list; an all-capitals acronym becomes
the initials of a listed hospital name of the same length (``MGH`` -> ``LGH``, for Lakeview
General Hospital); departments become generic (seed 001 §5.2).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import cache

from annotator.core.english import zipf
from annotator.deid.lists import known_first_names, load_list, load_pairs, state_names
from annotator.deid.textcase import apply_case, random_like

HOSPITAL_WORDS = frozenset(
    [
        "hospital",
        "hospitals",
        "medical",
        "center",
        "centre",
        "clinic",
        "clinics",
        "health",
        "healthcare",
        "infirmary",
        "institute",
        "nursing",
        "home",
        "rehabilitation",
        "rehab",
        "memorial",
        "general",
        "regional",
        "community",
        "university",
        "children's",
        "childrens",
        "women's",
        "womens",
        "care",
        "hospice",
        "sanatorium",
        # The abbreviations clinicians write ("UNION HOSP", "Bayview Med Ctr").
        "hosp",
        "hosp.",
        "med",
        "med.",
        "ctr",
        "ctr.",
        "of",
        "the",
        "and",
        "&",
        "at",
        "for",
    ]
)
ORGANIZATION_WORDS = frozenset(
    [
        "inc",
        "inc.",
        "llc",
        "ltd",
        "co",
        "co.",
        "corp",
        "corp.",
        "corporation",
        "company",
        "group",
        "associates",
        "services",
        "foundation",
        "university",
        "college",
        "school",
        "academy",
        "church",
        "bank",
        "agency",
        "society",
        "association",
        "club",
        "department",
        "of",
        "the",
        "and",
        "&",
        "at",
        "for",
    ]
)
DEFAULT_DEPARTMENT = "Internal Medicine"
_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*\.?|&")
# A name that starts with one of these is a proper name to its last word ("St. Joseph",
# "Mount Sinai", "ST JOHNS"): nothing in it names the kind of place.
SAINT_WORDS = frozenset({"st", "st.", "ste", "ste.", "saint", "sainte", "san", "santa", "mt", "mt.", "mount"})
# One word of a place's name however it is written: "St." and "Saint", "Hosp" and "Hospital".
PLACE_WORD_FORMS = {
    "saint": "st", "sainte": "ste", "mount": "mt", "fort": "ft", "hosp": "hospital", "ctr": "center",
    "centre": "center", "med": "medical", "univ": "university", "&": "and",
}  # fmt: skip
_PLACE_PUNCTUATION = re.compile(r"['’‘`.]")
_POSSESSIVE_END = re.compile(r"['’]s$")
_CITY_STATE = re.compile(r"(?P<city>[^,]+?)(?P<sep>,\s*)(?P<state>[A-Za-z]{2}|[A-Za-z][A-Za-z .]+)")


# Capitals that read as something else in a clinical note: never an abbreviation surrogate.
CLINICAL_CAPITALS = frozenset({
    "MD", "DR", "RN", "NP", "PA", "OR", "ER", "ED", "CT", "MR", "MS", "PT", "OT", "GI", "GU", "HR",
    "BP", "IV", "PO", "ID", "IM", "SC", "ICU", "CCU", "OSH", "CABG", "LAD", "RCA", "TEE", "MRI", "CXR",
    "EKG", "ECG", "ABG", "CBC", "BMP", "PRN", "QID", "TID", "BID", "HS", "NPO", "DNR", "AMA", "SOB",
    "CHF", "CAD", "COPD", "OG", "NG", "PH", "SH", "FH", "MG", "HG", "BG", "KG", "RH", "TG", "PG",
})  # fmt: skip
_SUFFIXES = (
    ("Hospital",), ("General", "Hospital"), ("Medical", "Center"), ("Memorial", "Hospital"),
    ("Community", "Hospital"), ("Regional", "Medical", "Center"), ("University", "Hospital"),
    ("Heart", "Center"), ("General",),
)  # fmt: skip


def place_word_key(word: str) -> str:
    """One word of a place as every spelling of it reads (``St.``, ``ST``, ``Saint`` -> ``st``;
    ``Mary's`` -> ``mary``; ``Hosp.`` -> ``hospital``): lower case, without diacritics, a
    possessive, dots or apostrophes."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    bare = _PLACE_PUNCTUATION.sub("", _POSSESSIVE_END.sub("", bare))
    return PLACE_WORD_FORMS.get(bare, bare)


def place_key(text: str) -> str:
    """A place string as every spelling of it reads: its words by :func:`place_word_key`
    (``St. Mary's Hosp`` and ``SAINT MARY HOSPITAL`` are one key; ``MGH`` and ``Mgh`` too)."""
    return " ".join(place_word_key(w) for w in re.split(r"[\s,-]+", text) if w.strip("'’.,"))


def pick(rng: random.Random, candidates: Collection[str], avoid: Collection[str] = ()) -> str:
    """A random candidate not in ``avoid`` (lower-cased), or any candidate if all are."""
    pool = list(candidates)
    for _ in range(40):
        choice = rng.choice(pool)
        if choice.lower() not in avoid:
            return choice
    allowed = [c for c in pool if c.lower() not in avoid]
    return rng.choice(allowed or pool)


def _same_form(original: str, new: str) -> str:
    return apply_case(original, new)


def street_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    """``12 Main Street, Apt 4`` -> ``83 Cedar Avenue, Apt 7`` (same pattern)."""
    suffixes = load_pairs("street_suffixes")
    by_form = {full.lower(): (full, abbr) for full, abbr in suffixes} | {
        abbr.lower(): (full, abbr) for full, abbr in suffixes
    }
    for _ in range(20):
        out: list[str] = []
        position = 0
        named = False
        for match in _WORD.finditer(text):
            out.append(text[position : match.start()])
            word = match.group()
            bare = word.rstrip(".")
            if any(c.isdigit() for c in word):
                out.append(random_like(word, rng))
            elif bare.lower() in by_form and named:
                full, abbr = rng.choice(suffixes)
                is_abbr = (
                    bare.lower() == by_form[bare.lower()][1].lower()
                    and bare.lower() != by_form[bare.lower()][0].lower()
                )
                out.append(_same_form(bare, abbr if is_abbr else full) + word[len(bare) :])
            elif bare.lower() in (
                "n",
                "s",
                "e",
                "w",
                "north",
                "south",
                "east",
                "west",
                "apt",
                "suite",
                "unit",
                "#",
            ):
                out.append(word)
            elif not named:
                out.append(_same_form(word, pick(rng, load_list("street_names"))))
                named = True
            else:
                out.append("")  # the rest of a multi-word street name
            position = match.end()
        out.append(text[position:])
        candidate = re.sub(r"  +", " ", "".join(out))
        if candidate.lower() not in avoid and candidate.lower() != text.lower():
            return candidate
    return candidate


# Words of an address that are no part of the street's name (as street_like keeps them).
_STREET_PLAIN_WORDS = frozenset(
    {"n", "s", "e", "w", "north", "south", "east", "west", "apt", "suite", "unit", "#"}
)


@cache
def street_suffixes() -> dict[str, tuple[str, str]]:
    """Each street suffix, full or abbreviated, lower case, with its (full, abbreviation)."""
    return {
        form.lower(): (full, abbr) for full, abbr in load_pairs("street_suffixes") for form in (full, abbr)
    }


def _street_suffixes_in(text: str) -> list[re.Match[str]]:
    """The words of a street that are its suffix (``St`` of ``12 Elm St``): a listed suffix
    after the street's name. One before the name is a saint's (``12 St. Agnes Rd``)."""
    found = []
    named = False
    for match in _WORD.finditer(text):
        word = match.group()
        if any(c.isdigit() for c in word) or word.rstrip(".").lower() in _STREET_PLAIN_WORDS:
            continue
        if named and word.rstrip(".").lower() in street_suffixes():
            found.append(match)
        named = True
    return found


def street_key(text: str) -> str:
    """A street as every spelling of it reads: its suffix in full (``12 Elm St`` and ``12 ELM
    STREET``, ``Oak Ave.`` and ``Oak Avenue`` are one key), the rest by :func:`place_key`."""
    pieces, position = [], 0
    for match in _street_suffixes_in(text):
        full = street_suffixes()[match.group().rstrip(".").lower()][0]
        pieces += [text[position : match.start()], full]
        position = match.end()
    return place_key("".join(pieces) + text[position:])


def street_in_form(original: str, surrogate: str) -> str:
    """A street's surrogate with each suffix in the original's form: ``St.`` for an
    abbreviation with a dot, ``Street`` written in full (one street written both ways keeps
    one surrogate street, each occurrence in its own form)."""
    wanted, made = _street_suffixes_in(original), _street_suffixes_in(surrogate)
    if len(wanted) != len(made):
        return surrogate
    out, position = [], 0
    for model, match in zip(wanted, made, strict=True):
        bare = model.group().rstrip(".")
        full, abbr = street_suffixes()[match.group().rstrip(".").lower()]
        model_full, model_abbr = street_suffixes()[bare.lower()]
        # "Row" is its own abbreviation: written in full.
        abbreviated = bare.lower() == model_abbr.lower() != model_full.lower()
        form = abbr if abbreviated else full
        out += [surrogate[position : match.start()], apply_case(bare, form) + model.group()[len(bare) :]]
        position = match.end()
    return "".join(out) + surrogate[position:]


def state_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    """A state in the same form: postal code for a code, full name otherwise."""
    pairs = load_pairs("states")
    abbreviated = state_names().get(text.lower().rstrip(".")) == "abbr" or (len(text) <= 3 and text.isupper())
    pool = [
        abbr if abbreviated else name
        for name, abbr in pairs
        if text.lower() not in (name.lower(), abbr.lower())
    ]
    return apply_case(text, pick(rng, pool, avoid)) if not abbreviated else pick(rng, pool, avoid)


@cache
def _state_pairs() -> dict[str, tuple[str, str]]:
    return {form.lower(): (name, code) for name, code in load_pairs("states") for form in (name, code)}


def state_key(text: str) -> str | None:
    """The state a state name or postal code names (``MA`` and ``Massachusetts``: one key)."""
    pair = _state_pairs().get(text.strip().rstrip(".").lower())
    return pair[0].lower() if pair is not None else None


def state_pair(text: str) -> tuple[str, str] | None:
    """A state's name and postal code, from either (None when ``text`` names no listed state)."""
    return _state_pairs().get(text.strip().rstrip(".").lower())


def state_in_form(original: str, surrogate: str) -> str:
    """A surrogate state written in the original's form: ``NY`` for a code, ``New York`` for a
    name (one state of the patient's written both ways keeps one surrogate)."""
    pair = _state_pairs().get(surrogate.strip().rstrip(".").lower())
    if pair is None:
        return surrogate
    abbreviated = state_names().get(original.lower().rstrip(".")) == "abbr" or (
        len(original) <= 3 and original.isupper()
    )
    return pair[1] if abbreviated else apply_case(original, pair[0])


def city_like(
    text: str,
    rng: random.Random,
    avoid: Collection[str] = (),
    state_for: Callable[[str], str] | None = None,
) -> str:
    """A city from the list; ``City, ST`` keeps its state part in the same form, the state
    replaced by ``state_for`` when given (the patient's one surrogate of that state)."""
    match = _CITY_STATE.fullmatch(text)
    if match and match["state"].lower().rstrip(".") in state_names():
        city = apply_case(match["city"], pick(rng, load_list("cities"), avoid))
        state = state_for(match["state"]) if state_for else state_like(match["state"], rng, avoid)
        return city + match["sep"] + state
    pool = [c for c in load_list("cities") if c.lower() != text.lower()]
    return apply_case(text, pick(rng, pool, avoid))


def country_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    pool = [c for c in load_list("countries") if c.lower() != text.lower()]
    return apply_case(text, pick(rng, pool, avoid))


def profession_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    pool = [p for p in load_list("professions") if p.lower() != text.lower()]
    choice = pick(rng, pool, avoid)
    return apply_case(text, choice.capitalize() if text[:1].isupper() else choice)


def location_other_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> str:
    match = _CITY_STATE.fullmatch(text)
    if match and match["state"].lower().rstrip(".") in state_names():
        return city_like(text, rng, avoid)
    pool = [p for p in load_list("location_other") if p.lower() != text.lower()]
    return apply_case(text, pick(rng, pool, avoid))


def department_like(text: str) -> str:
    """The generic department matching a keyword of ``text``, else Internal Medicine."""
    lowered = text.lower()
    for keyword, generic in load_pairs("departments"):
        if keyword.lower() in lowered:
            return apply_case(text, generic)
    return apply_case(text, DEFAULT_DEPARTMENT)


def is_generic_department(text: str) -> bool:
    """True when a department name is already a generic one (it stays as it is)."""
    generic = {g.lower() for _, g in load_pairs("departments")} | {DEFAULT_DEPARTMENT.lower()}
    return text.strip().lower() in generic


def institution_like(
    text: str, rng: random.Random, kind: str = "hospital", avoid: Collection[str] = ()
) -> str:
    """A hospital or organisation name with the same type words and a new proper name."""
    words = list(_WORD.finditer(text))
    if len(words) == 1 and words[0].group().isupper() and 2 <= len(words[0].group()) <= 6:
        made = abbreviation_like(text, rng, avoid) if text.isalpha() else None
        if made is not None:
            return made[0]
    keep = set(HOSPITAL_WORDS if kind == "hospital" else ORGANIZATION_WORDS)
    connectors = {"of", "the", "and", "&", "at", "for"}
    head = generic_head_noun(text)
    if head is not None and not any(w.group().lower() in keep - connectors for w in words):
        # No known type word: a common last word is the head noun ("Maple Leaf Diner").
        keep.add(words[-1].group().lower())
    proper = [w.group() for w in words if w.group().lower() not in keep]
    names = without_words(load_list("hospital_names" if kind == "hospital" else "organization_names"), proper)
    for _ in range(20):
        out: list[str] = []
        position = 0
        in_name = False
        for match in words:
            gap = text[position : match.start()]
            word = match.group()
            if word.lower() in keep:
                out.append(gap + word)
                in_name = False
            elif not in_name:
                out.append(gap + apply_case(word, pick(rng, names)))
                in_name = True
            position = match.end()
        out.append(text[position:])
        candidate = "".join(out)
        if candidate.lower() not in avoid and candidate.lower() != text.lower():
            return candidate
    return candidate


def without_words(names: Sequence[str], words: Iterable[str]) -> list[str]:
    """The listed names sharing no word with ``words`` (a surrogate "Mercy Hospital" for
    "Mercy Valley Hospital" would keep "Mercy"); all of them if every one does."""
    taken = {w.rstrip(".").lower() for w in words}
    kept = [n for n in names if not taken & {w.rstrip(".").lower() for w in n.split()}]
    return kept or list(names)


def generic_head_noun(text: str) -> str | None:
    """The last word of an institution's name, lower case, when it is a common noun naming
    the kind of place ("Maple Leaf Diner", "Sacred Heart") that a surrogate may keep; None when
    it is part of the proper name: a saint's or a mountain's ("St. Joseph", "Mount Sinai",
    "St Brigid's"), a possessive, a first name or a place ("Beth Israel")."""
    words = [m.group() for m in _WORD.finditer(text)]
    if len(words) < 2 or words[0].lower() in SAINT_WORDS:
        return None
    last = words[-1].rstrip(".").lower()
    if not last.isalpha() or zipf(last) < 3.0:
        return None  # a possessive ("Brigid's"), a number, or a rare word: a name
    if last in known_first_names() or last in _place_names():
        return None
    return last


@cache
def _place_names() -> frozenset[str]:
    names = {c.lower() for c in load_list("cities")} | {c.lower() for c in load_list("countries")}
    return frozenset(names | set(state_names()))


@cache
def abbreviations() -> dict[str, tuple[str, ...]]:
    """Every abbreviation the lists make (initials of a hospital name and a type suffix)."""
    made: dict[str, list[str]] = {}
    for base in load_list("hospital_names"):
        for suffix in _SUFFIXES:
            name = f"{base} {' '.join(suffix)}"
            initials = "".join(w[0] for w in name.split() if w[0].isalpha()).upper()
            made.setdefault(initials, []).append(name)
    clinical = CLINICAL_CAPITALS | set(load_list("clinical_abbreviations"))
    return {k: tuple(v) for k, v in made.items() if k not in clinical}


def abbreviation_like(text: str, rng: random.Random, avoid: Collection[str] = ()) -> tuple[str, str] | None:
    """An abbreviation of the same length and its full name, or None when none is listed."""
    fits = [
        a for a in abbreviations() if len(a) == len(text) and a != text.upper() and a.lower() not in avoid
    ]
    if not fits:
        return None
    chosen = rng.choice(sorted(fits))
    name = rng.choice(abbreviations()[chosen])
    return (chosen if text.isupper() else apply_case(text, chosen)), name
