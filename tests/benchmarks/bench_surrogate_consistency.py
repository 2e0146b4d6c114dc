"""Surrogate consistency within a patient: one real string, one surrogate; two, two.

Run: ``python -m tests.benchmarks.bench_surrogate_consistency [GOLD]`` (a gold folder of
i2b2 XML, a PhysioNet deid folder, or ``$PHYSIONET_DEID``; ``--seed``). It de-identifies the
notes in memory with surrogates (what ``annotator deidentify --method surrogate`` replaces) and
counts, per patient and surrogate kind:

- **splits**: one real string, written in different case or punctuation (``O'Brien``,
  ``OBRIEN``, ``O BRIEN``; ``St. Joseph`` and ``Saint Joseph``; ``MGH`` and ``Mgh``), given more
  than one surrogate (read as written in lower case, without punctuation or blanks: a reader
  would then take one person or place for two);
- **merges**: two different real strings given one surrogate (a reader would take two people
  or places for one); ages over 89 (all 90) and departments (made generic) are merged on
  purpose and not counted.

Both are counted on whole tags (place tags side by side as one phrase, as the surrogates read
them) and, for names, word by word where a tag and its surrogate have as many words (a
possessive is the name). Only counts are printed; ``--examples FILE`` writes the pairs
found (they hold PHI: a private file, mode 0600, for the data owner).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.rewrite import Replaced
from annotator.deid.surrogates import DeidOptions, kind_of
from annotator.io.corpus import read_corpus
from annotator.io.physionet import read_physionet

PHYSIONET_ENV = "PHYSIONET_DEID"
# Merged on purpose: every age over 89 is 90, departments are made generic.
BY_DESIGN = ("age", "department")
MASK = re.compile(r"\[\*\*[^*]*\*\*\]")
PLACE_GAP = re.compile(r"[ -]|\. ")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")
WORD_KINDS = ("name", "location", "hospital", "organization", "city", "street")
# Words that are punctuation variants of one word in a place (a saint, a mountain).
_PLACE_WORDS = {"saint": "st", "mount": "mt"}


def key(text: str, kind: str) -> str:
    """``text`` as the audit compares it: lower case, without diacritics, and for names and
    places without punctuation or blanks (dates and numbers keep their separators)."""
    lowered = unicodedata.normalize("NFKD", text.lower())
    lowered = "".join(c for c in lowered if not unicodedata.combining(c))
    if kind not in WORD_KINDS:
        # "12/07" and "12/7" are one date.
        return re.sub(r"(?<!\d)0(\d)", r"\1", " ".join(lowered.split()))
    lowered = re.sub(r"['’]s\b", "", lowered).replace("'", "").replace("’", "")  # a possessive is the name
    words = [_PLACE_WORDS.get(w, w) for w in re.findall(r"[^\W_]+", lowered)]
    return "".join(words)


def read(path: Path) -> list[Document]:
    if any(path.glob("*.text")) or path.suffix == ".text":
        return read_physionet(path)
    return read_corpus(path).documents


def pairs(documents: list[Document], seed: int) -> Iterable[tuple[str, str, str, str, str]]:
    """(patient, kind, unit, original, surrogate) for every replaced tag (``unit``: ``tag`` or
    ``word``); masked tags are left out."""
    result = deidentify_documents(documents, DeidOptions(seed=seed))
    originals = {d.doc_id: d for d in documents}
    for doc_id, items in result.replaced.items():
        for kind, original, surrogate in phrases(originals[doc_id].text, items):
            yield originals[doc_id].patient_id, kind, "tag", original, surrogate
            if kind == "name":
                old, new = _WORD.findall(original), _WORD.findall(surrogate)
                if len(old) == len(new) and len(old) > 1:
                    for a, b in zip(old, new, strict=True):
                        if len(a) > 1 and not a.isdigit():
                            yield originals[doc_id].patient_id, kind, "word", a, b


def phrases(text: str, items: list[Replaced]) -> Iterable[tuple[str, str, str]]:
    """(kind, original, surrogate) of each replaced tag; place tags side by side on a line
    (``St`` ``Mary's``, ``Good`` ``Sam``) as one phrase, as the surrogates read them."""
    kept = [
        i
        for i in sorted(items, key=lambda i: i.original.start)
        if not i.review and not MASK.search(i.new.text)
    ]
    run: list[Replaced] = []

    def flush() -> Iterable[tuple[str, str, str]]:
        if run:
            original = text[run[0].original.start : run[-1].original.end].strip()
            gaps = [text[a.original.end : b.original.start] for a, b in itertools.pairwise(run)]
            surrogate = run[0].new.text + "".join(g + r.new.text for g, r in zip(gaps, run[1:], strict=True))
            yield kind_of(run[0].original), original, surrogate.strip()
            run.clear()

    for item in kept:
        place = kind_of(item.original) == "location"
        if run and place and PLACE_GAP.fullmatch(text[run[-1].original.end : item.original.start]):
            run.append(item)
            continue
        yield from flush()
        if place:
            run.append(item)
        else:
            yield kind_of(item.original), item.original.text.strip(), item.new.text.strip()
    yield from flush()


def audit(documents: list[Document], seed: int) -> tuple[Counter[str], Counter[str], list[dict[str, object]]]:
    forward: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    backward: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    forms: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    for patient, kind, unit, original, surrogate in pairs(documents, seed):
        group = "name" if kind == "name" else "place" if kind in WORD_KINDS else kind
        old, new = key(original, kind), key(surrogate, kind)
        if not old or not new:
            continue
        forward[(patient, group, unit, old)].add(new)
        backward[(patient, group, unit, new)].add(old)
        forms[(patient, group, unit, old)].add(f"{original} -> {surrogate}")
    splits: Counter[str] = Counter()
    merges: Counter[str] = Counter()
    examples: list[dict[str, object]] = []
    for (patient, group, unit, old), news in sorted(forward.items()):
        if len(news) > 1:
            splits[f"{group}/{unit}"] += 1
            examples.append({"patient": patient, "what": "split", "group": group, "unit": unit,
                             "forms": sorted(forms[(patient, group, unit, old)])})  # fmt: skip
    for (patient, group, unit, _new), olds in sorted(backward.items()):
        if len(olds) > 1 and group not in BY_DESIGN:
            merges[f"{group}/{unit}"] += 1
            shown = sorted(f for o in olds for f in forms[(patient, group, unit, o)])
            examples.append(
                {"patient": patient, "what": "merge", "group": group, "unit": unit, "forms": shown}
            )
    return splits, merges, examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="?", default=os.environ.get(PHYSIONET_ENV))
    parser.add_argument("--seed", type=int, nargs="+", default=[0])
    parser.add_argument("--examples", type=Path, help="private file (0600) for the pairs found: holds PHI")
    args = parser.parse_args()
    if not args.gold:
        parser.error(f"give a gold folder or set ${PHYSIONET_ENV}")
    documents = read(Path(args.gold))
    found = []
    for seed in args.seed:
        splits, merges, examples = audit(documents, seed)
        found += [dict(e, seed=seed) for e in examples]
        patients = len({d.patient_id for d in documents})
        print(f"seed {seed}: {len(documents)} notes, {patients} patients")
        print(f"  one real string, several surrogates: {sum(splits.values())} {dict(sorted(splits.items()))}")
        print(f"  several real strings, one surrogate: {sum(merges.values())} {dict(sorted(merges.items()))}")
    if args.examples is not None:
        descriptor = os.open(args.examples, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(found, handle, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
