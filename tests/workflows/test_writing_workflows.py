"""The workflows that write: real files in, real files out, refusals leave the disk alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annotator.adjudication.decisions import AutoAccept
from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.deid.surrogates import DeidOptions
from annotator.errors import AnnotatorError, UsageError
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.workflows.adjudicate import AdjudicateRequest, adjudicate
from annotator.workflows.convert import ConvertRequest, convert
from annotator.workflows.deidentify import DeidentifyRequest, deidentify
from annotator.workflows.notes import NoteKind
from annotator.workflows.preannotate import (
    files_request,
    not_started_documents,
    preannotate,
    project_request,
    suggest_for_document,
)
from annotator.workflows.stats import StatsRequest, statistics
from annotator.workflows.synth import SynthRequest, SynthResult, synthesize
from annotator.workflows.train import TrainRequest, train
from annotator.workflows.validate import ValidateRequest, validate
from tests.workflows.conftest import Recorder, folder


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_synth_is_reproducible_and_refuses_a_non_empty_folder(corpus: SynthResult, tmp_path: Path) -> None:
    again = synthesize(SynthRequest(tmp_path / "again", patients=2, seed=3))
    assert _tree(again.out) == _tree(corpus.out)
    assert again.folders == {"gold": 7, "annotator_a": 7, "annotator_b": 7, "preannotated": 7}
    with pytest.raises(UsageError, match="not empty"):
        synthesize(SynthRequest(tmp_path / "again", patients=1, seed=9))
    assert _tree(again.out) == _tree(corpus.out)


def test_stats_counts_the_gold(corpus: SynthResult, progress: Recorder) -> None:
    stats = statistics(StatsRequest((folder(corpus, "gold"),)), progress)
    assert stats["documents"] == corpus.documents and stats["annotations"] == corpus.annotations["gold"]
    assert progress.calls[-1] == (corpus.documents, corpus.documents)


def test_adjudicate_writes_gold_and_notes_missing_documents(corpus: SynthResult, tmp_path: Path) -> None:
    b = tmp_path / "b"
    shutil.copytree(folder(corpus, "annotator_b"), b)
    missing = sorted(b.glob("*.xml"))[0]
    missing.unlink()
    request = AdjudicateRequest((folder(corpus, "annotator_a"), b), tmp_path / "gold", AutoAccept.MAJORITY)
    result = adjudicate(request)
    assert [(n.kind, n.subject) for n in result.notes] == [(NoteKind.MISSING_VERSION, missing.stem)]
    written = sorted(p.stem for p in (tmp_path / "gold").glob("*.xml"))
    assert written == sorted(d.doc_id for d in result.report.documents)
    assert missing.stem not in written


def test_a_third_annotator_who_did_half_the_notes_leaves_no_note_without_gold(
    corpus: SynthResult, tmp_path: Path
) -> None:
    a, b = folder(corpus, "annotator_a"), folder(corpus, "annotator_b")
    carol = tmp_path / "carol"
    carol.mkdir()
    notes = sorted(p.name for p in a.glob("*.xml"))
    for name in notes[::2]:
        shutil.copy(a / name, carol / name)
    only_a = tmp_path / "b"
    shutil.copytree(b, only_a)
    (only_a / notes[1]).unlink()  # and carol has no 2nd note: alice alone has it
    result = adjudicate(AdjudicateRequest((a, only_a, carol), tmp_path / "gold", adjudicator="dana"))
    skipped = [n.subject for n in result.notes if n.kind is NoteKind.MISSING_VERSION]
    assert skipped == [Path(notes[1]).stem]
    # One note for all the notes carol lacks.
    (note,) = [n for n in result.notes if n.kind is NoteKind.FEWER_VERSIONS]
    fewer = sorted(Path(n).stem for i, n in enumerate(notes) if i % 2 and i != 1)
    assert (note.detail, note.count, note.subject) == ("carol", len(fewer), ", ".join(fewer))
    assert note.message().startswith(
        f"{len(fewer)} document(s) missing from carol, adjudicated from the versions"
    )
    written = sorted(p.stem for p in (tmp_path / "gold").glob("*.xml"))
    assert written == sorted(Path(n).stem for n in notes if n != notes[1])
    totals = result.report.to_dict()["totals"]
    assert isinstance(totals, dict)
    assert (totals["missing_documents"], totals["documents_with_fewer_versions"]) == (1, len(fewer))


def test_adjudicate_refuses_to_write_gold_into_an_annotator_folder(corpus: SynthResult) -> None:
    a, b = folder(corpus, "annotator_a"), folder(corpus, "annotator_b")
    with pytest.raises(UsageError, match="must not be one of the annotator folders"):
        adjudicate(AdjudicateRequest((a, b), a))


def test_convert_refuses_an_import_only_target_before_reading(corpus: SynthResult, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="table is an import-only format; it cannot be written"):
        convert(ConvertRequest(folder(corpus, "gold"), tmp_path / "t.csv", "table"))
    assert not list(tmp_path.iterdir())


def test_convert_round_trip_and_no_overwrite_without_force(corpus: SynthResult, tmp_path: Path) -> None:
    result = convert(ConvertRequest(folder(corpus, "gold"), tmp_path / "brat", "brat"))
    assert result.documents == corpus.documents and all(p.exists() for p in result.written)
    before = _tree(tmp_path / "brat")
    with pytest.raises(UsageError, match="exist already"):
        convert(ConvertRequest(folder(corpus, "gold"), tmp_path / "brat", "brat"))
    assert _tree(tmp_path / "brat") == before
    back = convert(ConvertRequest(tmp_path / "brat", tmp_path / "i2b2", "i2b2"))
    original = read_i2b2(folder(corpus, "gold") / back.written[0].name)
    assert [(a.start, a.end, a.type) for a in read_i2b2(back.written[0]).annotations] == [
        (a.start, a.end, a.type) for a in original.annotations
    ]


def test_validate_realigns_and_writes_a_file_with_utf16_offsets(tmp_path: Path) -> None:
    text = "Mood \U0001f600 today. Seen by Amy Lee.\n"
    prefix = text[: text.index("Amy Lee")]
    start = len(prefix) + 1  # counted in UTF-16 code units: the emoji is two
    path = tmp_path / "100-01.xml"
    path.write_bytes(
        (
            '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n'
            f"<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n"
            f'<NAME id="P0" start="{start}" end="{start + 7}" text="Amy Lee" TYPE="DOCTOR" comment="" />\n'
            "</TAGS>\n</deIdi2b2>\n"
        ).encode()
    )
    checked = validate(ValidateRequest((tmp_path,)))
    assert checked.errors == 1 and checked.files_realigned == 0
    repaired = validate(ValidateRequest((tmp_path,), realign=True, write=True))
    assert repaired.errors == 0 and repaired.files_realigned == 1
    assert read_i2b2(path).annotations[0].start == len(prefix)
    with pytest.raises(UsageError, match="--write only"):
        validate(ValidateRequest((tmp_path,), write=True))


def test_deidentify_writes_a_checked_copy_and_refuses_the_gold_folder(
    corpus: SynthResult, tmp_path: Path, progress: Recorder
) -> None:
    report = deidentify(
        DeidentifyRequest(folder(corpus, "gold"), tmp_path / "out", DeidOptions(method="mask")), progress
    )
    assert report.documents == corpus.documents and progress.finished
    assert len(list((tmp_path / "out").glob("*.xml"))) == corpus.documents
    with pytest.raises(UsageError, match="gold folder"):
        deidentify(DeidentifyRequest(folder(corpus, "gold"), folder(corpus, "gold") / "x", force=True))
    with pytest.raises(UsageError, match="--mask-char"):
        deidentify(DeidentifyRequest(folder(corpus, "gold"), tmp_path / "o2", DeidOptions(mask_char="XY")))


def test_deidentify_cancelled_writes_nothing(corpus: SynthResult, tmp_path: Path) -> None:
    with pytest.raises(AnnotatorError, match="cancelled"):
        deidentify(DeidentifyRequest(folder(corpus, "gold"), tmp_path / "out"), cancelled=lambda: True)
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def model(corpus: SynthResult, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("model") / "crf.model"
    result = train(TrainRequest(folder(corpus, "gold"), path, iterations=8))
    assert result.metadata.documents == corpus.documents and result.cross_validation is None
    return path


def test_train_checks_its_request(corpus: SynthResult, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--cv needs"):
        train(TrainRequest(folder(corpus, "gold"), tmp_path / "m", cv_folds=1))
    with pytest.raises(UsageError, match="is a folder"):
        train(TrainRequest(folder(corpus, "gold"), tmp_path))
    with pytest.raises(UsageError, match="not a folder"):
        train(TrainRequest(tmp_path / "missing", tmp_path / "m"))


def test_train_cancelled_writes_no_model(corpus: SynthResult, tmp_path: Path) -> None:
    with pytest.raises(AnnotatorError, match="cancel"):
        train(TrainRequest(folder(corpus, "gold"), tmp_path / "m", iterations=50), cancelled=lambda: True)
    assert not (tmp_path / "m").exists()


def test_preannotate_files_adds_pending_model_suggestions(
    corpus: SynthResult, model: Path, tmp_path: Path, progress: Recorder
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for path in sorted(folder(corpus, "gold").glob("*.xml")):
        document = read_i2b2(path)
        kept = Document(document.doc_id, document.text, document.annotations[:1])  # one human tag
        write_i2b2(kept, source / path.name)
    result = preannotate(files_request(model, source, tmp_path / "out"), progress)
    assert len(result.documents) == corpus.documents and result.suggestions > 0 and progress.calls
    first = read_i2b2(tmp_path / "out" / result.documents[0].output.name)
    human = [a for a in first.annotations if a.source is not Source.MODEL]
    assert len(human) == 1 and all(a.pending for a in first.annotations if a.source is Source.MODEL)
    with pytest.raises(UsageError, match="exist already"):
        preannotate(files_request(model, source, tmp_path / "out"))
    with pytest.raises(UsageError, match="never overwrites its input"):
        files_request(model, source, source)
    with pytest.raises(UsageError, match="--recall-bias"):
        preannotate(files_request(model, source, tmp_path / "o2", recall_bias=1.5))


def test_preannotate_cancelled_writes_nothing(corpus: SynthResult, model: Path, tmp_path: Path) -> None:
    with pytest.raises(AnnotatorError, match="cancelled"):
        preannotate(files_request(model, folder(corpus, "gold"), tmp_path / "out"), cancelled=lambda: True)
    assert not (tmp_path / "out").exists()


def test_project_request_covers_documents_nobody_started(
    corpus: SynthResult, model: Path, tmp_path: Path
) -> None:
    project = Project.create(tmp_path / "p", "Pre", annotators=["alice"])
    for path in folder(corpus, "gold").glob("*.xml"):
        shutil.copy(path, project.source_dir / path.name)
    started = project.document_ids()[0]
    project.annotations_dir("alice").mkdir(parents=True, exist_ok=True)
    shutil.copy(project.source_dir / f"{started}.xml", project.annotations_dir("alice") / f"{started}.xml")
    request = project_request(project, model)
    assert not_started_documents(project) == [p.stem for p in request.inputs]
    assert started not in not_started_documents(project)
    result = preannotate(request)
    assert sorted(p.stem for p in project.preannotations_dir.glob("*.xml")) == sorted(
        d.doc_id for d in result.documents
    )
    again = preannotate(project_request(project, model))  # replacing older pre-annotations is the point
    assert len(again.documents) == len(result.documents)


def test_project_request_takes_the_projects_guideline_and_site_lists(tmp_path: Path) -> None:
    # What the background retrain re-pre-annotates with: it names neither.
    project = Project.create(tmp_path / "p", "Pre", annotators=["alice"])
    project.guideline = "safe-harbor"
    project.site_lists = "site-lists.tsv"
    project.save()
    request = project_request(Project.open(project.root), tmp_path / "m.model")
    assert request.guideline == "safe-harbor"
    assert request.site_lists == project.root / "site-lists.tsv"
    # The window's choice, when it names one, wins.
    assert project_request(project, tmp_path / "m.model", guideline="i2b2-2014").guideline == "i2b2-2014"


def test_suggest_for_document_leaves_the_document_alone(corpus: SynthResult, model: Path) -> None:
    document = read_i2b2(sorted(folder(corpus, "gold").glob("*.xml"))[0])
    before = list(document.annotations)
    suggestions = suggest_for_document(model, document)
    assert suggestions and document.annotations == before
    assert all(s.source is Source.MODEL for s in suggestions)


@pytest.mark.parametrize("mask_char", ["\x01", " ", "\n", "\u0301"])
def test_deidentify_refuses_an_invisible_mask_character(
    corpus: SynthResult, tmp_path: Path, mask_char: str
) -> None:
    with pytest.raises(UsageError, match="visible character"):
        deidentify(
            DeidentifyRequest(
                folder(corpus, "gold"), tmp_path / "o", DeidOptions(method="mask", mask_char=mask_char)
            )
        )
    assert not (tmp_path / "o").exists()
