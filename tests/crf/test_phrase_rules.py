"""Phrase rules: PHI announced by the English around it, and how rule spans meet tagger spans."""

from __future__ import annotations

import pytest

from annotator.crf.format_rules import apply_format_rules
from annotator.crf.labels import Prediction
from annotator.crf.phrase_rules import phrase_candidates


def spans(text: str) -> set[tuple[str, str]]:
    return {(kind, text[start:end]) for kind, start, end in phrase_candidates(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Quit smoking in the summer of 2088.", "summer of 2088"),
        ("Quit smoking in Autumn '85, 35 pack-years.", "Autumn '85"),
        ("2. MI mid-February", "mid-February"),
        ("1. DVT MID-AUGUST 2071", "MID-AUGUST 2071"),
        ("- peripheral neuropathy, dx '85", "'85"),
        ("On 1/20, a TTE showed EF 45%.", "1/20"),
        ("Appointment made for 5/23.", "5/23"),
        ("Symptoms began around 9/12 and worsened.", "9/12"),
        ("aspirin 81 mg daily, started 2/2072", "2/2072"),
        ("2. DVT FRIDAY", "FRIDAY"),
        ("admitted around New Year's Day 2066 for CAD", "New Year's Day 2066"),
    ],
)
def test_dates_without_a_full_numeric_form(text: str, expected: str) -> None:
    assert ("DATE", expected) in spans(text)


def test_a_table_header_row_of_dates_is_every_date() -> None:
    text = "LABS:\n          8/16          9/1           9/12\nCr        0.9     1.0    1.1\n"
    assert {s for k, s in spans(text) if k == "DATE"} == {"8/16", "9/1", "9/12"}


@pytest.mark.parametrize(
    "text",
    [
        "SOB for 2/7, cough for 3/12.",  # durations in days and months
        "Take 1/2 tab at night.",
        "pain 5/10, GCS 14/15, BP 120/80",
        "for 1/2 hours after meals",
        "HR 5'10\" tall",
        "Lungs: CTAB. Monday clinic",  # a weekday is a date, CTAB is not
    ],
)
def test_fractions_scores_and_durations_are_no_dates(text: str) -> None:
    found = {s for k, s in spans(text) if k == "DATE"}
    assert found <= {"Monday"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Works as a bank teller. Never smoked.", "bank teller"),
        ("Occupation: crane operator", "crane operator"),
        ("Lives w sister in Elmsford. Ex-sheep farmer, now retired.", "sheep farmer"),
        ("Ex-joiner, now retired.", "joiner"),
        ("Thank you for seeing this 74yo postman, who works for Northmere Dairy Co-op.", "postman"),
        ("this sixty-nine year old bus driver, who works for Tillbury Freight", "bus driver"),
    ],
)
def test_occupations_where_the_sentence_says_so(text: str, expected: str) -> None:
    assert ("PROFESSION", expected) in spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ex-smoker, ETOH 2 u/wk.",
        "Ex-partner lives nearby.",
        "Works as usual since discharge.",
        "this 74yo with diabetes, who works hard",
    ],
)
def test_no_occupation_without_an_occupation_word(text: str) -> None:
    assert not {s for k, s in spans(text) if k == "PROFESSION"}


def test_employers_after_works_for() -> None:
    found = spans("a joiner, who works for Fernleigh & Sons Joinery. Employer: Tillbury Dairy Co-op\n")
    assert ("ORGANIZATION", "Fernleigh & Sons Joinery") in found
    assert ("ORGANIZATION", "Tillbury Dairy Co-op") in found
    assert ("HOSPITAL", "Mercy Valley Hospital") in spans("She works at Mercy Valley Hospital as a nurse.")
    assert not {k for k, _ in spans("He works for the council and works at home.")} & {"ORGANIZATION"}


def test_state_after_a_town() -> None:
    assert {("CITY", "Newside"), ("STATE", "NM")} <= spans("Lives in Newside, NM with her son.")
    assert ("STATE", "New Jersey") in spans("Lives in Brook Junction, New Jersey with his brother.")
    # A doctor's degree after a name is no state.
    assert not spans("Letter from Smith, MD about the results.")
    assert not spans("Seen by Jones, MD today.")


def test_hospital_acronyms_where_a_place_is_meant() -> None:
    assert ("HOSPITAL", "NHC") in spans("who presents to NHC with shortness of breath")
    assert ("HOSPITAL", "ECH") in spans("- s/p CABG x3 2070 at ECH\n")
    assert ("HOSPITAL", "BRMC") in spans("BRMC RADIOLOGY   Accession L98496864")
    assert ("HOSPITAL", "LHC") in spans("admitted to LHC with chest pain")
    # Tests, kinds of care and states are not hospitals.
    assert not spans("Cardiology at LHC next week; transferred to ICU; seen at OSH; lives at NH")


def test_named_clinics_and_mercy_hospitals() -> None:
    assert ("HOSPITAL", "Stonewall Clinic") in spans("presents to Stonewall Clinic with dizziness")
    assert ("HOSPITAL", "St. Agatha's Clinic") in spans("Seen at St. Agatha's Clinic.")
    assert ("HOSPITAL", "Mercy Fernleigh") in spans("Outpatient Clinic | Mercy Fernleigh | Tel")
    assert not {s for k, s in spans("Endocrine Clinic, Outpatient Clinic, Pain Clinic") if k == "HOSPITAL"}


