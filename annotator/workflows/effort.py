"""What pre-annotation did: the effort report of a project, from its kept edit histories.

For every annotator and every document they have a history of
(:mod:`annotator.io.edit_history`), the history is replayed
(:func:`annotator.evaluation.effort.replay_history`) and joined with the active time the
window counted (the work state) and with the other versions of the document:

* per annotator and per PHI type: suggestions shown, accepted, changed (boundary, type),
  rejected, left unreviewed; tags made by hand, and those of them the model had not suggested
  anything over (*missed by the model*);
* active seconds per document, per 1,000 characters and per PHI tag;
* agreement of kept suggestions (accepted or changed) and of hand-made tags with the gold standard and with the
  other annotators' versions: the share of the tags found with the same type and offsets;
* documents with suggestions against documents without: mean seconds per 1,000 characters
  and mean F1 against gold, with percentile bootstrap intervals resampling documents.

The report holds ids, counts and times, never note text. :func:`effort_report` returns it as
a JSON-ready dict (``docs/json-schemas/effort.schema.json``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from annotator.core.project import Project
from annotator.errors import AnnotatorError, UsageError
from annotator.evaluation.effort import (
    FATES,
    DocumentFates,
    Tag,
    bootstrap_difference_interval,
    bootstrap_mean_interval,
    replay_history,
)
from annotator.io.edit_history import history_annotators, history_documents, history_path, read_history
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import WorkState
from annotator.workflows.notes import Cancelled, Progress, check_cancel

Key = tuple[str, int, int]


@dataclass(frozen=True)
class EffortRequest:
    """The effort report of ``project`` (``resamples`` bootstrap draws, seeded)."""

    project: Project
    resamples: int = 2000
    seed: int = 0


@dataclass
class _Document:
    annotator: str
    doc_id: str
    characters: int
    seconds: float
    fates: DocumentFates
    gold: set[Key] | None
    others: list[set[Key]]


def _keys(path: Path) -> set[Key] | None:
    if not path.is_file():
        return None
    try:
        document = read_i2b2(path)
    except AnnotatorError:
        return None
    return {(a.type, a.start, a.end) for a in document.annotations if not a.pending}


def _key(tag: Tag) -> Key:
    return (tag.type, tag.start, tag.end)


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _agreement(documents: list[_Document], origin: str, reference: str) -> dict[str, Any]:
    matched = total = 0
    for document in documents:
        references = [document.gold] if reference == "gold" else document.others
        for ref in references:
            if ref is None:
                continue
            tags = [t for t, o in document.fates.final if o == origin and not t.pending]
            total += len(tags)
            matched += sum(_key(t) in ref for t in tags)
    return {"matched": matched, "total": total, "rate": _ratio(matched, total)}


def _f1(document: _Document) -> float | None:
    if document.gold is None:
        return None
    tags = {_key(t) for t, _o in document.fates.final if not t.pending}
    found = len(tags & document.gold)
    return 2 * found / (len(tags) + len(document.gold)) if tags or document.gold else 1.0


def _group(values: list[float], resamples: int, seed: int) -> dict[str, Any]:
    interval = bootstrap_mean_interval(values, resamples, seed)
    return {
        "documents": len(values),
        "mean": sum(values) / len(values) if values else None,
        "interval": list(interval) if interval else None,
    }


def _comparison(documents: list[_Document], resamples: int, seed: int) -> dict[str, Any]:
    result: dict[str, Any] = {}
    measures = {
        "seconds_per_1000_characters": lambda d: (
            1000 * d.seconds / d.characters if d.characters and d.seconds > 0 else None
        ),
        "gold_f1": _f1,
    }
    for name, measure in measures.items():
        groups: dict[str, list[float]] = {"with_suggestions": [], "without_suggestions": []}
        for document in documents:
            value = measure(document)
            if value is not None:
                groups["with_suggestions" if document.fates.shown else "without_suggestions"].append(value)
        entry = {group: _group(values, resamples, seed) for group, values in groups.items()}
        with_, without = groups["with_suggestions"], groups["without_suggestions"]
        interval = bootstrap_difference_interval(with_, without, resamples, seed)
        entry["difference"] = {
            "mean": sum(with_) / len(with_) - sum(without) / len(without) if with_ and without else None,
            "interval": list(interval) if interval else None,
        }
        result[name] = entry
    return result


def _by_type(documents: list[_Document]) -> list[dict[str, Any]]:
    shown: Counter[str] = Counter()
    fates: dict[str, Counter[str]] = {}
    hand: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for document in documents:
        for tag in document.fates.suggestions:
            shown[tag.type] += 1
        for type_name, counter in document.fates.fates.items():
            fates.setdefault(type_name, Counter()).update(counter)
        hand.update(document.fates.hand)
        missed.update(document.fates.missed)
    rows = []
    for type_name in sorted(set(shown) | set(hand)):
        counter = fates.get(type_name, Counter())
        rows.append(
            {
                "type": type_name,
                "shown": shown[type_name],
                **{fate: counter[fate] for fate in FATES},
                "hand_made": hand[type_name],
                "missed_by_model": missed[type_name],
            }
        )
    return rows


def _annotator_summary(name: str, documents: list[_Document], request: EffortRequest) -> dict[str, Any]:
    seconds = sum(d.seconds for d in documents)
    characters = sum(d.characters for d in documents)
    tags = sum(sum(1 for t, _o in d.fates.final if not t.pending) for d in documents)
    suggestions = {"shown": sum(d.fates.shown for d in documents)}
    suggestions |= {fate: sum(d.fates.count(fate) for d in documents) for fate in FATES}
    return {
        "annotator": name,
        "documents": len(documents),
        "documents_with_suggestions": sum(1 for d in documents if d.fates.shown),
        "characters": characters,
        "tags": tags,
        "seconds": round(seconds, 3),
        "seconds_per_document": _ratio(seconds, len(documents)),
        "seconds_per_1000_characters": _ratio(1000 * seconds, characters),
        "seconds_per_tag": _ratio(seconds, tags),
        "suggestions": suggestions,
        "hand_made": sum(sum(d.fates.hand.values()) for d in documents),
        "missed_by_model": sum(sum(d.fates.missed.values()) for d in documents),
        "by_type": _by_type(documents),
        "agreement": {
            reference: {origin: _agreement(documents, origin, reference) for origin in ("suggestion", "hand")}
            for reference in ("gold", "other_annotators")
        },
        "with_and_without_suggestions": _comparison(documents, request.resamples, request.seed),
    }


def _document_row(document: _Document) -> dict[str, Any]:
    fates = document.fates
    return {
        "annotator": document.annotator,
        "doc_id": document.doc_id,
        "characters": document.characters,
        "seconds": round(document.seconds, 3),
        "tags": sum(1 for t, _o in fates.final if not t.pending),
        "shown": fates.shown,
        **{fate: fates.count(fate) for fate in FATES},
        "hand_made": sum(fates.hand.values()),
        "missed_by_model": sum(fates.missed.values()),
        "gold_f1": _f1(document),
    }


def effort_report(
    request: EffortRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> dict[str, Any]:
    """Join the project's edit histories, working times and versions into the effort report."""
    project = request.project
    if project.plain_folder:
        raise UsageError(
            "the effort report needs a project (a plain folder keeps no histories)", project.root
        )
    state = WorkState.load(project)
    names = [n for n in dict.fromkeys([*project.annotators, *history_annotators(project.state_dir)])]
    work = [(name, doc_id) for name in names for doc_id in history_documents(project.state_dir, name)]
    documents: list[_Document] = []
    lengths: dict[str, int] = {}
    unreadable: list[str] = []
    for done, (name, doc_id) in enumerate(work, start=1):
        check_cancel(cancelled, "effort report")
        source = project.source_dir / f"{doc_id}.xml"
        if doc_id not in lengths:
            try:
                lengths[doc_id] = len(read_i2b2(source, check_offsets=False).text)
            except AnnotatorError:
                lengths[doc_id] = 0  # no source note: times per character are left out
        try:
            entries = read_history(history_path(project.state_dir, name, doc_id))
            fates = replay_history(entries)
        except AnnotatorError as error:
            # Another user's 0600 history, or a damaged one: named in the report, not fatal.
            unreadable.append(f"{name}/{doc_id}: {error.message}")
            continue
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError) as error:
            # Lines that are JSON but not what the window writes (a NaN offset, a tag that is
            # a string, lists nested thousands deep): damaged, named like an unreadable one.
            unreadable.append(f"{name}/{doc_id}: damaged edit history ({type(error).__name__})")
            continue
        others = [
            keys
            for other in names
            if other != name and (keys := _keys(project.annotations_dir(other) / f"{doc_id}.xml")) is not None
        ]
        documents.append(
            _Document(
                name,
                doc_id,
                lengths[doc_id],
                state.seconds(doc_id, name),
                fates,
                _keys(project.gold_dir / f"{doc_id}.xml"),
                others,
            )
        )
        if progress is not None:
            progress(done, len(work))
    by_annotator = {name: [d for d in documents if d.annotator == name] for name in names}
    return {
        "project": project.name,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "bootstrap": {"resamples": request.resamples, "seed": request.seed, "level": 0.95},
        "annotators": [
            _annotator_summary(name, docs, request) for name, docs in by_annotator.items() if docs
        ],
        "all_annotators": _annotator_summary("all", documents, request) if documents else None,
        "documents": [_document_row(d) for d in documents],
        "unreadable_histories": unreadable,
    }
