"""Rules for PHI with a public written form: what they find, what they leave, how they merge."""

from __future__ import annotations

import pytest

from annotator.crf.format_rules import (
    apply_format_rules,
    drop_generic_places,
    drop_implausible_dates,
    format_rule_predictions,
    strip_articles,
)
from annotator.crf.labels import Prediction


def found(text: str) -> set[tuple[str, str]]:
    return {(p.type, text[p.start : p.end]) for p in format_rule_predictions(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Seen 9.7.2062 and 30-NOV-2063, op Thu 9 Aug 2063.", {"9.7.2062", "30-NOV-2063", "Thu 9 Aug 2063"}),
        ("Admitted 2071.09.07; the 16th of January.", {"2071.09.07", "16th of January"}),
    ],
)
def test_dates_in_any_style(text: str, expected: set[str]) -> None:
    assert {t for kind, t in found(text) if kind == "DATE"} == expected


def test_no_date_without_a_calendar() -> None:
    assert not [
        p for p in format_rule_predictions("BP 120/80, GCS 14/15, 33.45.2067 at 10:30") if p.type == "DATE"
    ]


def test_ages_phones_ids_and_places() -> None:
    text = (
        "pt 44 yrs M, aged fifty, a 69F; mother died at 71. Tel +61 8 6204 1524, Fax 372.319.0527, "
        "pager 41872. Hosp no: #K8047504, Lab no: H63-52721.\n"
        "145 STATION CRESCENT, BALLINVAR\nSpringfield, IL 62704. Bed 3. Works as a bus driver."
    )
    result = found(text)
    assert {("AGE", "44"), ("AGE", "fifty"), ("AGE", "69"), ("AGE", "71")} <= result
    assert {("PHONE", "+61 8 6204 1524"), ("FAX", "372.319.0527"), ("PHONE", "41872")} <= result
    assert {("MEDICALRECORD", "K8047504"), ("IDNUM", "H63-52721")} <= result
    assert {("STREET", "145 STATION CRESCENT"), ("CITY", "BALLINVAR")} <= result
    assert {("STATE", "IL"), ("ZIP", "62704"), ("ROOM", "3"), ("PROFESSION", "bus driver")} <= result


def test_years_gone_by_are_no_age() -> None:
    text = (
        "s/p ccy 23 yrs ago, ERCP 8 yrs ago. Smoker x 20 yrs, DM X 5yrs, APPROX 3YRS at home, "
        "girlfriend of 20YRS. A 45 yr old man, 67 yrs, her son 32 years old."
    )
    assert {t for kind, t in found(text) if kind == "AGE"} == {"45", "67", "32"}


def test_names_after_labels_get_the_labels_type() -> None:
    text = (
        "Surname: MARK   Forename: Kirk\nlives w wife Hellen Mark.\nReferrer: Dr OBI, Elizabeth\n"
        "Signed Shania Neilson RN\nNeil L. Villa, MD\nMark Nnamani - registrar\nPatient: Alert and oriented"
    )
    result = found(text)
    assert {("PATIENT", "MARK"), ("PATIENT", "Kirk"), ("PATIENT", "Hellen Mark")} <= result
    assert {("DOCTOR", "OBI, Elizabeth"), ("DOCTOR", "Shania Neilson"), ("DOCTOR", "Neil L. Villa")} <= result
    assert ("DOCTOR", "Mark Nnamani") in result
    assert not any("Alert" in t for _, t in result)


def test_a_misspelt_relation_after_a_relation_is_no_name() -> None:
    assert found("SOCIAL- WIFE AND NEICE IN TO VISIT TODAY. MOTHER, AUNTS IN") == set()
    # With a name among the words the label still proposes them; the model's belief trims the ends.
    assert found("SOCIAL- WIFE AND NEICE MARGIE IN TO VISIT") == {("PATIENT", "AND NEICE MARGIE")}


def test_a_rule_span_replaces_the_pieces_inside_it_and_yields_to_partial_overlaps() -> None:
    text = "Call +61 8 6204 1524 or see Dr Eze today."
    piece = Prediction("AGE", text.index("61"), text.index("61") + 2, 0.7)
    across = Prediction("DOCTOR", text.index("Dr"), text.index(" today"), 0.7)
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [piece, across])}
    assert ("PHONE", "+61 8 6204 1524") in result and ("AGE", "61") not in result
    assert ("DOCTOR", "Dr Eze") in result and ("DOCTOR", "Eze") not in result


