"""The public MedTator, MAE and brat samples, compared as the tools themselves read them.

Where ``test_public_crossings`` compares documents in our model, this test asks the other
tools: each sample goes through i2b2 (and a project, and MAE) and back to its own format,
and the file written must read, in MedTator's own parser (``medtator_compare.js``) or brat's
own reader (``brat_canon.py``), as the original reads: the same text, ``<META>``, tags and
every attribute of every tag, links and brat's relations, events, attributes, normalizations
and notes. Set-up as in ``test_public_crossings`` (the same environment variables)::

    MEDTATOR_CHECKOUT=... MAE_CHECKOUT=... BRAT_CHECKOUT=... BRAT_PYTHON=.../python3.9 \\
    XMLDOM_NODE_PATH=.../node_modules python -m pytest tests/io/test_public_interchange.py -m slow

The one difference allowed: a MAE ``text`` attribute that is not its spans' text (MedTator
stores the hint's case, ``BNT162B2`` over ``bnt162b2``; MAE's ``doc*_a4`` N1 says ``house r``
over ``house``) comes back as the text at its spans, since every other format re-slices.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from annotator.io.task_files import find_task
from annotator.workflows.convert import ConvertRequest, convert

_ENV = ("MEDTATOR_CHECKOUT", "MAE_CHECKOUT", "BRAT_CHECKOUT", "BRAT_PYTHON", "XMLDOM_NODE_PATH")
_NODE = shutil.which("node")
_HERE = Path(__file__).resolve().parent
_SKIP = ("pom.xml", "logback", ".idea", "main/resources", "node_modules")
# A text attribute re-sliced from its spans: the only difference MedTator may see.
_TEXT_ONLY = re.compile(r'^[^.\s]+\.text: "[^"]*" vs "[^"]*"$')

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not all(os.environ.get(name) for name in _ENV) or _NODE is None,
        reason="public samples, brat's Python, node or xmldom not present",
    ),
]


def _mae_folders() -> dict[Path, list[Path]]:
    folders: dict[Path, list[Path]] = {}
    for root in (Path(os.environ["MEDTATOR_CHECKOUT"]) / "sample", Path(os.environ["MAE_CHECKOUT"])):
        for path in sorted(root.rglob("*.xml")):
            if not any(part in str(path) for part in _SKIP):
                folders.setdefault(path.parent, []).append(path)
    return folders


def _task(folder: Path) -> Path | None:
    found = find_task(folder)
    if found is None and folder.parent.name == "iaa_example_dirs":  # MAE's IAA sample dirs
        return folder.parent.parent / "iaa_example" / "iaaSample.dtd"
    return found


def _route(folder: Path, source: str, via: str, task: Path, work: Path) -> Path:
    """Convert ``folder`` to ``via`` and back to ``source``; the folder written back."""
    if via == source:
        convert(ConvertRequest(folder, work / "back", source, source, str(task)))
    elif via == "project":
        convert(ConvertRequest(folder, work / "p", "project", source, str(task)))
        convert(ConvertRequest(work / "p" / "gold", work / "back", source, None, str(task)))
    else:
        convert(ConvertRequest(folder, work / "x", via, source, str(task)))
        convert(ConvertRequest(work / "x", work / "back", source, via, str(task)))
    return work / "back"


def test_medtator_reads_every_sample_written_back_as_it_reads_the_original(tmp_path: Path) -> None:
    assert _NODE is not None
    source = Path(os.environ["MEDTATOR_CHECKOUT"]) / "templates" / "js"
    problems: list[str] = []
    files = 0
    for number, (folder, paths) in enumerate(_mae_folders().items()):
        task = _task(folder)
        if task is None:
            continue
        files += len(paths)
        for via in ("i2b2", "project", "mae"):
            back = _route(folder, "mae", via, task, tmp_path / f"{number}-{via}")
            pairs = [str(p) for path in paths for p in (path, back / path.name)]
            result = subprocess.run(
                [_NODE, str(_HERE / "medtator_compare.js"), str(source), str(task), *pairs],
                capture_output=True,
                text=True,
                env={**os.environ, "NODE_PATH": os.environ["XMLDOM_NODE_PATH"]},
                check=True,
            )
            for item in json.loads(result.stdout):
                wrong = [d for d in item.get("diffs", [item]) if not _TEXT_ONLY.match(str(d))]
                problems += [f"{item['file']} via {via}: {d}" for d in wrong]
    assert files > 100
    assert not problems, "\n".join(problems[:20])


def test_brat_reads_every_sample_written_back_as_it_reads_the_original(tmp_path: Path) -> None:
    server = Path(os.environ["BRAT_CHECKOUT"]) / "server" / "src"
    python = os.environ["BRAT_PYTHON"]

    def read(paths: list[Path]) -> dict[str, list[str]]:
        command = [python, str(_HERE / "brat_canon.py"), str(server), *map(str, paths)]
        result = subprocess.run(command, capture_output=True, text=True, cwd=server, check=True)
        found: dict[str, list[str]] = json.loads(result.stdout)
        return found

    examples = Path(os.environ["BRAT_CHECKOUT"]) / "example-data"
    problems: list[str] = []
    documents = 0
    for number, folder in enumerate(sorted({p.parent for p in examples.rglob("*.ann")})):
        conf = find_task(folder, brat=True)
        assert conf is not None
        anns = sorted(folder.glob("*.ann"))
        documents += len(anns)
        original = read(anns)
        for via in ("i2b2", "mae"):
            back = _route(folder, "brat", via, conf, tmp_path / f"{number}-{via}")
            if (back / "annotation.conf").read_bytes() != conf.read_bytes():
                problems.append(f"{folder} via {via}: annotation.conf not kept")
            again = read([back / a.name for a in anns])
            for ann in anns:
                before, after = Counter(original[str(ann)]), Counter(again[str(back / ann.name)])
                if before != after:
                    problems.append(
                        f"{ann} via {via}: lost {list(before - after)[:3]}, got {list(after - before)[:3]}"
                    )
    assert documents > 150
    assert not problems, "\n".join(problems[:20])
