"""Export the name, place and job lists that ship in ``resources/lexicons/`` from Faker.

Run once by a maintainer (``python -m annotator.crf.build_lexicons``); the tagger reads the
text files, never Faker, so the installed Faker version cannot change a trained model's
features. Faker's en_US lists come from public US government data: first names from the
Social Security Administration's baby-name tables, surnames from the Census Bureau's
most frequent surnames. Hand-written lists (months, holidays, departments ...) are not
touched by this script.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from annotator.crf.lexicons import LEXICON_DIR

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
    return counts


if __name__ == "__main__":
    for name, count in build().items():
        print(f"{name}: {count}")
