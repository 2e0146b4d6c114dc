"""The surrogate word lists shipped in ``resources/surrogates/`` (see SOURCES.md there)."""

from __future__ import annotations

from functools import cache

from annotator.core.resources import resource_path
from annotator.errors import InputError

SURROGATES_DIR = resource_path("surrogates")


@cache
def load_list(name: str) -> tuple[str, ...]:
    """The entries of ``resources/surrogates/<name>.txt``, comments and blanks skipped."""
    path = SURROGATES_DIR / f"{name}.txt"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise InputError(f"cannot read surrogate list: {error.strerror}", path) from None
    return tuple(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


@cache
def load_pairs(name: str) -> tuple[tuple[str, str], ...]:
    """``left|right`` entries of a list as pairs."""
    pairs = []
    for entry in load_list(name):
        left, _, right = entry.partition("|")
        pairs.append((left.strip(), right.strip() or left.strip()))
    return tuple(pairs)


@cache
def first_names(gender: str) -> tuple[str, ...]:
    """First names for ``"male"``, ``"female"`` or ``"any"`` (both lists)."""
    if gender == "any":
        return tuple(sorted(set(load_list("first_names_male")) | set(load_list("first_names_female"))))
    return load_list(f"first_names_{gender}")


@cache
def name_gender(token: str) -> str:
    """``"male"``, ``"female"`` or ``"any"`` (in both lists or in neither) for a first name."""
    lowered = token.lower()
    male = lowered in {n.lower() for n in load_list("first_names_male")}
    female = lowered in {n.lower() for n in load_list("first_names_female")}
    if male and not female:
        return "male"
    if female and not male:
        return "female"
    return "any"


@cache
def is_first_name(token: str) -> bool:
    return token.lower() in {n.lower() for n in first_names("any")}


@cache
def is_last_name(token: str) -> bool:
    return token.lower() in {n.lower() for n in load_list("last_names")}


@cache
def state_names() -> dict[str, str]:
    """Lower-cased state name or abbreviation -> the other form's kind (``name``/``abbr``)."""
    kinds: dict[str, str] = {}
    for name, abbreviation in load_pairs("states"):
        kinds[name.lower()] = "name"
        kinds[abbreviation.lower()] = "abbr"
    return kinds


def _lexicon(name: str) -> frozenset[str]:
    path = resource_path("lexicons") / f"{name}.txt"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise InputError(f"cannot read word list: {error.strerror}", path) from None
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


@cache
def known_first_names() -> frozenset[str]:
    """Every first name we know, lower case: the surrogate lists and the tagger's lexicons
    (US and 24 other locales; see resources/lexicons/SOURCES.md). Used to read a name's slot,
    never as surrogates."""
    names = {n.lower() for n in first_names("any")}
    for name in ("first_names_male", "first_names_female", "first_names_world"):
        names |= _lexicon(name)
    return frozenset(names)


@cache
def known_surnames() -> frozenset[str]:
    """Every surname of the surrogate list and the US surname lexicon, lower case."""
    return frozenset({n.lower() for n in load_list("last_names")} | _lexicon("surnames"))
