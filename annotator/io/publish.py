"""The steps that put a job's staged output in place, under a lock, and finish a killed run's.

Every writing job (convert, pre-annotate, synth, adjudicate, train, de-identify) publishes
through :func:`annotator.io.outputs.publishing`, which uses this module:

1. the **output lock** (``.OUT.lock`` beside the output folder or file, :func:`output_lock`):
   a second writer to the same output is refused with one line naming the holder (user,
   host, pid, start time); a lock whose process is dead is taken over;
2. the **manifest** (``.OUT.publish.json`` beside the lock): before moving anything into
   place the job writes, and syncs, the list of moves it is about to make and an identity
   of the job (:func:`job_identity`); then it makes them and removes the manifest;
3. **recovery** (:func:`recover_output`): the next job into the same output, once it holds
   the lock, makes whatever moves a killed run's manifest still lists (each is atomic and
   can be made again safely), then removes leftover staging. It says which files that run
   published and whose job it was, so the same job run again treats them as its own.

A kill before step 2 publishes nothing; a kill during it leaves complete files only, and the
next run finishes the moves first.
"""

from __future__ import annotations

import contextlib
import dataclasses
import getpass
import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from annotator.core.atomic import atomic_write_text, fsync_folder
from annotator.errors import LockedError, StorageError
from annotator.io.locking import DocumentLock, DocumentLockedError

#: A job's private staging folder inside a folder it writes files into (mode 0700).
STAGING_PREFIX = ".phi-annotator-staging-"


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in this environment (a container, a service)
        return "unknown"


def cannot(action: str, error: OSError, path: Path) -> StorageError:
    """A failed file operation as one line naming the file (read-only folder, full disk)."""
    reason = error.strerror or type(error).__name__
    return StorageError(f"cannot {action}: {reason}", error.filename or path)


@contextlib.contextmanager
def output_lock(output: Path) -> Iterator[None]:
    """Hold the lock on an output folder or file while a job writes it."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise cannot("create the folder", error, output.parent) from None
    lock = DocumentLock(output, _user())
    try:
        lock.acquire()
    except DocumentLockedError as error:
        holder = error.holder
        raise LockedError(
            f"another job is writing this output: {holder.describe()} (pid {holder.pid}); "
            "wait for it to finish or choose another output",
            output,
        ) from None
    try:
        yield
    finally:
        lock.release()


def job_identity(request: object) -> str:
    """A short fingerprint of a job's request (a dataclass), ``force`` left out, and any field
    marked ``metadata={"identity": False}`` (how the work is done, not what it makes).

    Paths count resolved, so the same command run again from another folder is the same
    job; any other difference (inputs, options) makes another job.
    """

    def canonical(value: object) -> object:
        if isinstance(value, Path):
            return str(value.resolve())
        if isinstance(value, tuple | list):
            return [canonical(item) for item in value]
        if isinstance(value, set | frozenset):  # their order changes from run to run
            return sorted(str(canonical(item)) for item in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return repr(value)

    fields = {
        field.name: canonical(getattr(request, field.name))
        for field in dataclasses.fields(request)  # type: ignore[arg-type]
        if field.name != "force" and field.metadata.get("identity", True)
    }
    text = json.dumps([type(request).__name__, fields], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def manifest_path(anchor: Path) -> Path:
    """Where the moves of a publication into ``anchor`` are recorded: ``.NAME.publish.json``."""
    return anchor.with_name(f".{anchor.name}.publish.json")


@dataclass(frozen=True)
class Step:
    """One move of a publication; each can be made again after a kill without harm.

    ``move``: ``source`` (a staged file or folder, a unique name) replaces ``target``, if the
    source is still there. ``aside``: the old ``target`` folder is moved to ``backup`` so the
    staged folder ``source`` can take its place, unless that happened already. ``discard``:
    a folder no longer needed (the old output) is removed.
    """

    kind: str
    source: Path
    target: Path | None = None
    backup: Path | None = None

    def run(self) -> None:
        if self.kind == "discard":
            if self.source.is_dir() and not self.source.is_symlink():
                shutil.rmtree(self.source, ignore_errors=True)
            return
        assert self.target is not None
        if self.kind == "aside":
            assert self.backup is not None
            if self.source.exists() and self.target.exists() and not self.backup.exists():
                os.replace(self.target, self.backup)
            return
        if self.source.exists() or self.source.is_symlink():
            self.target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.source, self.target)

    def published(self) -> Path | None:
        """The output this step puts in place (None for the steps that only clear the way)."""
        return self.target if self.kind == "move" else None

    def to_json(self, base: Path) -> list[str]:
        paths = [p for p in (self.source, self.target, self.backup) if p is not None]
        return [self.kind, *(os.path.relpath(p, base) for p in paths)]

    @classmethod
    def from_json(cls, item: object, base: Path) -> Step:
        if not isinstance(item, list) or not all(isinstance(part, str) for part in item):
            raise ValueError("not a step")
        kind, *paths = item
        wanted = {"move": 2, "aside": 3, "discard": 1}.get(kind)
        if wanted != len(paths):
            raise ValueError("not a step")
        resolved = [base / path for path in paths]
        # Only what a job staged is ever moved or removed: a manifest cannot name other files.
        if not _staged(resolved[0]) or (kind == "aside" and not _staged(resolved[2])):
            raise ValueError("not a staged path")
        if kind == "aside":
            return cls(kind, resolved[0], resolved[1], resolved[2])
        return cls(kind, resolved[0], resolved[1] if kind == "move" else None)


def _staged(path: Path) -> bool:
    return any(
        part.startswith(STAGING_PREFIX) or (part.startswith(".") and part.endswith((".tmp", ".old")))
        for part in path.parts
    )


@dataclass(frozen=True)
class Interrupted:
    """What recovery found of a killed run: its job and the outputs it had planned to publish."""

    job: str = ""
    published: frozenset[Path] = frozenset()

    def owned_by(self, job: str) -> frozenset[Path]:
        """The outputs that are ``job``'s own (the same job killed earlier), else none."""
        return self.published if job and job == self.job else frozenset()


