"""Clean-mode engine: every match mode, levels, micro/macro edge cases, kappa, confusion."""

from __future__ import annotations

import math

import pytest

from annotator.errors import UsageError
from annotator.evaluation.counts import Counts
from annotator.evaluation.engine import (
    DocumentPair,
    Item,
    Options,
    cohen_kappa,
    evaluate_pairs,
    text_tokens,
)
from tests.evaluation.helpers import at

TEXT = "Dr. Amy Lee saw John Smith on 2069-04-07 in Boston."


def item(category: str, type_: str, needle: str, text: str = TEXT, extend: int = 0) -> Item:
    start, end = at(text, needle)
    return Item(category, type_, start, end + extend, text[start : end + extend])


REFERENCE = [
    item("NAME", "DOCTOR", "Amy Lee"),
    item("NAME", "PATIENT", "John Smith"),
    item("DATE", "DATE", "2069-04-07"),
    item("LOCATION", "CITY", "Boston"),
]
PREDICTED = [
    item("NAME", "DOCTOR", "Amy Lee"),  # exact
    item("NAME", "PATIENT", "John Smith", extend=2),  # end + 2: relaxed and overlap match
    item("DATE", "DATE", "04-07"),  # other start: overlap match only
    item("LOCATION", "HOSPITAL", "Boston"),  # same span, other type: category level match
    item("NAME", "DOCTOR", "Amy Lee"),  # duplicate: a false positive (one-to-one)
]


def run(match: str, level: str = "type", pairs: list[DocumentPair] | None = None, beta: float = 1.0):  # type: ignore[no-untyped-def]
    pairs = pairs or [DocumentPair("100-01", TEXT, REFERENCE, PREDICTED)]
    return evaluate_pairs(pairs, Options(match=match, level=level, beta=beta))


@pytest.mark.parametrize(
    ("match", "level", "expected"),
    [
        ("strict", "type", Counts(1, 4, 3)),
        ("strict", "category", Counts(2, 3, 2)),
        ("relaxed", "type", Counts(2, 3, 2)),
        ("overlap", "type", Counts(3, 2, 1)),
        ("overlap", "category", Counts(4, 1, 0)),
        # tokens: Amy Lee (2 tp), John Smith (2 tp) + "on" touched by the longer span (1 fp),
        # 04 07 (2 tp) but 2069 missed (1 fn), Boston CITY missed (1 fn) and HOSPITAL spurious (1 fp)
        ("token", "type", Counts(6, 2, 2)),
        ("tagblind", "type", Counts(7, 1, 1)),
    ],
)
def test_match_modes_hand_computed(match: str, level: str, expected: Counts) -> None:
    assert run(match, level).micro == expected


def test_per_type_and_per_category_strict() -> None:
    result = run("strict")
    assert result.per_type["NAME/DOCTOR"] == Counts(1, 1, 0)
    assert result.per_type["LOCATION/HOSPITAL"] == Counts(0, 1, 0)
    assert result.per_type["LOCATION/CITY"] == Counts(0, 0, 1)
    # at type level a wrong type inside the category is still a miss for the category
    assert result.per_category["LOCATION"] == Counts(0, 1, 1)
    assert run("strict", "category").per_category["LOCATION"] == Counts(1, 0, 0)
    assert run("strict", "category").per_type == {}


def test_relaxed_is_one_to_one_unlike_the_official_script() -> None:
    text = " John Smithson is here"
    a, b = at(text, "John Smith")
    reference = [Item("NAME", "PATIENT", a, b), Item("NAME", "PATIENT", a, b + 3)]
    predicted = [Item("NAME", "PATIENT", a, b + 2), Item("NAME", "PATIENT", a, b + 1)]
    result = run("relaxed", pairs=[DocumentPair("d", text, reference, predicted)])
    assert result.micro == Counts(2, 0, 0)  # the official script says tp 1, fp 0, fn 0


def test_overlap_matching_is_maximum() -> None:
    # greedy "first overlap" would pair the long prediction with the first item and lose one
    text = "aaaa bbbb cccc"
    reference = [Item("X", "X", 0, 4), Item("X", "X", 5, 9)]
    predicted = [Item("X", "X", 0, 9), Item("X", "X", 2, 3)]
    result = run("overlap", pairs=[DocumentPair("d", text, reference, predicted)])
    assert result.micro == Counts(2, 0, 0)


def test_unicode_tokens() -> None:
    assert text_tokens("José Müller_x 1-2") == [(0, 4), (5, 11), (12, 13), (14, 15), (16, 17)]


