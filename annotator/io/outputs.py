"""Where every writing job plans and publishes its outputs: the one output guard.

A job first *plans* what it will write: :func:`plan_files` for a set of files,
:func:`plan_folder` for one output folder. Planning refuses, with one clear line and before
anything is read or written, to write onto an input or inside an input folder, to write into
(or around) a protected folder, to replace existing output unless ``force``, or to write
where the user cannot. The job then publishes through :func:`publishing`: under the output
lock it finishes a killed run's publication, plans again (so of two jobs racing for one
output, the second is refused: create-or-refuse, never check-then-overwrite), lets the job
write into private staging, and moves everything into place together
(:mod:`annotator.io.publish`). Reports that are one file (CSV, HTML) are written with
:meth:`OutputPlan.publish_text`, atomically.

A job run again into the output of the same job killed half way (same request, see
:func:`annotator.io.publish.job_identity`) finishes that publication and owns its files: it
needs no ``--force`` to replace them, and they are never reported as someone else's.

The CLI (``--force``) and the GUI (a "replace" checkbox, or ``force=True`` where replacing
is the action's purpose) use the same plans through :mod:`annotator.workflows`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from annotator.core.atomic import atomic_write, folder_syncs_deferred
from annotator.core.file_names import file_name_problem, shown_name
from annotator.errors import InputError, StorageError, UsageError, printable_path
from annotator.io.publish import (
    STAGING_PREFIX,
    Step,
    cannot,
    commit,
    common_folder,
    interrupted_outputs,
    manifest_path,
    output_lock,
    recover_output,
)


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
INPUT_CLASH = "would overwrite an input file; choose another output"
INSIDE_INPUT = "is inside an input folder; choose an output outside it"
CURRENT_FOLDER_CLASH = (
    "is the current folder or holds it, and the output folder is replaced whole; choose another folder"
)


def absolute(path: Path) -> Path:
    """``path`` from the root, ``.`` and ``..`` taken away but symbolic links kept."""
    return Path(os.path.abspath(path))


@dataclass(frozen=True)
class OutputPlan:
    """Outputs a job may write, checked against its inputs and what exists.

    Attributes
    ----------
    targets:
        The files, or the one folder (``folder_mode`` set), the job writes.
    replacing:
        The targets that existed when the plan was made and will be replaced.
    folder_mode:
        None for files; how the one target folder is written otherwise.
    force:
        Existing output may be replaced.
    job:
        The job's identity: a killed run of the same job left files this one may replace.
    private:
        Files published together with the folder, outside it (an audit map, a review file).
    """

    targets: tuple[Path, ...]
    replacing: tuple[Path, ...] = ()
    folder_mode: FolderMode | None = None
    force: bool = False
    job: str = ""
    private: tuple[Path, ...] = ()

    @property
    def fresh(self) -> tuple[Path, ...]:
        """The targets that did not exist when the plan was made."""
        return tuple(t for t in self.targets if t not in self.replacing)

    @property
    def anchor(self) -> Path:
        """The output the job locks: its folder, its one file, or the folder of its files.

        Absolute: staging and the manifest go beside it, by its name (``-o .`` has none).
        """
        if self.folder_mode is not None or len(self.targets) == 1:
            return absolute(self.targets[0])
        return absolute(common_folder(self.targets))

    def publish_bytes(self, target: Path, data: bytes) -> None:
        """Write one planned file atomically (temp file, fsync, rename): for reports."""
        atomic_write(self._planned(target), data)

    def publish_text(self, target: Path, text: str) -> None:
        # A file name's undecodable bytes in a report stay the bytes they were.
        self.publish_bytes(target, text.encode("utf-8", "surrogateescape"))

    def _planned(self, target: Path) -> Path:
        # A job writing a file it did not plan is a programming error, not a user error.
        if Path(target) not in self.targets:
            raise ValueError(f"{target} is not an output of this plan")
        return Path(target)


def check_file_name(name: str, source: str | Path | None = None) -> str:
    """``name`` (a document id) when it can name one file directly in an output folder.

    The one check every writer makes, when the output is planned, before anything is
    created: a document id comes from the input (a JSON field, a RECORD ID) and must not
    choose where the file goes.

    Raises
    ------
    InputError
        Naming ``source`` (the file the document was read from) and the id: it is empty,
        holds a path separator, a control character or what Windows refuses, climbs out of
        the folder, would be a hidden or temporary file, or is too long.
    """
    problem = file_name_problem(name)
    if problem is not None:
        raise InputError(f"document id {shown_name(name)} cannot name an output file: {problem}", source)
    return name


def file_in_folder(
    folder: Path, name: str, suffix: str, source: str | Path | None = None, resolved: Path | None = None
) -> Path:
    """``folder/<name><suffix>`` for a checked document id, proved to lie directly in ``folder``.

    The second look is lexical on the resolved folder (the file itself may not exist, or
    may be a link being replaced), so it holds whatever the name rules above let through.
    ``resolved`` is ``folder.resolve()`` when the caller has it: resolving once per file
    took a third of the time of importing 60,000 notes.
    """
    check_file_name(name, source)
    base = resolved if resolved is not None else Path(folder).resolve()
    target = base / f"{name}{suffix}"
    if target.parent != base or os.path.normpath(target) != str(target):
        raise InputError(f"document id {shown_name(name)} would be written outside the output folder", source)
    return Path(folder) / target.name


def same_file_names(names: Iterable[tuple[str, str | Path | None]]) -> None:
    """Refuse document ids (each with the file it came from) that only case or Unicode
    normalisation tell apart.

    On Windows and macOS they are one file: the second document would silently replace
    the first.
    """
    seen: dict[str, str] = {}
    for name, source in names:
        key = unicodedata.normalize("NFC", name).casefold()
        if key in seen and seen[key] != name:
            raise InputError(
                f"documents {shown_name(seen[key])} and {shown_name(name)} would be one file on "
                "Windows and macOS (their ids differ only in case or in how accents are encoded)",
                source,
            )
        seen.setdefault(key, name)


def _resolved(paths: Iterable[Path]) -> set[Path]:
    return {Path(p).resolve() for p in paths}


def _owned(path: Path, own: set[Path]) -> bool:
    """``path`` is, or lies inside, an output a killed run of this job published."""
    resolved = path.resolve()
    return resolved in own or any(parent in own for parent in resolved.parents)


@dataclass(frozen=True)
class _Inputs:
    """A job's inputs resolved once: a plan checks every target against all of them, and a
    folder of thousands of notes checked file by file against itself took minutes."""

    paths: frozenset[Path]
    folders: frozenset[Path]
    holders: frozenset[Path]  # every folder above an input

    @classmethod
    def of(cls, inputs: Iterable[Path]) -> _Inputs:
        paths = frozenset(Path(given).resolve() for given in inputs)
        return cls(
            paths,
            frozenset(path for path in paths if path.is_dir()),
            frozenset(parent for path in paths for parent in path.parents),
        )


def _refuse_inputs(
    target: Path, inputs: _Inputs, onto: str, inside: str = INSIDE_INPUT, around: bool = False
) -> None:
    """Never onto an input, never inside an input folder (nor around one, when ``around``)."""
    out = target.resolve()
    if out in inputs.paths:
        raise UsageError(inside if out in inputs.folders else onto, target)
    if not inputs.folders.isdisjoint(out.parents):
        raise UsageError(inside, target)
    if around and out in inputs.holders:
        raise UsageError(onto, target)


def _check_writable(*paths: Path) -> None:
    """Refuse early, before the work, an output where the user cannot create files."""
    for path in paths:
        probe = path.resolve()
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if probe.is_dir() and not os.access(probe, os.W_OK | os.X_OK):
            raise StorageError("cannot write here: permission denied", probe)


def refuse_special_target(target: Path) -> None:
    """Refuse an output path that is a link, or exists as neither a file nor a folder (a device,
    a FIFO, a socket).

    Outputs are written beside their path and renamed over it, so such a node would not be
    written to but replaced by a plain file: for root, ``--csv /dev/stdout`` (a link) or
    ``-o /dev/null --force`` would replace the system's own.
    """
    if target.exists() and not target.is_file() and not target.is_dir():
        # /dev/stdout is a link to one: say what it is, not that it is a link.
        raise UsageError(
            "is a device, pipe or socket (such as /dev/stdout), not a file: outputs are written "
            "to files (to print results, use --json where the command has it)",
            target,
        )
    if target.is_symlink():
        raise UsageError("is a symbolic link, which the output would replace; give the file itself", target)


def plan_files(
    targets: Iterable[Path],
    *,
    inputs: Iterable[Path] = (),
    force: bool = False,
    job: str = "",
    input_clash: str = INPUT_CLASH,
    exists_clash: str | None = None,
) -> OutputPlan:
    """Plan to write ``targets``: none onto or inside one of ``inputs`` (files or folders);
    existing ones only with ``force`` or when a killed run of the same ``job`` wrote them.

    Raises
    ------
    UsageError
        A target is one of ``inputs`` (message ``input_clash``) or lies inside an input
        folder, or targets exist and ``force`` is False (the first is named, with their count,
        or ``exists_clash`` is said).
    StorageError
        The user cannot create files where a target goes.
    """
    planned = tuple(Path(t) for t in targets)
    resolved_inputs = _Inputs.of(inputs)
    for target in planned:
        _refuse_inputs(target, resolved_inputs, input_clash)
        refuse_special_target(target)
    plan = OutputPlan(planned, force=force, job=job)
    own = _resolved(interrupted_outputs(plan.anchor).owned_by(job)) if planned else set()
    existing = tuple(t for t in planned if t.exists())
    foreign = [t for t in existing if not _owned(t, own)]
    if foreign and not force:
        message = exists_clash or f"{len(foreign)} output file(s) exist already (use --force to overwrite)"
        raise UsageError(message, foreign[0])
    _check_writable(*{t.parent for t in planned})
    return OutputPlan(planned, existing, None, force, job)


def _occupied(folder: Path, own: set[Path]) -> bool:
    """A file in the folder that is neither a killed run's staging nor this job's own."""
    if not folder.is_dir():
        return False
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(STAGING_PREFIX)]
        for name in filenames:
            if not _owned(Path(dirpath) / name, own):
                return True
    return False


def _holds_working_folder(folder: Path) -> bool:
    """Whether ``folder`` is the process's current folder or one of its parents: replacing it
    would leave the user's shell in a folder that no longer exists."""
    try:
        here = Path.cwd().resolve()
        target = folder.resolve()
    except OSError:
        return False
    return here == target or target in here.parents


