"""Style B: determinism, exact offsets, XML round trip, coverage, collisions, independence from A."""

from __future__ import annotations

import ast
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from annotator.core.schema import load_schema
from annotator.errors import UsageError
from annotator.io.i2b2 import read_i2b2
from annotator.synth.builder import SyntheticNote
from annotator.synth.generator import SyntheticCorpus, generate_corpus, write_corpus
from annotator.synth.style_b import vocab
from annotator.synth.style_b.generator import generate_notes_b

STYLE_A_MODULES = ("notes.py", "notetypes.py", "lexicon.py", "world.py")


@pytest.fixture(scope="module")
def corpus30() -> SyntheticCorpus:
    return generate_corpus(30, seed=4, style="b")


@pytest.fixture(scope="module")
def notes30() -> list[SyntheticNote]:
    return generate_notes_b(30, seed=4)


def test_same_seed_same_notes_other_seed_other_notes() -> None:
    first, again, other = generate_notes_b(5, 9), generate_notes_b(5, 9), generate_notes_b(5, 10)
    assert [(n.doc_id, n.text, n.gold) for n in first] == [(n.doc_id, n.text, n.gold) for n in again]
    assert [n.text for n in first] != [n.text for n in other]


def test_every_tag_text_matches_its_offsets(corpus30: SyntheticCorpus) -> None:
    schema = load_schema("i2b2-2014")
    for name, documents in corpus30.versions().items():
        for document in documents:
            ordered = document.sorted_annotations()
            for annotation in ordered:
                assert document.text[annotation.start : annotation.end] == annotation.text
                # Gold tags hold no surrounding blanks (the simulated annotators' may: boundary errors).
                assert name != "gold" or annotation.text == annotation.text.strip()
                assert schema.is_valid(annotation.tag, annotation.type)
            assert all(a.end <= b.start for a, b in pairwise(ordered))


ID_TYPES = {"MEDICALRECORD", "SSN", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"}


def test_id_and_phone_tags_leave_announcing_punctuation_out(notes30: list[SyntheticNote]) -> None:
    """Guidelines section 2: `MRN #[K8047504]`, not `[#K8047504]`; a phone keeps only `+` and `(...)`."""
    checked: Counter[str] = Counter()
    for note in notes30:
        for span in note.gold:
            text = note.text[span.start : span.end]
            if span.type in ID_TYPES:
                assert text[0].isalnum() and text[-1].isalnum(), (note.doc_id, span.type, text)
            elif span.type in {"PHONE", "FAX"}:
                assert text[-1].isalnum(), (note.doc_id, span.type, text)
                assert text[0].isalnum() or text[0] == "+" or (text[0] == "(" and ")" in text), text
            else:
                continue
            checked[span.type] += 1
    assert checked["MEDICALRECORD"] > 50 and checked["PHONE"] > 20 and checked["DEVICE"] > 0


def test_i2b2_xml_round_trip(corpus30: SyntheticCorpus, tmp_path: Path) -> None:
    versions = [docs[:12] for docs in corpus30.versions().values()]
    small = SyntheticCorpus(versions[0], versions[1], versions[2], versions[3])
    write_corpus(small, tmp_path)
    for document in small.gold:
        back = read_i2b2(tmp_path / "gold" / f"{document.doc_id}.xml")
        assert back.text == document.text
        assert [a.key for a in back.sorted_annotations()] == [a.key for a in document.sorted_annotations()]
    assert {p.parent.name for p in tmp_path.glob("*/*.xml")} == {
        "gold",
        "annotator_a",
        "annotator_b",
        "preannotated",
    }


def test_every_schema_type_in_30_patients(corpus30: SyntheticCorpus) -> None:
    present = {a.type for d in corpus30.gold for a in d}
    assert present == {t.name for t in load_schema("i2b2-2014").types}


def test_patients_have_several_records_and_one_name(corpus30: SyntheticCorpus) -> None:
    by_patient: dict[str, list[str]] = {}
    for document in corpus30.gold:
        by_patient.setdefault(document.patient_id, []).append(document.doc_id)
    assert len(by_patient) == 30
    assert all(2 <= len(ids) <= 5 for ids in by_patient.values())
    for patient in by_patient:
        words = [
            {w.lower() for a in d for w in a.text.replace(",", " ").split() if a.type == "PATIENT"}
            for d in corpus30.gold
            if d.patient_id == patient
        ]
        assert set.intersection(*words), f"patient {patient} is not named the same way in every record"


def test_collision_words_appear_and_are_never_tagged(notes30: list[SyntheticNote]) -> None:
    seen: Counter[str] = Counter()
    for note in notes30:
        for decoy in note.decoys:
            word = note.text[decoy.start : decoy.end]
            seen[word.lower()] += 1
            assert not any(span.start < decoy.end and decoy.start < span.end for span in note.gold)
        # Every eponym phrase written anywhere in the note stays outside every tag.
        for phrase, _, _ in vocab.COLLISIONS:
            for text in (phrase, phrase.upper()):
                start = note.text.find(text)
                while start >= 0:
                    end = start + len(text)
                    assert not any(s.start < end and start < s.end for s in note.gold), (note.doc_id, text)
                    start = note.text.find(text, end)
    for word in ("foley", "blake", "parkinson", "mac", "nash", "long", "ed", "1/2", "5/10"):
        assert seen[word] > 0, word


def test_word_surnames_are_tagged_somewhere(notes30: list[SyntheticNote]) -> None:
    tagged = {note.text[s.start : s.end].split()[-1].title() for note in notes30 for s in note.gold}
    assert len(tagged & set(vocab.WORD_SURNAMES)) >= 3


def _style_a_strings() -> set[str]:
    """Fixed sentences and headings of style A (string constants of 15+ characters with a space)."""
    folder = Path(__file__).resolve().parents[2] / "annotator" / "synth"
    found: set[str] = set()
    for name in STYLE_A_MODULES:
        for node in ast.walk(ast.parse((folder / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.strip(" \n:.,")
                if len(text) >= 15 and " " in text and "{" not in text:
                    found.add(text)
    return found


def test_no_style_a_template_sentence_in_style_b(notes30: list[SyntheticNote]) -> None:
    sentences = _style_a_strings()
    assert len(sentences) > 100  # the sample is real, not empty
    text = "\n".join(note.text for note in notes30)
    assert [s for s in sentences if s in text] == []


def test_style_b_notes_differ_from_style_a_types() -> None:
    a = generate_corpus(3, seed=1)
    b = generate_corpus(3, seed=1, style="b")
    assert not set(a.note_types.values()) & set(b.note_types.values())


def test_unknown_style_refused() -> None:
    with pytest.raises(UsageError, match="style"):
        generate_corpus(1, seed=0, style="z")
