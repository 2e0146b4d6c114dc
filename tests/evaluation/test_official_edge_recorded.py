"""`annotator evaluate --mode i2b2` on odd and hostile folders, against the official script.

The cases are those of tests/evaluation/edge_corpus.py (``compare_official_scorer
--edge-cases`` runs all of them against the script itself). Where the script prints tables,
tests/data/official_scorer/edge/ holds what it printed (run with ``os.listdir`` sorted, so
that which of two files with one id is read last is fixed; the test sorts it too; edge-reversed/
with the listing reversed). Where the
script crashes, ours must stop with one line naming the file, exit 1 and print nothing on
stdout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.cli.main import main
from tests.evaluation.edge_corpus import EDGE_CASES, EdgeCase

RECORDED = Path(__file__).resolve().parents[1] / "data" / "official_scorer" / "edge"
# The same, with os.listdir in reverse order (another file of one id is read last).
RECORDED_REVERSED = RECORDED.with_name("edge-reversed")
CASES = {case.name: case for case in EDGE_CASES()}


@pytest.fixture
def sorted_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path=".": sorted(real(path)))


def test_the_file_read_last_wins_as_in_the_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path=".": sorted(real(path), reverse=True))
    for recorded in sorted(RECORDED_REVERSED.glob("*.txt")):
        assert run(CASES[recorded.stem], tmp_path / recorded.stem) == 0
        assert capsys.readouterr().out.encode("utf-8") == recorded.read_bytes()


def run(case: EdgeCase, root: Path) -> int:
    gold, system = case.write(root)
    return main(
        [
            "evaluate",
            "--mode",
            "i2b2",
            *(["-v"] if case.verbose else []),
            *case.our_options(),
            "--gold",
            str(gold),
            "--system",
            str(system),
        ]
    )


@pytest.mark.usefixtures("sorted_listing")
@pytest.mark.parametrize("name", sorted(path.stem for path in RECORDED.glob("*.txt")))
def test_i2b2_mode_prints_what_the_official_script_printed_on_an_edge_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert run(CASES[name], tmp_path) == 0
    assert capsys.readouterr().out.encode("utf-8") == (RECORDED / f"{name}.txt").read_bytes()


# The script crashes on these (its last traceback line on the right): we say why in one line.
CRASHES = {
    "latin1-bytes": ("not UTF-8", "UnicodeDecodeError: 'utf8' codec can't decode byte 0xfc"),
    "utf16": ("not UTF-8", "UnicodeDecodeError: 'utf8' codec can't decode byte 0xff"),
    "no-tags-element": ("no TAGS element", "AttributeError: 'NoneType' object has no attribute 'findall'"),
    "no-tags-element-unpaired": (
        "no TAGS element",
        "AttributeError: 'NoneType' object has no attribute 'findall'",
    ),
    "empty-text-vs-cdata": (
        "TEXT differ",
        "AssertionError: Annotation text for document 100-01.xml differs!",
    ),
    "empty-text-tagged": ("tags but no TEXT", "TypeError: 'NoneType' object has no attribute '__getitem__'"),
    "comment-before-cdata": (
        "tags but no TEXT",
        "TypeError: 'NoneType' object has no attribute '__getitem__'",
    ),
    "stray-gold-text-file": ("whatever its name", "XMLSyntaxError: Start tag expected, '<' not found"),
    "stray-gold-folder": ("every entry of the gold folder", "IOError: [Errno 21] Is a directory"),
    "system-folder-named-xml": ("name ending in xml", "IOError: [Errno 21] Is a directory"),
    "non-ascii-type": ("not ASCII", "UnicodeEncodeError: 'ascii' codec can't encode character u'\\xe9'"),
    "non-ascii-type-valid": (
        "not ASCII",
        "UnicodeEncodeError: 'ascii' codec can't encode character u'\\u0130'",
    ),
    "type-sharp-s": ("not ASCII", "UnicodeEncodeError: 'ascii' codec can't encode character u'\\xdf'"),
    "risk-factor-child-unknown": ("document-level tag", "KeyError: 'NAME'"),
    "risk-factor-child-comment": ("document-level tag", "KeyError: <cyfunction Comment>"),
    "risk-factor-family-bad-start": (
        "not an integer",
        "ValueError: invalid literal for int() with base 10: '1.5'",
    ),
    "risk-factor-non-ascii": (
        "not ASCII",
        "UnicodeEncodeError: 'ascii' codec can't encode character u'\\xe9'",
    ),
    "offset-float": ("not an integer", "ValueError: invalid literal for int() with base 10: '33.0'"),
    "huge-text-node": ("CDATA section over 10,000,000 bytes", "XMLSyntaxError: CData section too big found"),
    "nesting-258-levels": ("nested deeper than 257", "XMLSyntaxError: Excessive depth in document: 256"),
    "text-differs": ("TEXT differ", "AssertionError: Annotation text for document 100-01.xml differs!"),
}


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_what_the_official_script_crashes_on_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert run(CASES[name], tmp_path) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("annotator evaluate: error: ")
    assert str(tmp_path) in lines[0]  # the file (or folder) is named
    assert CRASHES[name][0] in lines[0]


def test_the_official_filter_options_belong_to_i2b2_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = CASES["filter-name"].write(tmp_path)
    for options in (["--i2b2-filter", "NAME"], ["--invert"], ["--conjunctive"]):
        assert main(["evaluate", *options, "--gold", str(gold), "--system", str(system)]) == 2
        assert "--mode i2b2" in capsys.readouterr().err
