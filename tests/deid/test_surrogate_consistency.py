"""One real name or place, one surrogate per patient, however the notes punctuate or case it;
two different ones never merged."""

from __future__ import annotations

import itertools
import random

import pytest

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.lists import load_pairs
from annotator.deid.names import NameMapper, name_key
from annotator.deid.places import place_key
from annotator.deid.surrogates import DeidOptions
from annotator.synth.generator import generate_corpus
from tests.deid.builders import note

# Synthetic names, none of a real patient.
SPELLINGS = ["O'Quelling", "O’Quelling", "OQUELLING", "Oquelling", "O QUELLING", "o quelling", "O-Quelling"]


def surrogates(*documents: Document, seed: int = 5) -> dict[str, list[str]]:
    """Each original tag text (as written) with the surrogates it got, in order."""
    result = deidentify_documents(list(documents), DeidOptions(seed=seed))
    found: dict[str, list[str]] = {}
    for items in result.replaced.values():
        for item in items:
            found.setdefault(item.original.text, []).append(item.new.text)
    return found


def test_name_key_ignores_case_apostrophes_hyphens_blanks_and_diacritics() -> None:
    assert len({name_key(s) for s in SPELLINGS}) == 1
    assert name_key("Nuñez") == name_key("NUNEZ")
    assert name_key("[**Known lastname 12**]") != name_key("[**Known lastname 13**]")


def test_one_name_in_any_spelling_gets_one_surrogate_in_its_own_case() -> None:
    pieces: list[str | tuple[str, str]] = ["Seen by "]
    for spelling in SPELLINGS:
        pieces += [("Dr. " + spelling, "DOCTOR"), " today; "]
    found = surrogates(note("410-01", *pieces))
    made = {spelling: found["Dr. " + spelling][0].removeprefix("Dr. ") for spelling in SPELLINGS}
    assert len({m.lower() for m in made.values()}) == 1, made
    surrogate = made["O'Quelling"]
    assert surrogate.lower() != "oquelling"
    assert made["OQUELLING"] == made["O QUELLING"] == surrogate.upper()
    assert made["o quelling"] == surrogate.lower()


def test_spellings_in_different_notes_of_one_patient_agree() -> None:
    first = note("411-01", "Pt ", ("Ann-Marie Bweightonse", "PATIENT"), " admitted.")
    second = note("411-02", "Pt ", ("ann-marie bweighton se", "PATIENT"), " stable.")
    third = note("411-03", "Spoke with ", ("MR. BWEIGHTON SE", "PATIENT"), ".")
    found = surrogates(first, second, third)
    whole = found["Ann-Marie Bweightonse"][0].split()[-1]
    assert found["ann-marie bweighton se"][0] == found["Ann-Marie Bweightonse"][0].lower()
    assert found["MR. BWEIGHTON SE"][0] == "MR. " + whole.upper()


def test_a_split_name_is_read_whole_only_within_one_tag() -> None:
    # "O" and "Quelling" tagged apart: each tag keeps its own replacement (an initial and a
    # surname), never one tag emptied and the other given the whole name.
    mapper = NameMapper(random.Random(2))
    mapper.learn("O'Quelling")
    tokens = mapper.replace_tokens("O Quelling", tags=[(0, 1), (2, 10)])
    assert [(start, end) for start, end, _ in tokens] == [(0, 1), (2, 10)]
    whole = mapper.replace_tokens("O Quelling", tags=[(0, 10)])
    assert [(start, end) for start, end, _ in whole] == [(0, 10)]
    assert whole[0][2] == mapper.replace("O'Quelling")


@pytest.mark.parametrize("seed", range(6))
def test_different_names_keep_different_surrogates(seed: int) -> None:
    # "Al Bright" and "Albright" are not joined unless the patient writes the joined form;
    # "O Quelling" (an initial and a surname) stays apart from a patient's "Quelling".
    document = note(
        "412-01", "Pt ", ("Al Bright", "PATIENT"), " and Dr. ", ("Quelling", "DOCTOR"),
        " and ", ("O. Quelling", "DOCTOR"), " and ", ("Dr. Zarnowicz", "DOCTOR"), ".",
    )  # fmt: skip
    found = surrogates(document, seed=seed)
    bright = found["Al Bright"][0].split()[-1]
    quelling = found["Quelling"][0]
    assert found["O. Quelling"][0].endswith(" " + quelling)
    assert len({bright, quelling, found["Dr. Zarnowicz"][0].split()[-1]}) == 3


