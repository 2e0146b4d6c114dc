"""Medication and allergy lists, as discharge summaries write them: does the tagger take drugs
for names or places?

Run: ``python -m tests.benchmarks.bench_medication_lists [--model FILE] [--lines N] [--seed S]``.
It writes N invented lines (default 400) of the forms clinicians use (``MEDICATIONS ON
ADMISSION: Zestril, Zocor, Keppra.``, ``Allergies: PENICILLIN, Sulfa``, ``He was started on
Levaquin and Flagyl``), two to four drugs each, in title case or capitals, from the drug list
below (written for this benchmark: brand and generic names common in US notes). No line holds
PHI, so every predicted span is a false alarm; it prints them per 100 lines and by type, and
how many of the drugs the shipped drug lexicon (``resources/lexicons/drugs.txt``) holds (the
lexicon cannot speak for a drug it lacks).

Five real i2b2 2014 notes showed the failure: ``MEDICATIONS:  Zestril, Zocor`` tagged as a
doctor's name ("Surname, First"). The drugs come from the same world as the lexicon, so the
figure measures how the model weighs the feature, not the lexicon's coverage of drugs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from annotator.core.document import Document
from annotator.crf.default_model import default_model_path
from annotator.crf.lexicons import default_lexicons
from annotator.crf.tagger import CrfTagger

_DRUG_NAMES = (
    "Zestril Zocor Lipitor Crestor Norvasc Toprol Lopressor Coreg Lasix Aldactone Plavix Coumadin "
    "Eliquis Xarelto Pradaxa Lovenox Heparin Synthroid Glucophage Januvia Lantus Humalog Novolog "
    "Actos Amaryl Glucotrol Keppra Depakote Dilantin Lamictal Topamax Neurontin Lyrica Tegretol "
    "Zoloft Prozac Lexapro Celexa Paxil Wellbutrin Effexor Cymbalta Seroquel Zyprexa Risperdal "
    "Haldol Ativan Xanax Klonopin Valium Ambien Restoril Protonix Nexium Prilosec Pepcid Zantac "
    "Reglan Zofran Colace Senna Dulcolax Miralax Levaquin Cipro Flagyl Zosyn Vancomycin Keflex "
    "Augmentin Zithromax Bactrim Diflucan Tamiflu Prednisone Medrol Solumedrol Decadron Albuterol "
    "Atrovent Spiriva Advair Symbicort Singulair Flovent Combivent Tylenol Motrin Advil Aleve "
    "Percocet Vicodin Dilaudid Oxycontin Morphine Fentanyl Tramadol Toradol Digoxin Amiodarone "
    "Cardizem Isordil Imdur Nitroglycerin Hydralazine Lisinopril Losartan Cozaar Diovan Benicar "
    "Metformin Glipizide Atorvastatin Simvastatin Pravastatin Amlodipine Metoprolol Carvedilol "
    "Furosemide Spironolactone Clopidogrel Warfarin Levothyroxine Gabapentin Sertraline "
    "Omeprazole Pantoprazole Ondansetron Ceftriaxone Azithromycin Ciprofloxacin Penicillin "
    "Sulfa Codeine Ampicillin Allopurinol Colchicine Finasteride Flomax Tamsulosin Proscar"
)
DRUGS = tuple(_DRUG_NAMES.split())
OPENINGS = (
    "MEDICATIONS:",
    "MEDICATIONS ON ADMISSION:",
    "DISCHARGE MEDICATIONS:",
    "Medications on transfer:",
    "Meds:",
    "Home meds:",
    "Allergies:",
    "ALLERGIES:",
    "Allergic to",
    "He was started on",
    "She was continued on",
    "Home medications include",
    "Discontinued",
)


def medication_lines(count: int, seed: int) -> list[str]:
    """``count`` invented lines, each an opening and two to four drugs."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        drugs = rng.sample(DRUGS, rng.randint(2, 4))
        if rng.random() < 0.3:
            drugs = [d.upper() for d in drugs]
        joined = ", ".join(drugs) if rng.random() < 0.7 else ", ".join(drugs[:-1]) + " and " + drugs[-1]
        lines.append(f"{rng.choice(OPENINGS)} {joined}.")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="a model file (default: the bundled one)")
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.lines <= 1_000_000:
        parser.error("--lines must be from 1 to 1,000,000")
    tagger = CrfTagger.load(args.model or default_model_path())
    lines = medication_lines(args.lines, args.seed)
    # Notes of 20 lines, as a medication section would be one part of a note.
    notes = [
        Document(f"{900 + i // 20:03d}-{i // 20 % 100 + 1:02d}", "\n".join(lines[i : i + 20]) + "\n")
        for i in range(0, len(lines), 20)
    ]
    started = time.perf_counter()
    predicted = tagger.predict_spans(notes, None)
    seconds = time.perf_counter() - started
    alarms = Counter(p.type for spans in predicted.values() for p in spans)
    total = sum(alarms.values())
    lexicon = default_lexicons()
    held = sum(lexicon.contains("DRUG", d) for d in DRUGS)
    print(f"model: {args.model or 'bundled default'}")
    print(
        f"{len(lines)} invented medication and allergy lines ({len(DRUGS)} drugs, {held} in drugs.txt), seed {args.seed}"
    )
    print(f"false alarms: {total} ({100 * total / len(lines):.1f} per 100 lines); {seconds:.1f} s")
    for type_, count in alarms.most_common():
        print(f"    {count:4d}  {type_}")


if __name__ == "__main__":
    main()
