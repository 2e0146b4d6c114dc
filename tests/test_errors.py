"""The one escaping helper for names on a terminal, and its JSON counterpart."""

from __future__ import annotations

import json

import pytest

from annotator.errors import InputError, printable_json, printable_path


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("gold/100-01.xml", "gold/100-01.xml"),
        ("100-01\nannotator: error: forged.xml", "100-01\\nannotator: error: forged.xml"),
        ("100-01\x1b[2J.xml", "100-01\\x1b[2J.xml"),
        ("100-01\u202egnp.xml", "100-01\\u202egnp.xml"),
        (b"100-01\xff.xml".decode("utf-8", "surrogateescape"), "100-01\\xff.xml"),
        ("Jos\u00e9 M\u00fcller.xml", "Jos\u00e9 M\u00fcller.xml"),
    ],
)
def test_printable_path_escapes_what_a_terminal_would_act_on(raw: str, shown: str) -> None:
    assert printable_path(raw) == shown
    assert "\n" not in printable_path(raw) and printable_path(raw).isprintable()


def test_printable_json_keeps_the_value_and_escapes_only_unprintables() -> None:
    data = {"path": "a\u202eb\udcff\x1bc", "name": "Jos\u00e9", "n": [1, 2]}
    text = printable_json(json.dumps(data, indent=2, ensure_ascii=False))
    assert json.loads(text) == data
    assert "Jos\u00e9" in text and "\\u202e" in text and "\\udcff" in text
    assert all(line.isprintable() for line in text.splitlines())


def test_one_line_escapes_what_a_message_quotes_from_a_file() -> None:
    # A tag id read from a file may hold a terminal escape or a bidirectional override.
    error = InputError("tag \x1b[31mP1\u202e has no start attribute", "notes/a.xml")
    assert error.one_line() == "notes/a.xml: tag \\x1b[31mP1\\u202e has no start attribute"
