"""The work done on the cluster's workers, one call per partition.

Each function is importable by name (workers unpickle it by reference), reads its own inputs
from the shared file system, calls the same library functions as the single-process
command, and publishes its output atomically (annotator.batch.output). A user error (an
unreadable file, a leak) comes back as a :class:`PartitionFailure`, never as a traceback.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.batch.output import publish
from annotator.batch.partitions import Partition, read_partition
from annotator.core.document import Document
from annotator.core.mapping import Mapping
from annotator.crf.guidelines import I2B2_2014
from annotator.errors import AnnotatorError
from annotator.io.i2b2 import read_i2b2


@dataclass
class PartitionDone:
    """What one partition produced (counts only, no text)."""

    index: int
    documents: int
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class PartitionFailure:
    """A partition left unpublished, and why (one line naming a file, never note text)."""

    index: int
    message: str


Outcome = PartitionDone | PartitionFailure


@dataclass(frozen=True)
class LeakPolicy:
    """What a partition does with the leak check's findings, as ``annotator deidentify`` does.

    ``allowed``: reviewed "not PHI here" entries (read once, on the client); ``on_leak``:
    ``"refuse"`` (the partition is not published) or ``"mask"`` (every finding masked, then
    checked again); ``review_dir``: where a partition with findings writes them in context
    (``part-NNNNN.json``, private: it holds PHI).
    """

    allowed: tuple[Any, ...] = ()
    on_leak: str = "refuse"
    review_dir: str | None = None


@functools.lru_cache(maxsize=2)
def _tagger(path: str, stamp: tuple[int, int]) -> Any:
    # Loaded once per worker process and reused for every partition it tags (the stamp makes
    # a replaced model file load again).
    from annotator.crf.tagger import CrfTagger

    return CrfTagger.load(path)


def load_tagger(path: str) -> Any:
    return _tagger(path, stamp(path))


def stamp(path: str) -> tuple[int, int]:
    """Size and modification time: what says a file (or a folder's listing) was replaced."""
    stat = os.stat(path)
    return stat.st_size, stat.st_mtime_ns


@functools.lru_cache(maxsize=2)
def _site_lists(path: str, stamp: tuple[int, int], schema: Any) -> Any:
    from annotator.io.site_lists import read_site_lists

    return read_site_lists(Path(path), schema)


def load_site_lists(path: str, schema: Any) -> Any:
    return _site_lists(path, stamp(path), schema)


def preannotate_partition(
    partition: Partition,
    model: str,
    recall_bias: float | None,
    out_dir: str,
    guideline: str = I2B2_2014,
    site_lists: str | None = None,
) -> Outcome:
    from annotator.workflows.preannotate import tag_documents

    try:
        tagger = load_tagger(model)
        # The worker's tagger is shared by the partitions of one job, which share the guideline
        # and the site's lists.
        tagger.guideline = guideline
        tagger.site_lists = load_site_lists(site_lists, tagger.schema) if site_lists else None
        documents = read_partition(partition)
        results = tag_documents(tagger, documents, recall_bias)
        publish(documents, Path(out_dir), partition)
    except AnnotatorError as error:
        return PartitionFailure(partition.index, error.one_line())
    return PartitionDone(
        partition.index,
        len(documents),
        {
            "suggestions": sum(len(r.kept) for r in results),
            "dropped_overlapping": sum(r.dropped for r in results),
        },
    )


def context_of_partition(partition: Partition) -> Any:
    """The original values of a partition (merged on the client into the corpus's context)."""
    from annotator.deid.surrogates import CorpusContext

    try:
        return CorpusContext.from_documents(read_partition(partition))
    except AnnotatorError as error:
        return PartitionFailure(partition.index, error.one_line())


def deidentify_partition(
    partition: Partition,
    out_dir: str,
    options: Any,
    context: Any,
    leak_options: Any,
    map_dir: str | None,
    policy: LeakPolicy | None = None,
) -> Outcome:
    """Surrogates for whole patients, checked (read back, leak check) before publication."""
    import json

    from annotator.core.atomic import atomic_write_text
    from annotator.deid.allowlist import without_allowed
    from annotator.deid.export import audit_map, check_originals, deidentify_documents, follow_masks, verified
    from annotator.deid.leak_actions import mask_findings, write_review
    from annotator.deid.leakcheck import find_leaks, leak_error

    policy = policy or LeakPolicy()
    allowed = list(policy.allowed)
    try:
        originals = read_partition(partition)
        check_originals(originals)
        result = deidentify_documents(originals, options, context=context)
        documents = result.documents
        leaks, passed = without_allowed(find_leaks(originals, documents, leak_options), documents, allowed)
        if leaks and policy.review_dir is not None:
            write_review(Path(policy.review_dir) / f"{partition.name}.json", leaks, documents)
        if leaks and policy.on_leak != "mask":
            raise leak_error(leaks)
        if leaks:
            documents = mask_findings(documents, leaks, options.mask_style, options.mask_char)
            follow_masks(result, documents)

        def check(written: Sequence[Document]) -> None:
            # What is published is checked as read back: a mask never brings PHI back, but
            # the promise is "checked", so the masked notes are checked again.
            for document in written:
                verified(document)
            remaining, _ = without_allowed(find_leaks(originals, written, leak_options), written, allowed)
            if remaining:
                raise leak_error(remaining)

        # The audit map first: a partition published without it (killed in between) would
        # have lost it for good, since a resume skips what is published. A map without its
        # notes is redone, the same, by the resume (the same seed: see resumed_seed).
        map_file = Path(map_dir) / f"{partition.name}.json" if map_dir is not None else None
        if map_file is not None:
            text = json.dumps(audit_map(result, options), indent=1, ensure_ascii=False) + "\n"
            atomic_write_text(map_file, text)
        try:
            publish(documents, Path(out_dir), partition, check)
        except AnnotatorError:
            if map_file is not None:
                map_file.unlink(missing_ok=True)  # nothing published: no map of it either
            raise
    except AnnotatorError as error:
        return PartitionFailure(partition.index, error.one_line())
    counts = result.counts()
    if leaks:
        counts["leak findings masked"] = len(leaks)
    if passed:
        counts["leak findings passed by the allow file"] = len(passed)
    return PartitionDone(partition.index, len(originals), counts)


@dataclass(frozen=True)
class ScoringPartition:
    """The gold and system files of whole patients."""

    index: int
    gold: tuple[str, ...]
    system: tuple[str, ...]


@dataclass
class PartitionScore:
    index: int
    result: Any
    only_reference: int
    only_predicted: int
    #: every (category, TYPE) of the partition's files, before mapping
    labels: frozenset[tuple[str, str]] = frozenset()


def score_partition(
    partition: ScoringPartition, options: Any, mapping: Mapping | None
) -> PartitionScore | PartitionFailure:
    from annotator.evaluation.engine import evaluate_pairs
    from annotator.evaluation.loading import pair_documents

    try:
        reference = [read_i2b2(name) for name in partition.gold]
        predicted = [read_i2b2(name) for name in partition.system]
    except AnnotatorError as error:
        return PartitionFailure(partition.index, error.one_line())
    loaded = pair_documents(reference, predicted, mapping)
    result = evaluate_pairs(loaded.pairs, options)
    result.skipped = list(loaded.skipped)
    return PartitionScore(
        partition.index,
        result,
        len(loaded.only_reference),
        len(loaded.only_predicted),
        frozenset(loaded.labels),
    )
