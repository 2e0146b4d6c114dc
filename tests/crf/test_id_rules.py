"""Identifiers in the public forms of many countries' records, and the near misses that are none."""

from __future__ import annotations

import re

import pytest

from annotator.crf.format_rules import apply_format_rules, format_rule_predictions
from annotator.crf.id_rules import id_candidates, relabel_labelled_phones, relabel_short_phones
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import rule_predictions


def found(text: str) -> set[tuple[str, str]]:
    return {(kind.rstrip("!"), text[start:end]) for kind, start, end in id_candidates(text)}


def ruled(text: str) -> set[tuple[str, str]]:
    """Every rule span of the pre-annotation rules (format, field and identifier rules)."""
    return {(p.type, text[p.start : p.end]) for p in format_rule_predictions(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # SSN: UK National Insurance numbers, and any number after an SSN label.
        ("National insurance no. TR 10 39 02 W\n", ("SSN", "TR 10 39 02 W")),
        ("NATIONAL INSURANCE NO. FL 38 73 62 A | next", ("SSN", "FL 38 73 62 A")),
        ("Partner's NI: CM 61 85 55 B.", ("SSN", "CM 61 85 55 B")),
        ("NI no: JK123456C", ("SSN", "JK123456C")),
        ("NINO AB 12 34 56 C", ("SSN", "AB 12 34 56 C")),
        ("SSN: 760-83-9523\n", ("SSN", "760-83-9523")),
        ("Social Security Number 123 45 6789.", ("SSN", "123 45 6789")),
        # HEALTHPLAN: national and private health-plan numbers, in digit groups or as a code.
        ("Medicare card 7070 60569 6 | next review", ("HEALTHPLAN", "7070 60569 6")),
        ("MEDICARE CARD 8004 09586 0\n", ("HEALTHPLAN", "8004 09586 0")),
        ("Medicaid # NY44120934", ("HEALTHPLAN", "NY44120934")),
        ("OHIP 1234-567-890-AB", ("HEALTHPLAN", "1234-567-890-AB")),
        ("Health card no: 9876 543 210", ("HEALTHPLAN", "9876 543 210")),
        ("Insurance member ID: NNG000964041\n", ("HEALTHPLAN", "NNG000964041")),
        ("policy no. P-88120431", ("HEALTHPLAN", "P-88120431")),
        # Quebec's health insurance (four letters, then digit groups) and Ireland's medical card.
        ("RAMQ: UUAP 7666 4162\n", ("HEALTHPLAN", "UUAP 7666 4162")),
        ("Medical Card: 7342758F\n", ("HEALTHPLAN", "7342758F")),
        # BIOID: biobank and biometric codes.
        ("Biobank sample SPEC-02-06401\n", ("BIOID", "SPEC-02-06401")),
        ("BIOBANK SAMPLE SPEC-57-07734", ("BIOID", "SPEC-57-07734")),
        ("Biometric enrollment ID BIO-892866.", ("BIOID", "BIO-892866")),
        ("tissue bank no TB/2231/07", ("BIOID", "TB/2231/07")),
        # LICENSE: the value after the regulator; the regulator stays out.
        ("Prescriber registration GMC 9528736 | next", ("LICENSE", "9528736")),
        ("NMC 12A3456E", ("LICENSE", "12A3456E")),
        ("AHPRA MED0001234567", ("LICENSE", "MED0001234567")),
        ("Prescriber DEA # AB1234567\n", ("LICENSE", "AB1234567")),
        ("NPI 1234567890", ("LICENSE", "1234567890")),
        # VEHICLE: plates of capitals and digits.
        ("Patient transport vehicle reg EP39 XEJ | next", ("VEHICLE", "EP39 XEJ")),
        ("Struck while parked; plate 3NUN 460.", ("VEHICLE", "3NUN 460")),
        ("number plate: KX61 ABC", ("VEHICLE", "KX61 ABC")),
        ("car rego 1ABC234", ("VEHICLE", "1ABC234")),
        # DEVICE: serial numbers keep their trailing digits.
        ("Insulin pump SN:CM80401-02 | next", ("DEVICE", "CM80401-02")),
        ("Pacemaker serial no. CXS290135H interrogated.", ("DEVICE", "CXS290135H")),
        ("S/N 4471-2093-B", ("DEVICE", "4471-2093-B")),
        # ROOM: theatres, operating rooms, side rooms.
        ("St. Osmund's Hospital Theatre 3\nDate of op", ("ROOM", "3")),
        ("ANAESTHETIC RECORD THEATRE 3", ("ROOM", "3")),
        ("moved to theater 12 at noon", ("ROOM", "12")),
        ("The patient was brought to OR 6 and placed supine.", ("ROOM", "6")),
        ("-- admin -- Side room SR2 | next", ("ROOM", "SR2")),
        ("Arrival: 01/20/2080 01:33   Room D9\n", ("ROOM", "D9")),
        # IDNUM and ACCOUNT: laboratory, order and billing numbers.
        ("collected 06:45, accession MK4772496\n", ("IDNUM", "MK4772496")),
        ("Lab no: H63-52721\nSurname", ("IDNUM", "H63-52721")),
        ("Order number L16788/34 | next", ("IDNUM", "L16788/34")),
        ("Billing ref ACC/933596/17 | next", ("ACCOUNT", "ACC/933596/17")),
        # An account after its label's colon or hash.
        ("Acct: AC480948177\n", ("ACCOUNT", "AC480948177")),
        ("ACCT: 69526-227\n", ("ACCOUNT", "69526-227")),
        ("Account #: 23266-705\n", ("ACCOUNT", "23266-705")),
        # MEDICALRECORD: an encounter's number identifies the patient's stay.
        ("Encounter no: E78870105\n", ("MEDICALRECORD", "E78870105")),
        ("ENC#: E82407996\n", ("MEDICALRECORD", "E82407996")),
        # IPADDR: a whole dotted quad.
        ("Home monitor uploads from 132.230.4.202.", ("IPADDR", "132.230.4.202")),
        # USERNAME: dictation lines and sign-offs.
        ("DD: 01/20/2080  DT: 01/22/2080\nnfa95/lu\ncc: Dr. Pow", ("USERNAME", "nfa95")),
        ("Thanks.\n\n\n-- ngk7\n", ("USERNAME", "ngk7")),
        ("Cassidy Reese, RN\ncer5\nADDITIONAL", ("USERNAME", "cer5")),
        ("Ramón Åberg, RN\nreå69\n", ("USERNAME", "reå69")),
        ("Read by: Robin Wright  rdw50\n", ("USERNAME", "rdw50")),
        # A login in capitals beside or under a signature ("FB59").
        ("Dictated by:  FILBERT BRIGHT, M.D.    FB59 \n", ("USERNAME", "FB59")),
        ("FILBERT BRIGHT, M.D.    FB59\n", ("USERNAME", "FB59")),
        ("Ana Ruiz, MD\nAR7\n", ("USERNAME", "AR7")),
    ],
)
def test_identifier_in_a_public_form(text: str, expected: tuple[str, str]) -> None:
    assert found(text) == {expected}