def place_surrogates(*documents: Document, seed: int = 5) -> dict[str, set[str]]:
    """Each original place phrase (tags side by side joined as written) with its surrogates."""
    result = deidentify_documents(list(documents), DeidOptions(seed=seed))
    found: dict[str, set[str]] = {}
    for document in documents:
        items = sorted(result.replaced[document.doc_id], key=lambda r: r.original.start)
        index = 0
        while index < len(items):
            run = [items[index]]
            while index + len(run) < len(items):
                following = items[index + len(run)]
                gap = document.text[run[-1].original.end : following.original.start]
                if gap not in (" ", ". "):
                    break
                run.append(following)
            original = document.text[run[0].original.start : run[-1].original.end]
            gaps = [document.text[a.original.end : b.original.start] for a, b in itertools.pairwise(run)]
            made = run[0].new.text + "".join(g + r.new.text for g, r in zip(gaps, run[1:], strict=True))
            found.setdefault(original, set()).add(made)
            index += len(run)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_an_abbreviation_in_any_case_is_one_place(seed: int) -> None:
    document = note(
        "420-01", "Transferred to ", ("QVH", "LOCATION-OTHER"), " for cath. Was seen at ",
        ("qvh", "LOCATION-OTHER"), " in May; ", ("Qvh", "LOCATION-OTHER"), " cardiology.",
    )  # fmt: skip
    later = note("420-02", "Back from ", ("qvh", "LOCATION-OTHER"), " today.")
    found = place_surrogates(document, later, seed=seed)
    upper = found["QVH"].pop()
    assert upper.isupper() and upper != "QVH"
    assert found["qvh"] == {upper.lower()}
    assert found["Qvh"] == {upper.capitalize()}


def test_a_lower_case_word_is_no_abbreviation_without_the_patients_capitals() -> None:
    # Only the patient's own capitals make "qvh" an abbreviation: another patient's do not.
    mine = note("421-01", "Lives in ", ("qvh", "LOCATION-OTHER"), ".")
    other = note("422-01", "Sent to ", ("QVH", "LOCATION-OTHER"), ".")
    found = place_surrogates(mine, other)
    assert len(found["qvh"].pop()) > 3


@pytest.mark.parametrize("seed", range(4))
def test_a_saint_however_written_is_one_place(seed: int) -> None:
    first = note(
        "423-01", "Transfer to ", ("St. Quillan's", "LOCATION-OTHER"), " hospital. Came from ",
        ("Saint Quillan", "LOCATION-OTHER"), " yesterday.",
    )  # fmt: skip
    # Tagged apart, the dot outside the tags, and in capitals.
    second = note(
        "423-02", "TO GO TO ", ("ST", "LOCATION-OTHER"), ". ", ("QUILLAN", "LOCATION-OTHER"), " ON TUESDAY. ",
        "was at ", ("St", "LOCATION-OTHER"), " ", ("Quillan's", "LOCATION-OTHER"), " last year.",
    )  # fmt: skip
    found = place_surrogates(first, second, seed=seed)
    words = {form: {place_key(made) for made in made_set} for form, made_set in found.items()}
    assert (
        len(words["St. Quillan's"] | words["Saint Quillan"] | words["ST. QUILLAN"] | words["St Quillan's"])
        == 1
    )
    assert "quillan" not in " ".join(made.lower() for made_set in found.values() for made in made_set)
    assert found["ST. QUILLAN"].pop().isupper()


def test_hospital_tags_however_abbreviated_are_one_hospital() -> None:
    document = note(
        "424-01", "Admitted to ", ("St. Quillan Hosp", "HOSPITAL"), ", then ", ("Saint Quillan Hospital", "HOSPITAL"),
        " and ", ("ST QUILLAN HOSPITAL", "HOSPITAL"), "; earlier at ", ("Pellworth Hospital", "HOSPITAL"), ".",
    )  # fmt: skip
    found = surrogates(document)
    names = {
        found[form][0].lower()
        for form in ("St. Quillan Hosp", "Saint Quillan Hospital", "ST QUILLAN HOSPITAL")
    }
    assert len(names) == 1
    assert found["ST QUILLAN HOSPITAL"][0].isupper()
    assert found["Pellworth Hospital"][0].lower() not in names


