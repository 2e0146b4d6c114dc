"""The batch jobs: plan partitions of whole patients, run them on the cluster, merge.

Each job returns a typed report; the CLI (annotator.cli.batch) only parses and prints. The
per-partition work is in annotator.batch.tasks and calls the same library functions as the
single-process commands, so a batch job's files are byte-identical to theirs and its scores
identical.
"""

from __future__ import annotations

import getpass
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from annotator.batch import tasks
from annotator.batch.cluster import dashboard_link, open_client
from annotator.batch.output import (
    RecordedCounts,
    ResumeCheck,
    prepare_output,
    published_name,
    record_counts,
    recorded_counts,
    write_manifest,
)
from annotator.batch.partitions import (
    XML,
    Partition,
    input_kind,
    patient_of_file,
    plan_digest,
    plan_jsonl,
    plan_xml,
    shard_patients,
)
from annotator.core.text_files import refuse_special_file
from annotator.crf.guidelines import I2B2_2014, check_guideline
from annotator.errors import AnnotatorError, InputError, LockedError, UsageError
from annotator.io.corpus import list_document_files, no_documents
from annotator.io.locking import DocumentLock, DocumentLockedError
from annotator.io.publish import cannot
from annotator.workflows.scoring import ScoringRequest

if TYPE_CHECKING:
    from distributed import Client

    from annotator.deid.leakcheck import LeakCheckOptions
    from annotator.deid.surrogates import CorpusContext, DeidOptions
    from annotator.evaluation.engine import EvaluationResult

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ClusterOptions:
    """Where the work runs and how it is cut.

    scheduler: ``tcp://HOST:PORT`` of a running dask scheduler; None starts a local cluster.
    workers: processes of the local cluster.
    partition_size: about this many documents per partition (whole patients; XML input).
    """

    scheduler: str | None = None
    workers: int = 2
    partition_size: int = 200


@dataclass(frozen=True)
class BatchRun:
    """How a job runs: on which cluster, over what output state, reporting to whom.

    resume: finish a killed job into the same output (published partitions are skipped).
    force: replace whatever the output holds.
    progress: ``(partitions done, partitions)`` as they finish.
    on_dashboard: given the dask dashboard's address when there is one.
    """

    cluster: ClusterOptions = field(default_factory=ClusterOptions)
    resume: bool = False
    force: bool = False
    progress: Progress | None = None
    on_dashboard: Callable[[str], None] | None = None

    def announce(self, client: Client) -> None:
        link = dashboard_link(client)
        if link and self.on_dashboard is not None:
            self.on_dashboard(link)


@dataclass
class BatchReport:
    """What a batch job did (counts only, no text)."""

    job: str
    out_dir: str | None
    partitions: int
    resumed: int
    documents: int
    counts: dict[str, int]
    failures: list[tasks.PartitionFailure]
    seconds: float
    notes: list[str] = field(default_factory=list)
    # Of ``documents``, those this run did (the rest an earlier, killed run published).
    documents_this_run: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "out_dir": self.out_dir,
            "partitions": self.partitions,
            "resumed": self.resumed,
            "documents": self.documents,
            "documents_this_run": self.documents_this_run,
            "counts": self.counts,
            "failures": [{"partition": f.index, "message": f.message} for f in self.failures],
            "seconds": round(self.seconds, 3),
            "notes": self.notes,
        }


def plan_inputs(client: Client, folder: Path, partition_size: int) -> list[Partition]:
    if partition_size < 1:
        raise UsageError("--partition-size must be at least 1")
    if input_kind(folder) == XML:
        return plan_xml(list_document_files(folder, "*.xml"), partition_size)
    shards = list_document_files(folder, "*.jsonl")
    found = client.gather(client.map(shard_patients, [str(s) for s in shards], pure=False))
    return plan_jsonl(shards, found)