@pytest.mark.parametrize(
    "text",
    [
        # Doses, times, vital signs, scores, lab values, durations.
        "Metformin 500 mg bd; insulin 12 units at 2200; SpO2 94% on 2 L; 5/10 pain",
        "BP 132/84, HR 72, RR 18, T 37.2; Hb 121 g/L, plt 245, K 4.1, Na 139",
        "Platelets 150 x10^9/L; PLATELETS 150; PLATE LCP 4 and 6 screws; plate and screws",
        "returned to theatre 2 days later; back to theatre x2; theatre list at 0830",
        "SBP 90 OR 2 BOLUSES GIVEN; OR 1.5 (95% CI 1.1-2.0); pain OR 3 nausea",
        "IF FEVER OR 2 EPISODES OF VOMITING, RETURN",
        "Medicare covers 80% of 2067 costs; member of the 3 person team; insurance pending",
        "National insurance contributions paid; SSN on file; social security benefits since 2065",
        "d/w reg tybla3 re plan; seen by reg today; CXR reg 2",
        "sn 3 times; SN Jones reviewed; serial troponins 12 then 14",
        "spo2\nfio2/ab\n-- hba1c\nJo Bloggs, RN\ncovid19\n",
        # Capitals and digits that measure: under a signature, and after "by" with no gap.
        "Jo Bloggs, RN\nSPO2\nJo Bloggs, RN   FIO2\nsigned by PT2\n",
        "version 1.2.3.4.5; dose 1.2.3 mg; 256.1.1.1 is no address",
        # A blood gas written as one chain: "80/48/7.45.34.7" (PhysioNet patients 1-110).
        "most recent abg on these settings: 80/48/7.45.34.7. continued to require",
        "DEA registration pending; GMC referral; NPI to follow; NMC code of conduct",
        "MRN KZ924987D; NHI/UR: KZ924987D",
        "in order 2 weeks; lab 2067; accession 2067-03-01; billing pending; order # 12",
        "care team member 2067-03-01; policy 12/03/2067; Medicare since 03.04.2066; SN 2067-01-02",
        # "account" and "encounter" said alone name no number.
        "taking into account 12345 units; account 2067; encounter 2 of 3; enc 4 times daily",
    ],
)
def test_near_misses_are_no_identifier(text: str) -> None:
    assert found(text) == set()


def test_a_solid_national_insurance_number_needs_its_label() -> None:
    # Written solid, two letters, six digits and a letter is also a record number's shape.
    assert found("(KZ924987D)") == set()
    assert found("NI no KZ924987D") == {("SSN", "KZ924987D")}


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Tel +44 1805 534940  Fax", "+44 1805 534940"),
        ("HOME PHONE: +44 1583 214149\n", "+44 1583 214149"),
        ("Call back on 0476 475 796\n", "0476 475 796"),
        ("Call back on (06) 7592 9265\n", "(06) 7592 9265"),
        ("ring 07982 343260 if worse", "07982 343260"),
        ("can be reached at 617 555 0199.", "617 555 0199"),
        ("Patient may call 475-5293 with questions", "475-5293"),
        ("Please call me at 12088.", "12088"),
        ("Tel +1 (740) 257-0297\n", "+1 (740) 257-0297"),
    ],
)
def test_phone_numbers_after_the_words_that_announce_them(text: str, phone: str) -> None:
    assert ruled(text) == {("PHONE", phone)}


