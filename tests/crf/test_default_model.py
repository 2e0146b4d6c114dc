"""The bundled default model: shipped, loadable, shareable, used by 'preannotate default',
and rebuilt byte for byte by its one command."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.crf.default_model import default_model_path, load_default_model
from annotator.crf.tagger import MEMORY_MEMBER
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.synth.generator import generate_corpus

MAX_BYTES = 20 * 1024 * 1024


def test_bundled_model_is_small_shareable_and_tags() -> None:
    path = default_model_path()
    assert path.is_file() and path.stat().st_size <= MAX_BYTES
    tagger = load_default_model()
    assert tagger.metadata is not None and not tagger.metadata.private_features
    document = generate_corpus(patients=1, seed=77, style="b").gold[0]
    assert tagger.predict(document)


def test_bundled_model_reads_a_medication_list_as_no_phi() -> None:
    # "Zestril, Zocor" reads like "Surname, First": a real i2b2 note's medication list was
    # tagged as a doctor until drug names became a feature (resources/lexicons/drugs.txt).
    text = (
        "MEDICATIONS:  Zestril, Zocor, hydrochlorothiazide.\n"
        "Meds: Keppra, Depakote, Ativan prn.\n"
        "ALLERGIES: PENICILLIN, SULFA, KEFLEX.\n"
        "Seen by Dr. Quist today.\n"
    )
    found = load_default_model().predict(Document("100-01", text))
    assert [(a.type, a.text) for a in found] == [("DOCTOR", "Quist")]


def test_preannotate_default_uses_the_bundled_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = generate_corpus(patients=1, seed=78).gold[0]
    plain = tmp_path / "note.xml"
    write_i2b2(source.copy(), plain)
    stripped = read_i2b2(plain)
    for annotation in list(stripped.annotations):
        stripped.remove(annotation.id)
    write_i2b2(stripped, plain)
    out = tmp_path / "out.xml"
    assert main(["preannotate", "default", str(plain), "-o", str(out)]) == 0
    assert "suggestions added" in capsys.readouterr().out
    assert len(read_i2b2(out).annotations) > 0


@pytest.mark.slow
def test_rebuild_command_is_reproducible(tmp_path: Path) -> None:
    files = []
    for name in ("one.model", "two.model"):
        target = tmp_path / name
        command = [sys.executable, "-m", "annotator.workflows.default_model", "-o", str(target)]
        subprocess.run([*command, "--scale", "0.02", "--iterations", "2"], check=True, capture_output=True)
        files.append(target.read_bytes())
    assert files[0] == files[1]


@pytest.mark.slow
def test_bundled_model_holds_no_rare_phi_token_of_its_training_notes() -> None:
    from annotator.workflows.default_model import training_notes
    from tests.crf.test_shareable import distinctive_phi_tokens, leaked

    # The real training notes too, where the PhysioNet corpus is on this machine.
    corpus = os.environ.get("PHYSIONET_DEID")
    tokens = distinctive_phi_tokens(training_notes(physionet=Path(corpus) if corpus else None))
    assert len(tokens) > 1_000
    assert leaked(without_memory(default_model_path().read_bytes()), tokens) == set()


def without_memory(model_bytes: bytes) -> bytes:
    """The model archive without its PHI memory, which holds the real notes' surrogate places
    and clinicians by design (annotator.crf.phi_memory)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(model_bytes)) as source, zipfile.ZipFile(buffer, "w") as target:
        for name in source.namelist():
            if name != MEMORY_MEMBER:
                target.writestr(name, source.read(name))
    return buffer.getvalue()


def test_bundled_model_remembers_places_and_clinicians_only() -> None:
    tagger = load_default_model()
    schema = tagger.schema
    kinds = {schema.category_of(t) if t != "DOCTOR" else t for t in tagger.memory.phrases.values()}
    assert kinds <= {"LOCATION", "DOCTOR"}
    # Nothing of the synthetic notes: every phrase was tagged in the real training notes.
    corpus = os.environ.get("PHYSIONET_DEID")
    if corpus:
        from annotator.workflows.default_model import real_training_notes

        real = "\n".join(d.text.lower() for d in real_training_notes(Path(corpus)))
        assert all(phrase in real for phrase in tagger.memory.phrases)


