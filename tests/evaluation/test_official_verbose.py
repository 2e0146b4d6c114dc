"""``evaluate --mode i2b2 -v`` against the official script's recorded ``-v`` output.

The script lists documents in CPython 2.7 set order; these tests pin the replay of that
order to values the Python 2.7 interpreter printed (see tests/data/official_scorer/README.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from annotator.evaluation.official_verbose import py2_str_hash, py2_table_order

REPO = Path(__file__).resolve().parents[2]
RECORDED = REPO / "tests" / "data" / "official_scorer"
MASK64 = (1 << 64) - 1


@pytest.mark.parametrize(
    ("text", "python2_hash"),
    [("a", 12416037344), ("100-01", -4991428356436765007), ("107-01", 8618643742235144), ("", 0)],
)
def test_python2_string_hash(text: str, python2_hash: int) -> None:
    assert py2_str_hash(text.encode()) == python2_hash & MASK64


def test_python2_set_order_of_forty_ids() -> None:
    # What `list(set(['%d-01' % i for i in range(100, 140)]))` printed under Python 2.7.18.
    expected = "125 136 116 107 108 123 120 114 131 106 137 126 101 104 124 100 130 122 103 112 110 109 118 117 115 121 119 135 128 113 105 129 138 111 139 133 134 132 102 127"
    ids = [f"{i}-01" for i in range(100, 140)]
    assert py2_table_order(ids) == [f"{n}-01" for n in expected.split()]


def test_verbose_i2b2_mode_prints_the_official_blocks_byte_for_byte() -> None:
    demo = REPO / "resources" / "demo"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "annotator",
            "evaluate",
            "--mode",
            "i2b2",
            "-v",
            "--gold",
            str(demo / "gold"),
            "--system",
            str(demo / "annotations" / "alice"),
        ],
        capture_output=True,
        check=False,
        cwd=REPO,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == (RECORDED / "demo.alice.verbose.txt").read_bytes()


def test_runs_print_in_the_scripts_order(tmp_path: Path) -> None:
    # Python 2.7 lists a dict of these keys as '', zeta, run_10, sys1, sys2 whatever the
    # insertion order (checked over all 120 orders): not sorted.
    from tests.cli.hostile_files import i2b2_xml

    for folder in ("gold", "system"):
        (tmp_path / folder).mkdir()
    (tmp_path / "gold" / "100-01.xml").write_text(i2b2_xml(), encoding="utf-8")
    for suffix in ("", "sys1", "sys2", "zeta", "run_10"):
        (tmp_path / "system" / f"100-01{suffix}.xml").write_text(i2b2_xml(), encoding="utf-8")
    gold, system = str(tmp_path / "gold"), str(tmp_path / "system")
    completed = subprocess.run(
        [sys.executable, "-m", "annotator", "evaluate", "--mode", "i2b2", "--gold", gold, "--system", system],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert completed.returncode == 0, completed.stderr
    headers = [line for line in completed.stdout.splitlines() if "Macro (SD)" in line]
    assert len(headers) == 5 * 42
    # Each run's first table is "<sys_id> Token (1)".
    runs = [header.split("Token (1)")[0].strip() for header in headers[::42]]
    assert runs == ["", "zeta", "run_10", "sys1", "sys2"]
