"""Crossing formats and back: what a document holds, compared modulo ids.

Used by the per-route tests on our own small files and by the public-sample check
(``tests/io/test_public_crossings.py``). Run as a script on folders of samples to print the
figures docs/formats.md quotes::

    python -m tests.io.crossings FOLDER... [--brat-python PY] [--medtator SRC --node-path NM]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from annotator.core.document import Document
from annotator.core.relations import RelationKind
from annotator.core.schema import Schema
from annotator.errors import AnnotatorError
from annotator.io.capacity import file_elements, losses
from annotator.io.formats import FORMATS, detect_format, read_documents
from annotator.io.task_files import find_task
from annotator.workflows.convert import ConvertRequest, convert
from annotator.workflows.inputs import schema_by_name

# The formats that read and write (CoNLL only writes; a note table only reads).
ROUND_TRIP = ("i2b2", "mae", "brat", "jsonl", "inline2006")


def canonical(document: Document) -> Counter[object]:
    """What a document holds, as a multiset that names nothing by id.

    A tag is its category, type, pieces, non-empty attributes, comment and provenance; the
    file's other elements that hold something (MedTator's ``<META>`` labels) count too; a
    relation names the tags (or relations) it links by what they are; an empty attribute is
    no attribute (MAE writes unset ones empty, brat leaves them out).
    """
    pieces: dict[str, list[tuple[int, int]]] = {}
    heads = []
    for annotation in document.annotations:
        if annotation.fragment_of and annotation.fragment_of in document:
            pieces[annotation.fragment_of].append((annotation.start, annotation.end))
        else:
            pieces[annotation.id] = [(annotation.start, annotation.end)]
            heads.append(annotation)
    names: dict[str, object] = {}
    for a in heads:
        names[a.id] = ("tag", a.tag, a.type, tuple(pieces[a.id]))
    for tag in document.document_tags:
        names[tag.id] = ("document-tag", tag.tag, _pairs(tag.attributes), tag.comment)
    relations = {r.id: r for r in document.relations}

    def name(item_id: str, depth: int = 0) -> object:
        if item_id in names:
            return names[item_id]
        relation = relations.get(item_id)
        if relation is None or depth > 20:
            return ("missing", item_id)
        arguments = [(a.role, name(a.target, depth + 1)) for a in relation.filled]
        if relation.kind is RelationKind.EQUIVALENCE:
            arguments = sorted(arguments, key=repr)
        trigger = name(relation.trigger, depth + 1) if relation.trigger else None
        return (relation.kind.value, relation.type, trigger, tuple(arguments), _pairs(relation.attributes))

    found: Counter[object] = Counter()
    for a in heads:
        provenance = (a.source.value, a.confidence, a.annotator, a.pending)
        found[(names[a.id], _pairs(a.extra), a.comment, provenance)] += 1
    for tag in document.document_tags:
        found[names[tag.id]] += 1
    for relation in document.relations:
        found[(name(relation.id), relation.comment)] += 1
    for element in file_elements(document):
        found[("element", element)] += 1
    return found


def _pairs(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((n, v) for n, v in pairs if v))


@dataclass
class Crossing:
    """One file through one format and back."""

    source: Path
    via: str
    outcome: str  # "same", "differs", "refused" (the target cannot hold it), "error"
    detail: str = ""
    written: list[Path] = field(default_factory=list)


def cross(source: Path, source_format: str, via: str, schema: str, work: Path) -> Crossing:
    """Convert one file (or brat document) to ``via`` and back, and compare."""
    before = read_documents(source, source_format, _schema(schema))
    if losses(before, FORMATS[via].holds, FORMATS[via].carries):
        return Crossing(source, via, "refused")
    out, back = work / f"to-{via}", work / f"back-{via}"
    try:
        there = convert(ConvertRequest(source, out, via, source_format, schema))
        convert(ConvertRequest(out, back, source_format, via, schema))
        after = read_documents(back, source_format, _schema(schema))
    except AnnotatorError as error:
        return Crossing(source, via, "error", error.one_line())
    expected = Counter(c for d in before for c in canonical(d).elements())
    found = Counter(c for d in after for c in canonical(d).elements())
    if expected == found:
        return Crossing(source, via, "same", written=there.written)
    missing, extra = expected - found, found - expected
    detail = f"{sum(missing.values())} missing, {sum(extra.values())} extra; first missing {next(iter(missing), None)!r}"
    return Crossing(source, via, "differs", detail, there.written)


def _schema(name: str) -> Schema:
    return schema_by_name(name)


def sample_files(folder: Path) -> list[tuple[Path, str]]:
    """The annotation files under a folder (brat documents by their ``.ann``), with formats."""
    skip = ("pom.xml", "logback", ".idea", "main/resources", "node_modules")
    found = []
    for path in sorted(folder.rglob("*")):
        if any(part in str(path) for part in skip) or not path.is_file():
            continue
        if path.suffix == ".ann":
            found.append((path, "brat"))
        elif path.suffix == ".xml":
            found.append((path, detect_format(path)))
    return found


def schema_for(path: Path, source_format: str) -> str:
    task = find_task(path, brat=source_format == "brat")
    return str(task) if task is not None else "i2b2-2014"


def brat_errors(folder: Path, python: str, verify: Path) -> list[str]:
    """brat's ``verify_annotations.py`` on a folder: its error lines (warnings left out)."""
    files = sorted(str(p.resolve()) for p in folder.glob("*.ann"))
    if not files:
        return []
    result = subprocess.run(
        [python, str(verify), *files], capture_output=True, text=True, cwd=verify.parent, timeout=600
    )
    lines = (result.stdout + result.stderr).splitlines()
    return [line for line in lines if "AnnotationError" in line or "Traceback" in line or "Failed" in line]


