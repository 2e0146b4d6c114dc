"""Hostile inputs to scoring: piles of overlapping tags, extreme options, notes whose TEXT differs."""

from __future__ import annotations

import bisect
import json
import random
import sys
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from annotator.cli.main import main
from annotator.evaluation.counts import Counts, f_beta_from_scores
from annotator.evaluation.engine import Item, max_overlap_matching
from annotator.evaluation.significance import randomisation_test
from tests.evaluation.helpers import write_doc

TEXT = "Patient John Smith seen by Dr. Adams at Mercy Hospital on 2090-01-02."


def reference_matching(reference: Sequence[Item], predicted: Sequence[Item]) -> list[tuple[int, int]]:
    """The matching as it was first written (recursive Kuhn, quadratic candidates): the definition."""
    order = sorted(range(len(predicted)), key=lambda k: predicted[k].start)
    starts = [predicted[k].start for k in order]
    adjacency: list[list[int]] = []
    for item in reference:
        stop = bisect.bisect_left(starts, item.end)
        candidates = [order[k] for k in range(stop) if predicted[order[k]].end > item.start]
        if item.start == item.end:
            candidates = [k for k in range(len(predicted)) if predicted[k].start == item.start]
        candidates.sort(
            key=lambda k: -(min(item.end, predicted[k].end) - max(item.start, predicted[k].start))
        )
        adjacency.append(candidates)
    match_of_pred: dict[int, int] = {}

    def augment(r: int, seen: set[int]) -> bool:
        for p in adjacency[r]:
            if p in seen:
                continue
            seen.add(p)
            if p not in match_of_pred or augment(match_of_pred[p], seen):
                match_of_pred[p] = r
                return True
        return False

    for r in range(len(reference)):
        augment(r, set())
    return sorted((r, p) for p, r in match_of_pred.items())


def _random_items(rng: random.Random, pool: list[Item], length: int, count: int) -> list[Item]:
    out = []
    for _ in range(count):
        if pool and rng.random() < 0.5:
            out.append(rng.choice(pool))  # copies of one span: the twins the search shortcuts
        else:
            start = rng.randint(0, length)
            out.append(Item("NAME", "PATIENT", start, rng.randint(start, min(length, start + 6))))
    return out


def test_matching_is_exactly_the_recursive_kuhn_matching() -> None:
    rng = random.Random(20261128)
    for _ in range(20000):
        length = rng.randint(1, 12)
        pool = _random_items(rng, [], length, rng.randint(1, 4))
        reference = _random_items(rng, pool, length, rng.randint(0, 9))
        predicted = _random_items(rng, pool, length, rng.randint(0, 9))
        assert max_overlap_matching(reference, predicted) == reference_matching(reference, predicted), (
            reference,
            predicted,
        )


def test_thousands_of_copies_of_one_tag_match_without_recursion() -> None:
    tag = Item("NAME", "PATIENT", 8, 18)
    matching = max_overlap_matching([tag] * 3000, [tag] * 2000)
    assert len(matching) == 2000
    assert len({p for _, p in matching}) == 2000
    assert sys.getrecursionlimit() < 3000  # the recursive search needed one frame per copy


def test_many_disjoint_tags_each_match_their_own() -> None:
    # The candidates of each tag are found by bounds, not by scanning every prediction (60,000
    # tags took minutes before; timings are in the fuzz notes, not asserted here).
    reference = [Item("NAME", "PATIENT", 4 * i, 4 * i + 3) for i in range(20000)]
    predicted = reference[::2]
    assert max_overlap_matching(reference, predicted) == [(2 * k, k) for k in range(10000)]


def _nested_folders(tmp_path: Path, copies: int) -> tuple[Path, Path]:
    tags = [("NAME", 8, 18, "PATIENT")] * copies
    write_doc(tmp_path / "gold", "100-01.xml", TEXT, tags)
    write_doc(tmp_path / "sys", "100-01.xml", TEXT, tags)
    return tmp_path / "gold", tmp_path / "sys"


