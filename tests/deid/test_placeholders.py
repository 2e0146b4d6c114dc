"""Tags over an earlier de-identification's placeholders get surrogates drawn from the label, and
the label's words are never taken for leaked PHI."""

from __future__ import annotations

import re

from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.placeholders import is_placeholder, name_roles, numeric_date, tail
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note, texts_by_type

RECORD_1 = note(
    "400-01",
    "Admission Date: ", ("[**2151-7-16**]", "DATE"), " Discharge Date: ", ("[**2151-8-4**]", "DATE"), "\n",
    "Mr. ", ("[**Known lastname 5678**]", "PATIENT"), " came from ", ("[**Hospital 1121**] Hospital", "HOSPITAL"),
    " on ", ("[**7-16**]", "DATE"), ". No Known Allergies. Last Name on file.\n",
    "Seen by ", ("[**First Name8 (NamePattern2) 12**] [**Last Name (NamePattern1) 34**]", "DOCTOR"), " MD ",
    ("[**MD Number(1) 1247**]", "IDNUM"), ", call ", ("[**Telephone/Fax (1) 6789**]", "PHONE"),
    ". Lives in ", ("[**Location (un) 86**]", "CITY"), " since ", ("[**Month (only) 216**]", "DATE"), ".\n",
    "Age ", ("[**Age over 90 **]", "AGE"), ".\n",
)  # fmt: skip
RECORD_2 = note(
    "400-02",
    "Name: ", ("[**Known lastname 5678**],[**Known firstname 12**]", "PATIENT"), "\n",
    "Mr. ", ("[**Known lastname 5678**]", "PATIENT"), " back at ", ("[**Hospital1 18**]", "HOSPITAL"),
    " on ", ("[**2151-9-1**]", "DATE"), ".",
)  # fmt: skip


def test_placeholder_shapes() -> None:
    assert is_placeholder("[**Hospital 1121**] Hospital") and is_placeholder(
        " [**Known lastname 1**], [**Known firstname 2**] "
    )
    assert not is_placeholder("[**Known lastname 5678**] Smith") and not is_placeholder("Smith")
    # Words no label is made of may be PHI: such a bracket is text, replaced and checked as text.
    assert not is_placeholder("[**John Smith**]") and not is_placeholder("[**Known lastname 1**], [**Jo 2**]")
    assert tail("[**Hospital 1121**] Hospital") == " Hospital" and tail("[**Hospital1 18**]") == ""
    assert numeric_date("[**2151-7-16**]") == "2151-7-16" and numeric_date("[**-5-/2151**]") == "5/2151"
    assert numeric_date("[**Month (only) 216**]") is None
    assert name_roles("[**First Name8 (NamePattern2) 12**] [**Last Name (NamePattern1) 34**]") == [
        "first",
        "last",
    ]
    assert name_roles("[**Initials (NamePattern4) 9**] [**Known lastname 1**]") == ["initial", "last"]


def test_surrogates_from_the_label_consistent_per_patient_and_no_false_leak() -> None:
    result = deidentify_documents([RECORD_1, RECORD_2], DeidOptions(seed=3))
    first, second = (next(d for d in result.documents if d.doc_id == i) for i in ("400-01", "400-02"))
    assert "[**" not in second.text
    # The only bracket left is the one whose label holds no value: "Month (only)".
    assert re.findall(r"\[\*\*[^\]]*\*\*\]", first.text) == ["[**DATE**]"]
    assert texts_by_type(first, "AGE") == ["90"]
    patient = texts_by_type(first, "PATIENT")[0]
    assert patient[:1].isupper() and patient.isalpha()
    full, again = texts_by_type(second, "PATIENT")
    assert again == patient and re.fullmatch(rf"{patient},[A-Z][a-z]+", full)
    doctor = texts_by_type(first, "DOCTOR")[0].split()
    assert len(doctor) == 2 and all(part[:1].isupper() and part.isalpha() for part in doctor)
    hospital = texts_by_type(first, "HOSPITAL")[0]
    assert hospital.endswith(" Hospital") and hospital.count("Hospital") == 1
    admitted, discharged = texts_by_type(first, "DATE")[:2]
    assert re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", admitted) and admitted != "2151-7-16"
    assert re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", discharged)
    back = texts_by_type(second, "DATE")[0]
    assert re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", back)
    assert re.fullmatch(r"\d{3}-\d{3}-\d{4}", texts_by_type(first, "PHONE")[0])
    # "No Known Allergies", "Last Name on file": the label's words were never PHI.
    assert "No Known Allergies. Last Name on file." in first.text
    assert find_leaks([RECORD_1, RECORD_2], result.documents) == []
    for document in result.documents:
        for annotation in document:
            assert document.text[annotation.start : annotation.end] == annotation.text


