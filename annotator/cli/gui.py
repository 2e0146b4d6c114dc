"""``annotator gui``: the annotation workspace (or the adjudication window with --adjudicate)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import announce_written, existing_path
from annotator.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "gui",
        help="open the annotation window on a project, folder or file",
        description=(
            "Open the annotation window on a project folder, a plain folder of i2b2 XML files or one "
            "file. With --adjudicate, open the adjudication window on several annotators' versions."
        ),
    )
    parser.add_argument(
        "path", nargs="?", type=existing_path, help="project folder, folder of XML files, or XML file"
    )
    parser.add_argument("--annotator", help="your annotator name (remembered for next time)")
    parser.add_argument(
        "--screenshot", type=Path, metavar="FILE.png", help="render the window to a PNG and exit"
    )
    parser.add_argument("--document", metavar="ID", help="open this document first (e.g. 110-01)")
    parser.add_argument(
        "--schema",
        metavar="NAME",
        help="the tag set: a bundled name, a MAE / MedTator task (.dtd, .yaml, .json) or a brat "
        "annotation.conf (default: the project's, else the task found beside the files or up to "
        "two folders above them)",
    )
    parser.add_argument(
        "--theme",
        choices=("auto", "light", "dark"),
        default="auto",
        help="colour theme (default: follow the system)",
    )
    parser.add_argument(
        "--view",
        choices=("main", "annotate-all", "side-by-side", "dashboard", "export", "preannotation"),
        default="main",
        help=(
            "with --screenshot: what to render (default: the main window; side-by-side, with "
            "--adjudicate only: the adjudication window's one-column-per-version view; annotate-all, "
            "dashboard, export, preannotation, without --adjudicate: those dialogs and reports, made "
            "without changing the project)"
        ),
    )
    parser.add_argument(
        "--size",
        metavar="WxH",
        help="with --screenshot: the window size in pixels (e.g. 1280x720)",
    )
    parser.add_argument(
        "--adjudicate",
        nargs="+",
        type=existing_path,
        metavar="DIR",
        help="adjudicate these annotators' folders (two or more) instead",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="GOLD_DIR",
        help="with --adjudicate: where the gold standard goes",
    )
    parser.set_defaults(func=run)


def _guard_outputs(screenshot: Path | None, inputs: list[Path], gold: Path | None = None) -> None:
    """The gold folder and the screenshot go neither onto nor inside what the window opens."""
    from annotator.io.outputs import FolderMode, plan_files, plan_folder

    if gold is not None:
        plan_folder(gold, mode=FolderMode.MERGE, force=True, inputs=inputs)
    if screenshot is not None:
        plan_files([screenshot], inputs=[*inputs, *([gold] if gold is not None else [])], force=True)


# The views the adjudication window has; the others are the annotation window's.
ADJUDICATION_VIEWS = ("main", "side-by-side")


def _check_view(args: argparse.Namespace) -> None:
    """Refuse a view the window being opened does not have (it rendered another one quietly)."""
    if args.adjudicate and args.view not in ADJUDICATION_VIEWS:
        raise UsageError(
            f"--view {args.view} is a view of the annotation window; with --adjudicate use main or side-by-side"
        )
    if not args.adjudicate and args.view == "side-by-side":
        raise UsageError(
            "--view side-by-side is the adjudication window's view: it needs --adjudicate DIR_A DIR_B -o GOLD_DIR"
        )


def run(args: argparse.Namespace) -> int:
    _check_view(args)
    size = None
    if args.size is not None:
        from annotator.gui.screenshot import parse_size

        size = parse_size(args.size)
    if args.adjudicate:
        if args.output is None:
            raise UsageError("--adjudicate needs -o GOLD_DIR")
        folders = ([args.path] if args.path is not None else []) + list(args.adjudicate)
        if len(folders) < 2:
            raise UsageError("--adjudicate needs at least two folders")
        _guard_outputs(args.screenshot, folders, args.output)
        from annotator.gui.app import NO_DISPLAY_HINT, display_available, get_application

        if args.screenshot is None and not display_available():
            print(f"annotator gui: {NO_DISPLAY_HINT}", file=sys.stderr)
            return 1
        get_application(offscreen=args.screenshot is not None)
        from annotator.gui.adjudication.launch import launch_adjudication

        return _announced(
            args.screenshot,
            int(
                launch_adjudication(
                    folders,
                    args.output,
                    args.screenshot,
                    args.document,
                    adjudicator=args.annotator,
                    size=size,
                    side_by_side=args.view == "side-by-side",
                    theme=args.theme,
                )
            ),
        )
    if args.path is None:
        raise UsageError(
            "give a project folder, a folder of XML files or an XML file (or try: annotator demo)"
        )
    _guard_outputs(args.screenshot, [args.path])
    from annotator.gui.app import launch

    return _announced(
        args.screenshot,
        launch(
            args.path,
            args.annotator,
            args.screenshot,
            args.document,
            args.theme,
            args.view,
            debug=bool(getattr(args, "debug", False)),
            size=size,
            schema=args.schema,
        ),
    )


def _announced(screenshot: Path | None, code: int) -> int:
    """Say where a screenshot went, as every command says what it wrote."""
    if code == 0 and screenshot is not None:
        announce_written(screenshot, "screenshot")
    return code
