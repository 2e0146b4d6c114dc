"""--mode i2b2 token units of piles of tags: whole runs merged per label, as the script's sets."""

from __future__ import annotations

import random
import re

from annotator.evaluation.official import OfficialDocument, _Runs, _slice_tokens, score_official

_SCRIPT_TOKEN = re.compile(r"([a-zA-Z0-9]+)")


def _script_units(text: str, start: int, end: int) -> set[tuple[int, int]]:
    """The script's units of one tag, from its split of the slice (evaluate.py's tokenizer)."""
    piece = text[start:end]
    out, offset = set(), 0
    for part in _SCRIPT_TOKEN.split(piece):
        if _SCRIPT_TOKEN.fullmatch(part):
            position = (start if start >= 0 else max(len(text) + start, 0)) + offset
            out.add((position, position + len(part)))
        offset += len(part)
    if not out:
        position = (start if start >= 0 else max(len(text) + start, 0)) + len(piece)
        out.add((position, position))
    return out


def test_units_of_many_spans_are_the_union_of_each_tags_units() -> None:
    rng = random.Random(12)
    for _ in range(4000):
        text = "".join(rng.choice("ab9 -.é") for _ in range(rng.randint(0, 25)))
        runs = _Runs(text)
        spans = []
        for _ in range(rng.randint(0, 7)):
            start = rng.randint(-3, len(text) + 2)
            spans.append((start, start + rng.randint(-2, 12)))
        expected: set[tuple[int, int]] = set()
        for start, end in spans:
            expected |= set(_slice_tokens(text, start, end))
        assert runs.units(spans) == expected, (text, spans)
        in_text = [(s, e) for s, e in spans if 0 <= s <= e <= len(text)]
        script: set[tuple[int, int]] = set()
        for start, end in in_text:
            script |= _script_units(text, start, end)
        assert runs.units(in_text) == script, (text, in_text)


def test_a_pile_of_nested_tags_scores_as_the_script_counts() -> None:
    # 3,000 nested tags per side held a tuple per token per tag: 2.7 GB and 14 s before.
    count = 600
    width = 4 * count + 2
    text = ("ab " * (width // 3 + 1))[:width]
    gold = [("NAME", 2 * k, width - 2 * k, "PATIENT") for k in range(count)]
    system = [("NAME", 2 * k + 1, width - 2 * k - 1, "PATIENT") for k in range(count)]

    def document(tags: list[tuple[str, int, int, str]]) -> OfficialDocument:
        return OfficialDocument("100-01", "", text, [(c, str(s), str(e), t) for c, s, e, t in tags])

    run = score_official([document(gold)], [document(system)])[0]
    gold_units = set().union(*(_script_units(text, s, e) for _, s, e, _ in gold))
    system_units = set().union(*(_script_units(text, s, e) for _, s, e, _ in system))
    tokens = run.table("Token")
    assert (tokens.tp[0], tokens.fp[0], tokens.fn[0]) == (
        len(gold_units & system_units),
        len(system_units - gold_units),
        len(gold_units - system_units),
    )
    assert tokens.fp[0] > 0 and tokens.tp[0] > 500  # cut words at tag starts and ends, and whole ones
    strict = run.table("Strict")
    assert (strict.tp[0], strict.fp[0], strict.fn[0]) == (0, count, count)
