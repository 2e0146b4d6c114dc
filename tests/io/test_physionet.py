"""The PhysioNet deid layout: records file + typed or type-blind PHI lists, read and written back."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.errors import InputError, UsageError
from annotator.io.formats import detect_format, read_documents, write_documents
from annotator.io.physionet import TYPE_ATTRIBUTE, physionet_texts, read_physionet

NOTE_1 = "PT SEEN BY DR KLEIN 7/22. TO GH.\n\n"
NOTE_2 = "son bill called.\n\n"
RECORDS = (
    f"START_OF_RECORD=1||||1||||\n{NOTE_1}||||END_OF_RECORD\n\n"
    f"START_OF_RECORD=1||||2||||\n{NOTE_2}||||END_OF_RECORD\n\n"
    f"START_OF_RECORD=12||||1||||\nnothing here\n\n||||END_OF_RECORD\n\n"
)


def _phrase(patient: int, note: int, text: str, phrase: str, kind: str) -> str:
    start = text.index(phrase)
    return f"{patient} {note} {start} {start + len(phrase)} {kind} {phrase}\n"


PHRASES = (
    _phrase(1, 1, NOTE_1, "KLEIN", "HCPName")
    + _phrase(1, 1, NOTE_1, "7/22", "Date")
    + _phrase(1, 1, NOTE_1, "GH", "Location")
    + _phrase(1, 2, NOTE_2, "bill", "RelativeProxyName")
)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "id.text").write_text(RECORDS, encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text(PHRASES, encoding="utf-8")
    return tmp_path


def test_records_become_patient_record_documents_with_mapped_types(corpus: Path) -> None:
    documents = read_physionet(corpus)
    assert [d.doc_id for d in documents] == ["001-01", "001-02", "012-01"]
    assert documents[0].text == NOTE_1
    found = [
        (a.tag, a.type, a.text, dict(a.extra)[TYPE_ATTRIBUTE]) for a in documents[0].sorted_annotations()
    ]
    assert found == [
        ("NAME", "DOCTOR", "KLEIN", "HCPName"),
        ("DATE", "DATE", "7/22", "Date"),
        ("LOCATION", "LOCATION-OTHER", "GH", "Location"),
    ]
    assert [a.type for a in documents[1].annotations] == ["PATIENT"]
    assert documents[0].patient_id == documents[1].patient_id == "001"


def test_written_back_byte_identical(corpus: Path) -> None:
    records, phrases, _blind = physionet_texts(read_physionet(corpus))
    assert records == RECORDS
    assert phrases == PHRASES


def test_type_blind_list_gives_untyped_spans(tmp_path: Path) -> None:
    (tmp_path / "id.text").write_text(RECORDS, encoding="utf-8")
    start = NOTE_1.index("KLEIN")
    (tmp_path / "id.deid").write_text(
        f"Patient 1  Note 1\n{start}  {start}  {start + 5}\nPatient 1  Note 2\n"
    )
    documents = read_physionet(tmp_path / "id.text")
    assert [(a.type, a.text) for a in documents[0].annotations] == [("OTHER", "KLEIN")]
    assert not documents[1].annotations


def test_convert_round_trip_through_i2b2(corpus: Path, tmp_path: Path) -> None:
    assert detect_format(corpus) == "physionet"
    documents = read_documents(corpus)
    write_documents(documents, tmp_path / "xml", "i2b2")
    again = read_documents(tmp_path / "xml")
    written = write_documents(again, tmp_path / "back", "physionet")
    assert [p.name for p in written] == ["id.text", "id-phi.phrase", "id.deid"]
    assert (tmp_path / "back" / "id.text").read_text() == RECORDS
    assert (tmp_path / "back" / "id-phi.phrase").read_text() == PHRASES


@pytest.mark.parametrize(
    ("records", "phrases", "problem"),
    [
        (
            RECORDS.replace("||||END_OF_RECORD\n\nSTART_OF_RECORD=12", "\n\nSTART_OF_RECORD=12"),
            "",
            "END_OF_RECORD",
        ),
        (RECORDS, "1 1 0 4 Date XXXX\n", "not the text"),
        (RECORDS, "1 1 0 999 Date x\n", "outside its text"),
        (RECORDS, "9 9 0 2 Date PT\n", "record 9/9"),
        (RECORDS, "one line of junk\n", "line 1"),
        ("no records at all", "", "not a record"),
        ("", "", "holds no record"),
        ("\n\n", "", "holds no record"),
        (RECORDS, f"1 1 {'0' * 5000}0 4 Date XXXX\n", "not the text"),  # zeros are no digits too many
    ],
)
def test_bad_input_is_one_clear_error(tmp_path: Path, records: str, phrases: str, problem: str) -> None:
    (tmp_path / "id.text").write_text(records, encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text(phrases, encoding="utf-8")
    with pytest.raises(InputError, match=problem):
        read_physionet(tmp_path)


def test_writing_refuses_documents_without_numbers(corpus: Path) -> None:
    document = read_physionet(corpus)[0].copy("note-a")
    with pytest.raises(UsageError, match="PPP-RR"):
        physionet_texts([document])


def test_a_project_made_from_the_corpus_knows_its_gold_is_safe_harbor(corpus: Path, tmp_path: Path) -> None:
    from annotator.core.project import Project

    write_documents(read_documents(corpus), tmp_path / "deid", "project")
    assert Project.open(tmp_path / "deid").guideline == "safe-harbor"
    # Notes of our own (i2b2 XML) make an i2b2 2014 project, as before.
    write_documents(read_documents(tmp_path / "deid" / "gold"), tmp_path / "ours", "project")
    assert Project.open(tmp_path / "ours").guideline == "i2b2-2014"


def test_converting_types_it_names_more_coarsely_is_refused_unless_let_go(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from annotator.cli.main import main
    from annotator.core.document import Document
    from annotator.io.i2b2 import write_i2b2

    text = "Seen at Union Hospital, MRN 445566, by Dr Klein; KLEIN and Union listed twice.\n"
    document = Document("001-01", text)
    for tag, type_name, phrase in (
        ("LOCATION", "HOSPITAL", "Union Hospital"),
        ("ID", "MEDICALRECORD", "445566"),
        ("NAME", "DOCTOR", "Klein"),
        ("NAME", "DOCTOR", "KLEIN"),
    ):
        start = text.index(phrase)
        document.add(document.make_annotation(tag, type_name, start, start + len(phrase)))
    # Overlapping tags a phrase list holds, one line each.
    start = text.index("Union", text.index("KLEIN"))
    document.add(document.make_annotation("LOCATION", "HOSPITAL", start, start + len("Union")))
    document.add(document.make_annotation("LOCATION", "LOCATION-OTHER", start, start + len("Union")))
    write_i2b2(document, tmp_path / "xml" / "001-01.xml")
    argv = ["convert", str(tmp_path / "xml"), "--to", "physionet", "-o", str(tmp_path / "out")]
    assert main(argv) == 1
    assert "physionet cannot hold types: 3 (nothing written; --drop types" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert main([*argv, "--drop", "types"]) == 0
    phrases = (tmp_path / "out" / "id-phi.phrase").read_text().splitlines()
    assert [line.split()[4] for line in phrases] == [
        "Location",
        "Other",
        "HCPName",
        "HCPName",
        "Location",
        "Location",
    ]
