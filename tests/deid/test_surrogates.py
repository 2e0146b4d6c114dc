"""The per-patient surrogate engine: every PHI kind, consistency across records, review."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from annotator.deid.dates import parse_date, reference_date
from annotator.deid.export import deidentify_documents
from annotator.deid.surrogates import CorpusContext, DeidOptions
from tests.deid.builders import note, texts_by_type

RECORD_1 = note(
    "300-01",
    "Patient ", ("John Smith", "PATIENT"), " (", ("JS", "PATIENT"), ") seen ", ("05/03/2067", "DATE"),
    " by ", ("Dr. Ann Lee", "DOCTOR"), ". MRN ", ("0123456", "MEDICALRECORD"), ", call ",
    ("(617) 555-1234", "PHONE"), ". Age ", ("92", "AGE"), ", wife ", ("67", "AGE"), ". Lives at ",
    ("12 Main Street", "STREET"), ", ", ("Boston", "CITY"), ", ", ("MA", "STATE"), " ", ("02114", "ZIP"),
    ". ", ("Smith's", "PATIENT"), " e-mail ", ("jsmith@mgh.org", "EMAIL"), ", seen at ",
    ("Massachusetts General Hospital", "HOSPITAL"), " ", ("Cardiology Department", "DEPARTMENT"),
    ". Works as a ", ("teacher", "PROFESSION"), ". Pie contest: ", ("Boston Marathon", "OTHER"),
    ". Back ", ("02/03", "DATE"), ".",
)  # fmt: skip
RECORD_2 = note(
    "300-02",
    "Follow-up ", ("May 10, 2067", "DATE"), " for ", ("SMITH, JOHN", "PATIENT"), ", MRN ",
    ("0123456", "MEDICALRECORD"), ", at ", ("Massachusetts General Hospital", "HOSPITAL"), ".",
)  # fmt: skip
OTHER_PATIENT = note("301-01", "Patient ", ("John Smith", "PATIENT"), " seen ", ("05/03/2067", "DATE"), ".")


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return deidentify_documents([RECORD_1, RECORD_2, OTHER_PATIENT], DeidOptions(seed=11))


def by_id(result, doc_id):  # type: ignore[no-untyped-def]
    return next(d for d in result.documents if d.doc_id == doc_id)


def test_every_tag_points_at_its_surrogate(result) -> None:  # type: ignore[no-untyped-def]
    for document in result.documents:
        assert document.annotations
        for annotation in document:
            assert document.text[annotation.start : annotation.end] == annotation.text


def test_consistent_across_a_patients_records(result) -> None:  # type: ignore[no-untyped-def]
    first, second = by_id(result, "300-01"), by_id(result, "300-02")
    full = texts_by_type(first, "PATIENT")[0]
    given, family = full.split()
    assert texts_by_type(second, "PATIENT") == [f"{family.upper()}, {given.upper()}"]
    assert texts_by_type(first, "PATIENT")[1:] == [given[0] + family[0], f"{family}'s"]
    assert texts_by_type(first, "MEDICALRECORD") == texts_by_type(second, "MEDICALRECORD")
    assert texts_by_type(first, "HOSPITAL") == texts_by_type(second, "HOSPITAL")


def test_patients_get_their_own_mapping(result) -> None:  # type: ignore[no-untyped-def]
    assert (
        texts_by_type(by_id(result, "301-01"), "PATIENT")
        != texts_by_type(by_id(result, "300-01"), "PATIENT")[:1]
    )
    assert result.shifts["300"] != result.shifts["301"]


def test_date_interval_across_records_kept(result) -> None:  # type: ignore[no-untyped-def]
    new_1 = reference_date(parse_date(texts_by_type(by_id(result, "300-01"), "DATE")[0]))  # type: ignore[arg-type]
    new_2 = reference_date(parse_date(texts_by_type(by_id(result, "300-02"), "DATE")[0]))  # type: ignore[arg-type]
    assert new_1 is not None and new_2 is not None
    assert (new_2 - new_1).days == 7
    assert re.fullmatch(r"\d\d/\d\d/\d{4}", texts_by_type(by_id(result, "300-01"), "DATE")[0])


def test_ages_over_89_become_90(result) -> None:  # type: ignore[no-untyped-def]
    assert texts_by_type(by_id(result, "300-01"), "AGE") == ["90", "67"]


@pytest.mark.parametrize(
    ("type_", "original"),
    [("PHONE", "(617) 555-1234"), ("ZIP", "02114"), ("EMAIL", "jsmith@mgh.org"), ("MEDICALRECORD", "0123456"),
     ("STREET", "12 Main Street"), ("CITY", "Boston"), ("STATE", "MA"), ("PROFESSION", "teacher"),
     ("DOCTOR", "Dr. Ann Lee")],
)  # fmt: skip
def test_each_kind_replaced(result, type_: str, original: str) -> None:  # type: ignore[no-untyped-def]
    new = texts_by_type(by_id(result, "300-01"), type_)[0]
    assert new != original
    assert len(re.sub(r"\D", "", new)) == len(re.sub(r"\D", "", original))


def test_generic_department_and_doctor_title(result) -> None:  # type: ignore[no-untyped-def]
    document = by_id(result, "300-01")
    assert texts_by_type(document, "DEPARTMENT") == ["Cardiology"]
    assert texts_by_type(document, "DOCTOR")[0].startswith("Dr. ")


def test_unsafe_items_masked_and_listed(result) -> None:  # type: ignore[no-untyped-def]
    review = {(r["doc_id"], r["type"]) for r in result.review()}
    assert review == {("300-01", "OTHER")}
    assert "[**OTHER**]" in by_id(result, "300-01").text and "[**DATE**]" not in by_id(result, "300-01").text


def test_an_ambiguous_date_is_read_and_the_reading_noted(result) -> None:  # type: ignore[no-untyped-def]
    # "02/03" beside "05/03/2067": February 3rd (a month and a day, as the note's other date),
    # written padded like it, and still 89 days before the other date's surrogate
    first, back = texts_by_type(by_id(result, "300-01"), "DATE")
    assert re.fullmatch(r"\d\d/\d\d", back)
    new_first = reference_date(parse_date(first))  # type: ignore[arg-type]
    assert new_first is not None
    gaps = [
        (new_first - dt.date(y, int(back[:2]), int(back[3:]))).days
        for y in (new_first.year - 1, new_first.year)
    ]
    assert 89 in gaps
    notes = [r.note for r in result.replaced["300-01"] if r.original.text == "02/03"]
    assert notes == ["month and zero-padded number: read as month and day"]


def test_surrogates_avoid_every_original_name() -> None:
    context = CorpusContext.from_documents([RECORD_1, RECORD_2, OTHER_PATIENT])
    assert {"john", "smith", "ann", "lee"} <= context.name_tokens


def test_same_seed_same_output_other_seed_differs() -> None:
    again = deidentify_documents([RECORD_1, RECORD_2], DeidOptions(seed=11))
    other = deidentify_documents([RECORD_1, RECORD_2], DeidOptions(seed=12))
    first = deidentify_documents([RECORD_1, RECORD_2], DeidOptions(seed=11))
    assert [d.text for d in again.documents] == [d.text for d in first.documents]
    assert [d.text for d in other.documents] != [d.text for d in first.documents]


@pytest.mark.parametrize(("style", "expected"), [("brackets", "Patient [**PATIENT**] seen [**DATE**]."),
                                                 ("chars", "Patient #### ##### seen ##########.")])  # fmt: skip
def test_masking_styles(style: str, expected: str) -> None:
    options = DeidOptions(method="mask", mask_style=style, mask_char="#")
    masked = deidentify_documents([OTHER_PATIENT], options).documents[0]
    assert masked.text == expected
    assert [masked.text[a.start : a.end] for a in masked] == [a.text for a in masked]


def test_repeated_value_keeps_each_occurrences_case() -> None:
    document = note(
        "302-01", ("Boston", "CITY"), " / ", ("BOSTON", "CITY"), " / ", ("Smith", "PATIENT"), " / ",
        ("SMITH", "PATIENT"), " / ", ("smith's", "PATIENT"),
    )  # fmt: skip
    city, city_upper, name, name_upper, name_lower = texts_by_type(
        deidentify_documents([document], DeidOptions(seed=5)).documents[0], "CITY"
    ) + texts_by_type(deidentify_documents([document], DeidOptions(seed=5)).documents[0], "PATIENT")
    assert city_upper == city.upper() != "BOSTON"
    assert name_upper == name.upper() and name_lower == f"{name.lower()}'s"
