"""A tagged span's surrogate keeps nothing of the span; the leak check finds what survives;
huge numbers and many findings are handled (fuzzing findings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.leakcheck import find_leaks
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.deid.builders import note

KEPT = "surrogate keeps part of the original"


def _export(tmp_path: Path, *documents: Document) -> str:
    """The exported text of the one note, after a successful export of ``documents``."""
    gold = tmp_path / "gold"
    for document in documents:
        write_i2b2(document, gold / f"{document.doc_id}.xml")
    out = tmp_path / "out"
    assert main(["deidentify", str(gold), "-o", str(out), "--seed", "1"]) == 0
    return read_i2b2(out / f"{documents[0].doc_id}.xml").text


@pytest.mark.parametrize(
    ("phi", "type_", "pieces"),
    [
        ("Smith, John (MRN 1234567)", "PATIENT", ["Smith", "John", "1234567"]),
        ("Mary Jones 617-555-0199", "PATIENT", ["Mary", "Jones", "617", "555", "0199"]),
        ("95 yo Smith", "AGE", ["95", "Smith"]),
    ],
)
def test_a_surrogate_keeps_no_piece_of_its_span(
    tmp_path: Path, phi: str, type_: str, pieces: list[str]
) -> None:
    text = _export(tmp_path, note("100-01", "Seen ", (phi, type_), " today."))
    assert text.startswith("Seen ") and text.endswith(" today.")
    assert not [piece for piece in pieces if piece in text]


def _overlapping(doc_id: str, text: str, tags: list[tuple[str, str, str, int, int]]) -> Document:
    return Document(doc_id, text, [Annotation(i, c, t, s, e, text[s:e]) for i, c, t, s, e in tags])


def test_overlapping_tags_of_two_types_leave_nothing_of_either(tmp_path: Path) -> None:
    document = _overlapping(
        "100-01",
        "Seen on Jan 12 Smith ok",
        [("P0", "DATE", "DATE", 8, 14), ("P1", "NAME", "PATIENT", 12, 20)],
    )
    text = _export(tmp_path, document)
    assert "12" not in text and "Smith" not in text and "Jan" not in text


def test_the_leak_check_finds_pieces_a_surrogate_kept() -> None:
    original = note(
        "100-01", ("Smith, John (MRN 1234567)", "PATIENT"), "; ", ("95 yo Quist", "AGE"),
        "; ", ("45 yo", "AGE"), "; ", ("Doctor Lee", "DOCTOR"), "; ", ("10/15-10/16", "DATE"), ".",
    )  # fmt: skip
    output = note(
        "100-01", ("Orr, Vernon (BRENDAN 1234567)", "PATIENT"), "; ", ("90 yo Quist", "AGE"),
        "; ", ("45 yo", "AGE"), "; ", ("[**DOCTOR**]", "DOCTOR"), "; ", ("10/19-10/20", "DATE"), ".",
    )  # fmt: skip
    found = [
        (leak.tag_id, leak.rule, output.text[leak.start : leak.end])
        for leak in find_leaks([original], [output])
    ]
    # The kept age under 90, the mask's type word and the shifted range's month are no finding.
    assert found == [("P0", KEPT, "1234567"), ("P1", KEPT, "Quist")]


def test_the_leak_check_finds_a_piece_kept_by_overlapping_tags() -> None:
    original = _overlapping(
        "100-01",
        "Seen on Jan 12 Smith ok",
        [("P0", "DATE", "DATE", 8, 14), ("P1", "NAME", "PATIENT", 12, 20)],
    )
    output = _overlapping(
        "100-01",
        "Seen on Veronica 12 Orr ok",
        [("P0", "DATE", "DATE", 8, 23), ("P1", "NAME", "PATIENT", 8, 23)],
    )
    leaks = find_leaks([original], [output])
    assert [(leak.rule, output.text[leak.start : leak.end]) for leak in leaks] == [(KEPT, "12")]


def test_many_findings_on_one_line_are_each_found() -> None:
    # One tagged "Smith" (a word too, so its context is read) and 4,000 untagged ones on one
    # line: each finding used to scan the whole line again (13 s; now about 1 s, the line's
    # breaks and words read once).
    original = note("100-01", "Patient ", ("John Smith", "PATIENT"), "." + " Smith" * 4000)
    output = note("100-01", "Patient ", ("Ira Quist", "PATIENT"), "." + " Smith" * 4000)
    leaks = find_leaks([original], [output])
    assert len(leaks) == 4000
    assert {output.text[leak.start : leak.end] for leak in leaks} == {"Smith"}


def test_an_age_of_5000_digits_is_replaced(tmp_path: Path) -> None:
    age = "9" * 5000
    text = _export(tmp_path, note("100-01", "Patient is ", (age, "AGE"), " years old."))
    assert text == "Patient is 90 years old."


def test_an_allow_file_with_a_huge_number_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold"
    write_i2b2(note("100-01", "Seen ", ("Quist", "PATIENT"), "."), gold / "100-01.xml")
    allow = tmp_path / "allow.json"
    allow.write_text('{"version": ' + "1" * 5000 + ', "allow": []}', encoding="utf-8")
    code = main(["deidentify", str(gold), "-o", str(tmp_path / "out"), "--allow", str(allow)])
    error = capsys.readouterr().err
    assert code not in (0, 3) and "internal error" not in error
    assert "allow.json" in error and "number too long" in error
