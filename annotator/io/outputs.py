"""Where every writing job plans and publishes its outputs.

A job first *plans* what it will write: :func:`plan_files` for a set of files,
:func:`plan_folder` for one output folder. Planning refuses, with one clear line and before
anything is read or written, to overwrite an input, to write into (or around) a protected
folder, or to replace existing output unless ``force``. The job then publishes through the
plan (:meth:`OutputPlan.publish_text`, :meth:`OutputPlan.publish_bytes`, or a
:func:`staged_folder` that appears at its target all at once), so this module is the one
place that decides how output reaches the disk.

The CLI (``--force``) and the GUI (a "replace" checkbox, or ``force=True`` where replacing
is the action's purpose) use the same plans through :mod:`annotator.workflows`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.errors import StorageError, UsageError
from annotator.io.publish import output_lock


class FolderMode(Enum):
    """What an existing, non-empty output folder means to the job."""

    #: the job adds files beside what is there (``--force`` allows writing into it)
    MERGE = "merge"
    #: the job's folder replaces the old one as a whole (``--force`` allows replacing it)
    REPLACE = "replace"


_NOT_EMPTY = {
    FolderMode.MERGE: "folder is not empty (use --force to write into it anyway)",
    FolderMode.REPLACE: "output folder is not empty (use --force to replace it)",
}


@dataclass(frozen=True)
class OutputPlan:
    """Outputs a job may write, checked against its inputs and what exists.

    Attributes
    ----------
    targets:
        The files (or the one folder) the job writes.
    replacing:
        The targets that exist already and will be replaced (only with ``force``).
    """

    targets: tuple[Path, ...]
    replacing: tuple[Path, ...] = ()

    @property
    def fresh(self) -> tuple[Path, ...]:
        """The targets that did not exist when the plan was made."""
        return tuple(t for t in self.targets if t not in self.replacing)

    def publish_bytes(self, target: Path, data: bytes) -> None:
        """Write one planned file atomically (temp file, fsync, rename)."""
        atomic_write(self._planned(target), data)

    def publish_text(self, target: Path, text: str) -> None:
        self.publish_bytes(target, text.encode("utf-8"))

    def _planned(self, target: Path) -> Path:
        # A job writing a file it did not plan is a programming error, not a user error.
        if Path(target) not in self.targets:
            raise ValueError(f"{target} is not an output of this plan")
        return Path(target)


def plan_files(
    targets: Iterable[Path],
    *,
    inputs: Iterable[Path] = (),
    force: bool = False,
    input_clash: str = "would overwrite an input file; choose another output",
) -> OutputPlan:
    """Plan to write ``targets``: none may be an input; existing ones only with ``force``.

    Raises
    ------
    UsageError
        A target is one of ``inputs`` (message ``input_clash``), or targets exist and
        ``force`` is False (the first one is named, with their count).
    """
    planned = tuple(Path(t) for t in targets)
    resolved_inputs = {Path(p).resolve() for p in inputs}
    clashing = [t for t in planned if t.resolve() in resolved_inputs]
    if clashing:
        raise UsageError(input_clash, clashing[0])
    existing = tuple(t for t in planned if t.exists())
    if existing and not force:
        raise UsageError(
            f"{len(existing)} output file(s) exist already (use --force to overwrite)", existing[0]
        )
    return OutputPlan(planned, existing)


def plan_folder(
    folder: Path,
    *,
    mode: FolderMode,
    force: bool = False,
    protected: Iterable[Path] = (),
    protected_clash: str = "refusing to write the output into (or around) an input folder",
) -> OutputPlan:
    """Plan to write the folder ``folder``.

    Raises
    ------
    UsageError
        ``folder`` is, holds or lies inside a ``protected`` folder; it exists and is not a
        folder; or it holds files and ``force`` is False.
    """
    folder = Path(folder)
    out = folder.resolve()
    for guarded in protected:
        inside = Path(guarded).resolve()
        if out == inside or out.is_relative_to(inside) or inside.is_relative_to(out):
            raise UsageError(protected_clash, folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError("exists and is not a folder", folder)
    occupied = folder.is_dir() and any(folder.iterdir())
    if occupied and not force:
        raise UsageError(_NOT_EMPTY[mode], folder)
    return OutputPlan((folder,), (folder,) if occupied else ())


@contextlib.contextmanager
def staged_folder(plan: OutputPlan) -> Iterator[Path]:
    """A staging folder beside the planned folder; it replaces the target on a clean exit.

    Whatever the body raises (including a cancel), the staging folder is removed and the
    target stays as it was: a failed job leaves nothing that looks like output.
    """
    (target,) = plan.targets
    target.parent.mkdir(parents=True, exist_ok=True)
    with output_lock(target):
        # Another job may have filled the folder since it was planned: plan again, locked.
        if not plan.replacing and target.is_dir() and any(target.iterdir()):
            raise UsageError(_NOT_EMPTY[FolderMode.REPLACE], target)
        for leftover in (
            *target.parent.glob(f".{target.name}.*.tmp"),
            *target.parent.glob(f".{target.name}.*.old"),
        ):
            # A killed run's staging or half-swapped old copy: never output, removed first.
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        try:
            yield staging
            try:
                _swap_into_place(staging, target)
            except OSError as error:
                raise StorageError(f"cannot move the output into place: {error.strerror}", target) from None
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)


def _swap_into_place(staging: Path, target: Path) -> None:
    if not target.exists():
        os.replace(staging, target)
        return
    # Swap the folders, so the old output stays whole until the new one is in place.
    backup = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    backup.rmdir()
    os.replace(target, backup)
    try:
        os.replace(staging, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.replace(backup, target)
        raise
    shutil.rmtree(backup, ignore_errors=True)
