"""A brat folder, or one brat document, opens in the editing session and saves back as brat."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.errors import InputError
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace

TEXT = "Seen by Dr. Marissa Jones at Lakeside Clinic.\nPlan reviewed.\n"
DOCTOR = "Marissa Jones"
HOSPITAL = "Lakeside Clinic"
# A relation, an attribute and a note the core does not edit: they must come back untouched.
EXTRA = ["R1\tWorksAt Arg1:T1 Arg2:T2", "A1\tCertain T1", "#1\tAnnotatorNotes T2\tchecked"]


def _ann_line(tag_id: str, label: str, phrase: str) -> str:
    start = TEXT.index(phrase)
    return f"{tag_id}\t{label} {start} {start + len(phrase)}\t{phrase}"


@pytest.fixture
def brat_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "brat"
    folder.mkdir()
    (folder / "310-01.txt").write_text(TEXT, encoding="utf-8")
    lines = [_ann_line("T1", "DOCTOR", DOCTOR), _ann_line("T2", "HOSPITAL", HOSPITAL), *EXTRA]
    (folder / "310-01.ann").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    (folder / "310-02.txt").write_text("Follow-up in two weeks.\n", encoding="utf-8")
    return folder


def _session(path: Path) -> AnnotationSession:
    return AnnotationSession(Workspace.open(path, "alice"), timers=ManualTimers())


def test_brat_folder_lists_each_txt_once_and_reads_its_ann(brat_folder: Path) -> None:
    session = _session(brat_folder)
    assert session.workspace.doc_ids() == ["310-01", "310-02"]
    session.open_document("310-01")
    document = session.workspace.documents["310-01"]
    assert sorted((a.type, a.tag, a.text) for a in document.annotations) == [
        ("DOCTOR", "NAME", DOCTOR),
        ("HOSPITAL", "LOCATION", HOSPITAL),
    ]


def test_brat_edit_saves_to_the_ann_keeping_relations_attributes_and_notes(brat_folder: Path) -> None:
    session = _session(brat_folder)
    session.open_document("310-01")
    start = TEXT.index("Plan")
    session.apply_type("DATE", start, start + len("Plan"), start)
    session.save()
    ann = (brat_folder / "310-01.ann").read_text(encoding="utf-8").splitlines()
    assert _ann_line("T1", "DOCTOR", DOCTOR) in ann
    assert _ann_line("T2", "HOSPITAL", HOSPITAL) in ann
    assert _ann_line("T3", "DATE", "Plan") in ann
    for line in EXTRA:
        assert line in ann
    assert (brat_folder / "310-01.txt").read_text(encoding="utf-8") == TEXT
    assert not list(brat_folder.glob("*.xml"))  # never a second copy in another format


def test_single_txt_without_ann_opens_and_first_save_writes_the_ann(brat_folder: Path) -> None:
    txt = brat_folder / "310-02.txt"
    session = _session(txt)
    assert session.workspace.doc_ids() == ["310-02"]
    session.open_document("310-02")
    session.apply_type("DATE", 0, len("Follow-up"), 0)
    session.save()
    assert (brat_folder / "310-02.ann").read_text(
        encoding="utf-8"
    ) == "T1\tDATE 0 9\tFollow-up\n#1\tannotator T1\talice\n"


def test_brat_folder_labels_take_their_category_from_annotation_conf(brat_folder: Path) -> None:
    (brat_folder / "annotation.conf").write_text(
        "[entities]\nPERSON\n\tDOCTOR\nPLACE\n\tHOSPITAL\n\tDATE\n[relations]\n[events]\n[attributes]\n",
        encoding="utf-8",
    )
    session = _session(brat_folder)
    session.open_document("310-01")
    categories = {a.type: a.tag for a in session.workspace.documents["310-01"].annotations}
    assert categories == {"DOCTOR": "PERSON", "HOSPITAL": "PLACE"}


def test_folder_with_neither_xml_nor_txt_is_refused_naming_what_it_wants(tmp_path: Path) -> None:
    (tmp_path / "notes.csv").write_text("x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"brat \.txt/\.ann"):
        Workspace.open(tmp_path, "alice")