@pytest.mark.parametrize("seed", range(4))
def test_different_places_keep_different_surrogates(seed: int) -> None:
    document = note(
        "425-01", "From ", ("QVH", "LOCATION-OTHER"), " to ", ("QVB", "LOCATION-OTHER"), ", then ",
        ("St. Quillan", "LOCATION-OTHER"), " hospital and ", ("Quillan", "LOCATION-OTHER"), " hospital.",
    )  # fmt: skip
    found = place_surrogates(document, seed=seed)
    assert found["QVH"] != found["QVB"]
    assert found["St. Quillan"] != found["Quillan"]


def test_a_saint_becomes_another_saint() -> None:
    document = note(
        "426-01", "Accepted by ", ("St.", "LOCATION-OTHER"), " ", ("Quillan", "LOCATION-OTHER"), " for rehab. ",
        "Transfer to ", ("St", "LOCATION-OTHER"), ". ", ("Pellworth's", "LOCATION-OTHER"), " tomorrow.",
    )  # fmt: skip
    found = place_surrogates(document)
    quillan, pellworth = found["St. Quillan"].pop(), found["St. Pellworth's"].pop()
    assert quillan.startswith("St. ") and pellworth.startswith("St. ") and pellworth.endswith("'s")
    assert quillan.removeprefix("St. ") != pellworth.removeprefix("St. ").removesuffix("'s")


def test_a_short_name_in_capitals_is_the_name_the_patient_writes_in_small_letters() -> None:
    # "OJO" alone reads as initials, unless the patient's notes write "Ojo" too.
    first = note("427-01", "Pt ", ("Ojo", "PATIENT"), " admitted.")
    second = note("427-02", "PT ", ("OJO", "PATIENT"), " STABLE.")
    found = surrogates(first, second)
    assert found["OJO"][0] == found["Ojo"][0].upper()


