"""Atomic writes: each file synced before its rename; folder syncs once per block when deferred.

The syncs are observed by wrapping the real ``os.fsync`` (it still runs): a sync leaves no
other trace a test can read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from annotator.core.atomic import atomic_write, folder_syncs_deferred


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """'file' or 'folder' for every fsync, in order."""
    kinds: list[str] = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        kinds.append("folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    return kinds


def test_each_write_syncs_its_file_then_its_folder(tmp_path: Path, synced: list[str]) -> None:
    for number in range(3):
        atomic_write(tmp_path / f"{number}.xml", b"x")
    assert synced == ["file", "folder"] * 3


def test_deferred_folder_syncs_come_once_per_folder_at_the_end(tmp_path: Path, synced: list[str]) -> None:
    with folder_syncs_deferred():
        for number in range(50):
            atomic_write(tmp_path / "source" / f"{number}.xml", b"note")
            atomic_write(tmp_path / "gold" / f"{number}.xml", b"tags")
        assert synced == ["file"] * 100
    assert synced == ["file"] * 100 + ["folder", "folder"]
    assert len(list((tmp_path / "source").iterdir())) == 50


def test_a_nested_block_leaves_the_syncs_to_the_outer_one(tmp_path: Path, synced: list[str]) -> None:
    with folder_syncs_deferred():
        with folder_syncs_deferred():
            atomic_write(tmp_path / "a.xml", b"x")
        assert synced == ["file"]
        atomic_write(tmp_path / "b.xml", b"x")
    assert synced == ["file", "file", "folder"]


def test_a_failed_block_syncs_no_folder_and_later_writes_sync_again(
    tmp_path: Path, synced: list[str]
) -> None:
    with pytest.raises(RuntimeError), folder_syncs_deferred():
        atomic_write(tmp_path / "a.xml", b"x")
        raise RuntimeError("the job failed: its staging is thrown away")
    assert synced == ["file"]
    atomic_write(tmp_path / "b.xml", b"x")
    assert synced == ["file", "file", "folder"]
