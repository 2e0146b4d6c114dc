"""A record layout's fields: found by their place on the line, placed over what the model read.

The notes here are written for these tests (invented names and numbers); the layout is the
one of emergency and discharge notes printed by a hospital's record system.
"""

from __future__ import annotations

import random

import pytest

from annotator.core.document import Document
from annotator.crf.default_model import default_model_path
from annotator.crf.guidelines import SAFE_HARBOR
from annotator.crf.labels import Prediction
from annotator.crf.layout_rules import LAYOUT_ORIGIN, LAYOUT_PATTERNS, apply_layout_fields, layout_matches
from annotator.crf.tagger import CrfTagger

ED_NOTE = """

Record date: 2091-03-14

                     MAPLE GROVE EMERGENCY DEPT VISIT

TALBOT,HENRY   381-22-47-9                     VISIT DATE: 03/14/91

PRESENTING COMPLAINT:  Chest pain.

___________________________________                    KT512/30418

LUCIA VANTERPOOL, M.D.    LV27                     D:03/14/91
                                                       T:03/15/91
LV/brennan/quist
"""


def _found(text: str) -> list[tuple[str, str]]:
    return [(m.kind, text[m.start : m.end]) for m in layout_matches(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "OROZCO,KYLE   560-40-78-5       VISIT DATE: 07/20/83\n",
            # The number is also a record number by its digit groups alone.
            [("PATIENT", "OROZCO,KYLE"), ("MEDICALRECORD", "560-40-78-5"), ("MEDICALRECORD", "560-40-78-5")],
        ),
        ("  DE LA CRUZ, ANA M   4471023\n", [("PATIENT", "DE LA CRUZ, ANA M"), ("MEDICALRECORD", "4471023")]),
        (
            "EDVISIT^40213377^Talbot, Henry^11/02/88^VANTERPOOL, LUCIA\n",
            [
                ("MEDICALRECORD", "40213377"),
                ("PATIENT", "Talbot, Henry"),
                ("DATE", "11/02/88"),
                ("DOCTOR", "VANTERPOOL, LUCIA"),
            ],
        ),
        ("          SILVER RIDGE EMERGENCY DEPT VISIT\n", [("HOSPITAL", "SILVER RIDGE")]),
        ("ST. ELMO'S EMERGENCY DEPARTMENT VISIT", [("HOSPITAL", "ST. ELMO'S")]),
        ("_______________________          XW277/90683 \n", [("IDNUM", "XW277/90683")]),
        ("FILBERT BRIGHT, M.D.    FB59                     D:07/20/83\n", [("USERNAME", "FB59")]),
        ("\nGPP/church/olinger\n", [("DOCTOR", "church"), ("DOCTOR", "olinger")]),
        # What nursing notes write in the same shapes is no field.
        ("BP,HR   120/80\n", []),
        ("NEURO,RESP   1234\n", []),  # too short for a record number
        ("ADULT EMERGENCY DEPT VISIT\n", []),
        ("emergency dept visit\n", []),
        ("______________ 12/5\n", []),
        ("MD/RN aware\n", []),
        ("PT/ot\n", []),
        ("PT/OT/speech\n", []),
        ("RS/tk/dd\n", []),  # initials, not names
        ("RN, BSN    AB12  notified\n", []),  # no field label (``D:``) after the login's gap
        ("EDVISIT^40213377^Talbot, Henry\n", []),  # a header cut short
        # A US address's town, state and ZIP code, wherever the line puts them.
        ("Referred from Lowell, MA 01852.", [("CITY", "Lowell"), ("STATE", "MA"), ("ZIP", "01852")]),
        (
            "44 Garden Street, Fall River, MA 02720-1234\n",
            [("CITY", "Fall River"), ("STATE", "MA"), ("ZIP", "02720-1234")],
        ),
        ("75 Francis St Boston MA 02115", [("CITY", "Boston"), ("STATE", "MA"), ("ZIP", "02115")]),
        (
            "NEW BEDFORD, Massachusetts 02740",
            [("CITY", "NEW BEDFORD"), ("STATE", "Massachusetts"), ("ZIP", "02740")],
        ),
        ("Mercy General Hospital, MA 02114", []),  # no town
        ("Seen Lowell MA 0185 today; BP, HR 120 80 MA 12345", []),  # four digits; no town's words
        ("K 4.1 MG 2.0 CA 8.9 12345", []),  # lab values
        # A dictation's batch and index code, the typist's login before the job number.
        (
            "Batch :\n81290\nIndex No. TQXWBN5 KD\nRH62 QM315/4402\n",
            [("IDNUM", "81290"), ("IDNUM", "TQXWBN5 KD"), ("USERNAME", "RH62"), ("IDNUM", "QM315/4402")],
        ),
        ("Batch size 200\nIndex No. of cases\nHR62 in the night\n", []),
    ],
)
def test_each_field_by_its_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text) == expected