def _run(
    client: Client,
    function: Callable[..., Any],
    items: Sequence[Any],
    arguments: Sequence[Any],
    progress: Progress | None,
    done_before: int = 0,
    record: Callable[[Any, Any], None] | None = None,
) -> list[Any]:
    """Submit one task per item; outcomes in item order. A task that kept killing its worker
    (dask retries it elsewhere first) becomes a failure, not a crash of the job. ``record``
    sees each (item, outcome) as it arrives."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    total = done_before + len(items)
    futures = {client.submit(function, item, *arguments, pure=False): item for item in items}
    outcomes: dict[int, Any] = {}
    for count, future in enumerate(as_completed(futures), start=done_before + 1):
        item = futures[future]
        try:
            outcomes[item.index] = future.result()
        except KilledWorker:
            outcomes[item.index] = tasks.PartitionFailure(item.index, "the task killed its workers")
        if record is not None:
            record(item, outcomes[item.index])
        if progress is not None:
            progress(count, total)
    return [outcomes[item.index] for item in items]


def _summarise(
    job: str,
    out_dir: Path,
    partitions: Sequence[Partition],
    resumed: Sequence[Partition],
    earlier: dict[str, RecordedCounts],
    outcomes: Sequence[tasks.Outcome],
    started: float,
) -> BatchReport:
    """The job's totals: this run's outcomes and what earlier runs recorded for the
    partitions they published."""
    counts: dict[str, int] = {}

    def add(documents: int, more: dict[str, int]) -> int:
        for key, value in more.items():
            counts[key] = counts.get(key, 0) + value
        return documents

    this_run = sum(add(o.documents, o.counts) for o in outcomes if isinstance(o, tasks.PartitionDone))
    recorded = [earlier[name] for name in map(published_name, resumed) if name in earlier]
    documents = this_run + sum(add(r.documents, r.counts) for r in recorded)
    failures = [o for o in outcomes if isinstance(o, tasks.PartitionFailure)]
    notes = []
    if len(recorded) < len(resumed):
        # Published by a run killed before it recorded their counts: say what the totals
        # leave out rather than pass them off as the job's.
        notes.append(
            f"{len(resumed) - len(recorded)} of the {len(resumed)} partition(s) published by an earlier "
            "run recorded no counts: the documents and counts leave them out"
        )
    return BatchReport(
        job=job,
        out_dir=str(out_dir),
        partitions=len(partitions),
        resumed=len(resumed),
        documents=documents,
        counts=dict(sorted(counts.items())),
        failures=failures,
        seconds=time.perf_counter() - started,
        notes=notes,
        documents_this_run=this_run,
    )


def _check_out_dir(input_dir: Path, out_dir: Path, others: Sequence[Path] = ()) -> None:
    source, target = input_dir.resolve(), out_dir.resolve()
    if target == source or target.is_relative_to(source) or source.is_relative_to(target):
        raise UsageError("the output must be outside the input folder", out_dir)
    # --force empties the output folder first: never around another input (the model).
    for other in others:
        if other.resolve().is_relative_to(target):
            raise UsageError("the output must not hold an input (the model)", out_dir)


def _run_publishing_job(
    name: str,
    input_dir: Path,
    out_dir: Path,
    parameters: dict[str, Any],
    run: BatchRun,
    submit: Callable[[Client, list[Partition], list[Partition], Callable[[Any, Any], None]], list[Any]],
    others: Sequence[Path] = (),
    check: ResumeCheck | None = None,
) -> BatchReport:
    """The frame every writing job shares: plan, lock and claim the output, run, record.
    ``check`` may refuse a resume before anything is changed (:func:`prepare_output`)."""
    started = time.perf_counter()
    if not input_dir.is_dir():
        raise InputError("not a folder", input_dir)
    _check_out_dir(input_dir, out_dir, others)
    cluster = run.cluster
    with open_client(cluster.scheduler, cluster.workers) as client:
        run.announce(client)
        partitions = plan_inputs(client, input_dir, cluster.partition_size)
        job = {
            "command": name,
            "input": str(input_dir.resolve()),
            "inputs": plan_digest(partitions),
            "partition_size": cluster.partition_size,
            **parameters,
        }
        try:
            out_dir.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise cannot("create the folder", error, out_dir.parent) from None
        lock = DocumentLock(out_dir, getpass.getuser())
        try:
            lock.acquire()
        except DocumentLockedError as error:
            raise LockedError(
                f"another job is writing this output: locked by {error.holder.describe()}", out_dir
            ) from None
        try:
            published = prepare_output(out_dir, job, partitions, run.resume, run.force, check)
            todo = [p for p in partitions if p.index not in published]
            earlier = recorded_counts(out_dir)

            def record(partition: Partition, outcome: tasks.Outcome) -> None:
                if isinstance(outcome, tasks.PartitionDone):
                    record_counts(out_dir, published_name(partition), outcome.documents, outcome.counts)

            outcomes = submit(client, todo, partitions, record)
            resumed = [p for p in partitions if p.index in published]
            report = _summarise(name, out_dir, partitions, resumed, earlier, outcomes, started)
            write_manifest(out_dir, job, partitions, complete=not report.failures, summary=report.to_dict())
        finally:
            lock.release()
    if run.progress is not None and not todo:
        run.progress(len(partitions), len(partitions))
    return report


def batch_preannotate(
    model: Path,
    input_dir: Path,
    out_dir: Path,
    recall_bias: float | None = None,
    run: BatchRun | None = None,
    guideline: str = I2B2_2014,
    site_lists: Path | None = None,
) -> BatchReport:
    """Model suggestions for every note of an archive (the tagger loads once per worker)."""
    check_guideline(guideline)
    run = run or BatchRun()
    if not model.is_file():
        raise InputError("not a model file", model)
    stat = model.stat()
    parameters: dict[str, Any] = {
        "model": str(model.resolve()),
        "model_stamp": [stat.st_size, stat.st_mtime_ns],
        "recall_bias": recall_bias,
        "guideline": guideline,
    }
    lists = str(site_lists.resolve()) if site_lists is not None else None
    if lists is not None:
        # A bad list stops the job here, before any worker starts (read again in each worker).
        tasks.load_site_lists(lists, tasks.load_tagger(str(model.resolve())).schema)
        parameters["site_lists"] = lists
        parameters["site_lists_stamp"] = tasks.stamp(lists)

    def submit(
        client: Client,
        todo: list[Partition],
        _everything: list[Partition],
        record: Callable[[Any, Any], None],
    ) -> list[Any]:
        arguments = (str(model.resolve()), recall_bias, str(out_dir.resolve()), guideline, lists)
        return _run(client, tasks.preannotate_partition, todo, arguments, run.progress, record=record)

    protected = [model, *filter(None, [site_lists])]
    return _run_publishing_job("preannotate", input_dir, out_dir, parameters, run, submit, protected)


def merge_contexts(contexts: Sequence[CorpusContext]) -> CorpusContext:
    """The corpus's context from its partitions' (a union, as over the whole corpus at once)."""
    from annotator.deid.surrogates import CorpusContext

    tokens: set[str] = set()
    values: dict[str, set[str]] = {}
    for context in contexts:
        tokens.update(context.name_tokens)
        for kind, strings in context.values.items():
            values.setdefault(kind, set()).update(strings)
    return CorpusContext(frozenset(tokens), {k: frozenset(v) for k, v in values.items()})


def batch_deidentify(
    input_dir: Path,
    out_dir: Path,
    options: DeidOptions,
    leak_options: LeakCheckOptions | None = None,
    map_dir: Path | None = None,
    run: BatchRun | None = None,
    allow_path: Path | None = None,
    on_leak: str = "refuse",
    review_dir: Path | None = None,
) -> BatchReport:
    """Masked or surrogate copies of an archive, each partition leak-checked before it is
    published; one surrogate map and date shift per patient, the corpus's values to avoid
    gathered first and broadcast to every worker. The leak check's findings are treated as
    ``annotator deidentify`` treats them: passed by ``allow_path``'s entries, then refused or
    masked (``on_leak``), and written in context under ``review_dir`` when given."""
    from annotator.deid.allowlist import read_allow_file
    from annotator.deid.leakcheck import LeakCheckOptions
    from annotator.deid.surrogates import with_secret_seed
    from annotator.workflows.deidentify import check_options

    check_options(options)
    if on_leak not in ("refuse", "mask"):
        raise UsageError(f"unknown leak action {on_leak!r} (refuse or mask)")
    run = run or BatchRun()
    leak_options = leak_options or LeakCheckOptions(min_length=options.min_leak_length)
    for private in (map_dir, review_dir):
        if private is not None:
            _check_map_dir(private, input_dir, out_dir)
    allowed = tuple(read_allow_file(allow_path)) if allow_path is not None else ()
    policy = tasks.LeakPolicy(allowed, on_leak, str(review_dir.resolve()) if review_dir is not None else None)
    # The seed is a key to the PHI (it redraws every date shift): the manifest, published with
    # the notes, never holds it. A drawn seed is drawn once, here, for every partition.
    parameters = {
        "options": repr(replace(options, seed=None)),
        "seed": "given" if options.seed is not None else "drawn",
        "leak_options": repr(leak_options),
        "leak_policy": repr(policy),
        # Whether the job writes audit maps (never where: they hold PHI); a resume must write
        # them too, into the folder that holds the earlier ones (their seed is checked there).
        "audit_maps": map_dir is not None,
    }
    given_seed = options.seed
    options = with_secret_seed(options)

    def check(recorded: dict[str, Any], published: list[Partition]) -> None:
        nonlocal options
        seed = resumed_seed(recorded, parameters, given_seed, map_dir, published)
        if seed is not None:
            options = replace(options, seed=seed)

    def submit(
        client: Client, todo: list[Partition], everything: list[Partition], record: Callable[[Any, Any], None]
    ) -> list[Any]:
        found = _run(client, tasks.context_of_partition, everything, (), None)
        failed = [f for f in found if isinstance(f, tasks.PartitionFailure)]
        if failed:
            return failed
        context = client.scatter(merge_contexts(found), broadcast=True)
        for private in (map_dir, review_dir):
            if private is not None:
                try:
                    private.mkdir(mode=0o700, parents=True, exist_ok=True)
                except OSError as error:
                    raise cannot("create the folder", error, private) from None
        arguments = (
            str(out_dir.resolve()),
            options,
            context,
            leak_options,
            str(map_dir.resolve()) if map_dir is not None else None,
            policy,
        )
        return _run(client, tasks.deidentify_partition, todo, arguments, run.progress, record=record)

    return _run_publishing_job("deidentify", input_dir, out_dir, parameters, run, submit, check=check)


def resumed_seed(
    recorded: dict[str, Any],
    parameters: dict[str, Any],
    seed: int | None,
    map_dir: Path | None,
    published: Sequence[Partition],
) -> int | None:
    """The seed a resumed ``batch deidentify`` goes on with, or a one-line refusal.

    ``recorded`` is the job the manifest holds (it says whether a seed was given and whether
    audit maps are written, never the seed); ``seed`` the one given now (None: none). The
    audit maps of the ``published`` partitions in ``map_dir`` hold the job's seed: a given
    seed must be theirs, and a job whose seed was drawn goes on with the drawn one, so a
    resumed job has one seed, as an uninterrupted one. Without audit maps nothing private
    holds the seed, and it cannot be checked."""
    was_given = recorded.get("seed") == "given"
    if "seed" in recorded and was_given != (seed is not None):
        if was_given:
            raise UsageError("this job was started with --seed: resume it with the same --seed")
        raise UsageError(
            "this job was started without --seed (its drawn seed is in its audit maps): resume it without --seed"
        )
    if "audit_maps" in recorded and recorded["audit_maps"] != parameters["audit_maps"]:
        if recorded["audit_maps"]:
            raise UsageError("this job writes audit maps: resume it with the --map-dir it was started with")
        raise UsageError("this job was started without --map-dir: resume it without --map-dir")
    if map_dir is None or not published:
        return seed
    seeds: list[int] = []
    for partition in published:
        path = map_dir / f"{partition.name}.json"
        found = _map_seed(path)
        if found is not None:
            seeds.append(found)
    if not seeds:
        raise UsageError(
            f"none of the {len(published)} published partition(s) has its audit map here: resume with the "
            "--map-dir the job was started with",
            map_dir,
        )
    if seed is not None:
        if any(found != seed for found in seeds):
            raise UsageError(
                "--seed is not the seed this job was started with (its audit maps record another): resume "
                "with the same --seed, or use --force to start over",
                map_dir,
            )
        return seed
    # A drawn seed, as the audit maps hold it (an older version drew a new one for each resume:
    # the one most partitions have).
    return Counter(seeds).most_common(1)[0][0]


def _check_map_dir(map_dir: Path, input_dir: Path, out_dir: Path) -> None:
    target = map_dir.resolve()
    for other in (input_dir.resolve(), out_dir.resolve()):
        if target == other or target.is_relative_to(other) or other.is_relative_to(target):
            raise UsageError(
                "the audit maps and reviews hold PHI: write them outside the input and output folders",
                map_dir,
            )


# An audit map opens with its warning, method and seed (annotator.deid.export.audit_map): its
# seed is read there, not from the whole map, which holds every PHI of the partition.
_MAP_SEED = re.compile(r'^ "seed": (-?\d+),?$', re.MULTILINE)


def _map_seed(path: Path) -> int | None:
    """The seed an audit map records; None when there is no map (a partition published by a
    version that wrote its map afterwards, killed in between)."""
    refuse_special_file(path, "an audit map")
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError:
        raise UsageError("an audit map of this job is unreadable; use --force to start over", path) from None
    found = _MAP_SEED.search(head)
    if found is None:
        raise UsageError("an audit map of this job records no seed; use --force to start over", path)
    return int(found.group(1))


def plan_scoring(gold: Sequence[Path], system: Sequence[Path], target: int) -> list[tasks.ScoringPartition]:
    """Gold and system files of whole patients, about ``target`` documents a partition."""
    by_patient: dict[str, tuple[list[str], list[str]]] = {}
    for side, files in enumerate((gold, system)):
        for path in sorted(files, key=lambda p: p.name):
            by_patient.setdefault(patient_of_file(path), ([], []))[side].append(str(path))
    partitions: list[tasks.ScoringPartition] = []
    current: tuple[list[str], list[str]] = ([], [])
    for patient in sorted(by_patient):
        current[0].extend(by_patient[patient][0])
        current[1].extend(by_patient[patient][1])
        if max(len(current[0]), len(current[1])) >= target:
            partitions.append(tasks.ScoringPartition(len(partitions), tuple(current[0]), tuple(current[1])))
            current = ([], [])
    if current[0] or current[1]:
        partitions.append(tasks.ScoringPartition(len(partitions), tuple(current[0]), tuple(current[1])))
    return partitions


@dataclass
class BatchScore:
    result: EvaluationResult
    notes: list[str]
    failures: list[tasks.PartitionFailure]
    partitions: int
    seconds: float


def batch_evaluate(
    gold_dir: Path,
    system_dir: Path,
    scoring: ScoringRequest | None = None,
    run: BatchRun | None = None,
) -> BatchScore:
    """System against gold, scored by partition and merged: the same numbers as
    ``annotator evaluate`` on the same folders."""
    from annotator.evaluation.merge import merge_results

    started = time.perf_counter()
    run = run or BatchRun()
    cluster = run.cluster
    scoring = scoring or ScoringRequest()
    options, mapping = scoring.options(), scoring.mapping_chain()
    if cluster.partition_size < 1:
        raise UsageError("--partition-size must be at least 1")
    for folder in (gold_dir, system_dir):
        if not folder.is_dir():
            raise InputError("not a folder", folder)
    gold = list_document_files(gold_dir, "*.xml")
    system = list_document_files(system_dir, "*.xml")
    for folder, files in ((gold_dir, gold), (system_dir, system)):
        if not files:
            raise no_documents(folder)
    partitions = plan_scoring(gold, system, cluster.partition_size)
    with open_client(cluster.scheduler, cluster.workers) as client:
        run.announce(client)
        outcomes = _run(client, tasks.score_partition, partitions, (options, mapping), run.progress)
    scores = [o for o in outcomes if isinstance(o, tasks.PartitionScore)]
    failures = [o for o in outcomes if isinstance(o, tasks.PartitionFailure)]
    if failures:
        raise AnnotatorError(failures[0].message)
    notes = [s for score in scores for s in score.result.skipped]
    only_reference = sum(s.only_reference for s in scores)
    only_predicted = sum(s.only_predicted for s in scores)
    if only_reference:
        notes.append(f"{only_reference} gold document(s) have no system file (counted as missed)")
    if only_predicted:
        notes.append(f"{only_predicted} system document(s) have no gold file (counted as spurious)")
    labels = {label for score in scores for label in score.labels}
    notes += [note.message() for note in scoring.exclusion_notes(labels)]
    return BatchScore(
        merge_results([s.result for s in scores], options),
        notes,
        failures,
        len(partitions),
        time.perf_counter() - started,
    )