def test_a_rule_span_cuts_back_a_tagger_span_that_ran_into_it() -> None:
    text = "admitted to Elmhurst Community Hospital around New Year's Day 2066 for CAD"
    start = text.index("Elmhurst")
    ran_on = Prediction("HOSPITAL", start, text.index("Year"), 0.7, "crf")
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [ran_on])}
    assert result == {("HOSPITAL", "Elmhurst Community Hospital"), ("DATE", "New Year's Day 2066")}


def test_a_tagger_span_holding_a_rule_span_stands() -> None:
    text = "Transferred from Mercy Valley Rehab Campus yesterday."
    start = text.index("Mercy")
    whole = Prediction("HOSPITAL", start, text.index(" yesterday"), 0.9, "crf")
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [whole])}
    assert result == {("HOSPITAL", "Mercy Valley Rehab Campus")}


def test_header_acronyms_weekday_dates_and_nurses() -> None:
    assert ("HOSPITAL", "SC") in spans("SC\nDISCHARGE SUMMARY\n\nPatient: Howe")
    assert ("HOSPITAL", "LHC") in spans("Progress Note\nLHC\nPatient: BOYD, GREGG")
    assert not spans("PMH\n\nSH\nPatient: lives alone")
    assert ("DATE", "3/27") in spans("Follow up on Tuesday, 3/27.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R shoulder stiffness, worse after shifts as crane operator\n", "crane operator"),
        ("lives with husband Luc, who is a locksmith.", "locksmith"),
        ("57 years old man, tattoo artist (on sick leave)", "tattoo artist"),
        ("This 51-year-old man, a retired schoolteacher, was listed", "retired schoolteacher"),
    ],
)
def test_occupations_where_english_puts_one(text: str, expected: str) -> None:
    assert ("PROFESSION", expected) in spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "as a result of the fall",
        "as needed for pain",
        "who is a smoker",
        "a man, alert",
        # Without an article "who is" describes a state: only a listed occupation counts there.
        "a 59-year-old man who is indigent, an ethanol abuser",
        "a G1 woman who was pregnant since 40 weeks",
    ],
)
def test_no_occupation_in_look_alike_phrases(text: str) -> None:
    assert not {s for k, s in spans(text) if k == "PROFESSION"}


def test_named_places_units_landmarks_and_events() -> None:
    found = spans(
        "cc: Dr Bédard, Kestrel Point Walk-in Clinic\nBALLINURE WALK-IN CLINIC | Tel\n"
        "PACU then Fraser Wing. Coolabah Early Psychosis Program\n"
        "Walk at Carrow Point boat ramp daily. Found near Pier 21.\n"
        "Still ruminating about the Harrow Creek derailment.\nSince the spring SOB. Group Fridays.\n"
        "Admitted to the Fairmount Memorial Hospital Cardiology Service.\n"
    )
    assert ("DEPARTMENT", "Fairmount Memorial Hospital Cardiology Service") not in found
    assert {
        ("HOSPITAL", "Fairmount Memorial Hospital"),
        ("HOSPITAL", "Kestrel Point Walk-in Clinic"),
        ("HOSPITAL", "BALLINURE WALK-IN CLINIC"),
        ("DEPARTMENT", "Fraser Wing"),
        ("DEPARTMENT", "Coolabah Early Psychosis Program"),
        ("LOCATION-OTHER", "Carrow Point boat ramp"),
        ("LOCATION-OTHER", "Pier 21"),
        ("OTHER", "Harrow Creek derailment"),
        ("DATE", "spring"),
        ("DATE", "Fridays"),
    } <= found


def test_generic_units_clinics_and_phrases_name_nothing() -> None:
    found = spans(
        "Admitted to Intensive Care Unit, then Coronary Care Unit. Walk-in Clinic today.\n"
        "Appetite is fair. After the fall at home. The fire alarm. Patient: BOYD, OLIVIA  Unit No 12\n"
    )
    assert not found


def test_sign_off_initials_and_ambiguous_states() -> None:
    assert ("DOCTOR", "cp") in spans("Dr Proctor\nReg. no. 0740449\n/cp\ncc: file")
    assert not spans("history of Hypertension, MI and CHF")
    assert {("CITY", "Silverburgh"), ("STATE", "MD")} <= spans("Lives in Silverburgh, MD with her aunt.")


def test_a_numbers_remnant_without_digits_goes() -> None:
    text = "Tel 241-588-0807  Fax 372.319.4521 | clinic"
    run_on = Prediction("PHONE", text.index("588"), text.index(".319"), 0.7, "crf")
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [run_on])}
    assert not any(piece.strip() == "Fax" for _, piece in result)
    assert ("PHONE", "241-588-0807") in result


def test_postcodes_after_their_name_in_any_countrys_form() -> None:
    assert ("ZIP!", "4297") in spans("Mail returned - confirm postcode 4297\n")  # the label settles it
    assert ("ZIP!", "K1A 0B1") in spans("Postal code: K1A 0B1")
    assert not spans("postcode unknown, zip tie used")
