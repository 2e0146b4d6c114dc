"""The public MedTator and MAE sample files, read and written back (run where they are present).

The samples are never committed. Fetch the MedTator (OHNLP/MedTator) and MAE
(keighrim/mae-annotation) repositories somewhere outside this one, install the
``@xmldom/xmldom`` and ``js-yaml`` npm packages in a scratch folder (without js-yaml,
MedTator's parser cannot read the YAML tasks and 13 samples fail on both sides), and point
the test at them::

    MEDTATOR_CHECKOUT=/tmp/ix/OHNLP+MedTator MAE_CHECKOUT=/tmp/ix/keighrim+mae-annotation \\
    XMLDOM_NODE_PATH=/tmp/ix/node/node_modules python -m pytest tests/io/test_public_samples.py -s

Each sample must be accepted; written back (a real serialisation, not the bytes read) it
must keep its root, text and tag count, and MedTator's own parser (``ann_parser.xml2ann``,
run under node with ``medtator_check.js``) must load it with the same number of tags.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from annotator.core.task import TaskDefinition, read_task
from annotator.errors import SchemaError
from annotator.io.mae import document_to_mae, read_mae

CHECK_SCRIPT = Path(__file__).with_name("medtator_check.js")
_ROOTS = [Path(os.environ[name]) for name in ("MEDTATOR_CHECKOUT", "MAE_CHECKOUT") if os.environ.get(name)]
_NODE = shutil.which("node")
_XMLDOM = os.environ.get("XMLDOM_NODE_PATH", "")

pytestmark = pytest.mark.skipif(
    not _ROOTS or not _NODE or not _XMLDOM, reason="public samples, node or xmldom not present"
)


def _sample_files() -> list[Path]:
    skip = ("pom.xml", "logback", ".idea", "main/resources", "node_modules")
    return sorted(
        p for root in _ROOTS for p in root.rglob("*.xml") if not any(part in str(p) for part in skip)
    )


def _task_for(xml: Path, root_tag: str) -> Path | None:
    """The task file (DTD first) nearest to a sample whose task name is its root."""
    root = next(r for r in _ROOTS if r in xml.parents)
    for folder in [*[f for f in [xml.parent, *xml.parents] if root in f.parents or f == root], root]:
        patterns = ("*.dtd", "*.yaml") if folder != root else ("**/*.dtd", "**/*.yaml")
        candidates = [c for pattern in patterns for c in sorted(folder.glob(pattern))]
        for candidate in candidates:
            try:
                task: TaskDefinition = read_task(candidate)
            except SchemaError:
                continue
            if task.name == root_tag:
                return candidate
    return None


def _medtator(task: Path, files: list[Path]) -> dict[str, dict[str, object]]:
    env = {**os.environ, "NODE_PATH": _XMLDOM}
    source = _ROOTS[0] / "templates" / "js"
    result = subprocess.run(
        [str(_NODE), str(CHECK_SCRIPT), str(source), str(task), *map(str, files)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    loaded: dict[str, dict[str, object]] = json.loads(result.stdout)
    return loaded


def _tag_count(data: bytes) -> int:
    tags = etree.fromstring(data).find("TAGS")
    return len([e for e in tags if isinstance(e.tag, str)]) if tags is not None else 0


def test_public_samples_are_accepted_and_written_back(tmp_path: Path) -> None:
    files = _sample_files()
    by_task: dict[Path, list[tuple[Path, Path]]] = {}
    notes = warnings = 0
    for number, xml in enumerate(files):
        lines: list[str] = []
        document = read_mae(xml, lines)
        notes += sum("note:" in line for line in lines)
        warnings += sum("warning:" in line for line in lines)
        document.origin.fingerprint = None  # a real serialisation, not the bytes read
        written = document_to_mae(document)
        original = xml.read_bytes()
        assert etree.fromstring(written).tag == etree.fromstring(original).tag, xml
        assert etree.fromstring(written).findtext("TEXT") == document.text, xml
        assert _tag_count(written) == _tag_count(original), xml
        out = tmp_path / f"{number:03d}_{xml.name}"
        out.write_bytes(written)
        task = _task_for(xml, str(etree.fromstring(original).tag))
        if task is not None:
            by_task.setdefault(task, []).append((xml, out))
    loaded = 0
    for task, pairs in by_task.items():
        theirs = _medtator(task, [xml for xml, _ in pairs])
        ours = _medtator(task, [out for _, out in pairs])
        for xml, out in pairs:
            assert ours[str(out)]["ok"], (xml, ours[str(out)])
            assert ours[str(out)]["tags"] == theirs[str(xml)]["tags"], xml
            loaded += 1
    print(
        f"\n{len(files)} sample files accepted ({notes} case-only notes, {warnings} text warnings); "
        f"{loaded} written back and loaded by MedTator's parser with the same tag count; "
        f"{len(files) - loaded} have no task file whose name is their root"
    )
