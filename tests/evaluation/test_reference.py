"""Every statistic of the engine against an independent reference (tests/evaluation/reference.py).

Random small cases from Hypothesis: the engine's strict, relaxed, overlap, token and
tag-blind counts per label must equal a maximum one-to-one matching found by exhaustive
search (or a character-by-character token count); token kappa must equal scikit-learn's
``cohen_kappa_score``; macro averages must equal the per-document scores averaged by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from annotator.evaluation.counts import Counts
from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs
from tests.evaluation import reference

TEXT = "ab cd,ef gh ij-kl mn op qr st"  # 10 tokens of two letters with punctuation between some
LABELS = [("NAME", "PATIENT"), ("NAME", "DOCTOR"), ("DATE", "DATE")]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def items(draw: st.DrawFn, max_size: int = 5) -> list[Item]:
    out = []
    for _ in range(draw(st.integers(0, max_size))):
        category, type_ = draw(st.sampled_from(LABELS))
        start = draw(st.integers(0, 12))
        end = start + draw(st.integers(1, 6))
        out.append(Item(category, type_, start, end))
    return out


def engine_counts(result_labels: dict[str, Counts]) -> dict[str, tuple[int, int, int]]:
    return {k: (c.tp, c.fp, c.fn) for k, c in result_labels.items() if not c.is_empty}


def nonzero(counts: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, int, int]]:
    return {k: v for k, v in counts.items() if v != (0, 0, 0)}


def run(reference_items: list[Item], predicted: list[Item], **options: object):  # type: ignore[no-untyped-def]
    pair = DocumentPair("d", TEXT, reference_items, predicted)
    return evaluate_pairs([pair], Options(**options))  # type: ignore[arg-type]


# -- span matching --------------------------------------------------------------------------------
@SETTINGS
@given(items(), items(), st.sampled_from(["type", "category"]))
def test_strict_is_a_maximum_exact_matching(ref: list[Item], pred: list[Item], level: str) -> None:
    expected = reference.span_counts(ref, pred, reference.strict_pair(level), level)
    assert engine_counts(run(ref, pred, match="strict", level=level).per_label) == nonzero(expected)


@SETTINGS
@given(items(), items(), st.sampled_from(["type", "category"]), st.integers(0, 4))
def test_relaxed_is_a_maximum_matching_within_the_tolerance(
    ref: list[Item], pred: list[Item], level: str, distance: int
) -> None:
    expected = reference.span_counts(ref, pred, reference.relaxed_pair(level, distance), level)
    result = run(ref, pred, match="relaxed", level=level, relaxed_distance=distance)
    assert engine_counts(result.per_label) == nonzero(expected)


@SETTINGS
@given(items(), items(), st.sampled_from(["type", "category"]))
def test_relaxed_default_tolerance_is_two(ref: list[Item], pred: list[Item], level: str) -> None:
    expected = reference.span_counts(ref, pred, reference.relaxed_pair(level, 2), level)
    assert engine_counts(run(ref, pred, match="relaxed", level=level).per_label) == nonzero(expected)


@SETTINGS
@given(items(), items(), st.sampled_from(["type", "category"]))
def test_overlap_is_a_maximum_overlap_matching(ref: list[Item], pred: list[Item], level: str) -> None:
    expected = reference.span_counts(ref, pred, reference.overlap_pair(level), level)
    assert engine_counts(run(ref, pred, match="overlap", level=level).per_label) == nonzero(expected)


@SETTINGS
@given(items(), items(), st.sampled_from(["type", "category"]))
def test_token_counts_per_token_and_label(ref: list[Item], pred: list[Item], level: str) -> None:
    expected = reference.token_counts(TEXT, ref, pred, lambda i: reference.label_of(i, level))
    assert engine_counts(run(ref, pred, match="token", level=level).per_label) == nonzero(expected)


@SETTINGS
@given(items(), items())
def test_tagblind_counts_ignore_labels(ref: list[Item], pred: list[Item]) -> None:
    expected = reference.token_counts(TEXT, ref, pred, lambda i: "PHI")
    assert engine_counts(run(ref, pred, match="tagblind").per_label) == nonzero(expected)


def test_the_cases_the_planted_bugs_broke() -> None:
    """Hand-checked: duplicates add up, the tolerance is 2 both ways, both sides advance."""
    date_a, date_b = Item("DATE", "DATE", 0, 2), Item("DATE", "DATE", 3, 5)
    two_dates = run([date_a, date_b], [date_a, date_b], match="relaxed")
    assert two_dates.per_label == {"DATE/DATE": Counts(2, 0, 0)}
    assert run([date_a, date_b], [date_a, date_b], match="strict").per_label == {"DATE/DATE": Counts(2, 0, 0)}
    for offset, matched in ((-3, False), (-2, True), (2, True), (3, False)):
        shifted = Item("DATE", "DATE", 3, 8 + offset)
        counts = run([Item("DATE", "DATE", 3, 8)], [shifted], match="relaxed").micro
        assert counts == (Counts(1, 0, 0) if matched else Counts(0, 1, 1)), offset
    # sorted ends: ref 4, 10; pred 7, 11. Advancing the wrong side after a miss loses 10-11.
    ref = [Item("NAME", "PATIENT", 0, 4), Item("NAME", "PATIENT", 0, 10)]
    pred = [Item("NAME", "PATIENT", 0, 7), Item("NAME", "PATIENT", 0, 11)]
    assert run(ref, pred, match="relaxed").micro == Counts(1, 1, 1)
    pred = [Item("NAME", "PATIENT", 0, 1), Item("NAME", "PATIENT", 0, 9)]  # 1 vs 4 misses; 9~10
    assert run(ref, pred, match="relaxed").micro == Counts(1, 1, 1)


def test_category_level_relaxed_and_token_join_types() -> None:
    ref = [Item("NAME", "PATIENT", 0, 5), Item("DATE", "DATE", 9, 11)]
    pred = [Item("NAME", "DOCTOR", 0, 7), Item("DATE", "DATE", 9, 11)]
    assert run(ref, pred, match="relaxed", level="category").per_label == {
        "NAME": Counts(1, 0, 0),
        "DATE": Counts(1, 0, 0),
    }
    assert run(ref, pred, match="relaxed").per_label == {
        "NAME/PATIENT": Counts(0, 0, 1),
        "NAME/DOCTOR": Counts(0, 1, 0),
        "DATE/DATE": Counts(1, 0, 0),
    }
    # tokens ab, cd: both sides NAME at category level; "ef" (6-8) only touched by the prediction
    assert run(ref, pred, match="token", level="category").per_label == {
        "NAME": Counts(2, 1, 0),
        "DATE": Counts(1, 0, 0),
    }
    assert run(ref, pred, match="token").per_label == {
        "NAME/PATIENT": Counts(0, 0, 2),
        "NAME/DOCTOR": Counts(0, 3, 0),
        "DATE/DATE": Counts(1, 0, 0),
    }


# -- kappa ------------------------------------------------------------------------------------------
def sklearn_kappa(a: list[str], b: list[str]) -> float:
    assume(len(set(a) | set(b)) > 1)  # otherwise both define nothing
    assume(not (len(set(a)) == 1 and set(a) == set(b)))
    return float(cohen_kappa_score(a, b))


@SETTINGS
@given(items(6), items(6), st.sampled_from(["type", "category"]))
def test_token_kappa_equals_scikit_learn(ref: list[Item], pred: list[Item], level: str) -> None:
    result = run(ref, pred, level=level)
    a = reference.token_label_sequence(TEXT, ref, level)
    b = reference.token_label_sequence(TEXT, pred, level)
    blind_a = ["O" if x == "O" else "PHI" for x in a]
    blind_b = ["O" if x == "O" else "PHI" for x in b]
    assert result.kappa_labelled.tokens == len(a) == 10
    assert result.kappa_labelled.observed == pytest.approx(
        sum(x == y for x, y in zip(a, b, strict=True)) / 10
    )
    expected = sklearn_kappa(a, b)
    if math.isnan(expected):
        assert math.isnan(result.kappa_labelled.kappa)
    else:
        assert result.kappa_labelled.kappa == pytest.approx(expected, abs=1e-9)
    if len(set(blind_a) | set(blind_b)) > 1 and not (len(set(blind_a)) == 1 and set(blind_a) == set(blind_b)):
        assert result.kappa_tagblind.kappa == pytest.approx(
            float(cohen_kappa_score(blind_a, blind_b)), abs=1e-9
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["O", "A", "B", "C"]), st.sampled_from(["O", "A", "B", "C"])),
        min_size=2,
        max_size=30,
    )
)
def test_cohen_kappa_on_random_labelings(pairs: list[tuple[str, str]]) -> None:
    from annotator.evaluation.engine import cohen_kappa

    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    expected = sklearn_kappa(a, b)
    kappa = cohen_kappa(pairs)
    assert kappa.kappa == pytest.approx(expected, abs=1e-9)
    n = len(pairs)
    assert kappa.expected == pytest.approx(sum(a.count(x) * b.count(x) for x in set(a)) / (n * n))


def test_labelled_kappa_as_a_number() -> None:
    """Two tokens agree on a NAME, one token is NAME vs DATE: labelled and tag-blind differ."""
    text = "aa bb cc dd ee"
    ref = [Item("NAME", "PATIENT", 0, 2), Item("NAME", "PATIENT", 3, 5)]
    pred = [Item("NAME", "PATIENT", 0, 2), Item("DATE", "DATE", 3, 5), Item("DATE", "DATE", 6, 8)]
    result = evaluate_pairs([DocumentPair("d", text, ref, pred)])
    # labelled: agree 2 of 5 (aa, ee... ) -> pairs: (N,N) (N,D) (O,D) (O,O) (O,O): po = 3/5
    # marginals ref N2 O3, pred N1 D2 O2: pe = (2*1 + 3*2) / 25 = 8/25; kappa = (15/25-8/25)/(17/25)
    assert result.kappa_labelled.observed == pytest.approx(3 / 5)
    assert result.kappa_labelled.expected == pytest.approx(8 / 25)
    assert result.kappa_labelled.kappa == pytest.approx(7 / 17)
    # tag-blind: (P,P) (P,P) (O,P) (O,O) (O,O): po 4/5, pe (2*3 + 3*2)/25 = 12/25
    assert result.kappa_tagblind.kappa == pytest.approx((20 / 25 - 12 / 25) / (13 / 25))
    data = result.to_dict()["kappa"]
    assert data["labelled"]["kappa"] == pytest.approx(7 / 17)  # type: ignore[index]
    assert data["tagblind"]["kappa"] == pytest.approx(8 / 13)  # type: ignore[index]


def test_kappa_takes_the_longest_covering_tag() -> None:
    text = "John Smith Jr here"
    short_first = [Item("NAME", "DOCTOR", 0, 4), Item("NAME", "PATIENT", 0, 13)]
    result = evaluate_pairs([DocumentPair("d", text, short_first, [Item("NAME", "PATIENT", 0, 13)])])
    assert result.kappa_labelled.observed == 1.0
    assert result.kappa_labelled.kappa == pytest.approx(1.0)
    long_first = list(reversed(short_first))
    result = evaluate_pairs([DocumentPair("d", text, long_first, [Item("NAME", "DOCTOR", 0, 4)])])
    assert result.kappa_labelled.observed == pytest.approx(1 / 4)  # only "here" (O, O) agrees


# -- macro averages -------------------------------------------------------------------------------
@SETTINGS
@given(st.lists(st.tuples(items(3), items(3)), min_size=1, max_size=5))
def test_macro_is_the_mean_of_defined_document_scores(documents: list[tuple[list[Item], list[Item]]]) -> None:
    pairs = [DocumentPair(str(k), TEXT, r, p) for k, (r, p) in enumerate(documents)]
    result = evaluate_pairs(pairs, Options(beta=2.0), details=False)
    precisions, recalls, f1s, f2s = [], [], [], []
    tp_sum = fp_sum = fn_sum = 0
    for r, p in documents:
        counts = reference.span_counts(r, p, reference.strict_pair("type"), "type").values()
        tp, fp, fn = (sum(c[i] for c in counts) for i in range(3))
        tp_sum, fp_sum, fn_sum = tp_sum + tp, fp_sum + fp, fn_sum + fn
        if tp + fp:
            precisions.append(Fraction(tp, tp + fp))
        if tp + fn:
            recalls.append(Fraction(tp, tp + fn))
        if tp + fp + fn:
            f1s.append(Fraction(2 * tp, 2 * tp + fp + fn))
            f2s.append(Fraction(5 * tp, 5 * tp + 4 * fn + fp))
    assert result.micro == Counts(tp_sum, fp_sum, fn_sum)
    macro = result.macro()
    for key, values in (("precision", precisions), ("recall", recalls), ("f1", f1s), ("f_beta", f2s)):
        if values:
            assert macro[key] == pytest.approx(float(sum(values) / len(values)), abs=1e-12), key
        else:
            assert math.isnan(macro[key]), key
    assert macro["documents_scored"] == len(f1s)
    data = result.to_dict()
    assert data["macro"]["documents_scored"] == len(f1s)  # type: ignore[index]
    assert data["micro"]["f_beta"] == (  # type: ignore[index]
        None
        if tp_sum + fp_sum + fn_sum == 0
        else pytest.approx(5 * tp_sum / (5 * tp_sum + 4 * fn_sum + fp_sum))
    )