def test_real_training_notes_learn_our_guidelines_not_safe_harbor(tmp_path: Path) -> None:
    from annotator.workflows.default_model import training_notes

    note = "67 YO MALE ADMITTED FROM GH, TRACH ON MONDAY.\n\n"
    (tmp_path / "id.text").write_text(
        f"START_OF_RECORD=3||||1||||\n{note}||||END_OF_RECORD\n\n", encoding="utf-8"
    )
    start = note.index("GH")
    (tmp_path / "id-phi.phrase").write_text(f"3 1 {start} {start + 2} Location GH\n", encoding="utf-8")
    real = [d for d in training_notes(scale=0.01, physionet=tmp_path) if d.doc_id == "003-01"]
    assert [(a.tag, a.text) for a in sorted(real[0].annotations, key=lambda a: a.start)] == [
        ("AGE", "67"),
        ("LOCATION", "GH"),
        ("DATE", "MONDAY"),
    ]


def test_bundled_model_finds_the_family_and_the_towns_of_a_social_line() -> None:
    # Invented, in the PhysioNet nursing notes' way: names before what they did, a name joined
    # to another by "and", a town after "from" (docs/preannotation.md, nineteenth round).
    text = (
        "social: daughters sarah and margie in to visit today. bob visited during the evening.\n"
        "ADDENDUM- DAUGHTER FROM ROME JUST CALLED FOR UPDATE.\n"
        "Both Suzette and Hank are his appointed health care proxies.\n"
        "No leakage from foley noted.\n"
    )
    found = {a.text for a in load_default_model().predict(Document("100-01", text))}
    assert {"margie", "bob", "ROME", "Hank"} <= found
    assert "foley" not in found


def test_a_no_break_space_hyphen_or_curly_quote_tags_as_an_ascii_one_does() -> None:
    # EHR exports keep the editor's no-break spaces, hyphens and curly quotes: "HOLY\u00a0CROSS
    # HOSPITAL" lost its first word when the hospital's pattern read only " " and "\t" between
    # words, a phone number written with no-break hyphens was no phone, and "\u201992" no year.
    text = (
        "Pt transferred from St. Mary's to HOLY CROSS HOSPITAL last night.\n"
        "Seen by Dr. Holly Rixford, son Don Reid at bedside.\n"
        "Son's cell 410-164-4517, wife 301-680-6286.\n"
        "pmh: cad--s/p mi '92\n s/p cabg/mvr '95\n"
    )
    odd = {
        "St. M": "St.\u00a0M",
        "HOLY CROSS": "HOLY\u00a0CROSS",
        "Dr. H": "Dr.\u2009H",
        "Don Reid": "Don\u202fReid",
        "410-164-4517": "410\u2011164\u20114517",
        "301-680-6286": "301\u2013680\u20136286",
        "Son's": "Son\u2019s",
        "'9": "\u20199",  # a word processor's apostrophe before a year
    }
    spaced = text
    for plain, other in odd.items():
        spaced = spaced.replace(plain, other)
    tagger = load_default_model()
    found = {t: tagger.predict(Document("100-01", t)) for t in (text, spaced)}
    assert [(a.start, a.end, a.type) for a in found[spaced]] == [
        (a.start, a.end, a.type) for a in found[text]
    ]
    assert "HOLY\u00a0CROSS HOSPITAL" in {a.text for a in found[spaced]}  # the note's own characters


def test_accents_written_as_combining_marks_tag_as_composed_letters_do() -> None:
    # Some exports (and macOS file names) write "ñ" as "n" + U+0303: read as written, a name
    # lost what followed its first mark ("José Nun"), a tag ended before a mark and a hospital
    # was missed. The spans are the composed note's, each at its place in the note as written.
    text = (
        "Patient José Nuñez, 67 y/o, seen by Dr. Zoë Brontë at Hôpital Saint-Louis on 03/04/2071.\n"
        "Spoke with his wife Inés Nuñez (phone 555-201-3344). Follow up with Dr. Çelik.\n"
    )
    decomposed = unicodedata.normalize("NFD", text)
    assert decomposed != text
    tagger = load_default_model()
    composed = tagger.predict(Document("100-01", text))
    written = tagger.predict(Document("100-01", decomposed))
    assert [(a.type, unicodedata.normalize("NFC", a.text)) for a in written] == [
        (a.type, a.text) for a in composed
    ]
    assert all(a.text == decomposed[a.start : a.end] for a in written)
    assert "Nun\u0303ez" in {a.text.split()[-1] for a in written}
    # A soft hyphen and a zero-width space inside words are not there for the reader either.
    hidden = text.replace("Nuñez", "Nu\u00adñez").replace("Saint-Louis", "Saint-Lou\u200bis")
    invisible = tagger.predict(Document("100-01", hidden))
    assert [(a.type, a.text.replace("\u00ad", "").replace("\u200b", "")) for a in invisible] == [
        (a.type, a.text) for a in composed
    ]
