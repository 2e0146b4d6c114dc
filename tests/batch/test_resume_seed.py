"""A resumed ``batch deidentify`` keeps the job's one seed: a --seed other than the one its
audit maps record, or none for a job started with one, is refused before anything changes;
a job whose seed was drawn goes on with the drawn seed its audit maps hold."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from annotator.batch.jobs import resumed_seed
from annotator.batch.output import MANIFEST, prepare_output, write_manifest
from annotator.batch.partitions import XML, Partition
from annotator.deid.export import DeidResult, audit_map
from annotator.deid.surrogates import DeidOptions
from annotator.errors import InputError, UsageError

PARTITIONS = [Partition(index, XML, ()) for index in range(3)]


def job(seed: str = "given", maps: bool = True) -> dict[str, Any]:
    return {"command": "deidentify", "input": "/in", "inputs": "abc", "partition_size": 1, "seed": seed,
            "audit_maps": maps}  # fmt: skip


def write_maps(folder: Path, seed: int, partitions: list[Partition]) -> None:
    """Audit maps as a partition writes them (the real format: the seed is read from its head)."""
    folder.mkdir(exist_ok=True)
    for partition in partitions:
        text = json.dumps(audit_map(DeidResult([], {}), DeidOptions(seed=seed)), indent=1, ensure_ascii=False)
        (folder / f"{partition.name}.json").write_text(text + "\n", encoding="utf-8")


def test_the_same_given_seed_goes_on(tmp_path: Path) -> None:
    write_maps(tmp_path, 7, PARTITIONS[:2])
    assert resumed_seed(job(), job(), 7, tmp_path, PARTITIONS[:2]) == 7


def test_another_given_seed_is_refused_without_naming_either(tmp_path: Path) -> None:
    write_maps(tmp_path, 7123, PARTITIONS[:2])
    with pytest.raises(UsageError) as refused:
        resumed_seed(job(), job(), 8456, tmp_path, PARTITIONS[:2])
    message = refused.value.one_line()
    assert "--seed is not the seed this job was started with" in message
    assert "7123" not in message and "8456" not in message and "\n" not in message


def test_a_drawn_seed_goes_on_as_the_audit_maps_hold_it(tmp_path: Path) -> None:
    drawn = 2**63 + 12345
    write_maps(tmp_path, drawn, PARTITIONS[:2])
    assert resumed_seed(job("drawn"), job("drawn"), None, tmp_path, PARTITIONS[:2]) == drawn


def test_an_older_resume_that_drew_again_goes_on_with_the_seed_most_partitions_have(tmp_path: Path) -> None:
    write_maps(tmp_path, 11, PARTITIONS[:2])
    write_maps(tmp_path, 12, PARTITIONS[2:])
    assert resumed_seed(job("drawn"), job("drawn"), None, tmp_path, PARTITIONS) == 11


@pytest.mark.parametrize(
    ("started", "now", "seed", "says"),
    [
        (job("given"), job("drawn"), None, "started with --seed: resume it with the same --seed"),
        (job("drawn"), job("given"), 7, "started without --seed"),
        (job(maps=True), job(maps=False), 7, "resume it with the --map-dir it was started with"),
        (job(maps=False), job(maps=True), 7, "started without --map-dir"),
    ],
)
def test_a_resume_that_differs_from_the_job_in_seed_or_maps_is_refused(
    tmp_path: Path, started: dict[str, Any], now: dict[str, Any], seed: int | None, says: str
) -> None:
    write_maps(tmp_path, 7, PARTITIONS[:1])
    with pytest.raises(UsageError, match=says):
        resumed_seed(started, now, seed, tmp_path, PARTITIONS[:1])


def test_a_map_folder_without_the_jobs_maps_is_refused(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    with pytest.raises(UsageError, match="none of the 2 published partition"):
        resumed_seed(job(), job(), 7, tmp_path / "other", PARTITIONS[:2])
    # Nothing published yet: nothing to compare.
    assert resumed_seed(job(), job(), 7, tmp_path / "other", []) == 7


def test_a_map_without_a_seed_or_a_pipe_is_refused(tmp_path: Path) -> None:
    (tmp_path / "part-00000.json").write_text('{"warning": "x", "patients": {}}\n', encoding="utf-8")
    with pytest.raises(UsageError, match="records no seed"):
        resumed_seed(job(), job(), 7, tmp_path, PARTITIONS[:1])
    os.mkfifo(tmp_path / "part-00001.json")
    with pytest.raises(InputError, match="pipe"):
        resumed_seed(job(), job(), 7, tmp_path, PARTITIONS[1:2])


def test_a_refused_resume_changes_nothing_in_the_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    write_manifest(out, job(), PARTITIONS, complete=False)
    (out / "part-00000").mkdir()
    (out / ".staging-part-00001-abc").mkdir()
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir())
    manifest = (out / MANIFEST).read_bytes()

    def refuse(recorded: dict[str, Any], published: list[Partition]) -> None:
        assert recorded == job() and [p.index for p in published] == [0]
        raise UsageError("refused")

    with pytest.raises(UsageError, match="refused"):
        prepare_output(out, job(), PARTITIONS, resume=True, force=False, check=refuse)
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.iterdir()) == before
    assert (out / MANIFEST).read_bytes() == manifest
    # The check passes: the resume goes on (the half-written partition is removed).
    assert prepare_output(out, job(), PARTITIONS, resume=True, force=False, check=lambda *_: None) == {0}
    assert not list(out.glob(".staging-*"))
