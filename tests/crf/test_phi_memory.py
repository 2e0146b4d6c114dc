"""The places and clinicians a model's training gold tagged (annotator.crf.phi_memory)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.crf.evidence import PhiEvidence
from annotator.crf.phi_memory import MEMORY_ORIGIN, PhiMemory
from annotator.crf.postprocess import postprocess_document
from annotator.crf.tagger import MEMORY_MEMBER, CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.errors import ModelError

SCHEMA = load_schema("i2b2-2014")
TYPES = {
    "HOSPITAL": "LOCATION",
    "STREET": "LOCATION",
    "ZIP": "LOCATION",
    "DOCTOR": "NAME",
    "PATIENT": "NAME",
    "DATE": "DATE",
}


def note(doc_id: str, text: str, *tagged: tuple[str, str]) -> Document:
    """``text`` with each (words, type) tagged at its first occurrence after the previous one."""
    annotations, position = [], 0
    for number, (words, type_name) in enumerate(tagged):
        start = text.index(words, position)
        position = start + len(words)
        annotations.append(Annotation(f"P{number}", TYPES[type_name], type_name, start, position, words))
    return Document(doc_id, text, annotations)


def test_a_place_tagged_as_two_words_is_remembered_as_one_phrase() -> None:
    documents = [
        note("1-1", "transferred from Holy Cross today", ("Holy", "HOSPITAL"), ("Cross", "HOSPITAL")),
        note("2-1", "back to HOLY CROSS tomorrow", ("HOLY CROSS", "HOSPITAL")),
        note("3-1", "cross checked meds"),
    ]
    memory = PhiMemory.learn(documents, SCHEMA)
    assert memory.phrases == {"holy cross": "HOSPITAL"}


def test_a_phrase_left_untagged_too_often_is_not_remembered() -> None:
    # Places need half their occurrences tagged; clinicians four in five.
    place = [note("1-1", "seen at Harbor", ("Harbor", "HOSPITAL")), note("1-2", "harbor seal and harbor")]
    assert PhiMemory.learn(place, SCHEMA).phrases == {}
    doctors = [note(f"{n}-1", "dr kearns aware", ("kearns", "DOCTOR")) for n in range(4)]
    assert PhiMemory.learn(doctors, SCHEMA).phrases == {"kearns": "DOCTOR"}
    with_kearns = [*doctors, note("9-1", "kearns unit"), note("9-2", "kearns pump")]
    assert PhiMemory.learn(with_kearns, SCHEMA).phrases == {}


def test_a_clinician_whose_name_is_a_word_is_not_remembered_alone() -> None:
    # "price" and "walker" are words wherever no title stands before them.
    doctors = [
        note(f"{n}-1", "dr walker and dr price aware", ("walker", "DOCTOR"), ("price", "DOCTOR"))
        for n in range(3)
    ]
    assert PhiMemory.learn(doctors, SCHEMA).phrases == {}
    full = [note(f"{n}-1", "paged Tom Walker", ("Tom Walker", "DOCTOR")) for n in range(3)]
    assert PhiMemory.learn(full, SCHEMA).phrases == {"tom walker": "DOCTOR"}


def test_a_remembered_clinician_before_an_eponym_head_is_the_eponym() -> None:
    memory = PhiMemory({"murphy": "DOCTOR", "foley": "HOSPITAL"})
    text = "Murphy sign negative; Murphy's sign; dr murphy aware; foley catheter"
    found = [text[p.start : p.end] for p in memory.predictions(text)]
    assert found == ["murphy", "foley"]  # places are not eponyms


def test_patients_and_dates_are_never_remembered() -> None:
    documents = [
        note("1-1", "Mrs Brucer seen 7/23", ("Brucer", "PATIENT"), ("7/23", "DATE")),
        note("1-2", "Mrs Brucer seen 7/23", ("Brucer", "PATIENT"), ("7/23", "DATE")),
    ]
    assert not PhiMemory.learn(documents, SCHEMA)


def test_a_patients_street_address_and_zip_are_never_remembered() -> None:
    text = "Lives at 340 Harbor Avenue, 02139; seen at Kernan"
    documents = [
        note(f"1-{n}", text, ("340 Harbor Avenue", "STREET"), ("02139", "ZIP"), ("Kernan", "HOSPITAL"))
        for n in (1, 2)
    ]
    # A home is one patient's, not a place the site's notes share (a private model kept it).
    assert PhiMemory.learn(documents, SCHEMA).phrases == {"kernan": "HOSPITAL"}


def test_remembered_phrases_are_found_as_whole_words_in_any_case() -> None:
    memory = PhiMemory({"holy cross": "HOSPITAL", "gh": "HOSPITAL"})
    text = "REFERRED TO GH. had transplant at Holy  Cross? no: holy crossing, ghost"
    found = [(text[p.start : p.end], p.type, p.origin) for p in memory.predictions(text)]
    assert found == [("GH", "HOSPITAL", MEMORY_ORIGIN)]  # "Holy  Cross" has two spaces
    text = "at Holy Cross and holy cross"
    assert [text[p.start : p.end] for p in memory.predictions(text)] == ["Holy Cross", "holy cross"]
    assert memory.predictions(text, allowed={"DOCTOR"}) == []


def test_a_remembered_phrase_stands_where_the_model_suspects_nothing() -> None:
    text = "pt followed at gh by healey."
    tokens = tokenize(text)
    doubtless = PhiEvidence()
    doubtless.extend(tokens, [0.9999] * len(tokens))
    memory = PhiMemory({"gh": "HOSPITAL"})
    spans = postprocess_document(text, tokens, [], evidence=doubtless, memory=memory)
    assert [(text[p.start : p.end], p.origin) for p in spans] == [("gh", MEMORY_ORIGIN)]
    assert postprocess_document(text, tokens, [], evidence=doubtless) == []


def _documents() -> list[Document]:
    text = "Transferred from Holy Cross. Seen by Dr. Walker and Dr. Kearns. Mrs Brucer resting."
    tags = (
        ("Holy Cross", "HOSPITAL"),
        ("Walker", "DOCTOR"),
        ("Kearns", "DOCTOR"),
        ("Brucer", "PATIENT"),
    )
    return [note(f"{n:03d}-01", text, *tags) for n in range(1, 7)]


def test_only_a_private_model_remembers_and_its_file_keeps_the_memory(tmp_path: Path) -> None:
    shared = CrfTagger(max_iterations=3)
    shared.train(_documents())
    assert not shared.memory
    with zipfile.ZipFile(io.BytesIO(shared.to_bytes())) as archive:
        assert MEMORY_MEMBER not in archive.namelist()

    private = CrfTagger(max_iterations=3, private_features=True)
    private.train(_documents())
    assert private.memory.phrases == {"holy cross": "HOSPITAL", "kearns": "DOCTOR"}
    path = tmp_path / "site.model"
    private.save(path)
    loaded = CrfTagger.load(path)
    assert loaded.memory.phrases == private.memory.phrases
    text = "back to HOLY CROSS; KEARNS aware"
    spans = loaded.predict_spans([Document("200-01", text)])["200-01"]
    assert {text[p.start : p.end] for p in spans} >= {"HOLY CROSS", "KEARNS"}


@pytest.mark.parametrize(
    "memory",
    [
        b"not json",
        json.dumps({"version": 2, "phrases": {}}).encode(),
        json.dumps({"version": 1, "phrases": {"holy cross": "SPACESHIP"}}).encode(),
        json.dumps({"version": 1, "phrases": {"Holy Cross": "HOSPITAL"}}).encode(),
        json.dumps({"version": 1, "phrases": ["holy cross"]}).encode(),
    ],
)
def test_a_model_with_a_corrupt_memory_is_refused_in_one_line(tmp_path: Path, memory: bytes) -> None:
    tagger = CrfTagger(max_iterations=2, private_features=True)
    tagger.train(_documents())
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(tagger.to_bytes())) as source, zipfile.ZipFile(buffer, "w") as target:
        for name in source.namelist():
            target.writestr(name, memory if name == MEMORY_MEMBER else source.read(name))
    path = tmp_path / "bad.model"
    path.write_bytes(buffer.getvalue())
    with pytest.raises(ModelError) as raised:
        CrfTagger.load(path)
    assert "PHI memory" in str(raised.value) and "\n" not in str(raised.value)
    assert "holy" not in str(raised.value).lower()
