"""Finding the task (tag set) that goes with annotation files nobody named one for.

MAE and MedTator keep the task's DTD (or MedTator's YAML / JSON) beside the files or a
little above them (MedTator's samples: ``TASK/ann_xml/Annotator_A/`` with the DTD in
``TASK/``); brat looks for ``annotation.conf`` in the folder and then in each folder above.
The nearest candidate wins, searching the folder and up to two levels above; for MAE files
only a task whose name is the files' root element counts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lxml import etree

from annotator.core.brat_conf import CONF_NAME
from annotator.core.task import TASK_SUFFIXES, read_task
from annotator.errors import AnnotatorError
from annotator.io.xmlsafe import read_bytes

LEVELS_UP = 2
_ROOT_SNIFF = 4096


def xml_root(path: Path) -> str:
    """The root element's name of an XML file ("" when it cannot be told cheaply)."""
    try:
        head = read_bytes(path, head=_ROOT_SNIFF)
    except AnnotatorError:
        return ""
    try:
        parser = etree.XMLPullParser(
            events=("start",), resolve_entities=False, no_network=True, load_dtd=False
        )
        parser.feed(head)
        for _, element in parser.read_events():
            return str(getattr(element, "tag", ""))
    except etree.XMLSyntaxError:
        return ""
    return ""


def find_task(path: Path, brat: bool = False) -> Path | None:
    """The task file for a file or a folder of files, or None.

    ``brat``: look for brat's ``annotation.conf``; otherwise for a MAE / MedTator task whose
    name is the root of the folder's first XML file (any task when that cannot be told).
    """
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    if brat:
        return _nearest(folder, lambda f: [f / CONF_NAME] if (f / CONF_NAME).is_file() else [])
    sample = path if path.is_file() else next(iter(sorted(folder.glob("*.xml"))), None)
    root = xml_root(sample) if sample is not None else ""
    return _nearest(folder, lambda f: _tasks_in(f, root))


def _nearest(folder: Path, candidates_in: Callable[[Path], list[Path]]) -> Path | None:
    current = folder.resolve()
    for _ in range(LEVELS_UP + 1):
        found = candidates_in(current)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return None  # two tasks for the same root: no guessing
        if current.parent == current:
            break
        current = current.parent
    return None


def _tasks_in(folder: Path, root: str) -> list[Path]:
    tasks = []
    names = set()
    for candidate in sorted(p for p in folder.iterdir() if p.suffix.lower() in TASK_SUFFIXES and p.is_file()):
        try:
            task = read_task(candidate)
        except AnnotatorError:
            continue
        if root and task.name != root:
            continue
        if task.name not in names:  # MedTator ships the same task as .dtd, .yaml and .json
            names.add(task.name)
            tasks.append(candidate)
    return tasks
