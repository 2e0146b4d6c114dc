"""A faster parse of the usual i2b2 file, giving exactly what the general parse gives.

Reading a record of 5,000 tags spent most of its time creating lxml element proxies and
attribute lists; expat (C, one callback per element) reads the same file in about half the
time. Only the plain shape is read here, the one every tool of this project writes: an XML
declaration in UTF-8 (or none), a root element without attributes holding TEXT and TAGS,
tags with the known attributes only, and nothing else: no comments, processing
instructions, DOCTYPE, namespaces or other elements. For anything else, and on any parse
error, :func:`parse_plain_i2b2` returns ``None`` and the general reader
(:func:`annotator.io.i2b2.parse_i2b2_raw`: lxml, the safety checks of
:mod:`annotator.io.xmlsafe`, precise messages) reads the file. Entity and DTD declarations
are refused before expat sees a byte, so nothing is expanded or loaded.

``tests/io/test_i2b2_fast.py`` checks that both give equal documents on every kind of file.
"""

from __future__ import annotations

import re
from typing import Final
from xml.parsers import expat

from annotator.io.i2b2 import RawI2b2, RawTag
from annotator.io.xmlsafe import LIBXML_NODE_LIMIT, MAX_ATTRIBUTES

# Attributes the general reader maps to annotation fields; any other one is kept in the
# annotation's ``extra`` in file order, a case left to the general reader.
PLAIN_ATTRIBUTES: Final = frozenset(
    ("id", "start", "end", "text", "TYPE", "comment", "source", "confidence", "annotator", "pending")
)
# An optional XML declaration naming UTF-8 (or no encoding), then the root element.
_PLAIN_START: Final = re.compile(
    rb"""\A(?:<\?xml\s+version\s*=\s*["']1\.\d["'](?:\s+encoding\s*=\s*["']utf-8["'])?"""
    rb"""(?:\s+standalone\s*=\s*["'](?:yes|no)["'])?\s*\?>)?\s*<[A-Za-z_]""",
    re.IGNORECASE,
)
# Anything the plain shape has no room for (checked on the bytes, before parsing).
_UNUSUAL: Final = re.compile(rb"<!(?:--|DOCTYPE|ENTITY|ELEMENT|ATTLIST)|<\?(?!xml\s)", re.IGNORECASE)


class _Unusual(Exception):
    """The file is not of the plain shape: the general reader reads it."""


def parse_plain_i2b2(data: bytes) -> RawI2b2 | None:
    """The raw parts of a plain i2b2 file, or ``None`` to let the general reader read it."""
    if len(data) > LIBXML_NODE_LIMIT or not _PLAIN_START.match(data) or _UNUSUAL.search(data):
        return None
    reader = _Reader()
    parser = expat.ParserCreate("utf-8")
    parser.buffer_text = True
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.characters
    reader.parser = parser
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, _Unusual, ValueError):
        return None
    if reader.root_tag is None or reader.text is None:
        return None
    raw = RawI2b2(root_tag=reader.root_tag, text="".join(reader.text), has_tags_element=reader.has_tags)
    raw.tags = reader.tags
    raw.layout = reader.layout
    return raw


class _Reader:
    """expat callbacks that collect TEXT and the tags, and give up on anything unusual."""

    def __init__(self) -> None:
        self.parser: expat.XMLParserType | None = None
        self.depth = 0
        self.root_tag: str | None = None
        self.text: list[str] | None = None
        self.in_text = False
        self.in_tags = False
        self.has_tags = False
        self.tags: list[RawTag] = []
        self.layout: list[str] = []

    def start(self, name: str, attributes: dict[str, str]) -> None:
        depth = self.depth
        self.depth = depth + 1
        if depth == 2 and self.in_tags:
            if len(attributes) > MAX_ATTRIBUTES or not attributes.keys() <= PLAIN_ATTRIBUTES or ":" in name:
                raise _Unusual
            tags = self.tags
            line = self.parser.CurrentLineNumber if self.parser is not None else None
            tags.append(RawTag(len(tags), name, attributes, line))
            return
        if depth == 0:
            if attributes or ":" in name:
                raise _Unusual
            self.root_tag = name
        elif depth == 1 and name == "TEXT" and self.text is None and not attributes:
            self.text = []
            self.in_text = True
            self.layout.append("TEXT")
        elif depth == 1 and name == "TAGS" and not self.has_tags and not attributes:
            self.has_tags = True
            self.in_tags = True
            self.layout.append("TAGS")
        else:
            raise _Unusual  # another element, a second TEXT or TAGS, markup inside TEXT or a tag

    def end(self, _name: str) -> None:
        self.depth -= 1
        if self.depth == 1:
            self.in_text = self.in_tags = False

    def characters(self, data: str) -> None:
        if self.in_text and self.depth == 2 and self.text is not None:
            self.text.append(data)