INVENTED = [
    "Quarvel", "Brindom", "Pellworth", "Ostrand", "Velcourt", "Marwick", "Tolland", "Hesketh", "Dunmore",
    "Carrow", "Elsford", "Farnley", "Grisdale", "Halwick", "Ingleby", "Jarrow", "Kelbrook", "Lindal",
    "Morland", "Nethby", "Orrell", "Penwick", "Quenby", "Rilston", "Skelwith", "Thursby", "Ulpha",
    "Vexley", "Wrayton", "Yarwell",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_different_hospitals_of_a_patient_never_share_a_surrogate(seed: int) -> None:
    pieces: list[str | tuple[str, str]] = []
    for name in INVENTED:
        pieces += ["Seen at ", (f"{name} Health Centre", "HOSPITAL"), ". "]
    found = surrogates(note("428-01", *pieces), seed=seed)
    made = [found[f"{name} Health Centre"][0].lower() for name in INVENTED]
    assert len(set(made)) == len(made)


@pytest.mark.parametrize("seed", range(3))
def test_different_places_of_a_patient_never_share_a_surrogate(seed: int) -> None:
    pieces: list[str | tuple[str, str]] = []
    for name in INVENTED:
        pieces += ["Transferred to ", (name, "LOCATION-OTHER"), " for cath.\n"]
    found = surrogates(note("429-01", *pieces), seed=seed)
    made = [found[name][0].lower() for name in INVENTED]
    assert len(set(made)) == len(made)


def test_overlapping_place_tags_are_the_place_the_patients_other_notes_name() -> None:
    text = "Transferred from Quarvel-Brindom Hosp for cath."
    start = text.index("Quarvel")
    overlapping = Document(
        "430-01",
        text,
        [
            Annotation("T0", "LOCATION", "LOCATION-OTHER", start, start + 15, "Quarvel-Brindom"),
            Annotation("T1", "LOCATION", "LOCATION-OTHER", start + 8, start + 20, "Brindom Hosp"),
        ],
    )
    other = note(
        "430-02",
        "Admitted from ",
        ("Quarvel", "LOCATION-OTHER"),
        " ",
        ("Brindom", "LOCATION-OTHER"),
        " for MI.",
    )
    result = deidentify_documents([overlapping, other], DeidOptions(seed=3))
    region = next(r.new.text for r in result.replaced["430-01"])
    words = [r.new.text for r in result.replaced["430-02"]]
    assert region == f"{words[0]}-{words[1]} Hosp"


@pytest.mark.parametrize("seed", range(4))
def test_a_state_by_its_name_or_its_code_is_one_state(seed: int) -> None:
    document = note(
        "431-01", "Lives in ", ("MA", "STATE"), "; born in ", ("Massachusetts", "STATE"), ", moved from ",
        ("Connecticut", "STATE"), " and ", ("CT", "STATE"), ". Home: ", ("MA", "LOCATION-OTHER"), " and ",
        ("Massachusetts", "LOCATION-OTHER"), ".",
    )  # fmt: skip
    result = deidentify_documents([document], DeidOptions(seed=seed))
    pairs = {(r.original.type, r.original.text): r.new.text for r in result.replaced["431-01"]}
    codes = {name: code for name, code in load_pairs("states")}
    for type_ in ("STATE", "LOCATION-OTHER"):
        assert codes[pairs[(type_, "Massachusetts")]] == pairs[(type_, "MA")] != "MA"
    assert codes[pairs[("STATE", "Connecticut")]] == pairs[("STATE", "CT")]
    assert pairs[("STATE", "CT")] != pairs[("STATE", "MA")]


def test_the_state_list_pairs_each_state_with_its_own_code() -> None:
    codes = dict(load_pairs("states"))
    assert (codes["Massachusetts"], codes["Florida"], codes["New York"], codes["Wyoming"]) == (
        "MA",
        "FL",
        "NY",
        "WY",
    )
    assert len(set(codes.values())) == len(codes) == 50


def test_a_name_with_combining_accents_or_hidden_characters_is_the_same_name() -> None:
    # "José Nuñez" written with combining accents, or with a soft hyphen inside (exports, word
    # processors), was cut at each mark: "Colleeń Vernoñpatterson", the mark carried into the
    # surrogate and a second surname made up for "ez". It is one name, one surrogate.
    first = note("400-01", "Patient ", ("José Nuñez", "PATIENT"), " seen.")
    second = note(
        "400-02",
        "Patient ",
        ("Jose\u0301 Nun\u0303ez", "PATIENT"),
        " seen; ",
        ("Nu\u00adñez", "PATIENT"),
        " and ",
        ("Jo\u200bsé", "PATIENT"),
        " agree.",
    )
    found = surrogates(first, second)
    (whole,) = found["José Nuñez"]
    given, surname = whole.split()
    assert found["Jose\u0301 Nun\u0303ez"] == [whole]
    assert found["Nu\u00adñez"] == [surname]
    assert found["Jo\u200bsé"] == [given]


@pytest.mark.parametrize("seed", [0, 82, 100, 104])
def test_no_surrogate_is_a_name_of_the_patient_written_without_its_accents(seed: int) -> None:
    # A patient "Ponce, Mónica": her mother's surrogate was drawn as "Monica" at these export
    # seeds, the patient's own first name as a system without accents writes it (the leak
    # check rightly refused it). Surrogates avoid each original name in that spelling too.
    corpus = generate_corpus(patients=9, seed=23).gold
    outputs = deidentify_documents(corpus, DeidOptions(seed=seed)).documents
    assert find_leaks(corpus, outputs) == []


@pytest.mark.parametrize("seed", range(6))
def test_a_state_tagged_with_any_location_type_is_one_state(seed: int) -> None:
    # One patient's "MA" tagged STATE, LOCATION-OTHER and inside a CITY tag is one state.
    first = note(
        "432-01", "Lives in ", ("MA", "STATE"), "; home in ", ("Quarvel, MA", "CITY"), ".",
    )  # fmt: skip
    second = note(
        "432-02", "Moved from ", ("MA", "LOCATION-OTHER"), " and ", ("Massachusetts", "LOCATION-OTHER"),
        ", then ", ("Connecticut", "STATE"), ".",
    )  # fmt: skip
    result = deidentify_documents([first, second], DeidOptions(seed=seed))
    made = {
        (r.original.type, r.original.text): r.new.text for items in result.replaced.values() for r in items
    }
    code = made[("STATE", "MA")]
    assert code != "MA" and code.isupper() and len(code) == 2
    assert made[("LOCATION-OTHER", "MA")] == code
    assert made[("CITY", "Quarvel, MA")].endswith(", " + code)
    assert dict(load_pairs("states"))[made[("LOCATION-OTHER", "Massachusetts")]] == code
    # Another state of the patient keeps another surrogate.
    assert dict(load_pairs("states"))[made[("STATE", "Connecticut")]] != code


def _suffix(street: str) -> str:
    return street.split()[-1]


@pytest.mark.parametrize("seed", range(6))
def test_a_street_with_its_suffix_abbreviated_or_not_is_one_street(seed: int) -> None:
    first = note(
        "433-01", "Lives at ", ("12 Pellworth St", "STREET"), ", mail to ", ("12 Pellworth Street", "STREET"),
        "; daughter at ", ("7 Velcourt Rd.", "STREET"), ".",
    )  # fmt: skip
    second = note(
        "433-02", "Address: ", ("12 PELLWORTH ST.", "STREET"), ", daughter ", ("7 Velcourt Road", "STREET"),
        "; office ", ("12 Saint Quillan Ave", "STREET"), " and ", ("12 St. Quillan Avenue", "STREET"), ".",
    )  # fmt: skip
    made = {form: made_set.pop() for form, made_set in place_surrogates(first, second, seed=seed).items()}
    short, full, capitals = made["12 Pellworth St"], made["12 Pellworth Street"], made["12 PELLWORTH ST."]
    assert "pellworth" not in (short + full).lower()
    # One street, each written in its own form: the abbreviation stays an abbreviation.
    assert short.rsplit(" ", 1)[0] == full.rsplit(" ", 1)[0] == capitals.rsplit(" ", 1)[0].title()
    abbreviations = dict((full_form, abbr) for full_form, abbr in load_pairs("street_suffixes"))
    assert abbreviations[_suffix(full)] == _suffix(short) != _suffix(full)
    assert _suffix(capitals) == _suffix(short).upper() + "."
    road, road_short = made["7 Velcourt Road"], made["7 Velcourt Rd."]
    assert road.rsplit(" ", 1)[0] == road_short.rsplit(" ", 1)[0] != short.rsplit(" ", 1)[0]
    assert _suffix(road_short) == abbreviations[_suffix(road)] + "."
    # "St." before the street's name is a saint's, however written.
    saint, saint_short = made["12 Saint Quillan Ave"], made["12 St. Quillan Avenue"]
    assert saint.rsplit(" ", 1)[0] == saint_short.rsplit(" ", 1)[0]


@pytest.mark.parametrize("seed", range(6))
def test_a_street_in_a_place_phrase_keeps_one_name_for_both_suffix_forms(seed: int) -> None:
    document = note(
        "434-01", "Lives on ", ("Velcourt Ave", "LOCATION-OTHER"), ", mail to ", ("Velcourt Avenue", "LOCATION-OTHER"),
        ", shop on ", ("Pellworth Dr", "LOCATION-OTHER"), " and ", ("PELLWORTH DRIVE", "LOCATION-OTHER"),
        "; brother on ", ("Brindom St", "LOCATION-OTHER"), ".",
    )  # fmt: skip
    made = {form: made_set.pop() for form, made_set in place_surrogates(document, seed=seed).items()}
    assert made["Velcourt Ave"].endswith(" Ave") and made["Velcourt Avenue"].endswith(" Avenue")
    assert made["Velcourt Ave"].split()[:-1] == made["Velcourt Avenue"].split()[:-1]
    assert "velcourt" not in made["Velcourt Ave"].lower()
    assert made["PELLWORTH DRIVE"] == made["Pellworth Dr"].upper().replace(" DR", " DRIVE")
    assert made["Brindom St"].endswith(" St") and "brindom" not in made["Brindom St"].lower()


@pytest.mark.parametrize("seed", range(6))
def test_a_saint_written_with_its_initial_is_the_saints_place(seed: int) -> None:
    # "St A." for the patient's "St. Agnes": the initial of the saint that replaced Agnes.
    later = note(
        "435-02", "Back to ", ("St Q.", "LOCATION-OTHER"), " on Monday; ", ("ST Q", "LOCATION-OTHER"), " called.",
    )  # fmt: skip
    first = note(
        "435-01", "Transfer to ", ("St. Quillan's", "LOCATION-OTHER"), " hospital; earlier at ",
        ("St", "LOCATION-OTHER"), ". ", ("Pellworth", "LOCATION-OTHER"), ".",
    )  # fmt: skip
    made = {form: made_set.pop() for form, made_set in place_surrogates(later, first, seed=seed).items()}
    quillan = made["St. Quillan's"].removeprefix("St. ")
    assert made["St Q."] == f"St {quillan[0]}." and quillan[0] != "Q"
    assert made["ST Q"] == f"ST {quillan[0]}"
    # A saint of another initial stays another saint.
    assert made["St. Pellworth"] != made["St. Quillan's"].removesuffix("'s")