def _refuse_foreign_files(folder: Path, replaces: tuple[str, ...], names: tuple[str, ...] = ()) -> None:
    """Refuse to replace a folder holding anything but files (of the ``replaces`` suffixes) and
    entries (of the ``names``) the job writes."""
    foreign = sorted(
        entry.name
        for entry in folder.iterdir()
        if not entry.name.startswith(".")  # staging, locks and manifests of our own runs
        and not (entry.is_file() and not entry.is_symlink() and entry.suffix.lower() in replaces)
        and entry.name not in names
    )
    if foreign:
        shown = ", ".join(printable_path(name) for name in foreign[:3])
        more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        raise UsageError(
            f"holds what this command does not write ({shown}{more}); --force replaces only an "
            "earlier output: move them, or choose another folder",
            folder,
        )


def plan_folder(
    folder: Path,
    *,
    mode: FolderMode,
    force: bool = False,
    inputs: Iterable[Path] = (),
    protected: Iterable[Path] = (),
    protected_clash: str = "refusing to write the output into (or around) an input folder",
    job: str = "",
    private: Iterable[Path] = (),
    replaces: tuple[str, ...] = (),
    replaces_names: tuple[str, ...] = (),
) -> OutputPlan:
    """Plan to write the folder ``folder`` (and the ``private`` files with it).

    ``inputs`` (files or folders) must not be the folder nor hold it; ``protected`` folders
    must not even lie inside it. ``replaces``: the suffixes of the files the job writes; a
    folder replaced whole (``REPLACE``, with ``force``) may hold only such files, so that
    ``--force`` replaces an earlier output and never a folder of someone's own files;
    ``replaces_names``: the entries (files or folders) the job writes, by name.

    Raises
    ------
    UsageError
        ``folder`` is, holds or lies inside a ``protected`` folder, or is or lies inside an
        input; it exists and is not a folder; or it holds files (other than a killed run's of
        the same ``job``) and ``force`` is False; a private file is an input or exists.
    StorageError
        The user cannot create files where the folder goes.
    """
    folder = Path(folder)
    resolved_inputs = _Inputs.of(inputs)
    private_files = tuple(Path(p) for p in private)
    _refuse_inputs(folder, _Inputs.of(protected), protected_clash, protected_clash, around=True)
    _refuse_inputs(folder, resolved_inputs, INSIDE_INPUT)
    if folder.exists() and not folder.is_dir():
        raise UsageError("exists and is not a folder", folder)
    if mode is FolderMode.REPLACE and _holds_working_folder(folder):
        raise UsageError(CURRENT_FOLDER_CLASH, folder)
    interrupted = interrupted_outputs(absolute(folder))
    own = _resolved(interrupted.owned_by(job))
    if not force and _occupied(folder, own):
        raise UsageError(_NOT_EMPTY[mode], folder)
    if mode is FolderMode.REPLACE and (replaces or replaces_names) and folder.is_dir():
        _refuse_foreign_files(folder, replaces, replaces_names)
    for path in private_files:
        _refuse_inputs(path, resolved_inputs, INPUT_CLASH)
        refuse_special_target(path)
        if path.exists() and not force and not _owned(path, own):
            raise UsageError("exists already (use --force to replace it)", path)
    _check_writable(folder, *(p.parent for p in private_files))
    replacing = ((folder,) if folder.is_dir() else ()) + tuple(p for p in private_files if p.exists())
    return OutputPlan((folder,), replacing, mode, force, job, private_files)


