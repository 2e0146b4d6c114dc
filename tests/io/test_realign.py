"""Re-alignment of offsets counted in UTF-16 units or with CRLF line ends."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.history import History
from annotator.io.i2b2 import document_to_i2b2, read_i2b2
from annotator.io.realign import (
    UnitMap,
    apply_repairs,
    realign_document,
    realign_file,
    realign_tags,
    text_matches,
    utf16_map,
)
from annotator.io.validate import validate_file
from tests.io.strategies import xml_chars

PREFIX = "Pt 😀 seen 🩺 by\nDr "
TEXT = PREFIX + "Smith on\n2067-05-03 at Mercy.\nSmith again."


def utf16_offset(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


def crlf_offset(text: str, offset: int) -> int:
    return offset + text[:offset].count("\n")


def test_utf16_offsets_are_repaired_exactly() -> None:
    start = len(PREFIX)
    wrong = utf16_offset(TEXT, start)
    result = realign_tags(TEXT, [("P0", wrong, wrong + len("Smith"), "Smith")])
    (repair,) = result.repairs
    assert (repair.new_start, repair.new_end) == (start, start + len("Smith"))
    assert "UTF-16" in repair.reason and not result.unresolved


def test_crlf_offsets_are_repaired_exactly() -> None:
    # Without astral characters the UTF-16 mapping is the identity and CRLF is tried.
    text = TEXT.replace("😀", "x").replace("🩺", "y")
    start = text.index("2067")
    wrong = crlf_offset(text, start)
    (repair,) = realign_tags(text, [("P1", wrong, wrong + 10, "2067-05-03")]).repairs
    assert (repair.new_start, repair.new_end) == (start, start + 10)
    assert "CRLF" in repair.reason


def test_utf16_and_crlf_together() -> None:
    start = TEXT.index("Mercy")
    wrong = crlf_offset(TEXT, start) + (utf16_offset(TEXT, start) - start)
    (repair,) = realign_tags(TEXT, [("P2", wrong, wrong + 5, "Mercy")]).repairs
    assert (repair.new_start, repair.new_end, "UTF-16" in repair.reason) == (start, start + 5, True)


def test_nearest_occurrence_within_the_window() -> None:
    start = TEXT.index("Mercy")
    (repair,) = realign_tags(TEXT, [("P2", start + 3, start + 8, "Mercy")]).repairs
    assert (repair.new_start, repair.reason) == (start, "nearest occurrence, 3 characters away")


def test_nearest_of_two_occurrences_wins() -> None:
    first = TEXT.index("Smith")
    (repair,) = realign_tags(TEXT, [("P0", first + 4, first + 9, "Smith")]).repairs
    assert repair.new_start == first


def test_ambiguous_is_reported_and_left_alone() -> None:
    text = "Smith x Smith"
    middle = len("Smith ")
    result = realign_tags(text, [("P0", middle - 2, middle + 3, "Smith")])
    assert not result.repairs
    (unresolved,) = result.unresolved
    assert "same distance" in unresolved.reason


def test_not_found_is_reported() -> None:
    result = realign_tags(TEXT, [("P9", 0, 5, "Jones")])
    assert not result.repairs and "not found" in result.unresolved[0].reason


def test_out_of_window_is_not_found() -> None:
    text = "Smith" + " " * 200 + "x"
    assert realign_tags(text, [("P0", 190, 195, "Smith")], window=64).unresolved


def test_matching_tags_need_no_repair() -> None:
    start = len(PREFIX)
    assert realign_tags(TEXT, [("P0", start, start + 5, "Smith")]).repairs == []


def test_attribute_whitespace_counts_as_a_match() -> None:
    assert text_matches("a\nb\tc", 0, 5, "a b c")
    assert not text_matches("a\nb", 0, 3, "a-b")


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(["😀", "\n", "a", "é", "𝔘"]) | xml_chars, max_size=40).map("".join), st.data()
)
def test_unit_maps_invert(text: str, data: st.DataObject) -> None:
    unit_map = utf16_map(text)
    assert unit_map.units == len(text.encode("utf-16-le")) // 2
    offset = data.draw(st.integers(0, len(text)))
    assert unit_map.from_codepoint(offset) == utf16_offset(text, offset)
    assert unit_map.to_codepoint(utf16_offset(text, offset)) == offset
    crlf = UnitMap(text, lambda c: c == "\n")
    assert crlf.to_codepoint(crlf_offset(text, offset)) == offset


def test_position_inside_a_surrogate_pair_maps_to_nothing() -> None:
    assert utf16_map("😀").to_codepoint(1) is None


def _shifted_document() -> tuple[Document, int]:
    start = len(PREFIX)
    wrong = utf16_offset(TEXT, start)
    document = Document("160-01", TEXT)
    annotation = document.make_annotation("NAME", "DOCTOR", start, start + 5)
    document.add(annotation.replace(start=wrong, end=wrong + 5))
    return document, start


def test_apply_repairs_is_one_undoable_step() -> None:
    document, start = _shifted_document()
    history = History()
    apply_repairs(document, realign_document(document).repairs, history)
    assert (document.annotations[0].start, document.annotations[0].text) == (start, "Smith")
    history.undo()
    assert document.annotations[0].start != start


def test_realign_file_writes_only_when_asked(tmp_path: Path) -> None:
    document, start = _shifted_document()
    path = tmp_path / "160-01.xml"
    path.write_bytes(document_to_i2b2(document))
    before = path.read_bytes()
    assert realign_file(path).repairs
    assert path.read_bytes() == before
    realign_file(path, write=True)
    assert read_i2b2(path).annotations[0].start == start
    assert validate_file(path) == []


def test_cli_realign_without_write_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document, start = _shifted_document()
    path = tmp_path / "160-01.xml"
    path.write_bytes(document_to_i2b2(document))
    before = path.read_bytes()
    assert main(["validate", "--realign", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"can realign to {start}-{start + 5} (offsets counted in UTF-16 code units)" in out
    assert path.read_bytes() == before
    assert main(["validate", "--realign", "--write", str(path)]) == 0
    assert "realigned to" in capsys.readouterr().out
    assert main(["validate", str(path)]) == 0


def test_cli_never_rewrites_a_file_with_other_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document, _start = _shifted_document()
    data = document_to_i2b2(document).replace(
        b"</TAGS>", b'<AGE id="P0" start="0" end="2" text="Pt" TYPE="AGE" comment="" />\n</TAGS>'
    )
    path = tmp_path / "160-01.xml"
    path.write_bytes(data)
    assert main(["validate", "--realign", "--write", str(path)]) == 1
    out = capsys.readouterr().out
    assert "not realigned: fix the other errors of this file first" in out and "realigned to" not in out
    assert path.read_bytes() == data


def test_cli_json_reports_repairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    document, start = _shifted_document()
    path = tmp_path / "160-01.xml"
    path.write_bytes(document_to_i2b2(document))
    assert main(["validate", "--realign", "--json", str(path)]) == 1
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert entry["repairs"][0]["new"] == [start, start + 5] and entry["written"] is False


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(["😀", "\n", "Smith", " ", "𝔘", "ab"]) | xml_chars, min_size=1, max_size=40).map(
        "".join
    ),
    st.data(),
)
def test_utf16_shifted_tags_land_on_their_text(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    expected = text[start:end]
    wrong_start, wrong_end = utf16_offset(text, start), utf16_offset(text, end)
    result = realign_tags(text, [("P0", wrong_start, wrong_end, expected)])
    if (wrong_start, wrong_end) == (start, end) or text_matches(text, wrong_start, wrong_end, expected):
        assert result.repairs == [] and result.unresolved == []
    else:
        (repair,) = result.repairs
        assert (repair.new_start, repair.new_end) == (start, end)


def test_realign_write_through_a_link_repairs_the_file_it_names(tmp_path: Path) -> None:
    document, start = _shifted_document()
    target = tmp_path / "store" / "160-01.xml"
    target.parent.mkdir()
    target.write_bytes(document_to_i2b2(document))
    link = tmp_path / "160-01.xml"
    link.symlink_to(target)
    realign_file(link, write=True)
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert read_i2b2(target).annotations[0].start == start


def test_realign_write_on_a_hard_link_says_the_other_names_keep_the_old_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An atomic rename cannot keep a hard link (nor does `sed -i`): the repair is a new file,
    the other name keeps the old bytes, and the command says so instead of staying silent."""
    document, start = _shifted_document()
    folder = tmp_path / "notes"
    folder.mkdir()
    path = folder / "160-01.xml"
    path.write_bytes(document_to_i2b2(document))
    backup = tmp_path / "backup.xml"
    os.link(path, backup)
    before = backup.read_bytes()
    capsys.readouterr()
    main(["validate", "--realign", "--write", str(folder)])
    err = capsys.readouterr().err
    assert read_i2b2(path).annotations[0].start == start
    assert backup.read_bytes() == before
    assert "had 1 other hard link(s)" in err and str(path) in err
    # Without another link, no note.
    main(["validate", "--realign", "--write", str(folder)])
    assert "hard link" not in capsys.readouterr().err
