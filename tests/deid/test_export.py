"""The folder export: valid XML out, all or nothing, safe paths, audit map only on request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from annotator.deid.export import export_deidentified
from annotator.deid.leakcheck import LeakError
from annotator.deid.surrogates import DeidOptions
from annotator.errors import InputError, UsageError
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.deid.builders import note

NOTES = [
    note("500-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " seen ", ("05/03/2067", "DATE"), " at ",
         ("Brigham Hospital", "HOSPITAL"), ", MRN ", ("4471234", "MEDICALRECORD"), "."),
    note("500-02", "Follow-up ", ("May 10, 2067", "DATE"), " for ", ("Hendrickson, Ora", "PATIENT"), "."),
    note("501-01", "Patient ", ("Lee Park", "PATIENT"), " called ", ("617-555-0199", "PHONE"), "."),
]  # fmt: skip


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    folder = tmp_path / "gold"
    for document in NOTES:
        write_i2b2(document, folder / f"{document.doc_id}.xml")
    return folder


def plant_leak(gold: Path) -> None:
    leaky = note("502-01", "Patient ", ("Zebulon Quist", "PATIENT"), " seen. Quist called.")
    write_i2b2(leaky, gold / "502-01.xml")


def test_output_is_valid_i2b2_with_text_at_offsets(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = export_deidentified(gold, out, DeidOptions(seed=3))
    assert (report.documents, report.patients, report.leaks) == (3, 2, [])
    assert sorted(p.name for p in out.iterdir()) == ["500-01.xml", "500-02.xml", "501-01.xml"]
    for path in out.iterdir():
        root = etree.fromstring(path.read_bytes())
        text = root.findtext("TEXT")
        tags = list(root.find("TAGS"))  # type: ignore[arg-type]
        assert tags and all(text[int(t.get("start")) : int(t.get("end"))] == t.get("text") for t in tags)  # type: ignore[index, arg-type]
        assert "Hendrickson" not in path.read_text(encoding="utf-8")
    assert read_i2b2(out / "500-02.xml").annotations[1].type == "PATIENT"


def test_leak_fails_and_writes_nothing(gold: Path, tmp_path: Path) -> None:
    plant_leak(gold)
    out = tmp_path / "out"
    with pytest.raises(LeakError, match="502-01") as caught:
        export_deidentified(gold, out, DeidOptions())
    assert "Quist" not in caught.value.one_line()
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold"]  # no staging folder left


def test_leak_keeps_a_previous_export(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    export_deidentified(gold, out, DeidOptions())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    plant_leak(gold)
    with pytest.raises(LeakError):
        export_deidentified(gold, out, DeidOptions(seed=5), force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("target", ["gold", "gold/sub"])
def test_refuses_to_write_into_gold(gold: Path, tmp_path: Path, target: str) -> None:
    before = sorted(p.name for p in gold.iterdir())
    with pytest.raises(UsageError, match="gold folder"):
        export_deidentified(gold, tmp_path / target, DeidOptions())
    assert sorted(p.name for p in gold.iterdir()) == before


def test_non_empty_output_needs_force(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "999-01.xml").write_text("an earlier export's note")
    with pytest.raises(UsageError, match="not empty"):
        export_deidentified(gold, out, DeidOptions())
    assert [p.name for p in out.iterdir()] == ["999-01.xml"]
    export_deidentified(gold, out, DeidOptions(), force=True)
    assert "999-01.xml" not in {p.name for p in out.iterdir()}


def test_force_never_replaces_a_folder_of_other_files(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "documents"
    (out / "sub").mkdir(parents=True)
    (out / "thesis.docx").write_text("years of work")
    (out / "sub" / "data.csv").write_text("a,b")
    (out / "old.xml").write_text("x")
    with pytest.raises(UsageError, match=r"holds what this command does not write \(sub, thesis.docx\)"):
        export_deidentified(gold, out, DeidOptions(), force=True)
    assert (out / "thesis.docx").read_text() == "years of work" and (out / "sub" / "data.csv").exists()


def test_bad_input_writes_nothing(gold: Path, tmp_path: Path) -> None:
    (gold / "503-01.xml").write_text("<deIdi2b2><TEXT>unclosed", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(InputError, match="503-01"):
        export_deidentified(gold, out, DeidOptions())
    assert not out.exists()


def test_map_only_when_asked_and_never_inside_output(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    export_deidentified(gold, out, DeidOptions(seed=2))
    assert not list(tmp_path.rglob("*.json"))
    with pytest.raises(UsageError, match="audit map"):
        export_deidentified(gold, tmp_path / "out2", DeidOptions(), map_path=tmp_path / "out2" / "map.json")
    map_path = tmp_path / "private" / "map.json"
    export_deidentified(gold, tmp_path / "out3", DeidOptions(seed=2), map_path=map_path)
    audit = json.loads(map_path.read_text(encoding="utf-8"))
    assert "PHI" in audit["warning"]
    entries = {e["original"]: e for e in audit["patients"]["500"]["replacements"]}
    name = entries["Ora Hendrickson"]
    assert name["occurrences"][0]["doc_id"] == "500-01" and name["surrogate"] != "Ora Hendrickson"
    assert audit["patients"]["500"]["date_shift"]["total_days"] > 0
    assert (tmp_path / "out3" / "500-01.xml").read_text(encoding="utf-8").count(
        name["surrogate"]
    ) == 2  # TEXT and tag


def test_progress_reported(gold: Path, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    export_deidentified(gold, tmp_path / "out", DeidOptions(), progress=lambda d, t: seen.append((d, t)))
    # In thousandths over the phases (replacing, writing, the leak check), never backwards.
    assert seen[-1] == (1000, 1000) and {t for _, t in seen} == {1000}
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) > 6


def test_masked_findings_are_checked_again_before_anything_is_published(tmp_path: Path) -> None:
    """A mask that still spells the PHI (a badge "XXXXXX" masked with X) fails the second
    check: the export is refused, nothing is written."""
    gold = tmp_path / "gold"
    write_i2b2(
        note("503-01", "Badge ", ("XXXXXX", "IDNUM"), " seen; badge XXXXXX again."), gold / "503-01.xml"
    )
    options = DeidOptions(method="mask", mask_style="chars", mask_char="X")
    with pytest.raises(LeakError, match="leak check failed"):
        export_deidentified(gold, tmp_path / "out", options, on_leak="mask", map_path=tmp_path / "map.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold"]
    # With another mask character the same findings are masked and the export passes.
    report = export_deidentified(gold, tmp_path / "out", DeidOptions(method="mask", mask_style="chars",
                                                                      mask_char="#"), on_leak="mask")  # fmt: skip
    assert report.leaks_masked >= 1
    assert "XXXXXX" not in read_i2b2(tmp_path / "out" / "503-01.xml").text