def test_a_field_takes_bounds_and_type_over_what_overlaps_it() -> None:
    text = "OROZCO,KYLE   560-40-78-5\nseen by Dr. Bright"
    bright = text.index("Bright")
    model = [
        Prediction("STATE", text.index("KYLE"), text.index("KYLE") + 4, 0.6),
        Prediction("ZIP", text.index("560"), text.index("560") + 3, 0.5),
        Prediction("DOCTOR", bright, bright + 6, 0.9),
    ]
    result = apply_layout_fields(text, model)
    assert [(p.type, text[p.start : p.end], p.origin) for p in result] == [
        ("PATIENT", "OROZCO,KYLE", LAYOUT_ORIGIN),
        ("MEDICALRECORD", "560-40-78-5", LAYOUT_ORIGIN),
        ("DOCTOR", "Bright", "crf"),
    ]


def test_a_field_of_a_type_the_guideline_leaves_out_is_not_placed() -> None:
    text = "FILBERT BRIGHT, M.D.    FB59      D:07/20/83\n"
    model = [Prediction("DOCTOR", 0, 14, 0.9)]
    assert apply_layout_fields(text, model, allowed={"DOCTOR", "DATE"}) == model
    assert [p.type for p in apply_layout_fields(text, model, allowed={"DOCTOR", "USERNAME"})] == [
        "DOCTOR",
        "USERNAME",
    ]


def test_placing_fields_drops_exactly_the_predictions_that_overlap_one() -> None:
    """Against the pairwise definition, on caret headers and random spans around them."""
    rng = random.Random(5)
    line = "EDVISIT^40213377^Talbot, Henry^11/02/88^VANTERPOOL, LUCIA\nfree text here\n"
    for _ in range(300):
        text = line * rng.randint(1, 4)
        predictions = []
        for _ in range(rng.randint(0, 15)):
            start = rng.randrange(len(text))
            predictions.append(Prediction("DATE", start, min(len(text), start + rng.randint(1, 9)), 0.5))
        predictions.sort(key=lambda p: (p.start, p.end))
        fields = list(layout_matches(text))
        expected = [p for p in predictions if not any(p.start < f.end and f.start < p.end for f in fields)]
        result = apply_layout_fields(text, predictions)
        assert [p for p in result if p.origin != LAYOUT_ORIGIN] == expected
        assert sorted((p.start, p.end) for p in result if p.origin == LAYOUT_ORIGIN) == sorted(
            (f.start, f.end) for f in fields
        )


@pytest.mark.parametrize("guideline", [None, SAFE_HARBOR])
def test_the_bundled_model_reads_an_emergency_notes_layout(guideline: str | None) -> None:
    tagger = CrfTagger.load(default_model_path())
    if guideline is not None:
        tagger.guideline = guideline
    note = Document(doc_id="900-01", text=ED_NOTE)
    spans = tagger.predict_spans([note])["900-01"]
    found = {(p.type, ED_NOTE[p.start : p.end]) for p in spans}
    assert {
        ("HOSPITAL", "MAPLE GROVE"),
        ("PATIENT", "TALBOT,HENRY"),
        ("MEDICALRECORD", "381-22-47-9"),
        ("IDNUM", "KT512/30418"),
        ("USERNAME", "LV27"),
        ("DOCTOR", "LUCIA VANTERPOOL"),
        ("DOCTOR", "brennan"),
        ("DOCTOR", "quist"),
    } <= found
    # The header's name and number are the layout's, whole: no piece of them read apart.
    start, end = ED_NOTE.index("TALBOT"), ED_NOTE.index("381-22-47-9") + len("381-22-47-9")
    header = [(p.type, ED_NOTE[p.start : p.end], p.origin) for p in spans if p.start < end and start < p.end]
    assert header == [
        ("PATIENT", "TALBOT,HENRY", LAYOUT_ORIGIN),
        ("MEDICALRECORD", "381-22-47-9", LAYOUT_ORIGIN),
    ]