def test_micro_and_macro_edge_cases() -> None:
    text = "alpha beta gamma delta"
    a, b, g = at(text, "alpha"), at(text, "beta"), at(text, "gamma")
    pairs = [
        # P 1, R 0.5, F1 2/3
        DocumentPair("A", text, [Item("X", "X", *a), Item("X", "X", *b)], [Item("X", "X", *a)]),
        # nothing on either side: no P, no R, no F1 (left out, not scored 0)
        DocumentPair("B", text, [], []),
        # predicted only: P 0, no R, F1 0
        DocumentPair("C", text, [], [Item("X", "X", *g), Item("X", "X", *b)], reference_present=False),
    ]
    result = run("strict", pairs=pairs)
    assert result.micro == Counts(1, 2, 1)
    assert math.isclose(result.micro.f1, 0.4)
    macro = result.macro()
    assert math.isclose(macro["precision"], 0.5)
    assert math.isclose(macro["recall"], 0.5)
    assert math.isclose(macro["f1"], 1 / 3)
    assert macro["documents_scored"] == 2


def test_all_empty_gives_nan_not_zero() -> None:
    result = run("strict", pairs=[DocumentPair("B", "text", [], [])])
    assert result.micro == Counts()
    assert math.isnan(result.micro.f1) and math.isnan(result.micro.precision)
    assert math.isnan(result.macro()["f1"])
    data = result.to_dict()
    assert data["micro"]["f1"] is None  # type: ignore[index]


def test_f_beta_weighs_recall() -> None:
    counts = Counts(tp=6, fp=10, fn=1)
    # (1 + 100) * 6 / ((1 + 100) * 6 + 100 * 1 + 10)
    assert math.isclose(counts.f_beta(10), 606 / 716)
    assert math.isclose(counts.f_beta(1), counts.f1)
    assert run("strict", beta=10).to_dict()["micro"]["f_beta"] is not None  # type: ignore[index]


def test_counts_add_up() -> None:
    result = run("overlap")
    assert sum((d.counts for d in result.documents), Counts()) == result.micro
    assert sum(result.per_label.values(), Counts()) == result.micro
    assert result.micro.reference == len(REFERENCE)
    assert result.micro.predicted == len(PREDICTED)


def test_kappa_on_tokens_with_true_negatives() -> None:
    result = run("strict")
    blind = result.kappa_tagblind
    # 12 tokens, 10 agree; 8 PHI tokens on each side: pe = (8*8 + 4*4) / 144
    assert blind.tokens == 12
    assert math.isclose(blind.observed, 10 / 12)
    assert math.isclose(blind.expected, 80 / 144)
    assert math.isclose(blind.kappa, 0.625)


def test_cohen_kappa_degenerate_cases() -> None:
    assert math.isnan(cohen_kappa([]).kappa)
    assert math.isnan(cohen_kappa([("O", "O"), ("O", "O")]).kappa)  # expected agreement 1
    assert math.isclose(cohen_kappa([("A", "A"), ("O", "O")]).kappa, 1.0)


def test_confusion_matrix_and_disagreements() -> None:
    result = run("strict")
    confusion = result.confusion
    assert confusion.count("LOCATION/CITY", "LOCATION/HOSPITAL") == 1
    assert confusion.count("NAME/DOCTOR", "NAME/DOCTOR") == 1
    assert confusion.count("(none)", "NAME/DOCTOR") == 1  # the duplicate
    kinds = sorted(d.kind for d in result.disagreements)
    assert kinds == ["boundary", "boundary", "spurious", "type"]
    assert [d.kind for d in result.disagreements][:2] == ["spurious", "boundary"]  # sorted by offsets
    data = result.to_dict()
    boundary = data["disagreements"][1]  # type: ignore[index]
    assert "text" not in boundary["reference"]
    assert boundary["reference"]["start"] == at(TEXT, "John Smith")[0]
    assert boundary["predicted"]["end"] == at(TEXT, "John Smith")[1] + 2
    with_text = result.to_dict(include_text=True)
    assert with_text["includes_text"] is True
    assert with_text["disagreements"][1]["reference"]["text"] == "John Smith"  # type: ignore[index]


def test_bad_options_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        Options(match="fuzzy")
    with pytest.raises(UsageError):
        Options(level="token")
    with pytest.raises(UsageError):
        Options(beta=0)


def test_clean_fixes_case_punctuation_and_text_mismatch() -> None:
    from annotator.core.annotation import Annotation
    from annotator.core.document import Document
    from annotator.evaluation.loading import pair_documents

    text = "Seen - by John"
    dash, john = at(text, "-"), at(text, "John")
    gold = Document(
        "1-01",
        text,
        [Annotation("P0", "NAME", "PATIENT", *john, "John"), Annotation("P1", "OTHER", "OTHER", *dash, "-")],
    )
    system = Document("1-01", text, [Annotation("P0", "NAME", "patient", *john, "John")])
    other = Document("1-02", "another text", [])
    other_gold = Document("1-02", "different text", [])
    loaded = pair_documents([gold, other_gold], [system, other])
    assert loaded.skipped == ["1-02: reference and predicted TEXT differ"]
    strict = evaluate_pairs(loaded.pairs, Options())
    assert strict.micro == Counts(1, 0, 1)  # TYPE case ignored; the dash is a miss
    tokens = evaluate_pairs(loaded.pairs, Options(match="token"))
    assert tokens.micro == Counts(1, 0, 0)  # a punctuation-only tag has no token
