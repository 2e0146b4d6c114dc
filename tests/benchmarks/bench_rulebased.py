"""The CRF pre-annotation beside the rule-based tools users would otherwise pick.

Run: ``python -m tests.benchmarks.bench_rulebased [--patients N] [--styles ab] [--seeds a=23,b=24]``.
For each note style, the test notes of ``generate_corpus(patients=N, seed=S, style=...)``
(seeds 23 for style A and 24 for style B by default: bench_crossstyle's fresh test seeds, never
looked at while tuning) go through every tool, and the same scorer
(:func:`annotator.crf.crossval.evaluate_predictions`) compares each with the gold:

* the bundled default model (no bias, and at recall bias 0.95);
* our rules alone (:func:`annotator.crf.postprocess.rules_only_predictions`: no training);
* philter-lite, in its own environment at $PHILTER_PYTHON (see bench_crf);
* Microsoft Presidio, in its own environment at $PRESIDIO_PYTHON (see bench_crf), its
  entities mapped to i2b2 types (``bench_crf.PRESIDIO_TYPES``), at the analyzer's default
  score threshold (0: every hit) and, from the same output, at score >= 0.5.

Columns: tag-blind token P / R / F1 (every alphanumeric token inside any PHI span counts,
whatever its type: the fair ground for tools with other type sets), strict entity micro F1 at
type level, strict F1 at category level (types folded into their i2b2 category: fair to
Presidio, whose PERSON cannot tell a patient from a doctor), and seconds per 100 notes (wall,
including each tool's start-up: loading the model, or starting the other environment). Strict
scores are n/a for philter-lite, which types nothing but dates.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from annotator.core.document import Document
from annotator.core.schema import Schema, load_schema
from annotator.crf.crossval import decode_all, evaluate_predictions
from annotator.crf.default_model import load_default_model
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import rules_only_predictions
from annotator.synth.generator import generate_corpus
from tests.benchmarks.bench_crf import PRESIDIO_RUNS, philter_predictions, presidio_predictions

BIAS = 0.95
PRESIDIO_CUTOFF = 0.5
TEST_SEEDS = {"a": 23, "b": 24}
Predictions = dict[str, list[Prediction]]


@dataclass
class Row:
    tool: str
    style: str
    token_p: float
    token_r: float
    token_f1: float
    strict_f1: float | None
    category_f1: float | None
    seconds_per_100: float

    def line(self) -> str:
        strict = "n/a" if self.strict_f1 is None else f"{self.strict_f1:.3f}"
        category = "n/a" if self.category_f1 is None else f"{self.category_f1:.3f}"
        return (
            f"| {self.tool} | {self.style.upper()} | {self.token_p:.3f} / {self.token_r:.3f} / "
            f"{self.token_f1:.3f} | {strict} | {category} | {self.seconds_per_100:.1f} |"
        )


def parse_seeds(value: str) -> dict[str, int]:
    """``a=23,b=24`` -> {"a": 23, "b": 24}."""
    pairs = (part.split("=", 1) for part in value.replace(" ", "").split(",") if part)
    return {style.lower(): int(seed) for style, seed in pairs}


def by_category(
    documents: Sequence[Document], predictions: Predictions, schema: Schema
) -> tuple[list[Document], Predictions]:
    """Gold and predictions with every type replaced by its category's first type."""
    first = {c.name: c.types[0].name for c in schema.categories}
    canonical = {t.name: first[t.category] for t in schema.types}
    gold = [
        Document(
            d.doc_id,
            d.text,
            [dataclasses.replace(a, type=canonical.get(a.type, a.type)) for a in d.annotations],
        )
        for d in documents
    ]
    folded = {
        doc_id: [dataclasses.replace(p, type=canonical.get(p.type, p.type)) for p in spans]
        for doc_id, spans in predictions.items()
    }
    return gold, folded


def score(
    tool: str, style: str, test: Sequence[Document], predictions: Predictions, seconds: float, typed: bool
) -> Row:
    schema = load_schema()
    tokens = evaluate_predictions(test, predictions, schema, match="tagblind").micro
    strict = category = None
    if typed:
        strict = evaluate_predictions(test, predictions, schema).micro.f1
        category = evaluate_predictions(*by_category(test, predictions, schema), schema).micro.f1
    return Row(
        tool, style, tokens.precision, tokens.recall, tokens.f1, strict, category, 100 * seconds / len(test)
    )


def timed(run: Callable[[], Predictions | None]) -> tuple[Predictions | None, float]:
    started = time.perf_counter()
    result = run()
    return result, time.perf_counter() - started


def rows_for_style(style: str, test: list[Document]) -> list[Row]:
    rows = []
    started = time.perf_counter()
    tagger = load_default_model()
    scored = [tagger.score(d) for d in test]
    shared = time.perf_counter() - started  # loading and scoring serve both decodings
    biases: tuple[tuple[str, float | None], ...] = (
        ("default model", None),
        (f"default model, bias {BIAS}", BIAS),
    )
    for label, bias in biases:
        started = time.perf_counter()
        predictions = decode_all(tagger, scored, bias)
        seconds = shared + time.perf_counter() - started
        rows.append(score(label, style, test, predictions, seconds, typed=True))
    allowed = {t.name for t in load_schema().types}
    rules, seconds = timed(lambda: {d.doc_id: rules_only_predictions(d.text, allowed) for d in test})
    assert rules is not None
    rows.append(score("our rules alone", style, test, rules, seconds, typed=True))
    philter, seconds = timed(lambda: philter_predictions(test))
    if philter is not None:
        rows.append(score("philter-lite 0.6.0", style, test, philter, seconds, typed=False))
    presidio, seconds = timed(lambda: presidio_predictions(test))
    if presidio is not None:
        run = PRESIDIO_RUNS[-1]
        blank = "BLANK spaCy, NO NER, " if str(run["model"]).startswith("BLANK") else ""
        label = f"Presidio ({blank}default threshold {run['threshold']})"
        rows.append(score(label, style, test, presidio, seconds, typed=True))
        # Its default keeps every hit, down to score 0.01 ("x3" as a medical licence): the
        # same output with a common cut-off, to show what the threshold does.
        sure = {k: [p for p in v if p.confidence >= PRESIDIO_CUTOFF] for k, v in presidio.items()}
        rows.append(
            score(f"Presidio ({blank}score >= {PRESIDIO_CUTOFF})", style, test, sure, seconds, typed=True)
        )
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_rulebased")
    parser.add_argument("--patients", type=int, default=40, help="test patients per style")
    parser.add_argument("--styles", default="ab", help="note styles to test on (letters, default ab)")
    parser.add_argument("--seeds", default=None, help="test seed per style, e.g. a=23,b=24")
    args = parser.parse_args(argv)
    seeds = dict(TEST_SEEDS)
    if args.seeds:
        seeds.update(parse_seeds(args.seeds))
    rows: list[Row] = []
    for style in args.styles.lower():
        if style not in seeds:
            parser.error(f"no test seed for style {style!r}: give it with --seeds {style}=N")
        test = generate_corpus(patients=args.patients, seed=seeds[style], style=style).gold
        print(f"style {style.upper()}: seed {seeds[style]}, {len(test)} test notes", flush=True)
        rows += rows_for_style(style, test)
    print(
        "\n| tool | style | tag-blind token P / R / F1 | strict F1 (type) | strict F1 (category) | s / 100 notes |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(row.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
