"""The documented JSON outputs (docs/json-schemas/) checked against real CLI runs.

Every schema forbids unknown keys and requires the documented ones, so renaming a key
(``skipped``, ``kappa.labelled`` ...) or dropping one fails here.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest

from annotator.cli.main import main

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "json-schemas"


def schema(name: str) -> dict:  # type: ignore[type-arg]
    loaded = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(loaded)
    return loaded


def run_json(capsys: pytest.CaptureFixture[str], *args: str, exit_code: int = 0) -> dict:  # type: ignore[type-arg]
    assert main([*args, "--json"]) == exit_code
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus") / "c"
    assert main(["synth", str(root), "--patients", "2", "--seed", "3"]) == 0
    return root


def valid(document: dict, name: str) -> None:  # type: ignore[type-arg]
    jsonschema.validate(document, schema(name), cls=jsonschema.Draft202012Validator)


def invalid(document: dict, name: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(jsonschema.ValidationError):
        valid(document, name)


def renamed(document: dict, path: tuple[str | int, ...], new: str) -> dict:  # type: ignore[type-arg]
    changed = copy.deepcopy(document)
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    parent[new] = parent.pop(path[-1])
    return changed


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--match", "token", "--level", "category", "--beta", "2"],
        ["--match", "relaxed", "--include-text"],
    ],
)
def test_evaluate(corpus: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    data = run_json(
        capsys, "evaluate", "--gold", str(corpus / "gold"), "--system", str(corpus / "preannotated"), *extra
    )
    valid(data, "evaluation")
    assert data["disagreements"] and data["per_document"]
    for path in [
        ("schema",),
        ("options",),
        ("kappa", "labelled"),
        ("kappa", "tagblind"),
        ("skipped",),
        ("micro", "f1"),
    ]:
        invalid(renamed(data, path, path[-1] + "s"), "evaluation")
    broken = copy.deepcopy(data)
    broken["micro"]["precision"] = 1.5
    invalid(broken, "evaluation")


def test_evaluate_i2b2_tables(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "evaluate",
        "--mode",
        "i2b2",
        "--gold",
        str(corpus / "gold"),
        "--system",
        str(corpus / "annotator_a"),
    )
    valid(data, "i2b2-tables")
    assert len(data["runs"][0]["tables"]) == 42
    invalid(renamed(data, ("runs",), "run"), "i2b2-tables")


def test_iaa(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "iaa",
        str(corpus / "annotator_a"),
        str(corpus / "annotator_b"),
        "--gold",
        str(corpus / "gold"),
    )
    valid(data, "iaa")
    assert len(data["versus_gold"]) == 2
    assert "DATE" in data["pairs"][0]["per_category"]
    invalid(renamed(data, ("average_pairwise_f1",), "pairwise_f1"), "iaa")
    invalid(renamed(data, ("pairs", 0, "per_category", "DATE", "f1"), "F1"), "iaa")


def test_significance(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "significance",
        "--gold",
        str(corpus / "gold"),
        str(corpus / "annotator_a"),
        str(corpus / "preannotated"),
        "--shuffles",
        "99",
    )
    valid(data, "significance")
    assert data["tests"] == len(data["results"]) > 1
    invalid(renamed(data, ("bonferroni_threshold",), "threshold"), "significance")


def test_adjudicate(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "adjudicate",
        str(corpus / "annotator_a"),
        str(corpus / "annotator_b"),
        "-o",
        str(tmp_path / "gold"),
    )
    valid(data, "adjudicate")
    assert data["totals"]["unresolved"] > 0 and data["documents"][0]["unresolved_units"]
    invalid(renamed(data, ("totals",), "total"), "adjudicate")


def test_validate_with_problems_and_repairs(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sorted((corpus / "gold").glob("*.xml"))[0]
    shifted = tmp_path / source.name
    text = source.read_text(encoding="utf-8")
    # a tag whose offsets point one character off: validate reports it, --realign repairs it
    match = re.search(r'start="(\d+)" end="(\d+)"', text)
    assert match is not None
    start, end = int(match.group(1)), int(match.group(2))
    text = text.replace(match.group(0), f'start="{start + 1}" end="{end + 1}"', 1)
    shifted.write_text(text, encoding="utf-8")
    data = run_json(capsys, "validate", str(shifted), exit_code=1)
    valid(data, "validate")
    assert data["files"][0]["problems"]
    repaired = run_json(capsys, "validate", str(shifted), "--realign", exit_code=1)  # proposed, not written
    valid(repaired, "validate")
    assert repaired["files"][0]["repairs"]
    invalid(renamed(data, ("summary",), "totals"), "validate")


def test_stats(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--by-type"]):
        data = run_json(capsys, "stats", str(corpus / "gold"), *extra)
        valid(data, "stats")
        invalid(renamed(data, ("phi_tokens",), "phi"), "stats")
    both = run_json(capsys, "stats", str(corpus / "gold"), str(corpus / "annotator_a"))
    valid(both, "stats")
    assert [part["path"] for part in both["parts"]] == [str(corpus / "gold"), str(corpus / "annotator_a")]
    invalid(renamed(both, ("parts", 0, "statistics", "tokens"), "words"), "stats")


@pytest.mark.parametrize("method", ["surrogate", "mask"])
def test_deidentify(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], method: str) -> None:
    data = run_json(
        capsys, "deidentify", str(corpus / "gold"), "-o", str(tmp_path / "out"), "--method", method
    )
    valid(data, "deidentify")
    assert data["replaced"] and data["method"] == method
    invalid(renamed(data, ("replaced",), "replacements"), "deidentify")


def _plant_leak(corpus: Path, tmp_path: Path) -> Path:
    """A copy of the gold folder where one note repeats its patient's name untagged."""
    import shutil

    from annotator.io.i2b2 import read_i2b2, write_i2b2

    gold = tmp_path / "gold"
    shutil.copytree(corpus / "gold", gold)
    path = sorted(gold.glob("*.xml"))[0]
    document = read_i2b2(path)
    name = next(a.text for a in document if a.type == "PATIENT")
    document.text += f"\nSpoke with {name} today.\n"
    write_i2b2(document, path)
    return gold


