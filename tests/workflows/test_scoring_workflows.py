"""evaluate, iaa, significance and consistency called directly on real folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from annotator.errors import UsageError
from annotator.workflows.consistency import ConsistencyRequest, consistency
from annotator.workflows.evaluate import (
    EvaluateRequest,
    EvaluationMode,
    ExportRequest,
    ReportFormat,
    evaluate,
    export_report,
)
from annotator.workflows.iaa import IaaRequest, inter_annotator_agreement
from annotator.workflows.notes import Note, NoteKind, WorkflowCancelled
from annotator.workflows.scoring import ScoringRequest
from annotator.workflows.significance import SignificanceRequest, significance
from annotator.workflows.synth import SynthResult
from tests.workflows.conftest import Recorder, folder


def test_evaluate_scores_a_folder_and_reports_progress(corpus: SynthResult, progress: Recorder) -> None:
    result = evaluate(EvaluateRequest(folder(corpus, "gold"), folder(corpus, "annotator_a")), progress)
    assert result.evaluation is not None and len(result.evaluation.documents) == corpus.documents
    assert 0.5 < result.evaluation.micro.f1 < 1.0  # a simulated annotator errs, but not wildly
    assert result.notes == [] and progress.finished


def test_evaluate_gives_typed_notes_for_unpaired_and_differing_documents(
    corpus: SynthResult, tmp_path: Path
) -> None:
    system = tmp_path / "system"
    shutil.copytree(folder(corpus, "annotator_a"), system)
    files = sorted(system.glob("*.xml"))
    files[0].unlink()  # a gold document without a system file
    changed = files[1]
    changed.write_text(changed.read_text(encoding="utf-8").replace("<TEXT><![CDATA[", "<TEXT><![CDATA[x", 1))
    result = evaluate(EvaluateRequest(folder(corpus, "gold"), system))
    assert Note(NoteKind.TEXT_DIFFERS, changed.stem) in result.notes
    assert Note(NoteKind.ONLY_REFERENCE, count=1) in result.notes
    assert result.evaluation is not None and result.evaluation.skipped == [
        f"{changed.stem}: reference and predicted TEXT differ"
    ]


def test_evaluate_mapping_chain_drops_excluded_types(corpus: SynthResult) -> None:
    plain = evaluate(EvaluateRequest(folder(corpus, "gold"), folder(corpus, "gold")))
    scoring = ScoringRequest(exclude=("DATE",), hipaa=True)
    mapped = evaluate(EvaluateRequest(folder(corpus, "gold"), folder(corpus, "gold"), scoring=scoring))
    assert plain.evaluation is not None and mapped.evaluation is not None
    assert 0 < mapped.evaluation.micro.tp < plain.evaluation.micro.tp
    assert mapped.evaluation.micro.f1 == 1.0


def test_evaluate_i2b2_mode_refuses_scoring_choices(corpus: SynthResult) -> None:
    request = EvaluateRequest(
        folder(corpus, "gold"),
        folder(corpus, "annotator_a"),
        EvaluationMode.I2B2,
        ScoringRequest(match="token"),
    )
    with pytest.raises(UsageError, match="official tables only"):
        evaluate(request)
    runs = evaluate(
        EvaluateRequest(folder(corpus, "gold"), folder(corpus, "annotator_a"), EvaluationMode.I2B2)
    ).runs
    assert len(runs[0].tables) == 42


def test_evaluate_cancelled_stops_with_a_cancel_error(corpus: SynthResult) -> None:
    with pytest.raises(WorkflowCancelled, match="cancelled"):
        evaluate(
            EvaluateRequest(folder(corpus, "gold"), folder(corpus, "annotator_a")), cancelled=lambda: True
        )


@pytest.mark.parametrize("kind", list(ReportFormat))
def test_export_report_leaves_phi_text_out_unless_asked(
    corpus: SynthResult, tmp_path: Path, kind: ReportFormat
) -> None:
    result = evaluate(EvaluateRequest(folder(corpus, "gold"), folder(corpus, "annotator_a")))
    quiet = export_report(result, ExportRequest(tmp_path / f"r.{kind.value}", kind))
    loud = export_report(result, ExportRequest(tmp_path / f"t.{kind.value}", kind, include_text=True))
    assert "CONTAINS PHI TEXT" not in quiet.read_text()
    # A CSV holds scores only: the same file either way, never a false warning.
    assert ("CONTAINS PHI TEXT" in loud.read_text()) == (kind is not ReportFormat.CSV)
    if kind is ReportFormat.CSV:
        assert loud.read_text() == quiet.read_text()
    if kind is ReportFormat.JSON:
        assert json.loads(quiet.read_text())["micro"]["tp"] == result.evaluation.micro.tp  # type: ignore[union-attr]


def test_official_exports_have_every_table(corpus: SynthResult, tmp_path: Path) -> None:
    result = evaluate(
        EvaluateRequest(folder(corpus, "gold"), folder(corpus, "annotator_a"), EvaluationMode.I2B2)
    )
    csv_path = export_report(result, ExportRequest(tmp_path / "t.csv", ReportFormat.CSV))
    assert len(csv_path.read_text().splitlines()) == 1 + 42
    data = json.loads(
        export_report(result, ExportRequest(tmp_path / "t.json", ReportFormat.JSON)).read_text()
    )
    assert data["schema"] == "phi-annotator/i2b2-tables/1" and len(data["runs"][0]["tables"]) == 42
    with pytest.raises(UsageError, match="--html"):
        export_report(result, ExportRequest(tmp_path / "t.html", ReportFormat.HTML))


def test_iaa_compares_every_pair_and_each_against_gold(corpus: SynthResult, progress: Recorder) -> None:
    request = IaaRequest(
        (folder(corpus, "annotator_a"), folder(corpus, "annotator_b")), gold=folder(corpus, "gold")
    )
    result = inter_annotator_agreement(request, progress)
    assert result.names == ["annotator_a", "annotator_b"]
    assert [(p.reference, p.predicted) for p in result.report.pairs] == [("annotator_a", "annotator_b")]
    assert [p.predicted for p in result.report.versus_gold] == ["annotator_a", "annotator_b"]
    assert progress.finished and progress.calls[-1] == (3, 3)


def test_iaa_needs_two_folders(corpus: SynthResult) -> None:
    with pytest.raises(UsageError, match="at least two"):
        inter_annotator_agreement(IaaRequest((folder(corpus, "annotator_a"),)))


def test_significance_of_a_system_against_itself_is_never_significant(corpus: SynthResult) -> None:
    request = SignificanceRequest(
        folder(corpus, "gold"), folder(corpus, "annotator_a"), folder(corpus, "annotator_a"), shuffles=50
    )
    report = significance(request).report
    assert report.tests and all(t.difference == 0 and t.p_value >= report.threshold for t in report.tests)


def test_significance_checks_its_parameters(corpus: SynthResult) -> None:
    request = SignificanceRequest(
        folder(corpus, "gold"), folder(corpus, "annotator_a"), folder(corpus, "annotator_b"), shuffles=0
    )
    with pytest.raises(UsageError, match="--shuffles"):
        significance(request)


def test_consistency_of_gold_and_of_a_partial_annotator(corpus: SynthResult) -> None:
    gold = consistency(ConsistencyRequest(folder(corpus, "gold")))
    partial = consistency(ConsistencyRequest(folder(corpus, "annotator_b"), scope="corpus"))
    assert gold.documents == partial.documents == corpus.documents
    assert len(partial.findings) >= len(gold.findings)


@pytest.mark.parametrize("kind", list(NoteKind))
def test_every_note_kind_reads_as_one_line(kind: NoteKind) -> None:
    text = Note(kind, "100-01", 2, "annotator_b").message()
    assert text and "\n" not in text and "{" not in text


def test_filter_hipaa_scores_every_hipaa_type_and_nothing_else(tmp_path: Path) -> None:
    """One tag of every i2b2 2014 type: ``--filter hipaa`` leaves exactly the paper's subset."""
    from annotator.core.document import Document
    from annotator.core.schema import load_schema
    from annotator.io.i2b2 import write_i2b2
    from tests.core.test_mapping import HIPAA_2014

    types = load_schema("i2b2-2014").types
    text = " ".join(f"w{i}" for i in range(len(types)))
    document = Document("100-01", text)
    for i, type_def in enumerate(types):
        start = text.index(f"w{i}")
        document.add(document.make_annotation(type_def.category, type_def.name, start, start + len(f"w{i}")))
    write_i2b2(document, tmp_path / "gold" / "100-01.xml")
    request = EvaluateRequest(tmp_path / "gold", tmp_path / "gold", scoring=ScoringRequest(hipaa=True))
    evaluation = evaluate(request).evaluation
    assert evaluation is not None
    assert set(evaluation.per_type) == {f"{c}/{t}" for c, t in HIPAA_2014}
    assert evaluation.micro.tp == len(HIPAA_2014)
