"""Splitting an archive into partitions of whole patients.

A partition never splits a patient: de-identification keeps one surrogate map and one date
shift per patient across records, and the tagger propagates trusted terms within a patient.
Inputs are a folder of i2b2 XML files (``PPP-RR.xml``) or a folder of JSON Lines shards
(many notes per file, the form an archive export takes). XML files are grouped by patient and
cut into partitions of about ``target`` documents; shards that share a patient are fused into
one partition (an export that groups each patient's notes gives one partition per shard).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from annotator.core.document import Document, split_record_name
from annotator.errors import InputError
from annotator.io.corpus import list_document_files
from annotator.io.i2b2 import read_i2b2
from annotator.io.jsonl import read_jsonl

XML = "xml"
JSONL = "jsonl"


@dataclass(frozen=True)
class Partition:
    """Input files whose documents form whole patients; the unit of work and of publication."""

    index: int
    kind: str
    files: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"part-{self.index:05d}"


def input_kind(folder: Path) -> str:
    """``xml`` or ``jsonl``: what the folder holds (one kind only)."""
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    has_xml = bool(list_document_files(folder, "*.xml"))
    has_jsonl = bool(list_document_files(folder, "*.jsonl"))
    if has_xml and has_jsonl:
        raise InputError("holds both .xml files and .jsonl shards; give one kind per folder", folder)
    if not has_xml and not has_jsonl:
        raise InputError("no .xml documents or .jsonl shards in the folder", folder)
    return XML if has_xml else JSONL


def patient_of_file(path: Path) -> str:
    return split_record_name(path.stem)[0]


def plan_xml(files: Sequence[Path], target: int) -> list[Partition]:
    """XML files grouped by patient (sorted), cut into partitions of about ``target`` documents."""
    by_patient: dict[str, list[str]] = {}
    for path in sorted(files, key=lambda p: p.name):
        by_patient.setdefault(patient_of_file(path), []).append(str(path))
    partitions: list[Partition] = []
    current: list[str] = []
    for patient in sorted(by_patient):
        current.extend(by_patient[patient])
        if len(current) >= target:
            partitions.append(Partition(len(partitions), XML, tuple(current)))
            current = []
    if current:
        partitions.append(Partition(len(partitions), XML, tuple(current)))
    return partitions


def shard_patients(path: str) -> list[str]:
    """The patients of one JSONL shard (run on the workers while planning)."""
    return sorted({document.patient_id for document in read_jsonl(path)})


def plan_jsonl(shards: Sequence[Path], patients: Sequence[Iterable[str]]) -> list[Partition]:
    """Shards fused where they share a patient (union-find), in shard-name order."""
    names = [str(p) for p in sorted(shards, key=lambda p: p.name)]
    order = {str(p): i for i, p in enumerate(sorted(shards, key=lambda p: p.name))}
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for shard, shard_patients_ in zip(shards, patients, strict=True):
        index = order[str(shard)]
        for patient in shard_patients_:
            if patient in owner:
                a, b = root(owner[patient]), root(index)
                parent[max(a, b)] = min(a, b)
            else:
                owner[patient] = index
    groups: dict[int, list[str]] = {}
    for index, name in enumerate(names):
        groups.setdefault(root(index), []).append(name)
    return [
        Partition(number, JSONL, tuple(files)) for number, (_, files) in enumerate(sorted(groups.items()))
    ]


def read_partition(partition: Partition) -> list[Document]:
    """The documents of a partition, sorted by id (the single-process commands' order)."""
    documents: list[Document] = []
    for name in partition.files:
        if partition.kind == XML:
            documents.append(read_i2b2(name))
        else:
            documents.extend(read_jsonl(name))
    return sorted(documents, key=lambda d: d.doc_id)


def plan_digest(partitions: Sequence[Partition]) -> str:
    """A fingerprint of the plan and its inputs (names, sizes, modification times)."""
    digest = hashlib.sha256()
    for partition in partitions:
        for name in partition.files:
            stat = Path(name).stat()
            digest.update(json.dumps([partition.index, name, stat.st_size, stat.st_mtime_ns]).encode())
    return digest.hexdigest()
