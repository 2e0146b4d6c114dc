"""Planning partitions: whole patients, shards that share a patient fused, corpus order kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.batch.partitions import JSONL, Partition, input_kind, plan_jsonl, plan_xml, read_partition
from annotator.errors import InputError
from tests.batch.conftest import Archive


def _patients(partition: Partition) -> set[str]:
    return {Path(name).stem.rsplit("-", 1)[0] for name in partition.files}


@pytest.mark.parametrize("target", [1, 3, 7, 1000])
def test_plan_xml_never_splits_a_patient(archive: Archive, target: int) -> None:
    files = sorted(archive.gold.glob("*.xml"))
    partitions = plan_xml(files, target)
    seen: set[str] = set()
    for partition in partitions:
        assert not _patients(partition) & seen
        seen |= _patients(partition)
    flattened = [name for p in partitions for name in p.files]
    assert flattened == [str(f) for f in files]  # every file once, in corpus order
    assert [p.index for p in partitions] == list(range(len(partitions)))


def test_plan_xml_partition_size_bounds_the_work(archive: Archive) -> None:
    files = sorted(archive.gold.glob("*.xml"))
    assert len(plan_xml(files, 1)) == len({f.stem.rsplit("-", 1)[0] for f in files})
    assert len(plan_xml(files, len(files))) == 1


def test_plan_jsonl_fuses_shards_sharing_a_patient() -> None:
    shards = [Path("a.jsonl"), Path("b.jsonl"), Path("c.jsonl"), Path("d.jsonl")]
    patients = [["101"], ["102", "103"], ["103"], ["104"]]
    partitions = plan_jsonl(shards, patients)
    assert [p.files for p in partitions] == [("a.jsonl",), ("b.jsonl", "c.jsonl"), ("d.jsonl",)]
    assert all(p.kind == JSONL for p in partitions)


def test_plan_jsonl_fuses_transitively() -> None:
    shards = [Path("a.jsonl"), Path("b.jsonl"), Path("c.jsonl")]
    partitions = plan_jsonl(shards, [["1"], ["2"], ["1", "2"]])
    assert [p.files for p in partitions] == [("a.jsonl", "b.jsonl", "c.jsonl")]


def test_read_partition_returns_documents_in_id_order(archive: Archive) -> None:
    (partition,) = plan_xml(sorted(archive.gold.glob("*.xml"), reverse=True), 10_000)
    ids = [d.doc_id for d in read_partition(partition)]
    assert ids == sorted(ids) == sorted(d.doc_id for d in archive.documents)


def test_input_kind_refuses_mixed_and_empty_folders(tmp_path: Path, archive: Archive) -> None:
    assert input_kind(archive.gold) == "xml"
    assert input_kind(archive.shards) == "jsonl"
    with pytest.raises(InputError, match=r"no \.xml documents or \.jsonl shards"):
        input_kind(tmp_path)
    (tmp_path / "a.xml").write_text("<x/>")
    (tmp_path / "b.jsonl").write_text("")
    with pytest.raises(InputError, match="both"):
        input_kind(tmp_path)
