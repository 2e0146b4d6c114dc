"""The public MedTator, MAE and brat samples through every format and back (where present).

The samples are never committed. Fetch OHNLP/MedTator, keighrim/mae-annotation and
nlplab/brat somewhere outside this repository, install ``@xmldom/xmldom`` and ``js-yaml``
with npm in a scratch folder, give brat's ``server/src`` a ``config.py`` (its
``config_template.py`` with ``BASE_DIR = '/'``, any ``DATA_DIR`` and ``WORK_DIR``) and a
Python that runs it (3.9: its ``open(..., 'rU')`` fails on 3.11+), then::

    MEDTATOR_CHECKOUT=... MAE_CHECKOUT=... BRAT_CHECKOUT=... BRAT_PYTHON=.../python3.9 \\
    XMLDOM_NODE_PATH=.../node_modules python -m pytest tests/io/test_public_crossings.py -m slow

Every file goes to each format that can hold what it holds and back, and must come back
with the same annotations, links, events, attributes and notes (ids aside); every MAE
folder written must load in MedTator's own parser with every tag, every brat folder written
must pass brat's ``verify_annotations`` without an error.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.io.crossings import ROUND_TRIP, brat_errors, cross, medtator_loads, sample_files, schema_for

_ENV = ("MEDTATOR_CHECKOUT", "MAE_CHECKOUT", "BRAT_CHECKOUT", "BRAT_PYTHON", "XMLDOM_NODE_PATH")
_NODE = shutil.which("node")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not all(os.environ.get(name) for name in _ENV) or _NODE is None,
        reason="public samples, brat's Python, node or xmldom not present",
    ),
]


def _folders() -> list[Path]:
    return [
        Path(os.environ["MEDTATOR_CHECKOUT"]) / "sample",
        Path(os.environ["MAE_CHECKOUT"]),
        Path(os.environ["BRAT_CHECKOUT"]) / "example-data",
    ]


def test_every_public_sample_crosses_every_format_that_holds_it(tmp_path: Path) -> None:
    medtator = Path(os.environ["MEDTATOR_CHECKOUT"]) / "templates" / "js"
    verify = Path(os.environ["BRAT_CHECKOUT"]) / "server" / "src" / "verify_annotations.py"
    check_script = Path(__file__).with_name("medtator_check.js")
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    for number, (path, source_format) in enumerate(f for folder in _folders() for f in sample_files(folder)):
        schema = schema_for(path, source_format)
        for via in ROUND_TRIP:
            work = tmp_path / f"{number}-{via}"
            crossing = cross(path, source_format, via, schema, work)
            outcomes[crossing.outcome] += 1
            if crossing.outcome not in ("same", "refused"):
                failures.append(f"{path} via {via}: {crossing.outcome} {crossing.detail}")
            written = work / f"to-{via}"
            # brat files written back keep the annotation.conf they came with (CoNLL-ST 2006's
            # own gives brat errors on its own files): only a conf we write is held to none.
            if crossing.outcome == "same" and via == "brat" and source_format != "brat":
                failures += brat_errors(written, os.environ["BRAT_PYTHON"], verify)
            if crossing.outcome == "same" and via == "mae":
                assert _NODE is not None
                failures += medtator_loads(
                    written, _NODE, medtator, os.environ["XMLDOM_NODE_PATH"], check_script
                )
            shutil.rmtree(work, ignore_errors=True)
    assert not failures, "\n".join(failures[:20])
    assert outcomes["same"] > 0
