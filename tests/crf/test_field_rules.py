"""Rules for PHI announced by the labels and shapes of other countries' record systems."""

from __future__ import annotations

import pytest

from annotator.crf.field_rules import field_candidates
from annotator.crf.format_rules import apply_format_rules, drop_generic_places, format_rule_predictions
from annotator.crf.labels import Prediction


def found(text: str) -> set[tuple[str, str]]:
    return {(kind.rstrip("!"), text[start:end]) for kind, start, end in field_candidates(text)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("UR no. 219 801 0873\n", "219 801 0873"),
        ("NHI/UR: #F0662673   Date of birth", "F0662673"),
        ("NHS number 485 777 3456.", "485 777 3456"),
        ("Hospital no: AB-123456", "AB-123456"),
        ("Patient: Lee Long  (#E3270935)", "E3270935"),
    ],
)
def test_record_numbers_after_any_health_system_label(text: str, value: str) -> None:
    assert found(text) == {("MEDICALRECORD", value)}


def test_short_numbers_and_other_labelled_numbers_are_no_record_number() -> None:
    assert found("UR no. 12, list #3, order #12") == set()
    # "account #" says which number it is: the rule does not settle its type.
    kinds = {kind for kind, _, _ in field_candidates("Billing account #4402918831")}
    assert kinds == {"MEDICALRECORD", "ACCOUNT!"}  # the billing label settles it (test_id_rules)


def test_usernames_where_a_login_is_written() -> None:
    text = "d/w reg simun6. Verified by: Jill Hope (radiologist) [jihop7]; Anaesthetist: R. Crolly (rocro8)"
    assert {t for kind, t in found(text) if kind == "USERNAME"} == {"simun6", "jihop7", "rocro8"}
    assert not found("SpO2 (spo2) 94%, FiO2 (fio2) 0.4, seen by vit12")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5 Kings Mews, BALLINVAR, QLD 4113\n", {("CITY", "BALLINVAR"), ("STATE", "QLD"), ("ZIP", "4113")}),
        (
            "113 Harbour Way\nLowther\nIowa  46953\n",
            {("CITY", "Lowther"), ("STATE", "Iowa"), ("ZIP", "46953")},
        ),
        ("Greywick, Norfolk WH10 4EW", {("CITY", "Greywick"), ("STATE", "Norfolk"), ("ZIP", "WH10 4EW")}),
        ("Halifax, Nova Scotia B3H 4R2", {("CITY", "Halifax"), ("STATE", "Nova Scotia"), ("ZIP", "B3H 4R2")}),
        ("seen in 2067; June 2067; over 4113 days", set()),
        # A US state's postcode has five digits: these are diagnoses and their years.
        ("GB removal, AAA repair, MI 1992. PMH: RENAL CELL CA 1977,S/P", set()),
        ("RR 2, Site 3, Geraldton WA  8759\n", {("STATE", "WA"), ("ZIP", "8759")}),  # Western Australia
    ],
)
def test_state_and_postcode_of_several_countries(text: str, expected: set[tuple[str, str]]) -> None:
    assert {f for f in found(text) if f[0] in {"CITY", "STATE", "ZIP"}} == expected


def test_named_wards_and_practices_but_no_generic_unit() -> None:
    text = (
        "Location: Rowan Ward, bed 31; Kingfisher Day Unit; Ward 12 North. Moved from the "
        "Intensive Care Unit to the Coronary Care Unit. GP: Dr Nash, Ashgrove Surgery; seen at "
        "St Winifred's and Our Lady of Lourdes; took St John's wort; Cardiac Surgery review."
    )
    assert found(text) == {
        ("DEPARTMENT", "Rowan Ward"),
        ("DEPARTMENT", "Kingfisher Day Unit"),
        ("DEPARTMENT", "Ward 12 North"),
        ("HOSPITAL", "Ashgrove Surgery"),
        ("HOSPITAL", "St Winifred's"),
        ("HOSPITAL", "Our Lady of Lourdes"),
    }


def test_a_label_settles_the_type_the_tagger_gave() -> None:
    text = "MRN #G3071830\n"
    start = text.index("G")
    tagged = [Prediction("IDNUM", start, start + 8, 0.9)]
    assert [(p.type, p.start) for p in apply_format_rules(text, tagged)] == [("MEDICALRECORD", start)]
    assert [p.type for p in format_rule_predictions(text)] == ["MEDICALRECORD"]


def test_dictated_reports_generic_units_name_no_department() -> None:
    # Our guidelines (section 13): a unit every hospital has is no PHI, however it is spelt.
    text = (
        "transferred to Postanesthesia Care Unit in stable condition; marked in the Preanesthesia "
        "Care Unit; admitted to the Transitional Care Unit; done at Inpatient Operative Suite; "
        "the Occupational Health Program. Seen in Kingfisher Day Unit."
    )
    everything = {(p.type, text[p.start : p.end]) for p in format_rule_predictions(text)}
    assert {f for f in everything if f[0] in {"DEPARTMENT", "HOSPITAL", "ORGANIZATION"}} == {
        ("DEPARTMENT", "Kingfisher Day Unit")
    }
    model = [
        Prediction("HOSPITAL", text.index("Postanesthesia"), text.index(" in stable"), 0.8, "crf"),
        Prediction("DEPARTMENT", text.index("Kingfisher"), text.index(" Unit.") + 5, 0.8, "crf"),
    ]
    assert [text[p.start : p.end] for p in drop_generic_places(text, model)] == ["Kingfisher Day Unit"]