def medtator_loads(folder: Path, node: str, source: Path, node_path: str, check_script: Path) -> list[str]:
    """MedTator's parser on the MAE files we wrote (with the DTD beside them): problems."""
    dtds = sorted(folder.glob("*.dtd"))
    files = sorted(folder.glob("*.xml"))
    if not dtds or not files:
        return [f"{folder}: no DTD or no XML written"]
    env = {**os.environ, "NODE_PATH": node_path}
    result = subprocess.run(
        [node, str(check_script), str(source), str(dtds[0]), *map(str, files)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    if result.returncode != 0:
        return [f"{folder}: node failed: {result.stderr.strip()[:200]}"]
    problems = []
    for name, loaded in json.loads(result.stdout).items():
        tags = etree.parse(name).getroot().find("TAGS")
        written = len([e for e in tags if isinstance(e.tag, str)]) if tags is not None else 0
        if not loaded["ok"] or loaded["tags"] != written:
            problems.append(f"{name}: {loaded}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--brat-python", help="a Python that runs brat's server/src/verify_annotations.py")
    parser.add_argument("--brat-verify", type=Path)
    parser.add_argument("--medtator", type=Path, help="MedTator's templates/js folder")
    parser.add_argument("--node-path", default="", help="NODE_PATH holding @xmldom/xmldom and js-yaml")
    args = parser.parse_args(argv)
    check_script = Path(__file__).with_name("medtator_check.js")
    tally: Counter[tuple[str, str, str]] = Counter()
    verify_errors = medtator_problems = 0
    failures = []
    for folder in args.folders:
        for path, source_format in sample_files(folder):
            schema = schema_for(path, source_format)
            for via in ROUND_TRIP:
                with tempfile.TemporaryDirectory(prefix="crossing-") as work:
                    crossing = cross(path, source_format, via, schema, Path(work))
                    tally[(source_format, via, crossing.outcome)] += 1
                    if crossing.outcome in ("differs", "error"):
                        failures.append(f"{path} via {via}: {crossing.outcome} {crossing.detail}")
                    out = Path(work) / f"to-{via}"
                    if crossing.outcome == "same" and via == "brat" and args.brat_python:
                        errors = brat_errors(out, args.brat_python, args.brat_verify)
                        verify_errors += len(errors)
                        failures += errors[:3]
                    if crossing.outcome == "same" and via == "mae" and args.medtator:
                        problems = medtator_loads(out, "node", args.medtator, args.node_path, check_script)
                        medtator_problems += len(problems)
                        failures += problems[:3]
    for (source_format, via, outcome), count in sorted(tally.items()):
        print(f"{source_format:>10} -> {via:<10} {outcome:<8} {count}")
    print(f"brat verify_annotations errors: {verify_errors}; MedTator load problems: {medtator_problems}")
    for line in failures[:40]:
        print(line)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
