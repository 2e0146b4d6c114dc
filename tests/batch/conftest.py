"""A synthetic corpus on disk, a small model, and a real dask cluster (a scheduler and worker
processes started with the ``dask`` command on 127.0.0.1) for the batch tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger
from annotator.io.i2b2 import write_i2b2
from annotator.io.jsonl import write_jsonl
from annotator.synth.generator import generate_corpus

DASK = str(Path(sys.executable).with_name("dask"))


@dataclass
class Archive:
    """Gold, an annotator's version, the same notes without tags, as XML and as JSONL shards."""

    gold: Path
    system: Path
    notes: Path
    shards: Path
    model: Path
    documents: list[Document] = field(default_factory=list)


def _write(documents: list[Document], folder: Path) -> Path:
    folder.mkdir(parents=True)
    for document in documents:
        write_i2b2(document, folder / f"{document.doc_id}.xml")
    return folder


@pytest.fixture(scope="session")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    root = tmp_path_factory.mktemp("archive")
    corpus = generate_corpus(patients=9, seed=23)
    untagged = [Document(d.doc_id, d.text) for d in corpus.gold]
    shards = root / "shards"
    shards.mkdir()
    # Three shards; the fourth patient's records are split over the first two, which must be fused.
    by_patient = sorted({d.patient_id for d in untagged})
    groups = [by_patient[:3], by_patient[3:6], by_patient[6:]]
    split = [d for d in untagged if d.patient_id == by_patient[3]][-1]
    for number, group in enumerate(groups):
        docs = [d for d in untagged if d.patient_id in group and d is not split]
        write_jsonl(docs + ([split] if number == 0 else []), shards / f"export-{number}.jsonl")
    model = root / "model.crf"
    tagger = CrfTagger(max_iterations=5)
    tagger.train(corpus.gold[: len(corpus.gold) // 2])
    tagger.save(model)
    return Archive(
        gold=_write(corpus.gold, root / "gold"),
        system=_write(corpus.annotator_a, root / "system"),
        notes=_write(untagged, root / "notes"),
        shards=shards,
        model=model,
        documents=corpus.gold,
    )


@dataclass
class Cluster:
    address: str
    workers: list[subprocess.Popen[bytes]]

    def kill_worker(self, index: int) -> None:
        os.killpg(self.workers[index].pid, signal.SIGKILL)
        self.workers[index].wait()


def _wait_for(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise TimeoutError(what)


@contextlib.contextmanager
def dask_cluster(folder: Path, workers: int = 2) -> Iterator[Cluster]:
    """``dask scheduler`` and ``dask worker`` processes (no nanny, so a killed worker stays dead)."""
    from distributed import Client

    folder.mkdir(parents=True, exist_ok=True)
    scheduler_file = folder / "scheduler.json"
    log = (folder / "cluster.log").open("wb")
    processes = [
        subprocess.Popen(
            [
                DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
            ],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    ]
    try:
        _wait_for(scheduler_file.exists, 60, "the dask scheduler did not start")
        _wait_for(lambda: "address" in scheduler_file.read_text() or None, 10, "no scheduler address")
        address = json.loads(scheduler_file.read_text())["address"]
        worker_processes = [
            subprocess.Popen(
                [
                    DASK,
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                    "--name",
                    f"w{number}",
                ],
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
            for number in range(workers)
        ]
        processes.extend(worker_processes)
        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield Cluster(address, worker_processes)
    finally:
        for process in reversed(processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


def run_cli(*argv: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "annotator", *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {result.stderr}")
    return result


def published_files(folder: Path) -> dict[str, bytes]:
    """Every published XML file by name (partition subfolders flattened)."""
    return {path.name: path.read_bytes() for path in sorted(folder.glob("part-*/*.xml"))}
