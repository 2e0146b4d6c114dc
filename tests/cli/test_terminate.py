"""SIGTERM stops a command as Ctrl-C does: one line, exit 143, nothing written, no process left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotator.synth.generator import generate_corpus, write_corpus

REPO = Path(__file__).resolve().parents[2]


def _group_members(group: int) -> list[int]:
    """The live processes of a process group (read from /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry.name))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_sigterm_during_cross_validation_on_two_processes(tmp_path: Path) -> None:
    write_corpus(generate_corpus(patients=12, seed=8), tmp_path / "corpus")
    model = tmp_path / "out" / "model.crf"
    command = [
        sys.executable,
        "-m",
        "annotator",
        "train",
        str(tmp_path / "corpus" / "gold"),
        "-o",
        str(model),
    ]
    process = subprocess.Popen(
        [*command, "--cv", "3", "--workers", "2"],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: its workers are found by it
    )
    deadline = time.monotonic() + 60
    while len(_group_members(process.pid)) < 3 and time.monotonic() < deadline:  # itself and two workers
        time.sleep(0.2)
    assert process.poll() is None, "training ended before it could be stopped"
    os.kill(process.pid, signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert err == "annotator train: terminated\n"
    assert not model.exists()
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
    deadline = time.monotonic() + 10
    while _group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _group_members(process.pid) == []
