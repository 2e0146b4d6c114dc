"""Small notes built to hurt the tagger: long runs of one character, thousands of digits.

A fuzzing pass found 200 KB notes ("Dr. " repeated, dashes, dots, a 200,000-digit run) took
5-33 s and up to 1 GB, or never ended, and numbers of over 4,300 digits stopped
``preannotate`` and ``train`` with an internal error. The fixes must not change what the
tagger finds on ordinary notes: the fast overlap filters are checked against their simple
definitions, the rewritten template against the old pattern.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.crf.chunks import iter_chunks
from annotator.crf.default_model import default_model_path
from annotator.crf.features import _number_class
from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import MeasuredMatch, _without_overlaps, add_where_free
from annotator.crf.tagger import CrfTagger
from annotator.crf.templates import TEMPLATES
from annotator.io.i2b2 import write_i2b2


def _random_spans(rng: random.Random, count: int) -> list[tuple[int, int]]:
    spans = []
    for _ in range(count):
        start = rng.randint(0, 60)
        spans.append((start, start + rng.choice([0, 1, 1, 2, 3, 5, 8, 13])))
    return spans


def test_without_overlaps_is_first_found_wins() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        found = [MeasuredMatch("p", "DATE", s, e) for s, e in _random_spans(rng, rng.randint(0, 25))]
        kept: list[MeasuredMatch] = []
        for match in found:  # the definition: pairwise
            if not any(k.start < match.end and match.start < k.end for k in kept):
                kept.append(match)
        assert _without_overlaps(found) == sorted(kept, key=lambda m: (m.start, m.end))


def test_add_where_free_adds_what_overlaps_no_prediction() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        predictions = [Prediction("DATE", s, e, 1.0) for s, e in _random_spans(rng, rng.randint(0, 12))]
        found = [Prediction("AGE", s, e, 1.0) for s, e in _random_spans(rng, rng.randint(0, 12))]
        added = [f for f in found if not any(p.start < f.end and f.start < p.end for p in predictions)]
        expected = sorted([*predictions, *added], key=lambda p: (p.start, p.end)) if added else predictions
        assert add_where_free(predictions, found) == expected


def test_id_joined_equals_the_backtracking_pattern() -> None:
    old = re.compile(
        r"(?<![\w/-])(?=(?:[A-Za-z/-]*\d){4})[A-Za-z0-9]*\d[A-Za-z0-9]*(?:[-/][A-Za-z0-9]*\d[A-Za-z0-9]*)+(?![\w/-])"
    )
    new = TEMPLATES["ID_JOINED"]
    rng = random.Random(5)
    for _ in range(30000):
        text = "".join(rng.choice("0123456789ab-/_ .x") for _ in range(rng.randint(0, 24)))
        assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)], text
    assert [m.group() for m in new.finditer("MRN H63-52721, L16788/34 and 2-3")] == ["H63-52721", "L16788/34"]


def test_a_run_without_spaces_is_cut_into_bounded_chunks_covering_every_token() -> None:
    text = "-" * 5000 + " tail"
    chunks = list(iter_chunks(text, max_chars=1000, context=4))
    core = [token for chunk in chunks for token in chunk.core]
    assert len(chunks) >= 5 and all(len(chunk.core) <= 1000 for chunk in chunks)
    assert [(t.start, t.end) for t in core] == sorted({(t.start, t.end) for t in core})
    assert "".join(text[t.start : t.end] for t in core) == text.replace(" ", "")


@pytest.mark.parametrize("word", ["1" * 5000, "\u00b2\u00b2", "12345", "2024", "07"])
def test_number_classes_of_any_digit_run(word: str) -> None:
    assert _number_class(word)  # no ValueError, whatever the run


def test_preannotating_huge_numbers_and_runs_ends_with_suggestions() -> None:
    tagger = CrfTagger.load(default_model_path())
    note = Document(
        "100-01",
        "Seen by Dr. Smith on 3/4/2090. MRN " + "7" * 5000 + ".\n" + "1" * 20000 + "\n" + "Dr. " * 500,
    )
    spans = tagger.predict_spans([note], None)["100-01"]
    found = {note.text[p.start : p.end] for p in spans}
    assert "Smith" in found and "3/4/2090" in found


def test_train_refuses_iterations_crfsuite_would_wrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    document = Document("100-01", "Seen by Dr Smith.")
    document.add(document.make_annotation("NAME", "DOCTOR", 11, 16))
    write_i2b2(document, gold / "100-01.xml")
    for option in (["--iterations", str(2**32 + 5)], ["--iterations", "0"], ["--cv", "1000"]):
        capsys.readouterr()
        assert main(["train", str(gold), "-o", str(tmp_path / "m.model"), *option]) == 2
        assert "must be from 1 to 100,000" in capsys.readouterr().err or option[0] == "--cv"
    assert not (tmp_path / "m.model").exists()
