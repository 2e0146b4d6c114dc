"""Publishing a job's files together, under a lock, so a killed run leaves no partial output.

Every writing command (convert, pre-annotate, synth, adjudicate, train, de-identify) writes
through :func:`publishing`:

1. it takes the **output lock** (``.OUT.lock`` beside the output folder or file): a second
   writer to the same output is refused with a one-line message naming the holder (user,
   host, pid, start time); a lock whose process is dead is taken over;
2. it finishes or removes what a **killed earlier run** left: an interrupted publication (its
   manifest lists every rename still to do) is rolled forward, and staging folders are removed;
3. the job writes each file into a private **staging folder** inside the output
   (``.phi-annotator-staging-XXXX``, mode 0700, named so nobody mistakes it for output);
4. on success the files are **published**: a manifest of the renames is written and synced,
   each file is renamed into place (each rename is atomic), the folders are synced and the
   manifest removed. A kill before step 4 publishes nothing; a kill during it leaves complete
   files only, and the next run into the same output finishes the renames first.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from annotator.core.atomic import atomic_write_text, fsync_folder
from annotator.errors import LockedError, StorageError, UsageError
from annotator.io.locking import DocumentLock, DocumentLockedError

STAGING_PREFIX = ".phi-annotator-staging-"
MANIFEST_NAME = ".phi-annotator-publish.json"


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in this environment (a container, a service)
        return "unknown"


@contextlib.contextmanager
def output_lock(output: Path) -> Iterator[None]:
    """Hold the lock on an output folder or file while a job writes it."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"cannot create the folder: {error.strerror}", output.parent) from None
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


def recover_output(root: Path) -> int:
    """Finish an interrupted publication into ``root`` and remove leftover staging.

    Call it while holding the output lock. Returns how many files an interrupted run had left
    to rename (now in place).
    """
    if not root.is_dir():
        return 0
    finished = 0
    manifest = root / MANIFEST_NAME
    if manifest.is_file():
        try:
            renames = json.loads(manifest.read_text(encoding="utf-8"))["renames"]
        except (OSError, ValueError, KeyError, TypeError):
            raise StorageError(
                "an interrupted publication left a damaged manifest; remove it and run again", manifest
            ) from None
        for staged, target in renames:
            source = root / staged
            if source.exists():
                (root / target).parent.mkdir(parents=True, exist_ok=True)
                os.replace(source, root / target)
                finished += 1
        _sync_parents(root, [target for _, target in renames])
        manifest.unlink()
    for leftover in root.glob(f"{STAGING_PREFIX}*"):
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)
    return finished


def common_folder(targets: Sequence[Path]) -> Path:
    """The deepest folder holding every target (where their job publishes)."""
    parents = [str(Path(t).resolve().parent) for t in targets]
    return Path(os.path.commonpath(parents)) if parents else Path.cwd()


def _sync_parents(root: Path, relative: Sequence[str]) -> None:
    for folder in sorted({(root / name).parent for name in relative} | {root}):
        fsync_folder(folder)


@contextlib.contextmanager
def publishing(root: Path, fresh: Sequence[Path] = ()) -> Iterator[Callable[[Path], Path]]:
    """Stage what a job writes under ``root`` and publish it all together on a clean exit.

    Yields ``staged(path) -> path``: where to write ``path`` (a file or folder under
    ``root``, or ``root`` itself) for now. Every file written there is published to the same
    place under ``root``. If the body raises (a bad input, a leak, a cancel), nothing is
    published and the staging is removed. ``fresh`` are outputs planned as new: if another
    job created one since the plan was made, this job is refused rather than overwrite it.
    """
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise UsageError("exists and is not a folder", root)
    with output_lock(root):
        created = not root.exists()
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"cannot create the output folder: {error.strerror}", root) from None
        recover_output(root)
        appeared = [path for path in fresh if Path(path).exists()]
        if appeared:
            raise UsageError(
                f"{len(appeared)} output file(s) appeared while this job ran (another job wrote them; "
                "use --force to overwrite)",
                appeared[0],
            )
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=root))
        resolved_root = root.resolve()
        try:

            def staged(path: Path) -> Path:
                return staging / Path(path).resolve().relative_to(resolved_root)

            yield staged
            renames = sorted(
                (str(path.relative_to(root)), str(path.relative_to(staging)))
                for path in staging.rglob("*")
                if path.is_file()
            )
            manifest = root / MANIFEST_NAME
            atomic_write_text(manifest, json.dumps({"renames": renames}) + "\n")
            for staged_name, target in renames:
                (root / target).parent.mkdir(parents=True, exist_ok=True)
                os.replace(root / staged_name, root / target)
            _sync_parents(root, [target for _, target in renames])
            manifest.unlink()
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            if created and not any(root.iterdir()):
                root.rmdir()  # a job that published nothing leaves no output folder behind
