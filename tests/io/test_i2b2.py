"""The i2b2 reader and writer: byte-identical saves, lossless edits, ids, atomic writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.core.history import AddAnnotation, History, RemoveAnnotation, ReplaceAnnotation
from annotator.errors import InputError, StorageError
from annotator.io.i2b2 import document_to_i2b2, parse_i2b2, read_i2b2, write_i2b2

DATA = Path(__file__).resolve().parent.parent / "data" / "i2b2"
CANONICAL = DATA / "110-01.xml"
OTHER = DATA / "120-01.xml"


def _variants() -> dict[str, bytes]:
    other = OTHER.read_bytes()
    canonical = CANONICAL.read_bytes()
    return {
        "canonical": canonical,
        "other-generator": other,
        "crlf": canonical.replace(b"\n", b"\r\n"),
        "bom": b"\xef\xbb\xbf" + canonical,
        "bom-crlf-other": b"\xef\xbb\xbf" + other.replace(b"\n", b"\r\n"),
        "utf-16": canonical.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"),
        "latin-1": other.replace(b"encoding='utf-8'", b"encoding='ISO-8859-1'").replace(
            b"Mercy", "Mércy".encode("latin-1")
        ),
    }


@pytest.mark.parametrize("name", list(_variants()))
def test_unchanged_file_saves_byte_identical(tmp_path: Path, name: str) -> None:
    data = _variants()[name]
    path = tmp_path / "130-01.xml"
    path.write_bytes(data)
    document = read_i2b2(path)
    assert len(document) == 7
    write_i2b2(document, tmp_path / "copy.xml")
    assert (tmp_path / "copy.xml").read_bytes() == data


def test_canonical_writer_reproduces_a_canonical_file() -> None:
    document = read_i2b2(CANONICAL)
    assert document_to_i2b2(document, reuse_original=False) == CANONICAL.read_bytes()


def test_crlf_file_text_is_normalised_and_offsets_fit(tmp_path: Path) -> None:
    path = tmp_path / "130-01.xml"
    path.write_bytes(_variants()["crlf"])
    document = read_i2b2(path)
    assert "\r" not in document.text
    assert all(document.text[a.start : a.end] == a.text for a in document.annotations)


def _edit(document_path: Path) -> tuple[bytes, list[str]]:
    document = read_i2b2(document_path)
    history = History()
    first = document.annotations[0]
    history.push(ReplaceAnnotation(document, first, first.replace(comment="checked")))
    history.push(RemoveAnnotation(document, document.annotations[1].id))
    prefix = "Follow up with Dr. "
    start = document.text.index(prefix) + len(prefix)
    new = document.make_annotation("NAME", "DOCTOR", start, start + len("Lee"))
    history.push(AddAnnotation(document, new))
    return document_to_i2b2(document), [a.id for a in document.annotations]


def test_unknown_attributes_and_elements_survive_an_edit(tmp_path: Path) -> None:
    data, _ids = _edit(OTHER)
    path = tmp_path / "120-01.xml"
    path.write_bytes(data)
    again = read_i2b2(path)
    assert again.get("P0").comment == "checked"
    assert all(("reviewer", "kim") in a.extra for a in again.annotations if a.id != "P7")
    text = data.decode()
    for kept in (
        'version="2"',
        "<!-- exported by another tool -->",
        '<creator name="x"/>',
        "<NOTES>free &amp; easy</NOTES>",
    ):
        assert kept in text
    assert text.index("<META>") < text.index("<TEXT>") < text.index("<TAGS>") < text.index("<NOTES>")


def test_ids_are_kept_and_new_ids_never_collide() -> None:
    _data, ids = _edit(OTHER)
    # P1 was deleted: its id is not reused, the new tag gets the next free number.
    assert ids == ["P0", "P2", "P3", "P4", "P5", "P6", "P7"]


def test_new_id_skips_numbers_used_by_any_prefix() -> None:
    data = CANONICAL.read_bytes().replace(b'id="P6"', b'id="P41"')
    document = parse_i2b2(data, "110-01.xml")
    assert document.new_id() == "P42"


def test_tags_without_ids_get_fresh_unique_ids() -> None:
    data = CANONICAL.read_bytes().replace(b'id="P2" ', b"").replace(b'id="P5" ', b"")
    document = parse_i2b2(data, "110-01.xml")
    # Fresh ids come after the highest number in the file and never repeat one.
    assert [a.id for a in document.annotations] == ["P0", "P1", "P3", "P4", "P6", "P7", "P8"]


def test_duplicate_ids_are_refused() -> None:
    data = CANONICAL.read_bytes().replace(b'id="P2"', b'id="P1"')
    with pytest.raises(InputError, match="duplicate tag id P1"):
        parse_i2b2(data, "110-01.xml")


def test_write_replaces_atomically_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "110-01.xml"
    path.write_bytes(CANONICAL.read_bytes())
    document = read_i2b2(path)
    document.remove("P0")
    write_i2b2(document, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["110-01.xml"]
    assert "P0" not in read_i2b2(path)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, not root")
def test_failing_write_leaves_the_old_file(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "110-01.xml"
    original = CANONICAL.read_bytes()
    path.write_bytes(original)
    document = read_i2b2(path)
    document.remove("P0")
    folder.chmod(0o500)
    try:
        with pytest.raises(StorageError, match="cannot write"):
            write_i2b2(document, path)
    finally:
        folder.chmod(0o700)
    assert path.read_bytes() == original
    assert [p.name for p in folder.iterdir()] == ["110-01.xml"]


def test_text_that_xml_cannot_hold_is_refused_before_writing(tmp_path: Path) -> None:
    document = read_i2b2(CANONICAL)
    broken = document.copy()
    broken.text = document.text + "\x01"
    path = tmp_path / "110-01.xml"
    with pytest.raises(StorageError, match="U\\+0001"):
        write_i2b2(broken, path)
    assert not path.exists()


def test_write_that_fails_midway_leaves_the_old_file(tmp_path: Path) -> None:
    # A real short write: the child process may not create files over 200 bytes (works as root).
    path = tmp_path / "110-01.xml"
    original = CANONICAL.read_bytes()
    path.write_bytes(original)
    script = f"""
import resource, signal, sys
from annotator.errors import StorageError
from annotator.io.i2b2 import read_i2b2, write_i2b2
document = read_i2b2({str(path)!r})
document.remove("P0")
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
try:
    write_i2b2(document, {str(path)!r})
except StorageError as error:
    print(error.one_line())
    sys.exit(7)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 7, result.stderr
    assert "cannot write" in result.stdout
    assert path.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["110-01.xml"]
