"""Piles of nested tags: overlap matching (the interval sweep against Kuhn's search) and token labels."""

from __future__ import annotations

import bisect
import json
import random
from pathlib import Path

import pytest

import annotator.evaluation.engine as engine
from annotator.cli.main import main
from annotator.evaluation.engine import (
    OUTSIDE,
    DocumentPair,
    Item,
    Options,
    _single_token_labels,
    _single_token_labels_longest_first,
    _token_labels,
    _token_labels_merged,
    evaluate_pairs,
    max_overlap_matching,
    text_tokens,
)
from annotator.evaluation.interval_matching import (
    candidate_pair_count,
    greedy_interval_matching,
    representable,
)
from tests.evaluation.helpers import write_doc
from tests.evaluation.test_hostile_scoring import reference_matching


def _overlaps(reference: Item, predicted: Item) -> bool:
    return predicted.start < reference.end and reference.start < predicted.end


def _items(rng: random.Random, pool: list[Item], length: int, count: int, empty_ok: bool) -> list[Item]:
    out = []
    for _ in range(count):
        if pool and rng.random() < 0.3:
            out.append(rng.choice(pool))
        else:
            start = rng.randint(0, length - 1)
            end = rng.randint(start if empty_ok else start + 1, min(length, start + 7))
            out.append(Item("NAME", "PATIENT", start, end))
    return out


def test_the_sweep_matches_as_many_pairs_as_kuhns_search() -> None:
    rng = random.Random(20261128)
    for _ in range(20000):
        length = rng.randint(1, 14)
        pool = _items(rng, [], length, rng.randint(1, 3), empty_ok=False)
        reference = _items(rng, pool, length, rng.randint(0, 10), empty_ok=False)
        predicted = _items(rng, pool, length, rng.randint(0, 10), empty_ok=True)
        kuhn = reference_matching(reference, predicted)
        sweep = greedy_interval_matching(reference, predicted)
        assert len(sweep) == len(kuhn), (reference, predicted)
        assert all(_overlaps(reference[r], predicted[p]) for r, p in sweep)
        assert len({p for _, p in sweep}) == len(sweep)
        edges = sum(_overlaps(r, p) for r in reference for p in predicted)
        assert candidate_pair_count(reference, predicted) == edges


def test_an_empty_reference_item_is_no_interval() -> None:
    empty = [Item("NAME", "PATIENT", 5, 5)]
    assert not representable(empty)
    with pytest.raises(ValueError, match="empty reference item"):
        greedy_interval_matching(empty, [Item("NAME", "PATIENT", 5, 9)])
    # Kuhn's search, which the engine keeps for it: only a prediction starting there matches.
    assert max_overlap_matching(empty, [Item("NAME", "PATIENT", 3, 9), Item("NAME", "PATIENT", 5, 9)]) == [
        (0, 1)
    ]


def _nested(count: int, shift: int) -> list[Item]:
    width = 4 * count
    return [Item("NAME", "PATIENT", k + shift, width - k - shift) for k in range(count)]


def test_twenty_thousand_nested_tags_all_pair() -> None:
    # Each of them overlaps every other: 400 million candidate pairs, which the search listed.
    reference, predicted = _nested(20000, 0), _nested(20000, 1)
    matching = max_overlap_matching(reference, predicted)
    assert len(matching) == 20000
    assert all(_overlaps(reference[r], predicted[p]) for r, p in matching)


def test_a_search_past_its_step_limit_ends_with_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    reference = _items(rng, [], 60, 150, empty_ok=False)
    predicted = _items(rng, [], 60, 150, empty_ok=True)
    expected = len(reference_matching(reference, predicted))
    monkeypatch.setattr(engine, "MATCHING_STEP_LIMIT", 10)
    matching = max_overlap_matching(reference, predicted)
    assert len(matching) == expected
    assert all(_overlaps(reference[r], predicted[p]) for r, p in matching)


def test_ordinary_notes_keep_the_searchs_pairs() -> None:
    # Under both limits the pairs are Kuhn's: which tag pairs with which stays as reports showed.
    rng = random.Random(11)
    for _ in range(200):
        reference = _items(rng, [], 200, 40, empty_ok=False)
        predicted = _items(rng, [], 200, 40, empty_ok=True)
        assert max_overlap_matching(reference, predicted) == reference_matching(reference, predicted)


