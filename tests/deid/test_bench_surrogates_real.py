"""The real-text surrogate benchmark measures what it says, checked on notes of our own."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.surrogates import DeidOptions
from tests.benchmarks.bench_surrogates_real import from_lists, intervals, main, vocabulary
from tests.deid.builders import note

NOTES = [
    note("950-01", "admitted ", ("4/19/21", "DATE"), "; seen ", ("21", "DATE"), " ", ("Apr", "DATE"), ", ", ("21", "DATE"), "."),
    note("950-02", "cath ", ("4/23", "DATE"), ", transfer to ", ("QUARTERMAIN", "LOCATION-OTHER"), " 2."),
]  # fmt: skip


def test_every_interval_of_an_export_is_kept_and_a_moved_date_is_caught() -> None:
    outputs = {d.doc_id: d for d in deidentify_documents(NOTES, DeidOptions(seed=2)).documents}
    assert intervals(NOTES, outputs) == (3, 3, 0)  # three days, three pairs
    second = outputs["950-02"]
    tag = second.annotations[0]
    day = int(tag.text.split("/")[1])
    moved = f"{tag.text.split('/')[0]}/{day + 1 if day < 28 else day - 1}"
    text = second.text[: tag.start] + moved + second.text[tag.end :]
    shifted = [tag.replace(end=tag.start + len(moved), text=moved)] + [
        a.replace(start=a.start + len(moved) - len(tag.text), end=a.end + len(moved) - len(tag.text))
        for a in second.annotations[1:]
    ]
    outputs["950-02"] = Document("950-02", text, shifted)
    assert intervals(NOTES, outputs) == (1, 3, 0)  # both pairs with the moved day are broken


def test_words_outside_the_lists_are_found() -> None:
    words = vocabulary()
    assert from_lists("PINECREST 2", words) and from_lists("St. Luke's", words) and from_lists("TH", words)
    assert not from_lists("IJNKBAW", words) and not from_lists("the Xqzvb Hospital", words)


def test_skips_with_a_message_without_the_corpus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PHYSIONET_DEID", raising=False)
    assert main([]) == 0
    assert "skipped: set PHYSIONET_DEID" in capsys.readouterr().out