def test_hostile_lines_end_with_what_they_hold() -> None:
    """Long runs of each shape the patterns begin with (no backtracking without end; the
    time is measured apart: ``python -m tests.benchmarks.bench_layout_rules``)."""
    for text, count in [
        ("A" * 300_000 + "\n", 0),
        ("ABC," * 100_000, 0),
        ("_" * 300_000 + " XW277/90683", 1),
        ("AB, M.D." + " " * 300_000 + "FB59", 0),
        ("OROZCO,KYLE   560-40-78-5\n" * 20_000, 60_000),
        ("Aaaa Bbbb Cccc MA " * 20_000, 0),
        ("027716413 FMH\n5823104\n4/11/1998 12:00:00 AM\n" + "FMH " * 20_000, 20_004),
    ]:
        assert len(list(layout_matches(text))) == count


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("KW/TL/brogan\n", [("DOCTOR", "brogan")]),
        ("PT/OT/speech\n", []),
        ("Job BE249/3185 and CG993/95284.", [("IDNUM", "BE249/3185"), ("IDNUM", "CG993/95284")]),
        (
            "codes CCL:FG:1879, PC:RP: 1660 and CH:18306:0077",
            [("IDNUM", "CCL:FG:1879"), ("IDNUM", "PC:RP: 1660"), ("IDNUM", "CH:18306:0077")],
        ),
        ("Specimen 5-0269342 GC", [("IDNUM", "5-0269342")]),
        (
            "MRN EO25834097, CK759182; 981-40-48",
            [("IDNUM", "EO25834097"), ("IDNUM", "CK759182"), ("MEDICALRECORD", "981-40-48")],
        ),
        # Vital signs run together, a social security number, a date.
        ("HR120 BP110/60 SSN 123-45-6789 on 2067-03-01", []),
        # Numbers nursing notes write: a ratio, a range, a time, a date.
        ("BP 120/80, 1-2 tabs, 12:30, 3-24-17, 10-100000 units", []),
        ("T12/2010 compression fracture, C5/6", []),
    ],
)
def test_record_system_codes_by_their_shape(text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text) == expected


def test_a_code_takes_the_pieces_inside_it_and_yields_to_a_wider_span() -> None:
    text = "Lab CCL:MR:4412 sent. MRN 5-0269342 on file."
    piece = Prediction("MEDICALRECORD", text.index("4412"), text.index("4412") + 4, 0.7)
    wider = Prediction("MEDICALRECORD", text.index("MRN"), text.index(" on"), 0.8)
    result = apply_layout_fields(text, [piece, wider])
    assert [(p.type, text[p.start : p.end]) for p in result] == [
        ("IDNUM", "CCL:MR:4412"),
        ("MEDICALRECORD", "MRN 5-0269342"),
    ]


PIPE_HEADER = (
    "740215983 | NWMC | 20573184 | | 8830291 | 3/14/2004 12:00:00 AM | Discharge Summary | Signed | DIS |"
    " Admission Date: 3/9/2004 Report Status: Signed\n"
)


def test_a_pipe_separated_header_names_its_cells() -> None:
    assert _found(PIPE_HEADER) == [
        ("HOSPITAL", "NWMC"),
        ("IDNUM", "740215983"),
        ("MEDICALRECORD", "20573184"),
        ("IDNUM", "8830291"),
        ("DATE", "3/14/2004"),
    ]
    assert _found("BP 120 | HR 80 | RR 18 | | 97% | 3/14/2004\n") == []


