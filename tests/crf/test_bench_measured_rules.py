"""The measured-pattern benchmark counts what it says, checked on notes of our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmarks.bench_measured_rules import main, tally


def test_matches_are_counted_by_pattern_right_when_they_overlap_gold() -> None:
    text = "PMH: MI '92. seen by dr small. dr aware. son bill called. 212- 476- 8356"
    small = text.index("small")
    notes = [("950-01", text, [(text.index("92"), text.index("92") + 2), (small, small + 5)])]
    matches, right, wrong = tally(notes, examples=5)
    assert matches == {
        "apostrophe year": 1,
        "doctor's title and word": 1,
        "name before a call or visit": 1,
        "phone number": 1,
        "relation and first name": 1,
        "relation and word (weighed)": 1,
        "year in a history": 1,  # "MI '92" is also a year after a procedure
    }
    assert right == {"apostrophe year": 1, "doctor's title and word": 1, "year in a history": 1}
    phone = text.index("212")
    assert wrong == [
        f"phone number: 950-01 [{phone}, {phone + 14})",
        f"relation and first name: 950-01 [{text.index('bill')}, {text.index('bill') + 4})",
        f"name before a call or visit: 950-01 [{text.index('bill')}, {text.index('bill') + 4})",
        f"relation and word (weighed): 950-01 [{text.index('bill')}, {text.index('bill') + 4})",
    ]


def test_without_the_corpus_it_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--physionet", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("skipped: set PHYSIONET_DEID")


def test_record_layout_fields_are_counted_in_their_own_group() -> None:
    text = "OROZCO,KYLE   560-40-78-5\nBP,HR   120/80\n"
    notes = [("950-02", text, [(0, 11)])]
    matches, right, wrong = tally(notes, examples=5)
    # The number is a record number by its digit groups too: counted under both patterns.
    assert matches == {
        "name and record number heading a visit (layout)": 2,
        "record number in digit groups (layout)": 1,
    }
    assert right == {"name and record number heading a visit (layout)": 1}
    assert wrong == [
        "name and record number heading a visit (layout): 950-02 [14, 25)",
        "record number in digit groups (layout): 950-02 [14, 25)",
    ]
