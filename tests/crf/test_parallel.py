"""Tagging on several processes: the same spans as one process, progress, cancel, errors."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.crf import parallel
from annotator.crf.default_model import load_default_model
from annotator.crf.parallel import auto_workers, document_shards, patient_shards, predict_spans_in_parallel
from annotator.crf.tagger import CrfTagger, TrainingCancelled
from annotator.errors import AnnotatorError, InputError, ModelError, UsageError
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.locking import DocumentLockedError, LockInfo
from annotator.io.publish import job_identity
from annotator.synth.generator import generate_corpus
from annotator.workflows.convert import LossError
from annotator.workflows.preannotate import PreannotateRequest
from annotator.workflows.queue import score_notes


@pytest.fixture(scope="module")
def notes() -> list[Document]:
    # Three styles, several patients with several records each (patients 1xx, 2xx, 3xx).
    return [
        Document(f"{int(d.patient_id) + 100 * shift}-{d.record}", d.text)
        for shift, style in enumerate("abc")
        for d in generate_corpus(patients=4, seed=31, style=style).gold
    ]


def test_shards_hold_whole_patients_of_about_equal_text(notes: list[Document]) -> None:
    shards = patient_shards(notes, 3)
    assert len(shards) == 3
    owner: dict[str, int] = {}
    for number, shard in enumerate(shards):
        for document in shard:
            assert owner.setdefault(document.patient_id, number) == number
    assert sorted(d.doc_id for shard in shards for d in shard) == sorted(d.doc_id for d in notes)
    sizes = [sum(len(d.text) for d in shard) for shard in shards]
    largest_patient = max(
        sum(len(d.text) for d in notes if d.patient_id == patient)
        for patient in {d.patient_id for d in notes}
    )
    assert max(sizes) - min(sizes) <= largest_patient


def test_more_shards_asked_than_patients_gives_one_per_patient(notes: list[Document]) -> None:
    assert len(patient_shards(notes, 1000)) == len({d.patient_id for d in notes})


def test_two_processes_suggest_exactly_what_one_does(notes: list[Document]) -> None:
    tagger = load_default_model()
    told: list[tuple[int, int]] = []
    serial = tagger.predict_spans(notes, recall_bias=0.9)
    parallel = tagger.predict_spans(
        notes, recall_bias=0.9, workers=2, progress=lambda d, t: told.append((d, t))
    )
    assert parallel == serial
    assert list(parallel) == [d.doc_id for d in notes]
    total = sum(len(d.text) for d in notes)
    assert told[-1] == (total, total)
    assert [done for done, _ in told] == sorted(done for done, _ in told)


def test_a_cancel_stops_the_workers(notes: list[Document]) -> None:
    tagger = load_default_model()
    asked = 0

    def cancelled() -> bool:
        nonlocal asked
        asked += 1
        return asked > 1

    with pytest.raises(TrainingCancelled):
        predict_spans_in_parallel(tagger, notes, None, 2, cancelled=cancelled)


def test_a_tagger_crosses_to_a_process_and_tags_alike(notes: list[Document]) -> None:
    tagger = load_default_model()
    copy = pickle.loads(pickle.dumps(tagger))
    assert copy.predict_spans(notes[:3]) == tagger.predict_spans(notes[:3])


def test_an_untrained_tagger_is_refused_before_any_process_starts(notes: list[Document]) -> None:
    with pytest.raises(UsageError, match="not been trained"):
        CrfTagger().predict_spans(notes, workers=2)


def test_an_error_in_a_worker_reaches_the_caller_whole(notes: list[Document]) -> None:
    # A tagger that cannot open its model in the worker (bytes gone bad on the way).
    tagger = load_default_model()
    tagger._model_bytes = b"not a model"
    with pytest.raises(ModelError, match="unreadable"):
        predict_spans_in_parallel(tagger, notes, None, 2)


def test_errors_cross_processes_with_their_file() -> None:
    error = pickle.loads(pickle.dumps(InputError("bad offsets in tag T3", Path("/notes/001-01.xml"))))
    assert type(error) is InputError
    assert error.path == "/notes/001-01.xml" and str(error) == "/notes/001-01.xml: bad offsets in tag T3"


def test_errors_whose_constructors_take_more_cross_whole() -> None:
    holder = LockInfo(user="ana", host="ward-pc", pid=4242, time="2026-11-29T06:00:00+00:00")
    locked = pickle.loads(pickle.dumps(DocumentLockedError("is being edited", Path("/p/001-01.xml"), holder)))
    assert type(locked) is DocumentLockedError and locked.holder == holder
    assert str(locked) == "/p/001-01.xml: is being edited"
    lost = pickle.loads(pickle.dumps(LossError("brat cannot hold relations", {"relations": 3})))
    assert lost.lost == {"relations": 3} and lost.message == "brat cannot hold relations"


def test_auto_workers_need_much_text_and_an_entry_point_that_allows_them(
    notes: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    many = [Document(f"{900 + i}-01", "Seen by Dr. Smith on 3/4. " * 2000) for i in range(10)]
    monkeypatch.setattr(parallel, "_auto_allowed", False)
    assert auto_workers(many) == 1
    parallel.allow_auto_workers()
    assert auto_workers(notes[:2]) == 1
    assert auto_workers(many) == min(os.cpu_count() or 1, parallel.MAX_AUTO_WORKERS)


def test_how_many_workers_is_no_part_of_a_jobs_identity(tmp_path: Path) -> None:
    one = PreannotateRequest(Path("m"), (tmp_path / "a.xml",), (tmp_path / "out.xml",), workers=1)
    two = PreannotateRequest(Path("m"), (tmp_path / "a.xml",), (tmp_path / "out.xml",), workers=2)
    assert job_identity(one) == job_identity(two)


def test_the_command_writes_the_same_files_with_two_workers(tmp_path: Path, notes: list[Document]) -> None:
    source = tmp_path / "notes"
    source.mkdir()
    for document in notes:
        write_i2b2(document, source / f"{document.doc_id}.xml")
    for workers in ("1", "2"):
        assert (
            main(["preannotate", "default", str(source), "-o", str(tmp_path / workers), "--workers", workers])
            == 0
        )
    for document in notes:
        one = read_i2b2(tmp_path / "1" / f"{document.doc_id}.xml")
        two = read_i2b2(tmp_path / "2" / f"{document.doc_id}.xml")
        assert [(a.start, a.end, a.type) for a in one.annotations] == [
            (a.start, a.end, a.type) for a in two.annotations
        ]
        assert one.annotations, document.doc_id


def test_the_command_refuses_no_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["preannotate", "default", str(tmp_path), "-o", str(tmp_path / "out"), "--workers", "0"])
    assert stopped.value.code == 2
    assert "--workers: must be at least 1" in capsys.readouterr().err


def test_a_worker_that_dies_is_an_error_not_a_hang(
    notes: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker runs this module's _tag_shard; a tagger whose predict_spans kills its own
    # process stands for the out-of-memory killer.
    tagger = _Dying()
    with pytest.raises(AnnotatorError, match="a pre-annotation process stopped"):
        predict_spans_in_parallel(tagger, notes, None, 2)  # type: ignore[arg-type]


class _Dying:
    def predict_spans(self, documents: list[Document], recall_bias: float | None) -> None:
        os._exit(9)


def test_document_shards_split_notes_of_one_patient_too(notes: list[Document]) -> None:
    shards = document_shards(notes, 4)
    assert len(shards) == 4
    assert sorted(d.doc_id for shard in shards for d in shard) == sorted(d.doc_id for d in notes)
    sizes = [sum(len(d.text) for d in shard) for shard in shards]
    assert max(sizes) - min(sizes) <= max(len(d.text) for d in notes)


def test_the_queue_ranks_alike_on_two_processes(notes: list[Document]) -> None:
    tagger = load_default_model()
    assert score_notes(tagger, notes, workers=2) == score_notes(tagger, notes, workers=1)


def test_more_workers_than_cores_start_one_process_per_core(notes: list[Document]) -> None:
    tagger = load_default_model()
    seen: list[int] = []
    spans = predict_spans_in_parallel(
        tagger, notes, None, 1000, progress=lambda d, t: seen.append(len(multiprocessing.active_children()))
    )
    assert len(spans) == len(notes)
    assert 1 <= max(seen) <= (os.cpu_count() or 1)


def sleep_in_shard(tagger: object, documents: list[Document], _: object) -> dict[str, None]:
    """A shard that takes a minute (run in the workers of the next test)."""
    time.sleep(60)
    return {}


_KILLED_PARENT = """
import multiprocessing, threading, time
from annotator.core.document import Document
from annotator.crf.default_model import load_default_model
from annotator.crf.parallel import map_shards
from tests.crf.test_parallel import sleep_in_shard

def tell_workers():
    time.sleep(4)
    print(*[p.pid for p in multiprocessing.active_children()], flush=True)

threading.Thread(target=tell_workers, daemon=True).start()
shards = [[Document("100-01", "a")], [Document("101-01", "b")]]
map_shards(load_default_model(), shards, sleep_in_shard, None, 2)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\\tZ" not in state.split("State:", 1)[1].split("\\n", 1)[0]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_when_their_parent_is_killed() -> None:
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen(
        [sys.executable, "-c", _KILLED_PARENT], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)
