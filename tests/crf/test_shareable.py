"""A saved model names no rare token of its training gold unless asked to keep them."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.crf.features import is_public
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.io.i2b2 import write_i2b2

# Generated at training time, not taken from the training text: left out of the scan.
GENERATED_METADATA = ("training_hash", "created")


def distinctive_phi_tokens(documents: list[Document]) -> set[str]:
    """Tokens of the gold's PHI that are not public vocabulary: rare words of 4+ letters
    (names, streets, cities) and runs of 5+ digits (record numbers, phone digits)."""
    found = set()
    for document in documents:
        for annotation in document.annotations:
            for token in tokenize(annotation.text):
                lower = token.text.lower()
                if is_public(lower):
                    continue
                if (lower.isalpha() and len(lower) >= 4) or (lower.isdigit() and len(lower) >= 5):
                    found.add(lower)
    return found


def archive_bytes(model_bytes: bytes) -> bytes:
    """Every member of the model archive (features name lower-case words; the binary weights
    are not lower-cased, which would make chance hits sixteen times likelier)."""
    parts = []
    with zipfile.ZipFile(io.BytesIO(model_bytes)) as archive:
        for name in archive.namelist():
            data = archive.read(name)
            if name == "metadata.json":
                metadata = json.loads(data)
                for key in GENERATED_METADATA:
                    metadata.pop(key)
                data = json.dumps(metadata).encode("utf-8")
            parts.append(data)
    return b"\0".join(parts)


def leaked(model_bytes: bytes, tokens: set[str]) -> set[str]:
    """Tokens found as whole words anywhere in the archive.

    An affix feature (``s4:mary``, the last letters of "summary") may spell a short name
    while naming a public word: hits right after an affix key are not counted. Rare words
    get no such features, so a leak through them would still show as ``w:``, a window or a
    word pair.
    """
    content = archive_bytes(model_bytes)
    alternation = b"|".join(re.escape(t.encode("utf-8")) for t in sorted(tokens, key=len, reverse=True))
    pattern = re.compile(rb"(?<![a-z0-9])(?<![ps][1-4]:)(" + alternation + rb")(?![a-z0-9])")
    return {match.decode("utf-8") for match in pattern.findall(content)}


@pytest.fixture(scope="module")
def training(gold_documents: list[Document]) -> list[Document]:
    return [d for d in gold_documents if d.patient_id != "107"]


def test_shared_model_holds_no_rare_phi_token(trained_tagger: CrfTagger, training: list[Document]) -> None:
    tokens = distinctive_phi_tokens(training)
    assert len(tokens) > 100
    assert trained_tagger.metadata is not None and not trained_tagger.metadata.private_features
    assert leaked(trained_tagger.to_bytes(), tokens) == set()


def test_private_model_keeps_them_and_says_so(
    training: list[Document], trained_tagger: CrfTagger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    training = [d for d in training if d.patient_id in ("100", "101", "102")]
    for document in training:
        write_i2b2(document, gold / f"{document.doc_id}.xml")
    model = tmp_path / "private.model"
    code = main(["train", str(gold), "-o", str(model), "--iterations", "2", "--keep-private-features"])
    assert code == 0
    out = capsys.readouterr().out
    assert "do not share" in out
    private = CrfTagger.load(model)
    assert private.metadata is not None and private.metadata.private_features
    # It remembers the places and clinicians of its gold, and says how many.
    assert private.memory and f"remembers {len(private.memory)} place and clinician names" in out
    tokens = distinctive_phi_tokens(training)
    # The scan finds what it looks for: most rare PHI tokens are in a private model.
    assert len(leaked(model.read_bytes(), tokens)) > len(tokens) // 2