def test_an_extension_is_a_phone_number_of_its_own() -> None:
    text = "Call back on (06) 7592 9265 ext 309; mob 07982 343260 ext 219"
    assert ruled(text) == {
        ("PHONE", "(06) 7592 9265"),
        ("PHONE", "309"),
        ("PHONE", "07982 343260"),
        ("PHONE", "219"),
    }


def test_no_phone_in_times_counts_and_doses() -> None:
    assert ruled("call at 1400; ring finger 2 cm; reached at 0930; call 911; call 3 times a day") == set()


def test_a_url_in_capitals() -> None:
    text = "PATIENT PORTAL: HTTPS://MYRECORD.GREYWICKHEALTH.EXAMPLE/P/1765\n"
    urls = [text[p.start : p.end] for p in rule_predictions(text) if p.type == "URL"]
    assert urls == ["HTTPS://MYRECORD.GREYWICKHEALTH.EXAMPLE/P/1765"]


def test_a_complete_address_replaces_the_tagger_piece_of_it() -> None:
    text = "Home monitor uploads from 132.230.4.202."
    start = text.index("132")
    tagged = [Prediction("DATE", start, start + len("132.230.4"), 0.8)]
    result = apply_format_rules(text, tagged)
    assert [(p.type, text[p.start : p.end]) for p in result] == [("IPADDR", "132.230.4.202")]


def test_a_label_settles_the_type_the_tagger_gave_an_identifier() -> None:
    text = "Prescriber DEA #AB1234567\n"
    start = text.index("AB")
    tagged = [Prediction("MEDICALRECORD", start, start + 9, 0.9)]
    assert [p.type for p in apply_format_rules(text, tagged)] == ["LICENSE"]


def test_a_bleep_number_is_a_phone_number_whatever_the_tagger_thought() -> None:
    text = "Hope (radiologist) [jihop7] bleep 2175 on 2075.06.01"
    start = text.index("2175")
    tagged = [Prediction("DATE", start, start + 4, 0.9)]
    assert [
        (p.type, text[p.start : p.end]) for p in apply_format_rules(text, tagged) if p.start == start
    ] == [("PHONE", "2175")]


def test_a_short_number_without_a_phone_label_is_no_phone_number() -> None:
    text = (
        "- CHF, dx 2058\n- gout, code 41872\nbleep 2175; ext 219; call me at 12088; x 4417\n"
        "reached at beeper number 55037 or pager no. 3141; see page number 12"
    )
    tagged = [Prediction("PHONE", m.start(), m.end(), 0.9) for m in re.finditer(r"\d+", text)]
    result = {(p.type, text[p.start : p.end]) for p in relabel_short_phones(text, tagged)}
    assert result == {
        ("DATE", "2058"),
        ("PHONE", "2175"),
        ("PHONE", "219"),
        ("PHONE", "12088"),
        ("PHONE", "4417"),
        ("PHONE", "55037"),
        ("PHONE", "3141"),
    }


def test_bare_long_numbers_and_registration_numbers_are_identifiers() -> None:
    from annotator.crf.format_rules import format_rule_predictions

    text = "F/U\nSALGADO, Julio   5444921   seen\nEnc 6241/09576\nDr Proctor\nReg. no. 0740449\n"
    found = {(p.type, text[p.start : p.end]) for p in format_rule_predictions(text)}
    assert {("MEDICALRECORD", "5444921"), ("MEDICALRECORD", "6241/09576"), ("IDNUM", "0740449")} <= found
    quiet = "Plt 150000, WBC 7.5, weight 72.5 kg, 1/2 tab, BP 120/80, 3.1415926 and 12,345,678"
    assert not format_rule_predictions(quiet)


def test_a_number_after_a_phones_label_is_a_phone_whatever_the_model_typed() -> None:
    text = "Home: 08 4086 6883   Cell: 0488 296 554\nMRN: 08 4086 6883\nHome: 12 Main St"
    home, cell = text.index("08 4086"), text.index("0488")
    mrn, street = text.rindex("08 4086"), text.index("12 Main")
    tagged = [
        Prediction("MEDICALRECORD", home, home + 12, 0.8),
        Prediction("IDNUM", cell, cell + 12, 0.8),
        Prediction("MEDICALRECORD", mrn, mrn + 12, 0.8),  # labelled as a record: stays
        Prediction("STREET", street, street + 10, 0.8),  # no identifier type: stays
    ]
    assert [p.type for p in relabel_labelled_phones(text, tagged)] == [
        "PHONE",
        "PHONE",
        "MEDICALRECORD",
        "STREET",
    ]
