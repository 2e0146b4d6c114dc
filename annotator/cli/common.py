"""Helpers shared by the subcommands: JSON output, tables, progress bars, paths.

The rules every command follows live here, once: the output option (:func:`add_output_option`),
the undefined-value marker (:data:`UNDEFINED`, :func:`score_text`), the announcement of every
written file (:func:`announce_written`) and escaped paths (:func:`shown`, which is
:func:`annotator.errors.printable_path`, also used by the GUI).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from annotator.errors import UsageError, printable_json, printable_path

# Re-exported: the commands' one source for the undefined marker.
from annotator.evaluation.counts import UNDEFINED as UNDEFINED
from annotator.evaluation.counts import score_text as score_text

T = TypeVar("T")

#: Old spellings of ``-o/--output`` that still work but are not shown in ``--help``.
OUTPUT_ALIASES = ("--out",)

shown = printable_path


def add_output_option(
    parser: argparse.ArgumentParser, metavar: str, help: str, required: bool = True
) -> argparse.Action:
    """``-o/--output PATH``, the one spelling of "where to write" (old spellings kept, hidden)."""
    action = parser.add_argument(
        "-o", "--output", *OUTPUT_ALIASES, type=Path, required=required, metavar=metavar, help=help
    )
    # argparse parses with its own table of option strings; the action's list is only what
    # --help and error messages show, so trimming it hides the aliases without disabling them.
    action.option_strings = ["-o", "--output"]
    return action


def announce_written(path: Path | str, what: str = "report") -> None:
    """Say on stderr where a file was written (stdout stays for the data itself)."""
    print(f"annotator: {what} written to {shown(path)}", file=sys.stderr)


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")


def print_json(data: Any) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False, default=_json_default)
    sys.stdout.write(printable_json(text) + "\n")


def _json_default(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def format_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain aligned text table (numbers right-aligned, undefined scores :data:`UNDEFINED`,
    control characters escaped)."""
    headers = [shown(h) for h in headers]  # annotator names come from folder names
    text_rows = [[_cell(value) for value in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in text_rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=False)]
    numeric = [all(_is_number(row[i]) for row in text_rows if i < len(row)) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if numeric[i] else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=False))
        ).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(row) for row in text_rows)
    return "\n".join(out)


def _cell(value: object) -> str:
    if value is None or isinstance(value, float):
        return score_text(value)
    # Ids and names come from file names: escaped like paths, so no cell can forge a line.
    return shown(str(value))


def _is_number(text: str) -> bool:
    if text == UNDEFINED:
        return True
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


@contextmanager
def progress_bar(
    description: str, unit: str = "doc", percent: bool = False
) -> Iterator[Callable[[int, int], None]]:
    """A ``(done, total)`` progress callback drawing a bar on stderr when it is a terminal.

    Library functions report progress through such callbacks; the bar is closed on exit even
    when the work raises. ``unit`` must name what ``done`` counts; a job whose steps are not
    one kind of thing (notes read, then training iterations) shows ``percent`` instead.
    """
    from tqdm import tqdm

    bar_format = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]" if percent else None
    bar = tqdm(
        total=0,
        desc=description,
        unit=unit,
        disable=None,
        file=sys.stderr,
        leave=False,
        bar_format=bar_format,
    )

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.reset(total=total)
        bar.n = done
        bar.refresh()

    try:
        yield update
    finally:
        bar.close()


def positive_int(value: str) -> int:
    """argparse type: a whole number of at least 1 (else a usage error, exit 2)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def existing_path(value: str) -> Path:
    """argparse type: a path that must exist (else a usage error, exit 2)."""
    path = Path(value)
    if not path.exists():
        if path.is_symlink():  # exists() follows the link: a loop or a dead target reads as missing
            raise argparse.ArgumentTypeError(
                f"{printable_path(value)}: a symbolic link to nothing (its target is missing, or it loops)"
            )
        raise argparse.ArgumentTypeError(f"{printable_path(value)}: no such file or folder")
    return path


def refuse_one_path_twice(roles: Sequence[tuple[str, Path | str | None]]) -> None:
    """Refuse one folder or file named for two roles (also by another spelling or a symlink).

    Scoring a folder against itself gives a perfect score that looks like a result, and two
    outputs in one place overwrite each other; either is a slip of the command line.
    """
    seen: dict[Path, str] = {}
    for role, path in roles:
        if path is None:
            continue
        resolved = Path(path).resolve()
        if resolved in seen:
            raise UsageError(f"is given as both {seen[resolved]} and {role}; give two different ones", path)
        seen[resolved] = role


def refuse_special_output(*paths: Path | str | None) -> None:
    """:func:`~annotator.io.outputs.refuse_special_target` for each output given, before any
    work is done."""
    from annotator.io.outputs import refuse_special_target

    for path in paths:
        if path is not None:
            refuse_special_target(Path(path))


def refuse_report_targets(*paths: Path | str | None, force: bool) -> None:
    """Report files (``--csv``, ``--html``), before any work is done: no device, link or
    folder, and no existing file unless ``force`` (a slip of the name must not replace an
    export or a note)."""
    from annotator.io.outputs import refuse_special_target

    for path in paths:
        if path is None:
            continue
        target = Path(path)
        refuse_special_target(target)
        if target.is_dir():
            raise UsageError("is a folder; give the report a file name", target)
        if target.exists() and not force:
            raise UsageError("exists already (use --force to replace it)", target)


def add_workers_argument(parser: argparse.ArgumentParser, doing: str, same: str) -> None:
    """``--workers N`` of a command that runs on one process per core when the notes are many
    (``doing``: "to tag with"; ``same``: what stays the same whatever N)."""
    from annotator.crf.parallel import MAX_AUTO_WORKERS, MIN_PARALLEL_CHARS

    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help=(
            f"processes {doing}, at most one per core ({same}); default: one per core, up to "
            f"{MAX_AUTO_WORKERS}, for notes holding over {MIN_PARALLEL_CHARS:,} characters, else 1"
        ),
    )


def model_argument(value: str) -> Path:
    """argparse type: a tagger model file, or ``default`` (the bundled model)."""
    return Path(value) if value == "default" else existing_path(value)
