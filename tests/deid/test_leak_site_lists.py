"""The leak check with the site's lists (annotator.deid.listed): a listed name or place left in
the text is a finding, tagged in the gold or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import LeakCheckOptions, find_leaks
from annotator.deid.listed import LISTED_RULE
from annotator.deid.surrogates import DeidOptions
from annotator.io.i2b2 import write_i2b2
from annotator.io.site_lists import SiteLists
from tests.deid.builders import note


def _lists(*entries: tuple[str, str] | tuple[str, str, str]) -> SiteLists:
    lists = SiteLists()
    for entry in entries:
        lists.add(*entry)
    return lists


def _findings(documents: list[Document], lists: SiteLists | None) -> list[tuple[str, str]]:
    """(output words, rule) of each finding on ``documents`` exported with surrogates."""
    result = deidentify_documents(documents, DeidOptions(seed=1))
    outputs = {d.doc_id: d.text for d in result.documents}
    leaks = find_leaks(documents, result.documents, LeakCheckOptions(site_lists=lists))
    return [(outputs[leak.doc_id][leak.start : leak.end], leak.rule) for leak in leaks]


STAFF = _lists(("DOCTOR", "Kondouli"), ("HOSPITAL", "GH"), ("DOCTOR", "Wilson"), ("DOCTOR", "Grace"))


def test_a_listed_name_the_gold_missed_everywhere_is_found_only_with_the_lists() -> None:
    documents = [
        note("101-01", "Seen by ", ("Dr Marek", "DOCTOR"), ". mary kondouli from speech in to see pt."),
        note("101-02", "Transferred to GH for cath. ", ("Marek", "DOCTOR"), " aware."),
    ]
    assert _findings(documents, None) == []
    assert _findings(documents, STAFF) == [("kondouli", LISTED_RULE), ("GH", LISTED_RULE)]


def test_listed_words_are_judged_by_their_context_and_tagged_ones_replaced() -> None:
    documents = [
        note(
            "102-01",
            "Said grace before meals. Wilson's disease ruled out. gh drawn. Seen by Dr ",
            ("Kondouli", "DOCTOR"),
            ".",
        ),
        note("102-02", "Dr Grace aware of the plan."),
    ]
    # "grace" and "Wilson's disease" are the words, "gh" in lower case growth hormone, and the
    # tagged Kondouli was replaced: only the clinician after a title is found.
    assert _findings(documents, STAFF) == [("Grace", LISTED_RULE)]


def test_a_patients_listed_name_is_looked_for_in_that_patients_notes_only() -> None:
    lists = _lists(("PATIENT", "Zebulon", "103"), ("PATIENT", "Al", "103"))
    own = note("103-01", "Zebulon resting. PIV x2 L rad AL.")
    other = note("104-01", "Zebulon resting.")
    # A two-letter name is no finding ("AL", an a-line); a place's acronym in capitals is.
    assert _findings([own, other], lists) == [("Zebulon", LISTED_RULE)]


def test_deidentify_refuses_an_export_a_listed_name_would_leak_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    write_i2b2(
        note("105-01", "Seen by ", ("Dr Marek", "DOCTOR"), ". Qqkondouli from speech aware."),
        gold / "105-01.xml",
    )
    lists = tmp_path / "site-lists.tsv"
    lists.write_text("DOCTOR\tQqkondouli\n", encoding="utf-8")
    assert main(["deidentify", str(gold), "-o", str(tmp_path / "plain")]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["deidentify", str(gold), "-o", str(out), "--site-lists", str(lists), "--json"]) == 1
    refusal = json.loads(capsys.readouterr().out)
    assert refusal["written"] is False
    assert [(f["doc_id"], f["rule"], f["type"]) for f in refusal["findings"]] == [
        ("105-01", LISTED_RULE, "DOCTOR")
    ]
    assert "Qqkondouli" not in json.dumps(refusal)
    assert not out.exists() or not any(out.iterdir())
