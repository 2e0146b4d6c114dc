"""The side-by-side excerpt in docs/deidentification.md is what the export writes today."""

from __future__ import annotations

from pathlib import Path

from tests.deid.excerpt_notes import table

DOC = Path(__file__).resolve().parents[2] / "docs" / "deidentification.md"


def test_the_docs_show_the_excerpt_the_export_writes() -> None:
    assert table() in DOC.read_text(encoding="utf-8"), "run python -m tests.deid.excerpt_notes and paste it"
