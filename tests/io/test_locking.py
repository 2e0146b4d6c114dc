"""Document locks: exclusive, stale takeover, explicit override, real processes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotator.errors import LockedError, StorageError
from annotator.io.locking import DocumentLock, DocumentLockedError, LockInfo, lock_path, read_lock_info

HOLD_SCRIPT = """
import sys, time
from pathlib import Path
from annotator.io.locking import DocumentLock
from annotator.errors import LockedError, StorageError
document, user, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
while not go.exists():
    time.sleep(0.005)
lock = DocumentLock(document, user)
try:
    lock.acquire()
except LockedError:
    print("refused", flush=True)
else:
    print("won", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def document(tmp_path: Path) -> Path:
    path = tmp_path / "100-01.xml"
    path.write_bytes(b"<deIdi2b2><TEXT><![CDATA[x]]></TEXT><TAGS /></deIdi2b2>")
    return path


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_lock_file_beside_document(document: Path) -> None:
    with DocumentLock(document, "alice") as lock:
        assert lock_path(document) == document.parent / ".100-01.xml.lock"
        data = json.loads(lock_path(document).read_text(encoding="utf-8"))
        assert data["user"] == "alice" and data["pid"] == os.getpid()
        assert data["host"] == socket.gethostname()
        assert lock.held
    assert not lock_path(document).exists()
    assert read_lock_info(document) is None


def test_second_lock_refused_with_holder_and_time(document: Path) -> None:
    first = DocumentLock(document, "alice", host="ward-pc")
    first.acquire()
    second = DocumentLock(document, "bob")
    with pytest.raises(LockedError) as caught:
        second.acquire()
    message = str(caught.value)
    assert "alice on ward-pc since" in message and "UTC" in message
    assert isinstance(caught.value, DocumentLockedError) and caught.value.holder.user == "alice"
    assert str(document) in message
    assert first.held and not second.held
    first.release()
    second.acquire()
    assert second.held


def test_same_user_same_process_second_instance_refused(document: Path) -> None:
    first = DocumentLock(document, "alice")
    first.acquire()
    first.acquire()  # re-acquiring what we hold is fine
    with pytest.raises(LockedError):
        DocumentLock(document, "alice").acquire()


def test_stale_lock_on_this_host_is_taken_over(document: Path) -> None:
    stale = LockInfo(
        user="carol", host=socket.gethostname(), pid=dead_pid(), time="2026-01-02T03:04:05+00:00"
    )
    lock_path(document).write_text(stale.to_json(), encoding="utf-8")
    assert stale.is_stale()
    lock = DocumentLock(document, "alice")
    lock.acquire()
    assert lock.held
    assert lock.taken_over == stale
    assert stale.describe() == "carol on " + socket.gethostname() + " since 2026-01-02 03:04 UTC"


def test_lock_from_another_host_is_never_presumed_stale(document: Path) -> None:
    foreign = LockInfo(user="carol", host="other-machine", pid=dead_pid(), time="2026-01-02T03:04:05+00:00")
    lock_path(document).write_text(foreign.to_json(), encoding="utf-8")
    with pytest.raises(LockedError, match="carol on other-machine"):
        DocumentLock(document, "alice").acquire()


def test_force_overrides_and_old_holder_does_not_remove_new_lock(document: Path) -> None:
    first = DocumentLock(document, "alice")
    first.acquire()
    second = DocumentLock(document, "bob")
    info = second.acquire(force=True)
    assert second.taken_over is not None and second.taken_over.user == "alice"
    assert read_lock_info(document) == info
    assert not first.held
    first.release()
    assert read_lock_info(document) == info


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"{not json", "not a lock written by this tool"),
        (b"", "empty"),
        (b"\xff\xfe\x00bad", "not UTF-8 text"),
    ],
)
def test_an_unreadable_lock_is_reported_and_can_be_overridden(
    document: Path, content: bytes, problem: str
) -> None:
    lock_path(document).write_bytes(content)
    with pytest.raises(LockedError, match=f"unreadable lock file \\({problem}\\); override"):
        DocumentLock(document, "alice").acquire()
    lock = DocumentLock(document, "alice")
    lock.acquire(force=True)
    assert lock.held
    assert lock.taken_over is not None and lock.taken_over.problem == problem


