"""``annotator deidentify`` acting on findings: --review, --allow, --on-leak mask."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.deid.builders import note

PLANTED = "Patient ", ("Zebulon Quist", "PATIENT"), " seen. Blake drain out. Quist called."


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    folder = tmp_path / "gold"
    write_i2b2(note("601-01", *PLANTED), folder / "601-01.xml")
    write_i2b2(note("602-01", "Seen by ", ("Dr. Blake", "DOCTOR"), ". Blake agreed."), folder / "602-01.xml")
    return folder


def run(gold: Path, tmp_path: Path, *extra: str) -> int:
    return main(["deidentify", str(gold), "-o", str(tmp_path / "out"), *extra])


def test_review_file_is_private_and_shows_each_finding_in_context(
    gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    review = tmp_path / "private" / "review.json"
    assert run(gold, tmp_path, "--review", str(review)) == 1
    assert "Quist" not in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert stat.S_IMODE(review.stat().st_mode) == 0o600
    findings = json.loads(review.read_text(encoding="utf-8"))["findings"]
    assert sorted((f["doc_id"], f["text"]) for f in findings) == [
        ("601-01", "Quist"),
        ("602-01", "Blake"),  # "Blake drain" in 601-01 is clinical language, not a finding
    ]
    quist = next(f for f in findings if f["text"] == "Quist")
    assert quist["before"].endswith("drain out. ") and quist["after"] == " called."
    assert quist["allow"] == {"text": "Quist", "scope": "document", "document": "601-01"}


@pytest.mark.parametrize("inside", ["out", "gold"])
def test_review_file_refused_inside_output_or_gold(
    gold: Path, tmp_path: Path, inside: str, capsys: pytest.CaptureFixture[str]
) -> None:
    review = tmp_path / inside / "review.json"
    assert run(gold, tmp_path, "--review", str(review)) == 2
    assert "review file holds PHI" in capsys.readouterr().err
    assert not review.exists() and not (tmp_path / "out").exists()


def test_allow_file_lets_reviewed_findings_pass(gold: Path, tmp_path: Path) -> None:
    allow = tmp_path / "allow.json"
    entries = [{"text": "Blake", "scope": "corpus", "reason": "Blake drain"}]
    allow.write_text(json.dumps({"version": 1, "allow": entries}))
    assert run(gold, tmp_path, "--allow", str(allow)) == 1  # "Quist called" is still a leak
    entries.append({"text": "Quist", "scope": "patient", "patient": "601"})
    allow.write_text(json.dumps({"version": 1, "allow": entries}))
    assert run(gold, tmp_path, "--allow", str(allow), "--json") == 0
    assert read_i2b2(tmp_path / "out" / "601-01.xml").text.endswith("Quist called.")


def test_allow_scope_document_covers_only_that_document(gold: Path, tmp_path: Path) -> None:
    allow = tmp_path / "allow.json"
    entries = [
        {"text": "Blake", "scope": "document", "document": "601-01"},
        {"text": "Quist", "scope": "corpus"},
    ]
    allow.write_text(json.dumps({"allow": entries}))
    assert run(gold, tmp_path, "--allow", str(allow)) == 1  # Blake in 602-01 is not covered


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{", "not valid JSON (line 1)"),
        ("[]", "must be an object"),
        ('{"allow": [{"text": "x", "scope": "ward"}]}', 'allow entry 1: "scope" must be'),
        ('{"allow": [{"text": "x", "scope": "patient"}]}', "allow entry 1: scope patient needs"),
        ('{"allow": [{"text": "", "scope": "corpus"}]}', 'allow entry 1: "text" must be'),
        ('{"allow": [{"text": "x", "scope": "corpus", "colour": 1}]}', "unknown key 'colour'"),
        ("[" * 50000 + "]" * 50000, "nested too deeply"),
    ],
)
def test_bad_allow_file_one_line_error(
    gold: Path, tmp_path: Path, content: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    allow = tmp_path / "allow.json"
    allow.write_text(content)
    assert run(gold, tmp_path, "--allow", str(allow)) == 1
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and str(allow) in error and problem in error, error
    assert "Traceback" not in error and not (tmp_path / "out").exists()


@pytest.mark.parametrize("style", ["brackets", "chars"])
def test_on_leak_mask_replaces_every_finding(
    gold: Path, tmp_path: Path, style: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(gold, tmp_path, "--on-leak", "mask", "--method", "mask", "--mask-style", style) == 0
    printed = capsys.readouterr().out
    assert "leak check: 2 finding(s) masked and checked again, no other original PHI found" in printed
    assert "leak check: no original PHI found" not in printed  # it found two: never both
    for path in (tmp_path / "out").glob("*.xml"):
        document = read_i2b2(path)
        assert "Quist" not in document.text and "Blake agreed" not in document.text
        assert all(document.text[a.start : a.end] == a.text for a in document)
    masked = read_i2b2(tmp_path / "out" / "601-01.xml")
    expected = "[**PATIENT**]" if style == "brackets" else "XXXXX"
    assert masked.text.endswith(f"drain out. {expected} called.")
    assert [a.type for a in masked] == ["PATIENT"]  # a masked finding is not tagged


def test_on_leak_mask_with_surrogates_keeps_tags_in_place(gold: Path, tmp_path: Path) -> None:
    assert run(gold, tmp_path, "--on-leak", "mask", "--seed", "3") == 0
    document = read_i2b2(tmp_path / "out" / "602-01.xml")
    assert "Blake" not in document.text
    assert [a.type for a in document] == ["DOCTOR"] and document.text.startswith(
        f"Seen by {document.annotations[0].text}. "
    )


def test_on_leak_mask_keeps_the_audit_map_offsets_true(gold: Path, tmp_path: Path) -> None:
    # "Quist called." is masked after the tag of 601-01, "Blake agreed." after that of 602-01:
    # put a finding before a tag so the tag moves.
    write_i2b2(
        note("603-01", "Quist again; seen by ", ("Dr. Hendrickson", "DOCTOR"), "."), gold / "603-01.xml"
    )
    map_path = tmp_path / "private" / "map.json"
    assert run(gold, tmp_path, "--on-leak", "mask", "--map", str(map_path), "--seed", "2") == 0
    patients = json.loads(map_path.read_text(encoding="utf-8"))["patients"]
    checked = 0
    for entry in patients.values():
        for item in entry["replacements"]:
            for where in item["occurrences"]:
                text = read_i2b2(tmp_path / "out" / f"{where['doc_id']}.xml").text
                assert text[where["new_start"] : where["new_end"]] == item["surrogate"]
                checked += 1
    assert checked == 3
    assert read_i2b2(tmp_path / "out" / "603-01.xml").text.startswith("[**PATIENT**] again; seen by ")
