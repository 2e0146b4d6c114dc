"""An earlier de-identification's placeholders (MIMIC-III's ``[**...**]``): one span each, typed by
its label, whatever the model read inside it."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.crf.default_model import load_default_model
from annotator.crf.labels import Prediction
from annotator.crf.layout_rules import layout_matches
from annotator.crf.placeholder_rules import placeholder_fields, placeholder_type, without_placeholder_pieces


@pytest.mark.parametrize(
    ("label", "kind"),
    [
        ("2151-7-16", "DATE"), ("7-16", "DATE"), ("2151", "DATE"), ("5/2151", "DATE"), ("-5-/2151", "DATE"),
        ("Month (only) 216", "DATE"), ("Year (4 digits) 12", "DATE"), ("Date range (1) 3", "DATE"),
        ("Holiday 3", "DATE"), ("Age over 90 ", "AGE"), ("Hospital1 18", "HOSPITAL"),
        ("Hospital 1121", "HOSPITAL"), ("Hospital Unit Name 10", "DEPARTMENT"),
        ("Hospital Ward Name 5", "DEPARTMENT"), ("Location (un) 86", "CITY"),
        ("Location (Universities) 3", "ORGANIZATION"), ("Street Address(1) 4", "STREET"),
        ("State 350", "STATE"), ("Country 9", "COUNTRY"), ("Company 1", "ORGANIZATION"),
        ("Telephone/Fax (1) 6789", "PHONE"), ("Pager number 2", "PHONE"), ("E-mail address 4", "EMAIL"),
        ("URL 2", "URL"), ("Medical Record Number 1234567", "MEDICALRECORD"), ("Unit Number 3", "MEDICALRECORD"),
        ("Social Security Number 5", "SSN"), ("Serial Number 7", "DEVICE"), ("MD Number(1) 1247", "IDNUM"),
        ("Job Number 40213", "IDNUM"), ("Clip Number (Radiology) 8", "IDNUM"), ("CC Contact Info 2", "OTHER"),
        ("", "OTHER"), ("Known lastname 5678", None), ("Doctor First Name ", None),
        ("First Name8 (NamePattern2) 3", None), ("Initials (NamePattern4) 9", None),
    ],
)  # fmt: skip
def test_the_label_names_the_type(label: str, kind: str | None) -> None:
    assert placeholder_type(label) == kind


def _fields(text: str) -> list[tuple[str, str]]:
    return [(m.kind, text[m.start : m.end]) for m in placeholder_fields(text)]


def test_a_names_role_from_its_label_then_its_neighbours() -> None:
    text = (
        "Mr. [**Known lastname 5678**] was seen by Dr. [**Last Name (STitle) 2345**].\n"
        "His daughter [**Name (NI) 1234**] called; Ms. [**Last Name (NamePattern1) 77**] too.\n"
        "Follow up with [**First Name8 (NamePattern2) 12**] [**Last Name (NamePattern1) 34**] in clinic.\n"
        "[**First Name11 (Name Pattern1) 1245**] [**Last Name (NamePattern1) 1246**] MD [**MD Number(1) 1247**]\n"
        "Attending:[**First Name3 (LF) 1234**]\n"
    )
    assert _fields(text) == [
        ("PATIENT", "[**Known lastname 5678**]"),
        ("DOCTOR", "[**Last Name (STitle) 2345**]"),
        ("PATIENT", "[**Name (NI) 1234**]"),
        ("PATIENT", "[**Last Name (NamePattern1) 77**]"),
        ("DOCTOR", "[**First Name8 (NamePattern2) 12**] [**Last Name (NamePattern1) 34**]"),
        ("DOCTOR", "[**First Name11 (Name Pattern1) 1245**] [**Last Name (NamePattern1) 1246**]"),
        ("IDNUM", "[**MD Number(1) 1247**]"),
        ("DOCTOR", "[**First Name3 (LF) 1234**]"),
    ]


def test_a_hospital_takes_the_word_for_its_kind_and_names_on_two_lines_stay_apart() -> None:
    text = "from [**Hospital 1121**] Hospital to [**Hospital1 18**].\n[**Known firstname 1**]\n[**Known lastname 2**]"
    assert _fields(text) == [
        ("HOSPITAL", "[**Hospital 1121**] Hospital"),
        ("HOSPITAL", "[**Hospital1 18**]"),
        ("PATIENT", "[**Known firstname 1**]"),
        ("PATIENT", "[**Known lastname 2**]"),
    ]


def test_only_a_closed_placeholder_on_one_line_is_a_field() -> None:
    for text in (
        "BP 120/80 [*] see [**] note",
        "[** unclosed",
        "[**a\nb**]",
        "**] [**",
        "[**x [**State 2**]",
    ):
        assert _fields(text) == ([("STATE", "[**State 2**]")] if "State" in text else [])
    assert _fields("[[**2151**]]x") == [("DATE", "[**2151**]")]


def test_brackets_round_words_no_label_is_made_of_are_text() -> None:
    # "[**John Smith**]" may hold PHI: the model reads it as any text (and deid checks it).
    text = "Dr. [**John Smith**] and [**Known lastname 1**] on [**2151**] with [**Hospital1 2 foo**]"
    assert _fields(text) == [("PATIENT", "[**Known lastname 1**]"), ("DATE", "[**2151**]")]
    pieces = [Prediction("DOCTOR", 6, 16, 0.9, "model")]
    assert without_placeholder_pieces(text, pieces) == pieces


def test_other_record_fields_inside_a_placeholder_give_way() -> None:
    text = "Dictated by: [**Job Number 40213**] on [**2151-7-16**]\n"
    assert [(m.kind, text[m.start : m.end]) for m in layout_matches(text)] == [
        ("IDNUM", "[**Job Number 40213**]"),
        ("DATE", "[**2151-7-16**]"),
    ]


def test_the_models_pieces_inside_a_placeholder_are_dropped_before_they_spread() -> None:
    text = "Dr. [**Last Name (STitle) 2345**] saw him. Last dose at noon."
    start = text.index("STitle")
    pieces = [
        Prediction("PATIENT", start, start + 6, 0.9, "model"),
        Prediction("DOCTOR", text.index("Last"), text.index("Last") + 4, 0.8, "model"),
        Prediction("DATE", text.index("noon"), text.index("noon") + 4, 0.7, "model"),
    ]
    assert without_placeholder_pieces(text, pieces) == [pieces[2]]


def test_the_bundled_model_tags_a_mimic_note_one_span_per_placeholder() -> None:
    text = (
        "Admission Date:  [**2151-7-16**]       Discharge Date:  [**2151-8-4**]\n\n"
        "Attending:[**First Name3 (LF) 1234**]\n"
        "Mr. [**Known lastname 5678**] is a 72 yo man transferred from [**Hospital 1121**] Hospital\n"
        "on [**7-16**]. He was seen by Dr. [**Last Name (STitle) 2345**] in [**Month (only) 216**].\n"
        "His daughter [**Name (NI) 1234**] can be reached at [**Telephone/Fax (1) 6789**].\n"
        "He lives in [**Location (un) 86**]. No Known Allergies. Last Name on file.\n"
    )
    tagged = load_default_model().predict_spans([Document("100-01", text)], None)["100-01"]
    inside = {(p.type, text[p.start : p.end]) for p in tagged if "[**" in text[p.start : p.end]}
    assert inside == {
        ("DATE", "[**2151-7-16**]"), ("DATE", "[**2151-8-4**]"), ("DOCTOR", "[**First Name3 (LF) 1234**]"),
        ("PATIENT", "[**Known lastname 5678**]"), ("HOSPITAL", "[**Hospital 1121**] Hospital"),
        ("DATE", "[**7-16**]"), ("DOCTOR", "[**Last Name (STitle) 2345**]"), ("DATE", "[**Month (only) 216**]"),
        ("PATIENT", "[**Name (NI) 1234**]"), ("PHONE", "[**Telephone/Fax (1) 6789**]"),
        ("CITY", "[**Location (un) 86**]"),
    }  # fmt: skip
    placeholders = [(m.start, m.end) for m in placeholder_fields(text)]
    for p in tagged:
        # Every span is a whole placeholder or lies outside them all; no label word is a name.
        assert (p.start, p.end) in placeholders or all(p.end <= s or p.start >= e for s, e in placeholders)
        assert text[p.start : p.end] not in ("Known", "Last", "Last Name")
