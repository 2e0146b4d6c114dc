"""Surrogates on real clinical text: the PhysioNet deid gold standard's test patients.

Run: ``python -m tests.benchmarks.bench_surrogates_real`` (``--physionet DIR`` or
``$PHYSIONET_DEID``; ``--patients 111-163``, the test split of issue 29; ``--seed``). It writes
the patients' notes as a gold folder in a temporary directory and runs what
``annotator deidentify GOLD -o OUT --method surrogate --on-leak mask --map MAP`` runs, then prints

- dates masked / total (a mask is a date with no reading, or a leak-check finding);
- surrogates that are not a word or name of our lists (names, places, type words, the
  abbreviations the hospital list makes), each listed with its type;
- within-patient day intervals kept / total: every pair of a patient's dates that name a
  day, read in the original and in the output the same way (a date without a year in the year
  that puts it nearest to the note's full dates), must be as many days apart in both;
- counts per type: replaced, masked, with a note in the audit map (and why), names by
  slot (whose, first or last), places by what the context made them.

Nothing of the corpus is printed but surrogates, counts and reasons.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path

from annotator.core.document import Document
from annotator.deid.date_forms import IMPOSSIBLE
from annotator.deid.date_plans import DatePlan, plan_document, resolve_centuries
from annotator.deid.dates import DATE_WORDS
from annotator.deid.lists import load_list, load_pairs
from annotator.deid.name_slots import who
from annotator.deid.names import PARTICLES, TITLES
from annotator.deid.place_phrases import TYPE_WORDS
from annotator.deid.places import ORGANIZATION_WORDS, abbreviations
from annotator.deid.surrogates import YEARLESS_YEAR, DeidOptions, kind_of
from annotator.deid.tag_runs import line_before
from annotator.io.corpus import read_corpus
from annotator.io.i2b2 import write_i2b2
from annotator.workflows.deidentify import DeidentifyRequest, deidentify

PHYSIONET_ENV = "PHYSIONET_DEID"
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
MASK = re.compile(r"\[\*\*[A-Z-]+\*\*\]")
CHECKED_KINDS = ("name", "location", "city", "hospital", "organization", "state", "country", "street")


def vocabulary() -> frozenset[str]:
    """Every word a surrogate may be made of: the lists' words, type words, titles."""
    words: set[str] = set()
    for name in (
        "first_names_male", "first_names_female", "last_names", "cities", "countries", "hospital_names",
        "organization_names", "location_other", "street_names", "professions",
    ):  # fmt: skip
        for entry in load_list(name):
            words.update(w.lower() for w in _WORD.findall(entry))
    for name in ("states", "street_suffixes", "departments"):
        for left, right in load_pairs(name):
            words.update(w.lower() for w in _WORD.findall(f"{left} {right}"))
    words.update(a.lower() for a in abbreviations())
    words.update(TYPE_WORDS | ORGANIZATION_WORDS | TITLES | PARTICLES | DATE_WORDS)
    return frozenset(words)


def from_lists(text: str, words: frozenset[str]) -> bool:
    """Every word of a surrogate is in the vocabulary (a single letter is an initial)."""
    return all(len(w) == 1 or w.lower() in words for w in _WORD.findall(text))


def place_kind(text: str) -> str:
    """What a place surrogate is: a word of the hospital list, a town, an abbreviation, a state."""
    words = [w.lower() for w in _WORD.findall(text) if w.lower() not in TYPE_WORDS and len(w) > 1]
    lists = (
        ("hospital", {w.lower() for n in load_list("hospital_names") for w in _WORD.findall(n)}),
        ("town", {w.lower() for n in load_list("cities") for w in _WORD.findall(n)}),
        ("abbreviation", {a.lower() for a in abbreviations()}),
        ("state", {w.lower() for pair in load_pairs("states") for w in _WORD.findall(" ".join(pair))}),
    )
    for name, vocabulary in lists:
        if words and all(w in vocabulary for w in words):
            return name
    return "type word" if not words else "other"


def read_day(plan: DatePlan, index: int, note_dates: list[dt.date]) -> dt.date | None:
    """The calendar day a plan's date names (None: no day, or an impossible date)."""
    if IMPOSSIBLE in plan.notes:
        return None
    parsed = plan.segments[index].parsed
    if parsed.month is None or parsed.day is None:
        return None
    if parsed.year is not None:
        return dt.date(parsed.year, parsed.month, parsed.day)
    best: tuple[int, dt.date] | None = None
    for near in note_dates or [dt.date(YEARLESS_YEAR, 7, 1)]:
        for year in (near.year - 1, near.year, near.year + 1):
            try:
                day = dt.date(year, parsed.month, parsed.day)
            except ValueError:
                continue
            if best is None or abs((day - near).days) < best[0]:
                best = (abs((day - near).days), day)
    return best[1] if best else None


def patient_plans(notes: list[Document]) -> dict[str, list[DatePlan]]:
    """Each note's date plans, two-digit years in the patient's century."""
    plans = {d.doc_id: plan_document(d, [a for a in d if kind_of(a) == "date"]) for d in notes}
    resolve_centuries(p for found in plans.values() for p in found)
    return plans


def context_dates(plans: dict[str, list[DatePlan]]) -> dict[str, list[dt.date]]:
    """What a reader reads a year-less date against: the note's full dates, else the
    patient's, else the patient's first day in a year with no 29 February near it."""
    own = {doc_id: [day for plan in found for day in plan.full_dates()] for doc_id, found in plans.items()}
    patient = [day for days in own.values() for day in days]
    if not patient:
        for plan in (p for found in plans.values() for p in found):
            first = plan.segments[0].parsed
            if first.month is not None and first.day is not None and (first.month, first.day) != (2, 29):
                patient = [dt.date(YEARLESS_YEAR, first.month, first.day)]
                break
    return {doc_id: dates or patient for doc_id, dates in own.items()}