def _read_manifest(anchor: Path) -> tuple[str, list[Step]] | None:
    manifest = manifest_path(anchor)
    if not manifest.is_file():
        return None
    base = manifest.parent
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        steps = [Step.from_json(item, base) for item in data["steps"]]
        job = data.get("job", "")
        if not isinstance(job, str):
            raise ValueError("not a job")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise StorageError(
            "an interrupted publication left a damaged manifest; remove it and run again", manifest
        ) from None
    return job, steps


def interrupted_outputs(anchor: Path) -> Interrupted:
    """What a killed run into ``anchor`` was publishing, without finishing it (no lock needed)."""
    found = _read_manifest(anchor)
    if found is None:
        return Interrupted()
    job, steps = found
    return Interrupted(job, frozenset(p for step in steps if (p := step.published()) is not None))


def commit(anchor: Path, job: str, steps: Sequence[Step]) -> None:
    """Record ``steps`` in the manifest, make them, sync, and remove the manifest."""
    manifest = manifest_path(anchor)
    base = manifest.parent
    record = {"job": job, "steps": [step.to_json(base) for step in steps]}
    atomic_write_text(manifest, json.dumps(record, ensure_ascii=True) + "\n")
    _run(steps)
    manifest.unlink()
    fsync_folder(base)


def _run(steps: Iterable[Step]) -> None:
    steps = list(steps)
    for step in steps:
        try:
            step.run()
        except OSError as error:
            raise cannot("move the output into place", error, step.target or step.source) from None
    for folder in sorted({p.parent for step in steps if (p := step.published()) is not None}):
        fsync_folder(folder)


def recover_output(anchor: Path, staging_roots: Iterable[Path] = ()) -> Interrupted:
    """Finish an interrupted publication into ``anchor`` and remove a killed run's staging.

    Call it while holding the output lock. ``staging_roots`` are the folders (the output
    folder of a job that writes files into it) that may hold ``.phi-annotator-staging-*``
    folders; staging beside the anchor (``.NAME.*.tmp``, ``.NAME.*.old``) is always removed.
    """
    found = _read_manifest(anchor)
    interrupted = Interrupted()
    if found is not None:
        job, steps = found
        _run(steps)
        manifest_path(anchor).unlink()
        interrupted = Interrupted(job, frozenset(p for step in steps if (p := step.published()) is not None))
    leftovers = [
        *anchor.parent.glob(f".{glob_escape(anchor.name)}.*.tmp"),
        *anchor.parent.glob(f".{glob_escape(anchor.name)}.*.old"),
    ]
    for root in staging_roots:
        if root.is_dir():
            leftovers.extend(root.glob(f"{STAGING_PREFIX}*"))
    for leftover in leftovers:
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)
        elif leftover.is_file() or leftover.is_symlink():
            with contextlib.suppress(OSError):
                leftover.unlink()
    return interrupted


def glob_escape(name: str) -> str:
    """A file name as a glob pattern that matches only itself."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def common_folder(targets: Sequence[Path]) -> Path:
    """The deepest folder holding every target (where their job publishes)."""
    parents = [str(Path(t).resolve().parent) for t in targets]
    return Path(os.path.commonpath(parents)) if parents else Path.cwd()