def test_a_name_label_settles_the_type_of_the_same_span() -> None:
    text = "Consultant: Angela Bill\n"
    start = text.index("Angela")
    wrong = Prediction("PATIENT", start, start + len("Angela Bill"), 0.9)
    [result] = apply_format_rules(text, [wrong])
    assert result.type == "DOCTOR"


def test_cleanups() -> None:
    text = "Hospital Discharge. DISCHARGE SUMMARY. BP 120/80 x2/7. Works as a janitor."
    predictions = [
        Prediction("HOSPITAL", 0, 8, 0.9),
        Prediction("HOSPITAL", text.index("DISCHARGE"), text.index(". BP"), 0.9),
        Prediction("DATE", text.index("120/80"), text.index("120/80") + 6, 0.9),
        Prediction("DATE", text.index("2/7"), text.index("2/7") + 3, 0.9),
        Prediction("PROFESSION", text.index("a janitor"), text.rindex("."), 0.9),
    ]
    kept = strip_articles(text, drop_implausible_dates(text, drop_generic_places(text, predictions)))
    assert [(p.type, text[p.start : p.end]) for p in kept] == [("PROFESSION", "janitor")]


def test_forms_other_note_styles_write() -> None:
    assert ("DATE", "2095.08.20") in found("I have arranged review on 2095.08.20.\n")
    assert ("DATE", "12/03/2084") in found("Seen on 12/03/2084. Stable.")
    assert ("DATE", "12/03/2084") not in found("Ratio 12/03/2084.5 in the table")
    assert ("STREET", "100 Station Parade") in found("100 Station Parade\nGreywick")
    assert ("HOSPITAL", "TILLBURY MEDICAL GROUP") in found("TO: TILLBURY MEDICAL GROUP | DATE")
    assert ("HOSPITAL", "Ashgrove Medical Group") in found("IMAGING - Ashgrove Medical Group | Accession")
    assert ("COUNTRY", "Scotland") in found("Born in Scotland\n")


def test_a_name_field_takes_an_uncommon_word_other_labels_do_not() -> None:
    assert ("PATIENT", "Hope") in found("Patient name: Hope | NHI/UR: #E8102169")
    assert not {k for k, _ in found("Patient: Alert and oriented")} & {"PATIENT"}
    assert not {k for k, _ in found("Surname: Will follow up")} & {"PATIENT"}
    assert ("PATIENT", "HOPE, Benjamin") in found("Caller: Taylor Hope (sister of HOPE, Benjamin) | Call")


def test_a_nurse_signing_is_a_clinician() -> None:
    assert ("DOCTOR", "Glen Brown") in found("Thank you\n\nGlen Brown, RN\nggb36")


def test_names_stop_before_fields_and_places() -> None:
    assert ("PATIENT", "J. Sanders") in found("Re: J. Sanders, DOB 18/2/2006")
    result = found("Copy to GP: Dr Naylor, Larchfield Surgery\n")
    assert {("DOCTOR", "Naylor"), ("HOSPITAL", "Larchfield Surgery")} <= result
    assert ("DOCTOR", "GOSSELIN, Marie") in found("Kind regards,\nGOSSELIN, Marie MBChB\n/mg")
    assert ("DOCTOR", "Y. Alvarez") in found("Y. Alvarez, FRCPC (Surgeon)\n")
    assert ("DOCTOR", "FRCPC") not in found("Y. Alvarez, FRCPC (Surgeon)\n")
    assert ("PATIENT", "Elizabeth") in found("Narrative: settled overnight. Dtr Elizabeth phoned 1730h")


def test_streets_in_other_countries_forms_and_respiratory_rates() -> None:
    assert ("STREET", "Unit 40, 2416 Thériault Rd") in found(
        "Re: X | Unit 40, 2416 Thériault Rd, Rimouski QC"
    )
    assert ("STREET", "RR 2, Site 3") in found("RR 2, Site 3, Geraldton WA")
    assert not found("Obs: RR 12, BP 120/80, HR 76")
    assert not found("ED 02:27   MARSH | pt")


