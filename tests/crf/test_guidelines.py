"""Suggesting only what a project's guideline tags (annotator.crf.guidelines)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.crf.default_model import load_default_model
from annotator.crf.guidelines import I2B2_2014, SAFE_HARBOR, follow_guideline, tag_guideline_gaps
from annotator.crf.labels import Prediction
from annotator.errors import UsageError
from annotator.io.i2b2 import read_i2b2, write_i2b2

NOTE = (
    "Pt is a 58 yo teacher seen on Monday by Dr Xavier Quell. His mother is 92 years old. "
    "Dialysis TUES/THURS. Follow up on 3/14/2067, seen in March, at Mercy Hospital.\n"
    "Lives in the summer at the shore, in Lowell, Maine; born in Ireland.\n"
)


def at(kind: str, piece: str) -> Prediction:
    start = NOTE.index(piece)
    return Prediction(kind, start, start + len(piece), 0.9, "crf")


PREDICTIONS = [
    at("AGE", "58"),
    at("PROFESSION", "teacher"),
    at("DATE", "Monday"),
    at("DOCTOR", "Xavier Quell"),
    at("AGE", "92"),
    at("DATE", "TUES/THURS"),
    at("DATE", "3/14/2067"),
    at("DATE", "March"),
    at("HOSPITAL", "Mercy Hospital"),
    at("DATE", "summer"),
    at("CITY", "Lowell"),
    at("STATE", "Maine"),
    at("COUNTRY", "Ireland"),
]


def texts(predictions: list[Prediction]) -> list[str]:
    return [NOTE[p.start : p.end] for p in predictions]


def test_i2b2_keeps_everything_safe_harbor_drops_young_ages_weekdays_seasons_jobs_states_countries() -> None:
    assert follow_guideline(NOTE, PREDICTIONS, I2B2_2014) == PREDICTIONS
    assert texts(follow_guideline(NOTE, PREDICTIONS, SAFE_HARBOR)) == [
        "Xavier Quell",
        "92",
        "3/14/2067",
        "March",  # a month is a date element under Safe Harbor too
        "Mercy",  # the place's name, not the word for its kind
        "Lowell",  # a town is smaller than a state; the state and the country are not PHI
    ]


@pytest.mark.parametrize(
    ("text", "kind", "predicted", "expected"),
    [
        ("TO CALVERT HOSPITAL TODAY", "HOSPITAL", "CALVERT HOSPITAL", "CALVERT"),
        ("from kernan hosp. today", "HOSPITAL", "kernan hosp.", "kernan"),
        (
            "at Franklin Square Medical Center",
            "HOSPITAL",
            "Franklin Square Medical Center",
            "Franklin Square",
        ),
        ("to ZAGARIA CAMPUS", "LOCATION-OTHER", "ZAGARIA CAMPUS", "ZAGARIA"),
        ("at harford memorial", "HOSPITAL", "harford memorial", "harford memorial"),  # part of the name
        ("to the Hospital", "HOSPITAL", "Hospital", "Hospital"),  # no name left: the annotator decides
        ("seen by Dr Rehab Hospital", "DOCTOR", "Rehab Hospital", "Rehab Hospital"),  # a name, no place
    ],
)
def test_safe_harbor_tags_a_place_without_the_word_for_its_kind(
    text: str, kind: str, predicted: str, expected: str
) -> None:
    start = text.index(predicted)
    prediction = Prediction(kind, start, start + len(predicted), 0.9, "crf")
    (kept,) = follow_guideline(text, [prediction], SAFE_HARBOR)
    assert text[kept.start : kept.end] == expected
    assert follow_guideline(text, [prediction], I2B2_2014) == [prediction]


def test_an_unknown_guideline_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown guideline 'hipaa'"):
        follow_guideline(NOTE, PREDICTIONS, "hipaa")


def test_the_tagger_suggests_what_its_guideline_tags() -> None:
    tagger = load_default_model()
    document = Document("n1", NOTE)
    everything = texts(tagger.predict_spans([document])["n1"])
    tagger.guideline = SAFE_HARBOR
    safe_harbor = texts(tagger.predict_spans([document])["n1"])
    assert "Monday" in everything and "Monday" not in safe_harbor
    assert "92" in safe_harbor and "Xavier Quell" in safe_harbor
    assert "Mercy Hospital" in everything and "Mercy" in safe_harbor
    assert set(safe_harbor) - {"Mercy"} < set(everything)


def test_preannotate_command_takes_the_guideline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "n1.xml"
    write_i2b2(Document("n1", NOTE), source)
    out = tmp_path / "out.xml"
    assert main(["preannotate", "default", str(source), "-o", str(out), "--guideline", "safe-harbor"]) == 0
    assert "(guideline: safe-harbor)" in capsys.readouterr().out
    suggested = {NOTE[a.start : a.end] for a in read_i2b2(out).annotations}
    assert "Monday" not in suggested and "92" in suggested
    with pytest.raises(SystemExit) as refused:
        main(["preannotate", "default", str(source), "-o", str(tmp_path / "o2.xml"), "--guideline", "hipaa"])
    assert refused.value.code == 2
    assert not (tmp_path / "o2.xml").exists()


def gold(text: str, *tagged: tuple[str, str]) -> Document:
    document = Document("7-01", text)
    for kind, piece in tagged:
        start = text.index(piece)
        document.add(
            Annotation(
                id=document.new_id(), tag=kind, type=kind, start=start, end=start + len(piece), text=piece
            )
        )
    return document


def test_a_safe_harbor_gold_gets_the_young_ages_and_weekdays_our_guidelines_tag() -> None:
    text = (
        "58 YO FEMALE FROM CALVERT HOSPITAL. pt is a 41yo f, mother 92 y/o.\n"
        "PLAN TO TRACH ON THURS; home Monday. Age: 7. Tidal 450 x 12. Sat 97%. 2 years ago.\n"
    )
    note = gold(text, ("LOCATION", "CALVERT HOSPITAL"), ("AGE", "92"))
    fitted = tag_guideline_gaps(note)
    added = [(a.tag, a.text, a.start) for a in fitted.annotations if a.id not in note]
    assert added == [
        ("AGE", "58", 0),
        ("AGE", "41", text.index("41yo")),
        ("DATE", "THURS", text.index("THURS")),
        ("DATE", "Monday", text.index("Monday")),
        ("AGE", "7", text.index("7.")),
    ]
    # The gold is untouched; the copy keeps its tags, its text and its id.
    assert len(note) == 2
    assert fitted.text == text and fitted.doc_id == "7-01" and len(fitted) == 7
    assert all(fitted.text[a.start : a.end] == a.text for a in fitted.annotations)


def test_gaps_already_tagged_or_absent_change_nothing() -> None:
    text = "Pt is 58 yo, seen Monday. 4 MG SQ at 0900.\n"
    tagged = gold(text, ("AGE", "58"), ("DATE", "Monday"))
    assert tag_guideline_gaps(tagged) is tagged
    plain = gold("BP 120/70, HR 88, 2 L NC, sats 97%.\n")
    assert tag_guideline_gaps(plain) is plain


def test_a_safe_harbor_golds_pieces_become_our_spans() -> None:
    text = (
        "TAKEN TO LAUREL REGIONAL WHERE CK POS. FROM CALVERT HOSPITAL, then kernan hosp.\n"
        "mary theresa kondouli from speech. ROBERT V. DEGIORGIO, RRT. Drs JOSEPH AND ROBBINSON.\n"
    )
    pieces = [
        ("LOCATION-OTHER", "LAUREL"),
        ("LOCATION-OTHER", "REGIONAL"),
        ("LOCATION-OTHER", "CALVERT"),
        ("LOCATION-OTHER", "kernan"),
        ("DOCTOR", "mary"),
        ("DOCTOR", "theresa"),
        ("DOCTOR", "kondouli"),
        ("DOCTOR", "ROBERT"),
        ("DOCTOR", "V"),
        ("DOCTOR", "DEGIORGIO"),
        ("DOCTOR", "JOSEPH"),
        ("DOCTOR", "ROBBINSON"),
    ]
    note = Document("7-01", text)
    position = 0
    for kind, piece in pieces:  # in text order: "V" is also in "CALVERT"
        start = text.index(piece, position)
        position = start + len(piece)
        note.add(Annotation(id=note.new_id(), tag=kind, type=kind, start=start, end=position, text=piece))
    fitted = tag_guideline_gaps(note)
    assert [(a.type, a.text) for a in sorted(fitted.annotations, key=lambda a: a.start)] == [
        ("LOCATION-OTHER", "LAUREL REGIONAL"),
        ("HOSPITAL", "CALVERT HOSPITAL"),
        ("HOSPITAL", "kernan hosp"),
        ("DOCTOR", "mary theresa kondouli"),
        ("DOCTOR", "ROBERT V. DEGIORGIO"),
        ("DOCTOR", "JOSEPH"),  # two doctors, not one name
        ("DOCTOR", "ROBBINSON"),
    ]
    assert all(fitted.text[a.start : a.end] == a.text for a in fitted.annotations)
    assert len(note) == len(pieces)  # the gold itself is untouched
    # Two kinds of PHI side by side stay apart.
    mixed = gold("seen by DR SMITH 9/20 today\n", ("DOCTOR", "SMITH"), ("DATE", "9/20"))
    assert tag_guideline_gaps(mixed) is mixed
