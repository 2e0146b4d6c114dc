"""Benchmark: scoring a pile of nested tags (hostile or broken input) in every match mode.

Run: ``python -m tests.benchmarks.bench_nested_tags [--sizes 300 1000 3000 20000]``

Each pile is one note whose gold tags are nested spans ``[2k, W - 2k)`` and whose system tags
are ``[2k + 1, W - 2k - 1)``: every tag overlaps every other one, and no two are the same span.
Figures: overlap matching alone (the engine's, and Kuhn's search alone where it ends in
reasonable time), then the whole clean-mode engine per match mode (confusion matrix and
disagreement list included). The text is words, so token modes have many tokens per tag.
Last, the consistency check (unannotated occurrences of annotated strings) beside the pile.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

import annotator.evaluation.engine as engine
from annotator.core.document import Document
from annotator.core.propagation import find_unannotated_occurrences
from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs, max_overlap_matching

T = TypeVar("T")
KUHN_ALONE_UP_TO = 1000  # 3,000 nested tags took five minutes


def _pile(count: int) -> tuple[str, list[Item], list[Item]]:
    width = 4 * count + 2
    text = ("ab " * (width // 3 + 1))[:width]
    gold = [Item("NAME", "PATIENT", 2 * k, width - 2 * k) for k in range(count)]
    system = [Item("NAME", "PATIENT", 2 * k + 1, width - 2 * k - 1) for k in range(count)]
    return text, gold, system


def _timed(func: Callable[..., T], *args: object) -> tuple[float, T]:
    started = time.perf_counter()
    value = func(*args)
    return time.perf_counter() - started, value


def _kuhn_alone(gold: list[Item], system: list[Item]) -> list[tuple[int, int]]:
    limits = engine.MATCHING_PAIR_LIMIT, engine.MATCHING_STEP_LIMIT
    engine.MATCHING_PAIR_LIMIT = engine.MATCHING_STEP_LIMIT = 10**15
    try:
        return max_overlap_matching(gold, system)
    finally:
        engine.MATCHING_PAIR_LIMIT, engine.MATCHING_STEP_LIMIT = limits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="scoring piles of nested tags")
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 3000, 20000])
    args = parser.parse_args(argv)
    for count in args.sizes:
        text, gold, system = _pile(count)
        seconds, matching = _timed(max_overlap_matching, gold, system)
        line = f"{count:>7,} nested tags per side: overlap matching {seconds:.2f} s ({len(matching):,} pairs)"
        if count <= KUHN_ALONE_UP_TO:
            kuhn_s, kuhn = _timed(_kuhn_alone, gold, system)
            line += f"; Kuhn's search alone {kuhn_s:.2f} s ({len(kuhn):,} pairs)"
        print(line, flush=True)
        pairs = [DocumentPair("100-01", text, gold, system)]
        for match in ("strict", "relaxed", "overlap", "token", "tagblind"):
            seconds, result = _timed(evaluate_pairs, pairs, Options(match=match))
            micro = result.micro
            print(
                f"    evaluate, {match:<8}: {seconds:6.2f} s  tp {micro.tp:,} fp {micro.fp:,} fn {micro.fn:,}",
                flush=True,
            )
        document = Document("100-01", text + " ab")
        for item in gold:
            document.add(document.make_annotation(item.category, item.type, item.start, item.end))
        seconds, found = _timed(find_unannotated_occurrences, [document])
        print(f"    consistency check: {seconds:6.2f} s  {len(found):,} unannotated occurrences", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
