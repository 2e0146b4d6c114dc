"""Figures in the docs that come from our own commands, kept equal to what the commands print.

A generated block in a Markdown file is one or more marker lines, then a fenced block::

    <!-- output of: annotator stats resources/demo/gold -->
    ```
    $ annotator stats resources/demo/gold
    documents            41
    ...
    ```

Each command runs from the repository root (``{tmp}`` stands for a fresh temporary folder,
shown as ``/tmp``, one per block); the block holds ``$ COMMAND`` and its standard output, for
each marker in turn. ``<!-- setup: COMMAND -->`` runs a command without showing it (making the
corpus that the shown command counts); ``(slow)`` after ``output of`` or ``setup`` marks
commands that take more than a few seconds.

``python -m tests.docs_figures`` says which blocks differ; ``--write`` rewrites them.
``tests/test_docs_figures.py`` runs every block (the slow ones with ``-m slow``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = (REPO / "README.md", *sorted((REPO / "docs").glob("*.md")))
_MARKER = re.compile(
    r"^<!-- (?P<kind>output of|setup)(?P<slow> \(slow\))?: (?P<command>.+?) -->\n", re.MULTILINE
)
_FENCE = re.compile(r"```\n(?P<body>.*?)```\n", re.DOTALL)
SHOWN_TMP = "/tmp"


@dataclass(frozen=True)
class Block:
    """One generated block: where it is, its commands, and what the file holds now."""

    path: Path
    commands: tuple[tuple[str, str], ...]  # (kind, command)
    slow: bool
    start: int  # offset of the fenced block's body in the file
    end: int
    current: str

    @property
    def name(self) -> str:
        shown = [command for kind, command in self.commands if kind == "output of"] or ["?"]
        return f"{self.path.name}:{shown[0]}"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found: list[Block] = []
    position = 0
    while (marker := _MARKER.search(text, position)) is not None:
        commands: list[tuple[str, str]] = []
        slow, after = False, marker.start()
        while (more := _MARKER.match(text, after)) is not None:
            commands.append((more["kind"], more["command"]))
            slow = slow or bool(more["slow"])
            after = more.end()
        fence = _FENCE.match(text, after)
        if fence is None:
            raise ValueError(f"{path.name}: a generated-output marker without a fenced block after it")
        found.append(
            Block(path, tuple(commands), slow, fence.start("body"), fence.end("body"), fence["body"])
        )
        position = fence.end()
    return found


def every_block() -> list[Block]:
    return [block for path in DOCS for block in blocks(path)]


def output(block: Block) -> str:
    """What the block should hold: each command as shown, then its standard output."""
    pieces: list[str] = []
    with tempfile.TemporaryDirectory(prefix="docs-figures-") as folder:
        for kind, command in block.commands:
            argv = shlex.split(command.replace("{tmp}", folder))
            if argv[0] != "annotator":
                raise ValueError(f"{block.name}: only annotator commands are run")
            done = subprocess.run(
                [sys.executable, "-m", "annotator", *argv[1:]],
                cwd=REPO,
                capture_output=True,
                text=True,
                env={**os.environ, "COLUMNS": "100", "PYTHONWARNINGS": "ignore"},
                check=False,
            )
            if done.returncode != 0:
                raise RuntimeError(f"{block.name}: {command} exited {done.returncode}: {done.stderr.strip()}")
            if kind == "output of":
                shown = command.replace("{tmp}", SHOWN_TMP)
                pieces.append(f"$ {shown}\n{done.stdout.replace(folder, SHOWN_TMP)}")
    return "".join(pieces)


def main(argv: list[str]) -> int:
    write = "--write" in argv
    stale = 0
    for path in DOCS:
        found = blocks(path)
        if not found:
            continue
        text = path.read_text(encoding="utf-8")
        for block in reversed(found):  # from the end, so earlier offsets stay valid
            wanted = output(block)
            if wanted != block.current:
                stale += 1
                print(f"{block.name}: differs{' (rewritten)' if write else ''}")
                text = text[: block.start] + wanted + text[block.end :]
        if write:
            path.write_text(text, encoding="utf-8")
    print(f"{stale} generated block(s) differed")
    return 1 if stale and not write else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