def test_deidentify_refusal(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _plant_leak(corpus, tmp_path)
    data = run_json(capsys, "deidentify", str(gold), "-o", str(tmp_path / "out"), exit_code=1)
    valid(data, "deidentify-refusal")
    assert data["findings"] and data["written"] is False
    for path in [("findings",), ("review_path",)]:
        invalid(renamed(data, path, path[-1] + "s"), "deidentify-refusal")
    dropped = copy.deepcopy(data)
    del dropped["findings"][0]["original_start"]
    invalid(dropped, "deidentify-refusal")


def test_deidentify_masked_leaks(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _plant_leak(corpus, tmp_path)
    data = run_json(capsys, "deidentify", str(gold), "-o", str(tmp_path / "out"), "--on-leak", "mask")
    valid(data, "deidentify")
    assert data["leaks_masked"] == len(data["leaks"]) > 0
    invalid(renamed(data, ("leaks_masked",), "masked"), "deidentify")


def test_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "mae" / "A" / "A_note-01.xml"
    refused = run_json(capsys, "convert", str(data), "-o", str(tmp_path / "a"), "--to", "brat", exit_code=1)
    valid(refused, "convert")
    assert refused["cannot_hold"] == {"document-tags": 2, "elements": 1}
    drop = "document-tags,elements"
    done = run_json(capsys, "convert", str(data), "-o", str(tmp_path / "b"), "--to", "brat", "--drop", drop)
    valid(done, "convert")
    assert done["dropped"] == {"document-tags": 2, "elements": 1} and done["documents"] == 1
    for path in [("dropped",), ("written",)]:
        invalid(renamed(done, path, path[-1] + "s"), "convert")
    invalid({**refused, "cannot_hold": {"arcs": 1}}, "convert")
