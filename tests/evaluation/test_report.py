"""Reports: JSON schema, CSV rows, self-contained HTML, PHI text only on request."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs
from annotator.evaluation.report import TEXT_WARNING, render_html, write_csv, write_json

TEXT = "Seen by Amy Lee on Monday in Boston."


def _result():  # type: ignore[no-untyped-def]
    def item(category: str, type_: str, needle: str) -> Item:
        start = len(TEXT[: TEXT.index(needle)])
        return Item(category, type_, start, start + len(needle), needle)

    reference = [
        item("NAME", "DOCTOR", "Amy Lee"),
        item("DATE", "DATE", "Monday"),
        item("LOCATION", "CITY", "Boston"),
    ]
    predicted = [item("NAME", "DOCTOR", "Amy Lee"), item("LOCATION", "HOSPITAL", "Boston")]
    return evaluate_pairs([DocumentPair("100-01", TEXT, reference, predicted)], Options())


def test_json_schema_has_the_documented_keys(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json(_result(), path)
    data = json.loads(path.read_text())
    for key in (
        "documents",
        "micro",
        "macro",
        "per_category",
        "per_type",
        "per_document",
        "confusion",
        "kappa",
    ):
        assert key in data
    for block in (data["micro"], data["macro"]):
        for key in ("precision", "recall", "f1"):
            assert key in block
    assert (data["micro"]["tp"], data["micro"]["fp"], data["micro"]["fn"]) == (1, 1, 2)
    assert data["per_type"]["NAME/DOCTOR"]["f1"] == 1.0
    assert data["per_document"][0]["document"] == "100-01"
    assert data["includes_text"] is False
    assert "Amy" not in path.read_text()


def test_text_only_on_request_and_announced() -> None:
    text = write_json(_result(), None, include_text=True)
    data = json.loads(text)
    assert data["warning"] == TEXT_WARNING
    assert next(iter(data)) == "warning"
    assert "Boston" in text


def test_csv_rows() -> None:
    rows = list(csv.reader(io.StringIO(write_csv(_result(), None))))
    assert rows[0][:5] == ["scope", "name", "tp", "fp", "fn"]
    micro = rows[1]
    assert micro[:5] == ["micro", "all", "1", "1", "2"]
    scopes = {row[0] for row in rows[1:]}
    assert scopes == {"micro", "macro", "category", "type", "document"}


def test_csv_names_from_the_files_never_run_as_formulas() -> None:
    reference = [Item("NAME", "DOCTOR", 8, 15, "Amy Lee")]
    predicted = [Item("-NAME", "@DOCTOR", 8, 15, "Amy Lee")]  # odd categories a file can hold
    result = evaluate_pairs([DocumentPair("=1+1", TEXT, reference, predicted)], Options())
    rows = list(csv.reader(io.StringIO(write_csv(result, None))))
    names = {row[1] for row in rows[1:]}
    assert {"'-NAME", "'-NAME/@DOCTOR", "'=1+1", "NAME/DOCTOR"} <= names
    assert not any(name.startswith(("=", "+", "-", "@")) for name in names)
    micro = next(row for row in rows if row[0] == "micro")
    assert micro[2:5] == ["0", "1", "1"]  # the numbers stay numbers


def test_html_is_self_contained_with_charts() -> None:
    page = render_html(_result(), title="Test report")
    assert page.startswith("<!DOCTYPE html>")
    assert "<style>" in page and "<link" not in page and "<script" not in page
    assert page.count("data:image/png;base64,") == 2  # F1 bars and confusion heatmap
    assert "Amy Lee" not in page and "left out" in page
    start = len(TEXT[: TEXT.index("Boston")])
    assert f"LOCATION/CITY {start}-{start + len('Boston')}" in page  # category and offsets only
    with_text = render_html(_result(), include_text=True)
    assert with_text.index(TEXT_WARNING) < with_text.index("<h1>")
    assert "Boston" in with_text


def test_iaa_csv_annotator_names_never_run_as_formulas(tmp_path: Path) -> None:
    from annotator.cli.main import main
    from tests.evaluation.helpers import write_doc

    for name in ("=cmd", "+b"):
        write_doc(tmp_path / name, "100-01.xml", TEXT, [("NAME", 8, 15, "DOCTOR")])
    out = tmp_path / "iaa.csv"
    assert main(["iaa", str(tmp_path / "=cmd"), str(tmp_path / "+b"), "--csv", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [row[:2] for row in rows[1:]] == [["'=cmd", "'+b"], ["average pairwise", ""]]
    assert rows[1][8] == "1.0000"