def _check_again(plan: OutputPlan, own: set[Path]) -> None:
    """The plan's refusals once more, under the lock: what another job wrote meanwhile."""
    if plan.force:
        return
    if plan.folder_mode is not None:
        folder = plan.targets[0]
        if _occupied(folder, own):
            raise UsageError(_NOT_EMPTY[plan.folder_mode], folder)
    replaced = _resolved(plan.replacing) | own
    appeared = [
        t for t in (*plan.private, *(() if plan.folder_mode else plan.targets))
        if t.exists() and not _owned(t, replaced)
    ]  # fmt: skip
    if appeared:
        raise UsageError(
            f"{len(appeared)} output file(s) appeared while this job ran (another job wrote them; "
            "use --force to overwrite)",
            appeared[0],
        )


class Staging:
    """Private places where a job writes its outputs for now, and the moves that publish them.

    Called with an output path (a planned file, the planned folder or a file under it, a
    private file), it gives where to write that path for now.
    """

    def __init__(self, plan: OutputPlan) -> None:
        self.plan = plan
        self.folders: list[Path] = []
        self.created_root: Path | None = None
        self.private: dict[Path, Path] = {}
        try:
            self._make(plan)
        except BaseException:
            self.remove()  # a place that cannot be written: nothing of this job stays behind
            raise

    def _make(self, plan: OutputPlan) -> None:
        anchor = plan.anchor
        if plan.folder_mode is FolderMode.REPLACE:
            # The new folder is built beside the old one and swapped in whole.
            self.base = anchor
            self.root = self._new_folder(anchor.parent, f".{anchor.name}.", ".tmp")
        elif plan.folder_mode is FolderMode.MERGE or len(plan.targets) > 1:
            self.base = anchor
            if not anchor.exists():
                try:
                    anchor.mkdir(parents=True)
                except OSError as error:
                    raise cannot("create the output folder", error, anchor) from None
                self.created_root = anchor
            self.root = self._new_folder(anchor, STAGING_PREFIX, "")
        else:
            self.base = anchor.parent
            self.root = self._new_folder(anchor.parent, f".{anchor.name}.", ".tmp")
        for path in plan.private:
            self.private[path.resolve()] = self._new_folder(path.parent, f".{path.name}.", ".tmp") / path.name
        self.resolved_base = self.base.resolve()

    def _new_folder(self, parent: Path, prefix: str, suffix: str) -> Path:
        try:
            parent.mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(prefix=prefix, suffix=suffix, dir=parent))
        except OSError as error:
            raise cannot("write into the folder", error, parent) from None
        self.folders.append(folder)
        return folder

    def __call__(self, path: Path) -> Path:
        resolved = Path(path).resolve()
        if resolved in self.private:
            return self.private[resolved]
        if not resolved.is_relative_to(self.resolved_base):
            # Nothing the plan did not put under its output is ever staged, hence published.
            raise StorageError("is not inside the planned output; refusing to write it", path)
        return self.root / resolved.relative_to(self.resolved_base)

    def final(self, staged: Path) -> Path:
        """Where a file written at ``staged`` is published."""
        for target, private in self.private.items():
            if Path(staged) == private:
                return target
        return self.base / Path(staged).relative_to(self.root)

    def steps(self) -> list[Step]:
        steps: list[Step] = []
        if self.plan.folder_mode is FolderMode.REPLACE:
            target = self.base
            backup = Path(f"{self.root.with_suffix('')}.old")
            steps += [Step("aside", self.root, target, backup), Step("move", self.root, target)]
            steps.append(Step("discard", backup))
        else:
            staged = sorted(p for p in self.root.rglob("*") if not p.is_dir())
            steps += [Step("move", p, self.base / p.relative_to(self.root)) for p in staged]
        for target, staged_path in self.private.items():
            if staged_path.exists():
                steps.append(Step("move", staged_path, target))
        return steps

    def remove(self) -> None:
        for folder in self.folders:
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder, ignore_errors=True)
        root = self.created_root
        if root is not None and root.is_dir() and not any(root.iterdir()):
            root.rmdir()  # a job that published nothing leaves no output folder behind


