"""Publishing partitions: all or nothing under the final name, resume only the same job."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

import pytest

from annotator.batch.output import (
    COUNTS_LEDGER,
    MANIFEST,
    RecordedCounts,
    prepare_output,
    publish,
    record_counts,
    recorded_counts,
)
from annotator.batch.partitions import JSONL, XML, Partition
from annotator.core.document import Document
from annotator.errors import AnnotatorError, InputError, UsageError
from annotator.io.jsonl import read_jsonl

JOB = {"command": "test", "inputs": "abc"}


def _documents() -> list[Document]:
    return [Document("101-01", "Seen by Dr. Kim."), Document("101-02", "Follow-up.")]


def test_xml_partition_is_published_whole(tmp_path: Path) -> None:
    partition = Partition(3, XML, ())
    publish(_documents(), tmp_path, partition)
    assert sorted(p.name for p in (tmp_path / "part-00003").iterdir()) == ["101-01.xml", "101-02.xml"]
    assert not list(tmp_path.glob(".staging-*"))


def test_failed_check_publishes_nothing_and_leaves_no_staging(tmp_path: Path) -> None:
    seen: list[int] = []

    def refuse(written: Sequence[Document]) -> None:
        seen.append(len(written))
        raise AnnotatorError("leak found")

    for kind in (XML, JSONL):
        with pytest.raises(AnnotatorError, match="leak found"):
            publish(_documents(), tmp_path, Partition(0, kind, ()), refuse)
    assert seen == [2, 2]  # the check saw what was written, read back
    assert list(tmp_path.iterdir()) == []


def test_jsonl_partition_is_one_shard(tmp_path: Path) -> None:
    publish(_documents(), tmp_path, Partition(0, JSONL, ()))
    assert [d.doc_id for d in read_jsonl(tmp_path / "part-00000.jsonl")] == ["101-01", "101-02"]


def test_staging_is_private(tmp_path: Path) -> None:
    modes: list[int] = []

    def look(_written: Sequence[Document]) -> None:
        (staging,) = tmp_path.glob(".staging-*")
        modes.append(stat.S_IMODE(staging.stat().st_mode))

    publish(_documents(), tmp_path, Partition(0, XML, ()), look)
    assert modes == [0o700]


def test_prepare_refuses_foreign_files_even_with_force(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "thesis").mkdir()
    with pytest.raises(UsageError, match="use --force"):
        prepare_output(tmp_path, JOB, [], resume=False, force=False)
    # --force replaces an earlier batch output, never a folder given by mistake (it was emptied).
    with pytest.raises(UsageError, match=r"does not write \(notes.txt, thesis\)"):
        prepare_output(tmp_path, JOB, [], resume=False, force=True)
    assert (tmp_path / "notes.txt").read_text() == "mine" and (tmp_path / "thesis").is_dir()


def test_force_replaces_an_earlier_batch_output(tmp_path: Path) -> None:
    partitions = [Partition(0, XML, ())]
    prepare_output(tmp_path, JOB, partitions, resume=False, force=False)
    publish(_documents(), tmp_path, partitions[0])
    prepare_output(tmp_path, {**JOB, "inputs": "other"}, partitions, resume=False, force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST]


def test_resume_skips_published_partitions_and_removes_leftover_staging(tmp_path: Path) -> None:
    partitions = [Partition(0, XML, ()), Partition(1, XML, ())]
    prepare_output(tmp_path, JOB, partitions, resume=False, force=False)
    publish(_documents(), tmp_path, partitions[0])
    (tmp_path / ".staging-part-00001-x").mkdir()  # a killed run's half-written partition
    with pytest.raises(UsageError, match="--resume"):
        prepare_output(tmp_path, JOB, partitions, resume=False, force=False)
    assert prepare_output(tmp_path, JOB, partitions, resume=True, force=False) == {0}
    assert not list(tmp_path.glob(".staging-*"))


def test_resume_refuses_another_job(tmp_path: Path) -> None:
    prepare_output(tmp_path, JOB, [], resume=False, force=False)
    with pytest.raises(UsageError, match="another batch job"):
        prepare_output(tmp_path, {**JOB, "inputs": "changed"}, [], resume=True, force=False)


def test_a_late_duplicate_publication_keeps_the_first(tmp_path: Path) -> None:
    partition = Partition(0, XML, ())
    publish(_documents(), tmp_path, partition)
    before = {p.name: p.read_bytes() for p in (tmp_path / "part-00000").iterdir()}
    publish(_documents(), tmp_path, partition)  # a worker presumed dead finishing late
    after = {p.name: p.read_bytes() for p in (tmp_path / "part-00000").iterdir()}
    assert before == after
    assert sorted(os.listdir(tmp_path)) == ["part-00000"]


# -- the counts ledger ----------------------------------------------------------------------


def test_a_device_in_place_of_the_counts_ledger_is_refused_unread(tmp_path: Path) -> None:
    # Opened, a FIFO waits for a writer forever (a resumed job hung); /dev/zero never ends.
    # /dev/null stands for both: it reads as empty.
    (tmp_path / COUNTS_LEDGER).symlink_to(os.devnull)
    with pytest.raises(InputError) as error:
        recorded_counts(tmp_path)
    assert error.value.message == "is a pipe, socket or device, not a batch job's counts ledger"


def test_a_line_cut_short_by_a_kill_loses_no_later_counts(tmp_path: Path) -> None:
    # A run killed in the middle of its line: the next run's first line must not join it.
    (tmp_path / COUNTS_LEDGER).write_text('{"partition": "part-00000", "docu', encoding="ascii")
    record_counts(tmp_path, "part-00001", 3, {"NAME": 2})
    record_counts(tmp_path, "part-00002", 1, {})
    assert recorded_counts(tmp_path) == {
        "part-00001": RecordedCounts(3, {"NAME": 2}),
        "part-00002": RecordedCounts(1, {}),
    }


def test_a_link_in_place_of_the_counts_ledger_is_never_written_through(tmp_path: Path) -> None:
    # Appending through it would write into whatever file it names.
    elsewhere = tmp_path / "thesis.txt"
    elsewhere.write_text("chapter 1\n", encoding="ascii")
    out = tmp_path / "out"
    out.mkdir()
    (out / COUNTS_LEDGER).symlink_to(elsewhere)
    with pytest.raises(UsageError, match="symbolic link"):
        record_counts(out, "part-00000", 1, {})
    assert elsewhere.read_text(encoding="ascii") == "chapter 1\n"