def test_a_web_address_is_one_span_whatever_the_tagger_cut() -> None:
    text = "PATIENT PORTAL: HTTPS://MYRECORD.GREYWICKHEALTH.EXAMPLE/P/1765 |"
    piece = Prediction("DATE", text.index("P/1765"), text.index(" |"), 0.8)
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [piece])}
    assert result == {("URL", "HTTPS://MYRECORD.GREYWICKHEALTH.EXAMPLE/P/1765")}


def test_record_numbers_with_a_slash_are_no_dates_and_rooms_have_floors() -> None:
    text = "Enc 6241/09576 and 1/2072 and 2072/3"
    predictions = [
        Prediction("DATE", text.index("6241"), text.index(" and"), 0.9),
        Prediction("DATE", text.index("1/2072"), text.index("1/2072") + 6, 0.9),
        Prediction("DATE", text.index("2072/3"), len(text), 0.9),
    ]
    kept = {text[p.start : p.end] for p in drop_implausible_dates(text, predictions)}
    assert kept == {"1/2072", "2072/3"}
    assert ("ROOM", "3.27") in found("CBT group Tuesdays (room 3.27).")
    assert ("HOSPITAL", "Our Lady of Mercy Health Centre") in found(
        "at Our Lady of Mercy Health Centre today"
    )
    text = "works for Bluewater Seafoods."
    tagged_as_hospital = Prediction("HOSPITAL", text.index("Blue"), text.index("."), 0.8)
    [settled] = apply_format_rules(text, [tagged_as_hospital])
    assert (settled.type, text[settled.start : settled.end]) == ("ORGANIZATION", "Bluewater Seafoods")


def test_home_and_work_numbers_and_capital_health_centres() -> None:
    assert ("PHONE", "02 7506 7272") in found("NOK: Katrina Ryan (sister) | Home: 02 7506 7272")
    assert not {k for k, _ in found("Home: lives alone, 2 steps to enter")} & {"PHONE"}
    assert ("HOSPITAL", "HOLY CROSS HEALTH CENTRE") in found("HOLY CROSS HEALTH CENTRE - EMERGENCY")
    assert ("IDNUM", "27973") in found("Prescriber no. 27973")


@pytest.mark.parametrize(
    ("text", "fraction", "kept"),
    [
        ("Tolerated PSV 8/5 30%, with RR low-mid 20's", "8/5", False),
        ("cpap/ps (10/5) c 40% fio2 in place", "10/5", False),
        ("Fio2 50% with flowby 6/3. Bs decreased", "6/3", False),
        ("Continued to wean down to 10/5. Pt tolerating", "10/5", False),
        ("Pt intubated on CPAP .5% 5/8. Pts TV low", "5/8", False),
        ("able to tolerate pain and rating 3/10.", "3/10", False),
        ("received vanco X1 on 10/20. WBC 10.7", "10/20", True),
        ("poss transfer to quartermain 2/3. plan picc", "2/3", True),
        ("HCT DOWN TO 27.9 7/16 AM", "7/16", True),
    ],
)
def test_ventilator_settings_and_pain_scores_are_no_dates(text: str, fraction: str, kept: bool) -> None:
    start = text.index(fraction)
    prediction = Prediction("DATE", start, start + len(fraction), 0.5)
    assert (drop_implausible_dates(text, [prediction]) == [prediction]) is kept


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("PER DR MADDEN PICC IN SVC", "MADDEN"),
        ("DR KLEIN HAD TALKED TO THE PT", "KLEIN"),
        ("LIVES W/ DAUGHTER VERONICA WHO IS PROXY", "VERONICA"),
        ("RIZZO: SEEN BY DR RIZZO IN TO EVALUATE", "RIZZO"),
    ],
)
def test_an_all_caps_name_stops_before_the_common_words_after_it(text: str, name: str) -> None:
    names = {t for kind, t in found(text) if kind in ("DOCTOR", "PATIENT")}
    assert names == {name}


def test_names_in_mixed_case_or_surname_first_keep_their_common_words() -> None:
    assert ("PATIENT", "Valerie Winter") in found("Patient: Valerie Winter, seen today")
    assert ("PATIENT", "SUTTON, JUNE") in found("Surname: SUTTON, JUNE")
    assert ("DOCTOR", "GEORGE BROWN") in found("SEEN BY DR GEORGE BROWN")