@pytest.mark.parametrize("match", ["strict", "overlap"])
def test_evaluate_scores_1500_copies_of_one_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], match: str
) -> None:
    gold, system = _nested_folders(tmp_path, 1500)
    code = main(["evaluate", "--gold", str(gold), "--system", str(system), "--match", match, "--json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    micro = json.loads(out)["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (1500, 0, 0)


def test_iaa_on_1500_copies_of_one_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = _nested_folders(tmp_path, 1500)
    code = main(["iaa", str(gold), str(system), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["pairs"][0]["f1"] == 1.0


# -- F-beta for a huge (or tiny) beta -------------------------------------------------------
@pytest.mark.parametrize("beta", [1e200, 1e308, float("inf")])
def test_f_beta_tends_to_recall_for_a_huge_beta(beta: float) -> None:
    counts = Counts(481, 27, 37)
    assert counts.f_beta(beta) == pytest.approx(counts.recall, rel=1e-12)
    assert f_beta_from_scores(counts.precision, counts.recall, beta) == pytest.approx(counts.recall)


def test_f_beta_limits_and_edges() -> None:
    counts = Counts(481, 27, 37)
    assert counts.f_beta(1e-200) == pytest.approx(counts.precision)
    assert counts.f_beta(1e150) == pytest.approx(counts.recall)  # (1+b²)·tp overflowed here
    assert counts.f_beta(2.0) == pytest.approx(5 * 481 / (5 * 481 + 4 * 37 + 27))
    assert Counts(0, 3, 0).f_beta(1e200) == 0.0
    assert np.isnan(Counts().f_beta(1e200))


def test_evaluate_reports_f_beta_for_beta_1e200(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_doc(tmp_path / "gold", "100-01.xml", TEXT, [("NAME", 8, 18, "PATIENT"), ("NAME", 31, 36, "DOCTOR")])
    write_doc(tmp_path / "sys", "100-01.xml", TEXT, [("NAME", 8, 18, "PATIENT"), ("DATE", 58, 68, "DATE")])
    code = main(
        [
            "evaluate",
            "--gold",
            str(tmp_path / "gold"),
            "--system",
            str(tmp_path / "sys"),
            "--beta",
            "1e200",
            "--json",
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["micro"]["f_beta"] == pytest.approx(0.5)  # the recall


# -- significance options -------------------------------------------------------------------
def _significance_folders(tmp_path: Path) -> list[str]:
    tags = [("NAME", 8, 18, "PATIENT")]
    for name in ("gold", "a", "b"):
        write_doc(tmp_path / name, "100-01.xml", TEXT, tags if name != "b" else [])
    return ["significance", "--gold", str(tmp_path / "gold"), str(tmp_path / "a"), str(tmp_path / "b")]


@pytest.mark.parametrize(
    "option",
    [
        ["--seed", "-1"],
        ["--seed", str(2**32)],
        ["--shuffles", "0"],
        ["--shuffles", "1000001"],
        ["--shuffles", "99999999999999999999"],
        ["--shuffles", "2000000000"],
    ],
)
def test_significance_refuses_out_of_range_options_at_the_parser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main([*_significance_folders(tmp_path), *option])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option[0]}: must be from" in err
    assert "Traceback" not in err
    # The ends of the ranges are accepted.
    code = main([*_significance_folders(tmp_path), "--seed", str(2**32 - 1), "--shuffles", "1", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 2**32 - 1


def test_shuffles_are_streamed_with_the_same_draws() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 20, size=(50, 3)).astype(np.float64)
    b = rng.integers(0, 20, size=(50, 3)).astype(np.float64)
    shuffles = 200_000
    tracemalloc.start()
    try:
        observed, p = randomisation_test(a, b, shuffles, np.random.default_rng(3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # one (shuffles x documents) matrix of floats was 80 MB here
    # The same swaps as one big draw with the same seed (the definition of the test).
    swap = np.random.default_rng(3).integers(0, 2, size=(shuffles, 50), dtype=np.int8).astype(np.float64)
    moved = swap @ (b - a)
    total_a, total_b = a.sum(axis=0), b.sum(axis=0)

    def f1(counts: np.ndarray) -> np.ndarray:
        return 2 * counts[..., 0] / (2 * counts[..., 0] + counts[..., 1] + counts[..., 2])

    statistic = np.abs(f1(total_a + moved) - f1(total_b - moved))
    assert observed == pytest.approx(abs(f1(total_a) - f1(total_b)))
    assert p == (np.count_nonzero(statistic >= observed - 1e-12) + 1) / (shuffles + 1)


# -- TEXT differs -----------------------------------------------------------------------------
def _text_differs(tmp_path: Path, also_same: bool) -> tuple[Path, Path]:
    tags = [("NAME", 8, 18, "PATIENT")]
    write_doc(tmp_path / "gold", "100-01.xml", TEXT, tags)
    write_doc(tmp_path / "sys", "100-01.xml", TEXT + " Later.", tags)
    if also_same:
        write_doc(tmp_path / "gold", "100-02.xml", TEXT, tags)
        write_doc(tmp_path / "sys", "100-02.xml", TEXT, tags)
    return tmp_path / "gold", tmp_path / "sys"


def _commands(gold: Path, system: Path) -> list[list[str]]:
    return [
        ["evaluate", "--gold", str(gold), "--system", str(system)],
        ["iaa", str(gold), str(system)],
        ["iaa", str(system), str(system.parent / "sys2"), "--gold", str(gold)],
        # Two different systems: one folder given twice is refused before anything is read.
        ["significance", "--gold", str(gold), str(system), str(system.parent / "sys2"), "--shuffles", "9"],
    ]


def test_nothing_scorable_because_text_differs_is_refused_some_is_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = _text_differs(tmp_path, also_same=False)
    write_doc(tmp_path / "sys2", "100-01.xml", TEXT + " Later.", [])
    for command in _commands(gold, system):
        code = main(command)
        out, err = capsys.readouterr()
        assert code == 1, command
        assert out == ""
        assert err.count("\n") == 1 and "document 100-01: TEXT differs between" in err, err
        assert str(gold) in err and str(system) in err, err
    # When only some texts differ, those are a note and the rest is scored.
    gold, system = _text_differs(tmp_path, also_same=True)
    write_doc(tmp_path / "sys2", "100-02.xml", TEXT, [])
    for command in _commands(gold, system):
        assert main(command) == 0, command
        capsys.readouterr()
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["documents"] == 1
    assert result["skipped"] == ["100-01: reference and predicted TEXT differ"]


def test_significance_leaves_a_document_one_system_cannot_score_out_for_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A's 100-01 has another TEXT: A used to be scored on 100-02 alone and B on both, so
    # the test compared scores of different documents without a word.
    tags = [("NAME", 8, 18, "PATIENT")]
    for doc in ("100-01.xml", "100-02.xml"):
        write_doc(tmp_path / "gold", doc, TEXT, tags)
        write_doc(tmp_path / "b", doc, TEXT, tags if doc == "100-01.xml" else [])
    write_doc(tmp_path / "a", "100-01.xml", TEXT + " Later.", tags)
    write_doc(tmp_path / "a", "100-02.xml", TEXT, tags)
    command = ["significance", "--gold", str(tmp_path / "gold"), str(tmp_path / "a"), str(tmp_path / "b")]
    assert main([*command, "--shuffles", "9", "--json"]) == 0
    out, err = capsys.readouterr()
    overall = json.loads(out)["results"][0]
    assert (overall["a"]["tp"], overall["a"]["fn"]) == (1, 0)
    assert (overall["b"]["tp"], overall["b"]["fn"]) == (0, 1)  # 100-01, its hit, left out too
    assert err.strip() == (
        f"annotator significance: note: 100-01: reference and predicted TEXT differ in {tmp_path / 'a'}; "
        "left out for both systems"
    )
    # Both systems unscorable on every document they share: an error, not a test of nothing.
    write_doc(tmp_path / "b", "100-02.xml", TEXT + " Later.", [])
    assert main(command) == 1
    assert "no document can be scored for both systems" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["evaluate", "iaa", "significance"])
def test_an_exclusion_that_matches_nothing_is_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    tags = [("NAME", 8, 18, "PATIENT"), ("NAME", 31, 36, "DOCTOR")]
    for name in ("gold", "a", "b"):
        write_doc(tmp_path / name, "100-01.xml", TEXT, tags)
    gold, a, b = (str(tmp_path / name) for name in ("gold", "a", "b"))
    args = {
        "evaluate": ["evaluate", "--gold", gold, "--system", a],
        "iaa": ["iaa", a, b, "--gold", gold],
        "significance": ["significance", "--gold", gold, a, b, "--shuffles", "9"],
    }[command]
    assert main([*args, "--exclude", "DOCTOR,PATEINT,NAME/PATIENT,DATE/*,doctor"]) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "excluded" in line]
    assert notes == [
        f"annotator {command}: note: excluded type {item} matches no annotation (a typo?); "
        "nothing was excluded for it"
        for item in ("PATEINT", "DATE/*")
    ]
