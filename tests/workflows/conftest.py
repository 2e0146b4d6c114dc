"""A small synthetic corpus on disk, written by the synth workflow itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.workflows.synth import SynthRequest, SynthResult, synthesize


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthResult:
    """gold/, annotator_a/, annotator_b/, preannotated/ for two patients (7 notes each)."""
    return synthesize(SynthRequest(tmp_path_factory.mktemp("corpus") / "synth", patients=2, seed=3))


class Recorder:
    """A progress callback that keeps every (done, total) it is given."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    @property
    def finished(self) -> bool:
        return bool(self.calls) and self.calls[-1][0] == self.calls[-1][1]


@pytest.fixture
def progress() -> Recorder:
    return Recorder()


def folder(corpus: SynthResult, name: str) -> Path:
    return corpus.out / name