def test_evaluate_scores_2000_nested_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Kuhn's search took over a minute on these (five on 3,000); no two tags are the same span.
    count, width = 2000, 8002
    text = "x" * width
    gold = [("NAME", 2 * k, width - 2 * k, "PATIENT") for k in range(count)]
    system = [("NAME", 2 * k + 1, width - 2 * k - 1, "PATIENT") for k in range(count)]
    write_doc(tmp_path / "gold", "100-01.xml", text, gold)
    write_doc(tmp_path / "sys", "100-01.xml", text, system)
    folders = ["--gold", str(tmp_path / "gold"), "--system", str(tmp_path / "sys"), "--json"]
    assert main(["evaluate", *folders, "--match", "overlap"]) == 0
    micro = json.loads(capsys.readouterr().out)["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (count, 0, 0)
    assert main(["evaluate", *folders, "--match", "strict"]) == 0
    strict = json.loads(capsys.readouterr().out)["micro"]
    assert (strict["tp"], strict["fp"], strict["fn"]) == (0, count, count)


def _token_labels_as_first_written(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], level: str
) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for item in items:
        k = max(bisect.bisect_right(starts, item.start) - 1, 0)
        while k < len(tokens) and tokens[k][0] < item.end:
            if tokens[k][1] > item.start:
                out.setdefault(k, set()).add(item.label(level))
            k += 1
    return out


def _single_labels_as_first_written(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], level: str
) -> list[str]:
    labels, lengths = [OUTSIDE] * len(tokens), [0] * len(tokens)
    for item in items:
        k = max(bisect.bisect_right(starts, item.start) - 1, 0)
        while k < len(tokens) and tokens[k][0] < item.end:
            if tokens[k][1] > item.start and item.end - item.start > lengths[k]:
                labels[k], lengths[k] = item.label(level), item.end - item.start
            k += 1
    return labels


def test_token_labels_are_the_ones_of_the_walk_over_every_tag() -> None:
    rng = random.Random(3)
    types = ["PATIENT", "DOCTOR", "CITY"]
    for _ in range(3000):
        text = "".join(rng.choice("ab  .") for _ in range(rng.randint(0, 30)))
        tokens = text_tokens(text)
        starts = [start for start, _ in tokens]
        items = []
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(0, len(text))
            end = rng.randint(start, min(len(text), start + 9))
            items.append(Item("NAME" if rng.random() < 0.7 else "LOCATION", rng.choice(types), start, end))
        for level in ("type", "category"):
            expected = _token_labels_as_first_written(tokens, starts, items, level)
            single = _single_labels_as_first_written(tokens, starts, items, level)
            for by_token, by_label in (
                (_token_labels, _single_token_labels),  # the walk over each tag: these are small
                (_token_labels_merged, _single_token_labels_longest_first),  # what piles of tags get
            ):
                got = by_token(tokens, starts, items, lambda i, lv=level: i.label(lv))  # type: ignore[misc]
                assert dict(got) == expected, (text, items)
                assert by_label(tokens, starts, items, level) == single, (text, items)


def test_token_scores_of_a_pile_of_nested_tags() -> None:
    # 4,000 nested tags over 8,000 words: the walk over every tag took 32 million steps.
    count = 4000
    width = 4 * count + 2
    text = ("ab " * (width // 3 + 1))[:width]
    gold = [Item("NAME", "PATIENT", 2 * k, width - 2 * k) for k in range(count)]
    system = [Item("NAME", "DOCTOR", 2 * k + 1, width - 2 * k - 1) for k in range(count)]
    words = len(text_tokens(text))
    result = evaluate_pairs([DocumentPair("100-01", text, gold, system)], Options(match="tagblind"))
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (words, 0, 0)
    typed = evaluate_pairs([DocumentPair("100-01", text, gold, system)], Options(match="token"))
    assert (typed.micro.tp, typed.micro.fp, typed.micro.fn) == (0, words, words)