@contextlib.contextmanager
def publishing(plan: OutputPlan) -> Iterator[Staging]:
    """Stage what a job writes and publish it all together on a clean exit.

    Yields ``staged(path) -> path``: where to write an output (a planned file, the planned
    folder or a file under it, a private file) for now. If the body raises (a bad input, a
    leak, a cancel), nothing is published and the staging is removed.
    """
    anchor = plan.anchor
    missing = _missing_folders(anchor.parent)
    try:
        with _output_published(plan, anchor) as staging:
            yield staging
    except BaseException:
        # A job that fails leaves no folder it made on the way to its output (``-o new/out``).
        for folder in missing:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty: never what another process put there
        raise


def _missing_folders(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist yet, deepest first."""
    missing = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return missing


@contextlib.contextmanager
def _output_published(plan: OutputPlan, anchor: Path) -> Iterator[Staging]:
    with output_lock(anchor):
        merging = plan.folder_mode is FolderMode.MERGE or (plan.folder_mode is None and len(plan.targets) > 1)
        interrupted = recover_output(anchor, [anchor] if merging else [])
        for path in plan.private:
            recover_output(path)  # its leftover staging only: its moves are the anchor's manifest's
        _check_again(plan, _resolved(interrupted.owned_by(plan.job)))
        staging = Staging(plan)
        try:
            with folder_syncs_deferred():
                yield staging
            commit(anchor, plan.job, staging.steps())
        finally:
            # A publication that failed half way keeps its manifest and what it had still to
            # move: the next run finishes it. Anything else of the staging goes.
            if not manifest_path(anchor).exists():
                staging.remove()