def test_every_type_over_a_placeholder_gets_a_surrogate_or_a_reviewed_mask() -> None:
    from annotator.core.schema import load_schema
    from annotator.deid.surrogates import KINDS

    schema = load_schema("i2b2-2014")
    types = sorted(
        t for t in KINDS if t in {kind.name for category in schema.categories for kind in category.types}
    )
    assert len(types) >= 25
    pieces: list[str | tuple[str, str]] = []
    for index, type_ in enumerate(types):
        pieces += [f"{index}: ", (f"[**Name{index} (NI) {index}**]", type_), ".\n"]
    result = deidentify_documents([note("500-01", *pieces)], DeidOptions(seed=5))
    document = result.documents[0]
    masked = {r["type"] for r in result.review()}
    for annotation in document:
        # A date or an age with no value is masked and listed; every other kind is drawn.
        if annotation.type in ("DATE", "AGE"):  # "Name0 (NI) 0" says no age
            assert annotation.text == f"[**{annotation.type}**]" and annotation.type in masked
        else:
            assert "[**" not in annotation.text and "(NI)" not in annotation.text, annotation
    assert find_leaks([note("500-01", *pieces)], result.documents) == []


def test_a_bracket_round_a_real_name_is_no_placeholder_to_the_leak_check() -> None:
    original = note("600-01", "Seen: ", ("[**Zebulon Quist**]", "PATIENT"), ". Later Zebulon Quist called.")
    result = deidentify_documents([original], DeidOptions(seed=2))
    assert "Zebulon" not in result.documents[0].text.split(".")[0]
    leaks = find_leaks([original], result.documents)
    output = result.documents[0].text
    assert leaks and {output[leak.start : leak.end] for leak in leaks} <= {
        "Zebulon Quist",
        "Zebulon",
        "Quist",
    }


def test_an_export_de_identified_again_takes_its_own_masks_for_placeholders() -> None:
    # A masked export (or a surrogate export with tags masked for review) given to the export
    # again: its [**TYPE**] masks hide PHI, they are none, and "[**MEDICALRECORD**]" is no
    # shape to copy into "[**UVIHMYABKTUNN**]".
    masked = note(
        "401-01", "MRN ", ("[**MEDICALRECORD**]", "MEDICALRECORD"), " at ", ("[**ORGANIZATION**]", "ORGANIZATION"),
        " in ", ("[**CITY**]", "CITY"), ", ", ("[**OTHER**]", "OTHER"), ". Room ", ("[**ROOM**]", "ROOM"), ".",
    )  # fmt: skip
    for method in ("mask", "surrogate"):
        result = deidentify_documents([masked], DeidOptions(method=method, seed=3))
        assert find_leaks([masked], result.documents) == [], method
    record, organization, city, other, room = [a.text for a in result.documents[0].sorted_annotations()]
    assert re.fullmatch(r"\d{7}", record) and re.fullmatch(r"\d{7}", room)
    assert "[" not in organization + city and other == "[**OTHER**]"
