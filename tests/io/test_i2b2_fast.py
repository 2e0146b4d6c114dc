"""The fast i2b2 parse gives what the general one gives, or leaves the file to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from annotator.core.document import Document
from annotator.errors import InputError
from annotator.io.i2b2 import RawI2b2, document_from_raw, parse_i2b2, parse_i2b2_raw, write_i2b2
from annotator.io.i2b2_fast import parse_plain_i2b2
from tests.io.strategies import documents

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in ("tests/data", "resources") for p in (ROOT / folder).rglob("*.xml"))


def same_raw(fast: RawI2b2, general: RawI2b2) -> None:
    assert fast.root_tag == general.root_tag
    assert fast.text == general.text
    assert fast.has_tags_element == general.has_tags_element
    assert fast.layout == general.layout
    assert (fast.root_attributes, fast.prolog, fast.doctype) == (general.root_attributes, general.prolog, "")
    assert [(t.index, t.tag, t.attributes, t.line) for t in fast.tags] == [
        (t.index, t.tag, t.attributes, t.line) for t in general.tags
    ]


def test_every_bundled_and_test_file_reads_the_same_either_way() -> None:
    assert len(FILES) > 100
    plain = 0
    for path in FILES:
        data = path.read_bytes()
        try:
            general = parse_i2b2_raw(data, path)
        except InputError:
            assert parse_plain_i2b2(data) is None, path
            continue
        fast = parse_plain_i2b2(data)
        if fast is None:
            continue
        plain += 1
        same_raw(fast, general)
    assert plain > 100  # the plain shape is the usual one: most files take the fast path


@settings(max_examples=60, deadline=None)
@given(document=documents())
def test_written_documents_read_the_same_either_way(
    document: Document, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("fast") / "100-01.xml"
    write_i2b2(document, path)
    data = path.read_bytes()
    general = parse_i2b2_raw(data, path)
    fast = parse_plain_i2b2(data)
    if fast is None:
        # Only unknown attributes (kept in file order by the general reader) send it there.
        assert any(a.extra for a in document.annotations)
        return
    same_raw(fast, general)
    read = parse_i2b2(data, path)
    expected = document_from_raw(general, data, path)
    assert (read.text, read.annotations, read.origin.layout) == (
        expected.text,
        expected.annotations,
        expected.origin.layout,
    )


UNUSUAL = {
    "comment": b"<?xml version='1.0'?>\n<!-- made by hand -->\n<deIdi2b2><TEXT>a</TEXT><TAGS/></deIdi2b2>",
    "doctype": b"<!DOCTYPE deIdi2b2>\n<deIdi2b2><TEXT>a</TEXT><TAGS/></deIdi2b2>",
    "entity": b'<!DOCTYPE r [<!ENTITY e "x">]><deIdi2b2><TEXT>&e;</TEXT><TAGS/></deIdi2b2>',
    "undefined entity": b"<deIdi2b2><TEXT>&e;</TEXT><TAGS/></deIdi2b2>",
    "root attribute": b"<deIdi2b2 version='2'><TEXT>a</TEXT><TAGS/></deIdi2b2>",
    "namespace": b"<d:deIdi2b2 xmlns:d='urn:x'><TEXT>a</TEXT><TAGS/></d:deIdi2b2>",
    "unknown attribute": b"<deIdi2b2><TEXT>ab</TEXT><TAGS><NAME id='P0' start='0' end='1' x='1'/></TAGS></deIdi2b2>",
    "markup in TEXT": b"<deIdi2b2><TEXT>a<PHI>b</PHI></TEXT><TAGS/></deIdi2b2>",
    "unknown element": b"<deIdi2b2><TEXT>a</TEXT><META/><TAGS/></deIdi2b2>",
    "second TEXT": b"<deIdi2b2><TEXT>a</TEXT><TEXT>b</TEXT><TAGS/></deIdi2b2>",
    "element in a tag": b"<deIdi2b2><TEXT>ab</TEXT><TAGS><NAME id='P0' start='0' end='1'><x/></NAME></TAGS></deIdi2b2>",
    "processing instruction": b"<deIdi2b2><?pi x?><TEXT>a</TEXT><TAGS/></deIdi2b2>",
    "utf-16": "<?xml version='1.0' encoding='UTF-16'?><deIdi2b2><TEXT>a</TEXT><TAGS/></deIdi2b2>".encode(
        "utf-16"
    ),
    "latin-1 declared": b"<?xml version='1.0' encoding='ISO-8859-1'?><deIdi2b2><TEXT>\xe9</TEXT><TAGS/></deIdi2b2>",
    "byte order mark": b"\xef\xbb\xbf<deIdi2b2><TEXT>a</TEXT><TAGS/></deIdi2b2>",
    "truncated": b"<deIdi2b2><TEXT>a</TEXT><TAGS>",
    "empty": b"",
}


@pytest.mark.parametrize("data", UNUSUAL.values(), ids=UNUSUAL.keys())
def test_anything_unusual_is_left_to_the_general_reader(data: bytes) -> None:
    assert parse_plain_i2b2(data) is None


def test_the_plain_shape_with_escapes_crlf_and_astral_characters() -> None:
    data = (
        b'<?xml version="1.0" encoding="UTF-8" ?>\r\n<deIdi2b2>\r\n<TEXT><![CDATA[Dr. A&B\r\nsaw \xf0\x9f\x98\x80 Ann]]>'
        b" &amp; co</TEXT>\r\n<TAGS>\r\n"
        b'<NAME id="P0" start="15" end="18" text="Ann" TYPE="PATIENT" comment="a&quot;b&#10;c\tx" pending="yes"/>\r\n'
        b"</TAGS>\r\n</deIdi2b2>\r\n"
    )
    fast = parse_plain_i2b2(data)
    assert fast is not None
    same_raw(fast, parse_i2b2_raw(data))
    assert fast.text == "Dr. A&B\nsaw \U0001f600 Ann & co"