def days_by_tag(
    document: Document, plans: list[DatePlan], note_dates: list[dt.date]
) -> dict[tuple[str, int], dt.date]:
    """``(tag id, segment)`` -> the day it names, for every dated tag group of a note."""
    ids = {(a.start + len(a.text) - len(a.text.lstrip())): a.id for a in document if kind_of(a) == "date"}
    days: dict[tuple[str, int], dt.date] = {}
    for plan in plans:
        for index in range(len(plan.segments)):
            day = read_day(plan, index, note_dates)
            if day is not None and plan.keys[0][0] in ids:
                days[(ids[plan.keys[0][0]], index)] = day
    return days


def patient_days(notes: list[Document]) -> dict[str, dict[tuple[str, int], dt.date]]:
    plans = patient_plans(notes)
    context = context_dates(plans)
    return {d.doc_id: days_by_tag(d, plans[d.doc_id], context[d.doc_id]) for d in notes}


def intervals(originals: list[Document], outputs: dict[str, Document]) -> tuple[int, int, int]:
    """Pairs of one patient's days as far apart in the output as in the original, all pairs,
    and days of the original that name no day in the output."""
    kept = total = lost = 0
    grouped: dict[str, list[Document]] = {}
    for document in originals:
        grouped.setdefault(document.patient_id, []).append(document)
    for notes in grouped.values():
        before = patient_days(notes)
        after = patient_days([outputs[d.doc_id] for d in notes])
        pairs: list[tuple[dt.date, dt.date]] = []
        for doc_id, days in before.items():
            pairs.extend((day, after[doc_id][key]) for key, day in days.items() if key in after[doc_id])
            lost += sum(1 for key in days if key not in after[doc_id])
        for (a, new_a), (b, new_b) in combinations(pairs, 2):
            total += 1
            kept += (b - a).days == (new_b - new_a).days
    return kept, total, lost


def measure(notes: list[Document], seed: int) -> None:
    words = vocabulary()
    with tempfile.TemporaryDirectory() as scratch:
        gold, out, map_path = Path(scratch, "gold"), Path(scratch, "out"), Path(scratch, "map.json")
        gold.mkdir()
        for document in notes:
            write_i2b2(document, gold / f"{document.doc_id}.xml")
        report = deidentify(
            DeidentifyRequest(gold, out, DeidOptions(seed=seed), map_path=map_path, on_leak="mask")
        )
        outputs = {d.doc_id: d for d in read_corpus(out).documents}
        audit = json.loads(map_path.read_text(encoding="utf-8"))
    originals = notes
    replaced: Counter[str] = Counter()
    masked: Counter[str] = Counter()
    strange: list[tuple[str, str]] = []
    slots: Counter[str] = Counter()
    places: Counter[str] = Counter()
    for document in originals:
        new_tags = {a.id: a for a in outputs[document.doc_id]}
        for tag in document:
            new = new_tags[tag.id].text
            replaced[tag.type] += 1
            if MASK.search(new):
                masked[tag.type] += 1
            elif kind_of(tag) in CHECKED_KINDS and not from_lists(new, words):
                strange.append((tag.type, new))
            if kind_of(tag) == "name":
                slots[who(tag, line_before(document.text, tag.start, 30))] += 1
            if kind_of(tag) == "location" and not MASK.search(new):
                places[place_kind(new)] += 1
    notes_by_reason: Counter[str] = Counter()
    for patient in audit["patients"].values():
        for item in patient["replacements"]:
            if item.get("note"):
                reason = re.sub(r"\(.*\)", "(...)", item["note"])
                notes_by_reason[f"{item['type']}: {reason}"] += len(item["occurrences"])
    kept, total, lost = intervals(originals, outputs)
    dates = replaced.get("DATE", 0)
    patients = len({d.patient_id for d in originals})
    print(f"{len(originals)} notes of {patients} patients, {sum(replaced.values())} PHI; seed {seed}")
    print(
        f"dates masked: {masked.get('DATE', 0)} / {dates} ({100 * masked.get('DATE', 0) / max(dates, 1):.1f} %)"
    )
    print(f"surrogates not from our lists: {len(strange)}")
    for type_, text in strange:
        print(f"  {type_}: {text}")
    print(f"within-patient day intervals kept: {kept} / {total} (days no longer read as a day: {lost})")
    print(f"leak-check findings masked: {report.leaks_masked}")
    print("per type: replaced, masked")
    for type_ in sorted(replaced):
        print(f"  {type_:16s} {replaced[type_]:5d} {masked.get(type_, 0):5d}")
    print("names by whose they are: " + ", ".join(f"{k} {v}" for k, v in sorted(slots.items())))
    print("places by what they became: " + ", ".join(f"{k} {v}" for k, v in sorted(places.items())))
    print("unusual replacements noted in the audit map:")
    for reason, count in sorted(notes_by_reason.items()):
        print(f"  {count:4d}  {reason}")


def patients_in(spec: str) -> range:
    first, _, last = spec.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--physionet", default=os.environ.get(PHYSIONET_ENV), help="the PhysioNet deid folder"
    )
    parser.add_argument(
        "--patients", default="111-163", help="patient range (default: the test split 111-163)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.physionet:
        print(f"skipped: set {PHYSIONET_ENV} or --physionet to the PhysioNet deid folder")
        return 0
    from annotator.io.physionet import read_physionet

    wanted = patients_in(args.patients)
    notes = [d for d in read_physionet(args.physionet) if int(d.patient_id) in wanted]
    measure(notes, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