def test_a_code_over_the_same_characters_as_a_model_span_keeps_the_models_type() -> None:
    text = PIPE_HEADER
    record = Prediction("MEDICALRECORD", 0, 9, 0.9)  # the model's own reading of the first cell
    result = {(p.type, text[p.start : p.end]) for p in apply_layout_fields(text, [record])}
    assert ("MEDICALRECORD", "740215983") in result
    assert ("IDNUM", "740215983") not in result
    assert {("HOSPITAL", "NWMC"), ("IDNUM", "8830291")} <= result


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Attending: OKONKWO , BEATRIX Dictation ID 2204817\n", "2204817"),
        ("Job #: 40213\n", "40213"),
        ("eScription document:7-4410293 IFFocus\n", "7-4410293"),
        ("Transcription no. 55-10293\n", "55-10293"),
    ],
)
def test_a_dictation_number_after_its_label_is_an_idnum_whatever_the_model_said(
    text: str, number: str
) -> None:
    start = text.index(number)
    model = [Prediction("MEDICALRECORD", start, start + len(number), 0.9)]
    assert [(p.type, text[p.start : p.end]) for p in apply_layout_fields(text, model)] == [("IDNUM", number)]


def test_words_near_a_dictation_label_that_are_no_number_of_it() -> None:
    for text in ("previous job 2015-2019 as a welder", "document 12 pages", "seen 12:30-1234567"):
        assert _found(text) == [], text


def test_every_pattern_a_match_can_carry_is_listed_for_the_benchmark() -> None:
    text = "\n".join(
        [
            "OROZCO,KYLE   560-40-78-5",
            "FILBERT BRIGHT, M.D.    FB59      D:07/20/83",
            "EDVISIT^40213377^Talbot, Henry^11/02/88^VANTERPOOL, LUCIA",
            "   SILVER RIDGE EMERGENCY DEPT VISIT",
            "GPP/church/olinger",
            PIPE_HEADER.rstrip("\n"),
            "Dictation ID 2204817",
            "XW277/90683 CCL:FG:1879 5-0269342 EO25834097",
            "Lowell, MA 01852",
            "RH62 QM315/4402",
            "Seen on [**2151-7-16**]",
        ]
    )
    text = LINES_HEADER.lstrip("\n") + text
    assert {m.pattern for m in layout_matches(text)} == set(LAYOUT_PATTERNS)


def test_a_code_read_as_another_kind_of_thing_over_its_very_span_is_replaced() -> None:
    text = "MRN 981-40-48. Also EO25834097."
    number = text.index("981")
    letters = text.index("EO")
    model = [
        Prediction("PHONE", number, number + 9, 0.8),  # 3-2-2 digits: no telephone number
        Prediction("STATE", letters, letters + 2, 0.6),
        Prediction("ZIP", letters + 2, letters + 10, 0.6),
    ]
    assert [(p.type, text[p.start : p.end]) for p in apply_layout_fields(text, model)] == [
        ("MEDICALRECORD", "981-40-48"),
        ("IDNUM", "EO25834097"),
    ]
    # Read as an identifier of another type, it keeps the model's type.
    account = [Prediction("ACCOUNT", number, number + 9, 0.8)]
    assert apply_layout_fields(text[: number + 9], account) == account


def test_a_code_may_end_a_sentence_but_not_run_into_a_decimal() -> None:
    assert _found("MRN 981-40-48. Spec 5-0269342.") == [
        ("IDNUM", "5-0269342"),
        ("MEDICALRECORD", "981-40-48"),
    ]
    assert _found("981-40-48.5 and 5-0269342.7") == []


LINES_HEADER = """
027716413 FMH
5823104
61034/82kl
4/11/1998 12:00:00 AM
Discharge Summary
Signed
DIS
CC :
1. CORINNE OSTRANDER , M.D. FMH
"""


def test_a_header_of_a_cell_per_line_and_its_hospital_named_again() -> None:
    assert _found(LINES_HEADER) == [
        ("HOSPITAL", "FMH"),
        ("IDNUM", "027716413"),
        ("MEDICALRECORD", "5823104"),
        ("IDNUM", "61034/82kl"),
        ("DATE", "4/11/1998"),
        ("HOSPITAL", "FMH"),
    ]
    # Only the note's first lines are its header, and they end with the midnight of its date.
    assert _found("Seen today.\n" + LINES_HEADER) == []
    assert _found(LINES_HEADER.replace(" 12:00:00 AM", "")) == []
