"""Clean-ups of tagger spans that the text around them shows to be wrong."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.span import blank_line_start
from annotator.crf.cleanups import clean_up
from annotator.crf.format_rules import apply_format_rules
from annotator.crf.labels import Prediction


def at(text: str, kind: str, piece: str, occurrence: int = 0) -> Prediction:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(piece, start + 1)
    return Prediction(kind, start, start + len(piece), 0.8, "crf")


def kept(text: str, predictions: list[Prediction]) -> set[tuple[str, str]]:
    return {(p.type, text[p.start : p.end]) for p in clean_up(text, predictions)}


def test_numbers_with_units_or_after_rates_are_no_ages() -> None:
    text = "Quit in 2067, 53 pack-years. Sinus rhythm at 72 with Q waves. JVP at 45 degrees. A 72 yo man."
    predictions = [
        at(text, "AGE", "53"),
        at(text, "AGE", "72"),
        at(text, "AGE", "45"),
        at(text, "AGE", "72", 1),
    ]
    assert kept(text, predictions) == {("AGE", "72")}
    assert [p.start for p in clean_up(text, predictions)] == [text.index("72 yo")]


def test_grades_clock_times_and_list_numbers_are_no_dates() -> None:
    text = "power 4/5 both legs, pain 7/10\n3. Foley catheter\nbleep 3250 on 14th March 2092 1917h\nED 2090.04.19 02:27\nSeen 4/5 at clinic"
    predictions = [
        at(text, "DATE", "4/5"),
        at(text, "DATE", "7/10"),
        at(text, "DATE", "3"),
        at(text, "DATE", "1917"),
        at(text, "DATE", "27"),
        at(text, "DATE", "4/5", 1),
    ]
    assert kept(text, predictions) == {("DATE", "4/5")}
    assert clean_up(text, predictions)[0].start == text.rindex("4/5")


def test_counts_mixtures_and_sums_are_no_dates() -> None:
    text = "Gleason 3 + 4 = 7/10. 8/12 cores positive, 9/1 mixture; seen 8/12 in clinic"
    predictions = [
        at(text, "DATE", "7/10"),
        at(text, "DATE", "8/12"),
        at(text, "DATE", "9/1"),
        at(text, "DATE", "8/12", 1),
    ]
    assert [p.start for p in clean_up(text, predictions)] == [text.rindex("8/12")]


def test_a_name_ends_before_the_next_sentences_article() -> None:
    text = "referred by Dr. X. The patient underwent a biopsy"
    assert kept(text, [at(text, "DOCTOR", "X. The")]) == {("DOCTOR", "X.")}


def test_a_name_ends_where_an_initials_full_stop_ends_the_sentence() -> None:
    text = "irrigated by Dr. X.  Her symptoms eased; from Dr. S. She agrees; Dr. J. K. Rowe and A. Smith"
    predictions = [
        at(text, "DOCTOR", "X.  Her"),
        at(text, "DOCTOR", "S. She"),
        at(text, "DOCTOR", "J. K. Rowe"),
        at(text, "DOCTOR", "A. Smith"),
    ]
    assert [text[p.start : p.end] for p in clean_up(text, predictions)] == [
        "X.",
        "S.",
        "J. K. Rowe",
        "A. Smith",
    ]


def test_a_name_ends_where_a_common_sentence_opener_follows_an_initial() -> None:
    text = (
        "Dr. O. Unfortunately he left; Dr. O. I informed; Dr. B. As noted; Dr. J. A. Smith; L. Read; K. Kelly"
    )
    pieces = ["O. Unfortunately", "O. I", "B. As", "J. A. Smith", "L. Read", "K. Kelly"]
    predictions = [at(text, "DOCTOR", piece) for piece in pieces]
    assert [text[p.start : p.end] for p in clean_up(text, predictions)] == [
        "O.",
        "O.",
        "B.",
        "J. A. Smith",  # a middle initial is no sentence's first word
        "L. Read",  # a surname that is a common word
        "K. Kelly",  # a listed name in -ly
    ]


def test_names_end_before_degrees_and_field_labels() -> None:
    text = "Brian Ruiz, MD, PhD | Re: J. Sanders, DOB 18/2/2006"
    predictions = [at(text, "DOCTOR", "Brian Ruiz, MD, PhD"), at(text, "PATIENT", "J. Sanders, DOB")]
    assert kept(text, predictions) == {("DOCTOR", "Brian Ruiz"), ("PATIENT", "J. Sanders")}


def test_names_end_before_a_possessive() -> None:
    text = "Dr. Thorne's service, per O'Brien. McLaughlin’s wife"
    predictions = [
        at(text, "DOCTOR", "Thorne's"),
        at(text, "DOCTOR", "O'Brien"),
        at(text, "PATIENT", "McLaughlin’s"),
        at(text, "HOSPITAL", "Thorne's"),  # a place keeps it: "St. Mary's"
    ]
    assert kept(text, predictions) == {
        ("DOCTOR", "Thorne"),
        ("DOCTOR", "O'Brien"),
        ("PATIENT", "McLaughlin"),
        ("HOSPITAL", "Thorne's"),
    }


def test_a_place_before_a_dotted_degree_is_a_doctor_and_a_state_is_no_degree() -> None:
    text = "FILBERT BRIGHT, M.D.    FB59\nlives in Baltimore, MD with Ana Ruiz, Ph.D."
    predictions = [
        at(text, "STREET", "FILBERT BRIGHT"),
        at(text, "CITY", "Baltimore"),
        at(text, "ORGANIZATION", "Ana Ruiz"),
    ]
    assert kept(text, predictions) == {
        ("DOCTOR", "FILBERT BRIGHT"),
        ("CITY", "Baltimore"),
        ("DOCTOR", "Ana Ruiz"),
    }


def test_a_rule_span_wins_over_a_tagger_span_that_only_adds_a_heading() -> None:
    text = "Elmhurst Community Hospital EMERGENCY DEPARTMENT NOTE\nPatient: NASH"
    ran_on = at(text, "HOSPITAL", "Elmhurst Community Hospital EMERGENCY DEPARTMENT NOTE")
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [ran_on])}
    assert ("HOSPITAL", "Elmhurst Community Hospital") in result
    assert not any("NOTE" in piece for _, piece in result)


def test_a_tagger_span_that_adds_a_name_to_a_rule_span_stands() -> None:
    text = "Transferred to Mercy Valley Rosewood today"
    whole = at(text, "HOSPITAL", "Mercy Valley Rosewood")
    result = {(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [whole])}
    assert result == {("HOSPITAL", "Mercy Valley Rosewood")}


def test_names_lose_role_words_and_what_follows_a_wide_gap() -> None:
    text = "RECONCILED BY PHARMACIST REGINALD JOHNSON\nPedersen Psychiatrist\nVARGAS April   1154633\n"
    predictions = [
        at(text, "DOCTOR", "PHARMACIST REGINALD JOHNSON"),
        at(text, "DOCTOR", "Pedersen Psychiatrist"),
        at(text, "PATIENT", "VARGAS April   1154633"),
    ]
    assert kept(text, predictions) == {
        ("DOCTOR", "REGINALD JOHNSON"),
        ("DOCTOR", "Pedersen"),
        ("PATIENT", "VARGAS April"),
    }


def test_a_dates_shape_without_a_calendars_numbers_is_a_record_number() -> None:
    text = "SALGADO, Julio   77-53-9390   seen 12-03-2071"
    predictions = [at(text, "DATE", "77-53-9390"), at(text, "DATE", "12-03-2071")]
    assert kept(text, predictions) == {("MEDICALRECORD", "77-53-9390"), ("DATE", "12-03-2071")}


def test_ventilator_settings_pain_scores_and_gas_values_are_no_dates_or_phones() -> None:
    text = (
        "on PS 10/5/40% all shift; BIPAP 10/5/12BPM; HAD 8/10 CP; co/ci/svr 3/2/1500; "
        "ABG 7.38-33-169 and 7.35-39-142-22. Seen 8/10 by team, born 3/2/1950, call 410-555-1212, "
        "visit 2067-05-03T10:00"
    )
    predictions = [
        at(text, "DATE", "10/5/40"),
        at(text, "DATE", "10/5/12"),
        at(text, "DATE", "8/10"),
        at(text, "DATE", "3/2/1500"),
        at(text, "PHONE", "38-33-169"),
        at(text, "PHONE", "35-39-142-22"),
        at(text, "DATE", "8/10", 1),
        at(text, "DATE", "3/2/1950"),
        at(text, "PHONE", "410-555-1212"),
        at(text, "DATE", "2067-05-03"),
    ]
    assert kept(text, predictions) == {
        ("DATE", "8/10"),
        ("DATE", "3/2/1950"),
        ("PHONE", "410-555-1212"),
        ("DATE", "2067-05-03"),
    }


def test_a_setting_followed_by_a_percent_sign_is_no_date_rule_span() -> None:
    text = "CPAP/PSV 12/10/40% drawing 350s; co/ci/svr 3/2/1500; seen 12/10/40 in clinic"
    spans = [(p.type, text[p.start : p.end]) for p in apply_format_rules(text, [])]
    assert spans == [("DATE", "12/10/40")]
    assert spans and text.index("12/10/40 in") == apply_format_rules(text, [])[0].start


def test_four_digits_after_at_around_or_due_are_a_clock_time() -> None:
    text = "received at 1800. c/o h/a around 2000, f/u due 2030, last dose ~ 1830; since 2006, CABG 1957, at 1985h"
    predictions = [at(text, "DATE", x) for x in ("1800", "2000", "2030", "1830", "2006", "1957")]
    assert [text[p.start : p.end] for p in clean_up(text, predictions)] == ["2006", "1957"]
    # Not a clock time: no hour 24 or minute 60 ("at 2460", a year in "at 1975").
    late = "arrived at 2460; retired at 1975"
    kept = [at(late, "DATE", "2460"), at(late, "DATE", "1975")]
    assert clean_up(late, kept) == kept


def test_a_relation_alone_is_no_name_however_spelt() -> None:
    text = "SOCIAL- WIFE AND NEICE IN TO VISIT. Daughters here. Grace Sister called"
    predictions = [
        at(text, "PATIENT", "NEICE"),
        at(text, "PATIENT", "Daughters"),
        at(text, "PATIENT", "Grace Sister"),
    ]
    assert [text[p.start : p.end] for p in clean_up(text, predictions)] == ["Grace Sister"]


def test_the_digits_of_a_lab_value_are_neither_identifier_nor_date() -> None:
    text = "ABG 7.35-39-142-22; PT/PTT 12.9/21.9; 80/48/7.45.34.7; HCT @ 2000-27.7; MRN 735-39-142 on 9/21"
    predictions = [
        at(text, "MEDICALRECORD", "35-39-142-22"),
        at(text, "DATE", "9/21"),
        at(text, "IPADDR", "45.34.7"),
        at(text, "DATE", "2000-27.7"),
        at(text, "MEDICALRECORD", "735-39-142"),
        at(text, "DATE", "9/21", 1),
    ]
    assert [(p.type, p.start) for p in clean_up(text, predictions)] == [
        ("MEDICALRECORD", text.index("735-39-142")),
        ("DATE", text.rindex("9/21")),
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n\x0b\u2028ab1."), max_size=30), st.data())
def test_a_line_is_opened_when_only_white_space_stands_before(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    line_start = text.rfind("\n", 0, start) + 1
    blank = not text[line_start:start].strip()
    assert blank_line_start(text, start) == (line_start if blank else None)
