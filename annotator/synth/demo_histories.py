"""Simulated edit histories for the demo project, so its effort report has something to show.

The demo's two annotators never sat at the window: their versions were generated. This module
writes the histories a session that produced those versions could have left (a crossover:
alice saw the model's suggestions on the even-numbered patients, bob on the odd ones) and the
active time it would have taken, so that ``annotator report effort`` and the dashboard's
effort tab can be tried on the demo. **The times are simulated** (reading 25 s per 1,000
characters; accepting 3-6 s, changing 8-15 s, rejecting 3-7 s, tagging by hand 10-20 s, each
drawn from a generator seeded per document): they show what the report computes, not what
pre-annotation saves real annotators.

How a version is reached from the suggestions: a tag the annotator has with a suggestion's
type and offsets accepts it; one overlapping a suggestion changes it; any other tag is made by
hand; a suggestion left over is rejected.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write_text
from annotator.core.project import Project
from annotator.io.edit_history import history_path, start_entry, timed
from annotator.io.i2b2 import read_i2b2
from annotator.io.journal import added, removed, replaced
from annotator.io.workstate import DONE, WorkState

# 2060-01-10 09:00 UTC, in the demo's shifted years.
START = 2_840_950_800.0


def _rng(annotator: str, doc_id: str, seed: int) -> random.Random:
    return random.Random(zlib.crc32(f"{seed}/{annotator}/{doc_id}".encode()))


def _shows_suggestions(annotator_index: int, patient_id: str) -> bool:
    number = int(patient_id) if patient_id.isdigit() else zlib.crc32(patient_id.encode())
    return number % 2 == annotator_index % 2


def _history(
    suggestions: list[Annotation], final: list[Annotation], text_length: int, rng: random.Random, at: float
) -> tuple[list[dict[str, Any]], float]:
    """The lines of one document's history and the active seconds it took."""
    lines = [start_entry(suggestions, at)]
    clock = at + 25.0 * text_length / 1000
    open_ = {s.id: s for s in suggestions}
    taken = {s.id for s in suggestions}
    for tag in sorted(final, key=lambda a: (a.start, a.end)):
        same = next((s for s in open_.values() if s.key == tag.key), None)
        near = same or next((s for s in open_.values() if s.start < tag.end and tag.start < s.end), None)
        if near is not None:
            del open_[near.id]
            clock += rng.uniform(3, 6) if same is not None else rng.uniform(8, 15)
            reviewed = near.replace(
                tag=tag.tag, type=tag.type, start=tag.start, end=tag.end, text=tag.text, pending=False
            )
            lines.append(timed(replaced(near, reviewed), clock))
        else:
            clock += rng.uniform(10, 20)
            tag_id = tag.id if tag.id not in taken else f"H{len(lines)}"
            taken.add(tag_id)
            lines.append(timed(added(tag.replace(id=tag_id, pending=False)), clock))
    for suggestion in open_.values():
        clock += rng.uniform(3, 7)
        lines.append(timed(removed(suggestion), clock))
    return lines, clock - at


def simulate_demo_histories(root: Path, seed: int = 7) -> int:
    """Write the demo annotators' histories and times into the project at ``root``; how many."""
    project = Project.open(root)
    state = WorkState.load(project)
    written = 0
    at = START
    for index, annotator in enumerate(project.annotators):
        for doc_id in project.document_ids():
            copy = project.annotations_dir(annotator) / f"{doc_id}.xml"
            if not copy.is_file():
                continue
            version = read_i2b2(copy)
            shown: list[Annotation] = []
            pre = project.preannotations_dir / f"{doc_id}.xml"
            if _shows_suggestions(index, version.patient_id) and pre.is_file():
                shown = [a for a in read_i2b2(pre).annotations if a.pending]
            final = [a for a in version.annotations if not a.pending]
            lines, seconds = _history(shown, final, len(version.text), _rng(annotator, doc_id, seed), at)
            path = history_path(project.state_dir, annotator, doc_id)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, "".join(_line(line) for line in lines))
            state.set_status(doc_id, annotator, DONE)
            state.add_seconds(doc_id, annotator, round(seconds, 1))
            at += seconds + 60
            written += 1
    state.save()
    return written


def _line(entry: dict[str, Any]) -> str:
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
