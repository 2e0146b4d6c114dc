"""Run ``annotator ARGS`` and SIGKILL it while it moves its output into place.

``KILL_AT`` (environment) says when, as a fraction of the publication's moves: ``0`` once
the manifest is written and before the first move, ``0.5`` right after half of them, ``1``
right after the last (the manifest not yet removed). The kill is real (the process gets
SIGKILL and is gone); only the moment is chosen, so every case is tried, not just the moments
a random timer happens to hit. Used by ``tests/cli/test_kill_while_publishing.py``.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from annotator.cli.main import main
from annotator.io import outputs, publish

FRACTION = float(os.environ.get("KILL_AT", "0.5"))
_real_commit = getattr(outputs, "commit")  # noqa: B009 - the name the publisher calls
_real_run = publish.Step.run
_moves_left = [-1]


def _kill() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def _commit(anchor: Path, job: str, steps: Sequence[publish.Step]) -> None:
    moves = sum(step.kind == "move" for step in steps)
    _moves_left[0] = 0 if FRACTION == 0 else max(1, round(FRACTION * moves))
    _real_commit(anchor, job, steps)


def _run(step: publish.Step) -> None:
    if _moves_left[0] == 0:
        _kill()
    _real_run(step)
    if step.kind == "move" and _moves_left[0] > 0:
        _moves_left[0] -= 1
        if _moves_left[0] == 0:
            _kill()


# The publisher's own commit and moves, with a kill slipped in between two moves.
setattr(outputs, "commit", _commit)  # noqa: B010
setattr(publish.Step, "run", _run)  # noqa: B010

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