def test_an_empty_folder_at_the_lock_path_can_be_overridden(document: Path) -> None:
    lock_path(document).mkdir()
    with pytest.raises(LockedError, match="a folder is at the lock path"):
        DocumentLock(document, "alice").acquire()
    lock = DocumentLock(document, "alice")
    lock.acquire(force=True)
    assert lock.held and lock_path(document).is_file()


def test_a_full_folder_at_the_lock_path_says_what_to_do(document: Path) -> None:
    lock_path(document).mkdir()
    (lock_path(document) / "keep.txt").write_text("x")
    with pytest.raises(StorageError, match="remove it by hand"):
        DocumentLock(document, "alice").acquire(force=True)
    assert (lock_path(document) / "keep.txt").exists()


def test_a_lock_without_heartbeat_is_stale_after_the_configured_age(document: Path) -> None:
    # A live pid that is not the holder's any more (reused) must not keep the lock forever.
    other = DocumentLock(document, "bob", host="far-away-host")
    other.acquire()
    old = time.time() - 3600
    os.utime(lock_path(document), (old, old))
    with pytest.raises(LockedError):
        DocumentLock(document, "alice", stale_after=7200).acquire()
    lock = DocumentLock(document, "alice", stale_after=1800)
    lock.acquire()
    assert lock.taken_over is not None and lock.taken_over.user == "bob"


def test_heartbeat_keeps_a_lock_fresh(document: Path) -> None:
    lock = DocumentLock(document, "bob")
    lock.acquire()
    old = time.time() - 3600
    os.utime(lock_path(document), (old, old))
    lock.heartbeat()
    info = read_lock_info(document)
    assert info is not None and info.age < 60
    with pytest.raises(LockedError):
        DocumentLock(document, "alice", stale_after=1800).acquire()


def test_other_process_holds_then_dies(document: Path, tmp_path: Path) -> None:
    go = tmp_path / "go"
    go.touch()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_SCRIPT, str(document), "dora", str(go)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "won"
        with pytest.raises(LockedError, match="dora"):
            DocumentLock(document, "alice").acquire()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # The killed process left its lock behind: stale, so it is taken over.
    assert read_lock_info(document) is not None
    lock = DocumentLock(document, "alice")
    lock.acquire()
    assert lock.taken_over is not None and lock.taken_over.user == "dora"


def test_racing_processes_exactly_one_wins(document: Path, tmp_path: Path) -> None:
    go = tmp_path / "go"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", HOLD_SCRIPT, str(document), f"user{i}", str(go)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        for i in range(4)
    ]
    try:
        time.sleep(0.3)  # let them start and wait on the go file
        go.touch()
        results = []
        for process in processes:
            assert process.stdout is not None
            results.append(process.stdout.readline().strip())
        assert sorted(results) == ["refused", "refused", "refused", "won"]
    finally:
        for process in processes:
            assert process.stdin is not None
            process.stdin.close()
            process.wait()


def test_a_lock_is_never_seen_empty_and_a_dead_process_draft_is_cleared(document: Path) -> None:
    # A process killed while taking the lock leaves at most its draft, never an empty lock
    # that would refuse every later run; the next taker clears the dead process's draft.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    draft = lock_path(document).with_name(f"{lock_path(document).name}.{dead.pid}.0badc0de.tmp")
    draft.write_text("")
    lock = DocumentLock(document, "alice")
    info = lock.acquire()
    assert read_lock_info(document) == info and not draft.exists()
    assert [p.name for p in document.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_without_hard_links_the_lock_is_created_in_place(
    document: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(source: object, target: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("annotator.io.locking.os.link", no_links)
    first = DocumentLock(document, "alice")
    info = first.acquire()
    assert read_lock_info(document) == info
    with pytest.raises(LockedError, match="locked by alice"):
        DocumentLock(document, "bob").acquire()


def test_the_lock_of_the_current_folder_given_as_dot_is_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path / "out")
    # "." has no name: batch -o . crashed with "PosixPath('.') has an empty name".
    assert lock_path(".") == tmp_path / ".out.lock"
