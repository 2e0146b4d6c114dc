"""``annotator demo``: set up the bundled demo project, show what is in it, open it."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from annotator.cli.common import announce_written, format_table, shown


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "demo",
        help="open the bundled synthetic demo project",
        description=(
            "Copy the bundled synthetic demo project to a folder of yours (once), print where it is "
            "and what it holds, and open the annotation window on it."
        ),
    )
    parser.add_argument(
        "--dest", type=Path, metavar="DIR", help="where to put the demo project (default: a user folder)"
    )
    parser.add_argument(
        "--no-gui", action="store_true", help="only set up the project and print its statistics"
    )
    parser.add_argument("--annotator", help="your annotator name (default: the remembered one)")
    parser.add_argument(
        "--screenshot", type=Path, metavar="FILE.png", help="render the window to a PNG and exit"
    )
    parser.add_argument("--document", metavar="ID", help="open this document first")
    parser.add_argument("--theme", choices=("auto", "light", "dark"), default="auto")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.core.project import PROJECT_FILE
    from annotator.synth.demo import default_demo_location, ensure_demo_project

    wanted = Path(args.dest) if args.dest is not None else default_demo_location()
    existed = (wanted / PROJECT_FILE).is_file()
    root = Path(ensure_demo_project(args.dest) if args.dest is not None else ensure_demo_project())
    if not existed:
        announce_written(root, "demo project")  # a copy left as it is on later runs is not
    print(f"Demo project: {shown(root)}")
    code = _show(args, root)
    if code == 0 and args.screenshot is not None:
        announce_written(args.screenshot, "screenshot")
    return code


def _show(args: argparse.Namespace, root: Path) -> int:
    from annotator.core.statistics import corpus_statistics
    from annotator.io.corpus import read_corpus

    gold = root / "gold" if (root / "gold").is_dir() else root / "source"
    stats = corpus_statistics(read_corpus(gold).documents)
    print(f"Gold standard ({gold.name}/):")
    print(_describe(stats))
    if args.no_gui and args.screenshot is None:
        return 0
    from annotator.gui.app import launch

    return launch(
        root,
        args.annotator,
        args.screenshot,
        args.document,
        args.theme,
        debug=bool(getattr(args, "debug", False)),
    )


def _describe(stats: dict[str, Any]) -> str:
    scalars = [(key, value) for key, value in stats.items() if isinstance(value, int | float | str)]
    by_category = stats.get("by_category", {})
    categories = (
        [(name, count) for name, count in by_category.items()] if isinstance(by_category, dict) else []
    )
    text = format_table(("statistic", "value"), scalars)
    if categories:
        text += "\n\n" + format_table(("category", "annotations"), categories)
    return text
