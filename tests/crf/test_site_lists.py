"""A site's own names and places (annotator.crf.site_lists): reading them, and what stands."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.crf.evidence import SITE_LIST_ORIGIN, PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import postprocess_document
from annotator.crf.site_lists import add_site_phrases, site_list_predictions
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.errors import InputError
from annotator.io.site_lists import MAX_LIST_BYTES, SiteLists, read_site_lists

SCHEMA = load_schema("i2b2-2014")


def lists_file(tmp_path: Path, text: str, name: str = "site.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def found(
    text: str, lists: SiteLists, patient: str | None = None, suspected: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """(type, words) of each listed phrase that stands, the model suspecting ``suspected`` only."""
    tokens = tokenize(text)
    evidence = PhiEvidence()
    evidence.extend(tokens, [0.2 if t.text in suspected else 0.999 for t in tokens])
    return [
        (p.type, text[p.start : p.end])
        for p in site_list_predictions(lists, text, patient, None, evidence.strongest)
    ]


def test_a_tab_separated_list_gives_site_phrases_and_patient_phrases(tmp_path: Path) -> None:
    path = lists_file(
        tmp_path,
        "# our hospitals and staff\nHOSPITAL\tKernan Hospital\nDOCTOR\tKondouli\n\nPATIENT\tMasci\t073\n",
    )
    lists = read_site_lists(path, SCHEMA)
    assert len(lists) == 3
    text = "seen at KERNAN HOSPITAL by kondouli; Masci resting"
    assert found(text, lists, "73") == [
        ("HOSPITAL", "KERNAN HOSPITAL"),
        ("DOCTOR", "kondouli"),
        ("PATIENT", "Masci"),
    ]
    # A patient's name is PHI in that patient's notes; elsewhere it is left to the model.
    assert ("PATIENT", "Masci") not in found(text, lists, "74")


def test_deid_pl_lists_folder_is_read_as_deid_pl_reads_it(tmp_path: Path) -> None:
    (tmp_path / "doctor_last_names.txt").write_text("KONDOULI\nTURA\n", encoding="utf-8")
    (tmp_path / "stripped_hospitals.txt").write_text("GBMC\nUnion Hospital\n", encoding="utf-8")
    (tmp_path / "local_places_unambig.txt").write_text("Randallstown\nEastern Shore\n", encoding="utf-8")
    (tmp_path / "pid_patientname.txt").write_text(
        "1||||GERRY||||MASCI\n2||||RADU||||CROSSON\n", encoding="utf-8"
    )
    lists = read_site_lists(tmp_path, SCHEMA)
    text = (
        "FROM THE EASTERN SHORE, W/U BY GBMC. BEA TURA AWARE. Radu wishes DNR. has a bakery in Randallstown"
    )
    assert found(text, lists, "002") == [
        ("CITY", "EASTERN SHORE"),
        ("HOSPITAL", "GBMC"),
        ("DOCTOR", "TURA"),
        ("PATIENT", "Radu"),
        ("CITY", "Randallstown"),
    ]
    assert ("PATIENT", "Radu") not in found(text, lists, "001")


def test_a_listed_english_word_stands_only_where_the_model_suspects_phi(tmp_path: Path) -> None:
    lists = read_site_lists(lists_file(tmp_path, "HOSPITAL\tHarbor\nDOCTOR\tGrace\n"), SCHEMA)
    text = "Wants to go to Harbor. NP grace made aware. Harbor seal. said grace"
    assert found(text, lists) == []
    assert found(text, lists, suspected=frozenset({"Harbor", "grace"})) == [
        ("HOSPITAL", "Harbor"),
        ("DOCTOR", "grace"),
        ("HOSPITAL", "Harbor"),
        ("DOCTOR", "grace"),
    ]


def test_no_eponym_and_no_contraction_is_taken_for_a_listed_name(tmp_path: Path) -> None:
    lists = read_site_lists(lists_file(tmp_path, "DOCTOR\tWilson\nPATIENT\tDon\t1\nDOCTOR\tFoley\n"), SCHEMA)
    everything = frozenset({"Wilson", "don", "Foley", "Don"})
    text = (
        "a question of wilson's disease. I don't remember. Foley catheter draining. Don visited, Foley aware"
    )
    assert found(text, lists, "1", everything) == [("PATIENT", "Don"), ("DOCTOR", "Foley")]


def test_a_listed_phrase_takes_over_the_pieces_found_inside_it(tmp_path: Path) -> None:
    lists = read_site_lists(
        lists_file(tmp_path, "HOSPITAL\tUnion Memorial Hospital\nCITY\tTowson\nDOCTOR\tKondouli\n"), SCHEMA
    )
    text = "TAKEN TO UNION MEMORIAL HOSPITAL. lives in Towson. son Kondouli visited"
    start, towson, son = text.index("UNION"), text.index("Towson"), text.index("Kondouli")
    pieces = [
        Prediction("CITY", start, start + 5, 0.6, "crf"),
        Prediction("DOCTOR", towson, towson + 6, 0.7, "crf"),
        Prediction("PATIENT", son, son + 8, 0.8, "crf"),
    ]
    result = add_site_phrases(lists, text, pieces)
    # The whole hospital replaces the model's "UNION", the town its "name"; a name the model
    # found whole keeps the model's reading of whose it is (a relative here).
    assert [(p.type, text[p.start : p.end], p.origin) for p in result] == [
        ("HOSPITAL", "UNION MEMORIAL HOSPITAL", SITE_LIST_ORIGIN),
        ("CITY", "Towson", SITE_LIST_ORIGIN),
        ("PATIENT", "Kondouli", "crf"),
    ]


def test_postprocessing_adds_listed_phrases_even_where_the_model_suspects_nothing(tmp_path: Path) -> None:
    lists = read_site_lists(lists_file(tmp_path, "DOCTOR\tKondouli\n"), SCHEMA)
    text = "mary theresa kondouli from speech and swallow in to see pt"
    tokens = tokenize(text)
    evidence = PhiEvidence()
    evidence.extend(tokens, [0.999] * len(tokens))
    without = postprocess_document(text, tokens, [], None, evidence)
    assert without == []
    with_lists = postprocess_document(text, tokens, [], None, evidence, site_lists=lists)
    assert [(p.type, text[p.start : p.end]) for p in with_lists] == [("DOCTOR", "kondouli")]


def test_the_tagger_uses_the_site_lists_it_is_given(trained_tagger: CrfTagger, tmp_path: Path) -> None:
    note = Document("073-01", "11p-7a: Masci arrived in micu at 2300, seen by zzkondouli.", [])
    before = trained_tagger.predict_spans([note])[note.doc_id]
    assert not any(note.text[p.start : p.end] == "zzkondouli" for p in before)
    trained_tagger.site_lists = read_site_lists(lists_file(tmp_path, "DOCTOR\tzzkondouli\n"), SCHEMA)
    try:
        after = trained_tagger.predict_spans([note])[note.doc_id]
    finally:
        trained_tagger.site_lists = None
    assert ("DOCTOR", "zzkondouli") in [(p.type, note.text[p.start : p.end]) for p in after]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("HOSPITAL Kernan\n", "line 1 is not 'TYPE<tab>phrase'"),
        ("HOSPITAL\tKernan\nNOT_A_TYPE\tKernan\n", "line 2: its first column is not a type of the schema"),
        ("PATIENT\tMasci\t \n", "line 1: the patient id is empty"),
        ("HOSPITAL\t" + "x" * 81 + "\n", "line 1: a phrase is longer than 80 characters"),
        ("DOCTOR\tAd\x00ams\n", "line 1: a phrase holds the control character U+0000"),
        ("HOSPITAL\tKernan\nDOCTOR\tSmith\x07\n", "line 2: a phrase holds the control character U+0007"),
        ("# nothing but a comment\n\n", "the site list holds no phrase"),
    ],
)
def test_a_bad_list_file_is_refused_with_its_line(tmp_path: Path, content: str, message: str) -> None:
    path = lists_file(tmp_path, content)
    with pytest.raises(InputError) as caught:
        read_site_lists(path, SCHEMA)
    assert message in caught.value.one_line()
    assert "site.tsv" in caught.value.one_line()


def test_a_list_that_is_not_utf8_or_a_folder_without_lists_is_refused(tmp_path: Path) -> None:
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("CITY\tGen\xe8ve\n".encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8 text"):
        read_site_lists(latin, SCHEMA)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match=r"deid\.pl's lists"):
        read_site_lists(empty, SCHEMA)
    (empty / "pid_patientname.txt").write_text("1 GERRY MASCI\n", encoding="utf-8")
    with pytest.raises(InputError, match="the schema has no type PATIENT"):
        read_site_lists(empty, load_schema("cchmc-12"))
    with pytest.raises(InputError, match="line 1 is not 'patient id"):
        read_site_lists(empty, SCHEMA)


def test_a_huge_file_or_a_pipe_as_site_list_is_refused_at_once(tmp_path: Path) -> None:
    huge = tmp_path / "huge.tsv"
    with huge.open("wb") as handle:
        handle.truncate(MAX_LIST_BYTES + 1)
    with pytest.raises(InputError, match="byte limit for a site list"):
        read_site_lists(huge, SCHEMA)
    pipe = tmp_path / "pipe.tsv"
    os.mkfifo(pipe)
    with pytest.raises(InputError, match="not a regular file"):
        read_site_lists(pipe, SCHEMA)


def test_what_a_site_marked_ambiguous_stands_only_where_the_model_suspects_phi(tmp_path: Path) -> None:
    # deid.pl's _ambig lists: names the site knows are also words ("Parkville" the place,
    # "parkville" rare in English all the same).
    (tmp_path / "local_places_ambig.txt").write_text("Parkville\n", encoding="utf-8")
    (tmp_path / "local_places_unambig.txt").write_text("Randallstown\n", encoding="utf-8")
    lists = read_site_lists(tmp_path, SCHEMA)
    assert lists.ambiguous("PARKVILLE") and not lists.ambiguous("Randallstown")
    text = "lives in Parkville near Randallstown"
    assert found(text, lists) == [("CITY", "Randallstown")]
    assert found(text, lists, suspected=frozenset({"Parkville"})) == [
        ("CITY", "Parkville"),
        ("CITY", "Randallstown"),
    ]
