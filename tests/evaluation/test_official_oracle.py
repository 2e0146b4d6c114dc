"""--mode i2b2 against a run of the real official script (slow; needs the scorer and Python 2).

Set I2B2_SCORER_DIR (folder with the official evaluate.py, fetched outside the project),
I2B2_PY27 (a Python 2.7 interpreter) and optionally I2B2_PY27_PATH (its lxml/numpy), then
``pytest -m slow tests/evaluation/test_official_oracle.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.benchmarks.compare_official_scorer import main as compare

SCORER = os.environ.get("I2B2_SCORER_DIR")
PYTHON = os.environ.get("I2B2_PY27")


@pytest.mark.slow
@pytest.mark.skipif(
    not (SCORER and PYTHON), reason="official scorer not configured (I2B2_SCORER_DIR, I2B2_PY27)"
)
@pytest.mark.parametrize("seed", [11, 12])
def test_every_table_equals_the_official_script(tmp_path: Path, seed: int) -> None:
    args = [
        str(SCORER),
        "--python",
        str(PYTHON),
        "--generate",
        "120",
        "--seed",
        str(seed),
        "--out",
        str(tmp_path),
    ]
    if os.environ.get("I2B2_PY27_PATH"):
        args += ["--pythonpath", os.environ["I2B2_PY27_PATH"]]
    assert compare(args) == 0
