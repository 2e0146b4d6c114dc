"""Style C (written blind, test-only): exact offsets, determinism, coverage, clean boundaries."""

from __future__ import annotations

import re
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.schema import load_schema
from annotator.io.i2b2 import read_i2b2
from annotator.synth.builder import NoteBuilder, SyntheticNote
from annotator.synth.generator import SyntheticCorpus, generate_corpus
from annotator.synth.style_c.generator import NOTE_TYPES_C, generate_notes_c
from annotator.synth.style_c.writing import say
from annotator.workflows.default_model import TRAINING_CORPORA

# Characters that announce PHI ("MRN:", "Ph (", "#") or end a sentence: never inside a tag's edge.
BAD_EDGE = set(" \t\n:;,#([{") | {"."}
BAD_START = BAD_EDGE | {")"}
# A time of day (14:30, 1430h): never part of a DATE tag.
TIME = re.compile(r"\d:\d\d|\d{4}h\b")


@pytest.fixture(scope="module")
def corpus30() -> SyntheticCorpus:
    return generate_corpus(30, seed=41, style="c")


def test_say_marks_the_exact_text_even_in_capitals() -> None:
    builder = NoteBuilder()
    say(
        builder, "Pt: ", ("PATIENT", "Ryan Gallagher"), "  chart ", ("MEDICALRECORD", "00-44-1298"), caps=True
    )
    text = builder.text()
    assert text == "PT: RYAN GALLAGHER  CHART 00-44-1298\n"
    assert [(text[s.start : s.end], s.type) for s in builder.spans] == [
        ("RYAN GALLAGHER", "PATIENT"),
        ("00-44-1298", "MEDICALRECORD"),
    ]


def test_a_phone_numbers_extension_is_a_phone_of_its_own() -> None:
    builder = NoteBuilder()
    say(
        builder,
        "NOK: ",
        ("PHONE", "1-289-555-4372 ext 319"),
        " fax ",
        ("FAX", "(942) 555-2474 X26"),
        caps=True,
    )
    text = builder.text()
    assert [(text[s.start : s.end], s.type) for s in builder.spans] == [
        ("1-289-555-4372", "PHONE"),
        ("319", "PHONE"),
        ("(942) 555-2474", "FAX"),
        ("26", "PHONE"),
    ]


def test_offsets_survive_writing_and_reading(tmp_path: Path) -> None:
    out = tmp_path / "c"
    assert main(["synth", str(out), "--style", "c", "--patients", "4", "--seed", "3"]) == 0
    files = sorted((out / "gold").glob("*.xml"))
    assert len(files) >= 8
    for path in files:
        document = read_i2b2(path)
        assert len(document) > 5
        for annotation in document:
            assert document.text[annotation.start : annotation.end] == annotation.text


def test_same_seed_same_notes_other_seed_other_patients() -> None:
    def keyed(notes: list[SyntheticNote]) -> list[tuple[str, str, list[tuple[int, int, str]]]]:
        return [(n.doc_id, n.text, [(s.start, s.end, s.type) for s in n.gold]) for n in notes]

    first, again, other = generate_notes_c(6, 7), generate_notes_c(6, 7), generate_notes_c(6, 8)
    assert keyed(first) == keyed(again)

    def patients(notes: list[SyntheticNote]) -> set[str]:
        return {n.text[s.start : s.end].lower() for n in notes for s in n.gold if s.type == "PATIENT"}

    overlap = patients(first) & patients(other)
    assert len(overlap) <= len(patients(first)) // 5


def test_every_type_of_the_schema_appears_in_30_patients(corpus30: SyntheticCorpus) -> None:
    schema = load_schema("i2b2-2014")
    seen = {(a.tag, a.type) for d in corpus30.gold for a in d}
    assert seen == {(t.category, t.name) for t in schema.types}
    assert set(corpus30.note_types.values()) == set(NOTE_TYPES_C)


def test_no_tag_begins_or_ends_with_space_or_announcing_punctuation(corpus30: SyntheticCorpus) -> None:
    for document in corpus30.gold:
        for annotation in document:
            text = annotation.text
            assert text, document.doc_id
            # A phone number's own area code may open with a bracket: "(06) 631 1798".
            bad_start = BAD_START - {"("} if annotation.tag == "CONTACT" else BAD_START
            assert text[0] not in bad_start and text[-1] not in BAD_EDGE, (
                document.doc_id,
                annotation.type,
                text,
            )
            assert "\n" not in text
            # Articles, like titles, stay outside: "the [Millbrook flood]".
            assert not text.lower().startswith("the "), (document.doc_id, annotation.type, text)


def test_tags_do_not_overlap_and_times_are_left_out(corpus30: SyntheticCorpus) -> None:
    for document in corpus30.gold:
        spans = document.sorted_annotations()
        for before, after in pairwise(spans):
            assert before.end <= after.start, document.doc_id
        for annotation in document:
            if annotation.type == "DATE":
                assert TIME.search(annotation.text) is None, annotation.text


def test_a_patient_keeps_one_identity_across_notes(corpus30: SyntheticCorpus) -> None:
    words: dict[str, list[set[str]]] = defaultdict(list)
    for document in corpus30.gold:
        names = {word.strip(",.").lower() for a in document if a.type == "PATIENT" for word in a.text.split()}
        words[document.patient_id].append(names)
    assert len(words) == 30
    for patient, per_note in words.items():
        assert len(per_note) >= 2
        assert set.intersection(*per_note), patient


def test_the_default_model_trains_on_every_style_on_seeds_no_benchmark_tests_on() -> None:
    # The benchmarks test on seeds below 100; the default model's notes come from seeds above.
    assert {style for style, *_ in TRAINING_CORPORA} == {"a", "b", "c"}
    assert all(seed >= 100 for _, seed, _ in TRAINING_CORPORA)
