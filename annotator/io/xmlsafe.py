"""Safe XML parsing for untrusted annotation files.

Refuses entity declarations (no billion-laughs, no external entities), never loads a DTD
or touches the network, caps the file size, and turns every parser complaint into one
line naming the file, the line and the problem, never the note text.
"""

from __future__ import annotations

import re
import stat
import threading
from pathlib import Path
from typing import TypeVar

from lxml import etree

from annotator.errors import AnnotatorError, InputError, UnsafeInputError

# Records reach ~200,000 characters; 64 MiB leaves room for any real note and stops a
# runaway file before it is parsed.
MAX_FILE_BYTES = 64 * 1024 * 1024
# An annotation tag has a handful of attributes; thousands mean a hostile or broken file.
MAX_ATTRIBUTES = 1000
# libxml2 refuses a text node or attribute value over 10,000,000 bytes unless told the tree
# may be huge. A long note is legitimate up to MAX_FILE_BYTES, so bigger files are parsed
# with huge_tree; that is safe here because entity and DTD declarations are refused before
# parsing and nothing is ever loaded (no DTD, no network). An attribute value that long is
# never legitimate, so it is refused after parsing with its own message.
LIBXML_NODE_LIMIT = 10_000_000

_ENTITY_DECLARATION = re.compile(rb"<!\s*ENTITY", re.IGNORECASE)
_DOCTYPE = re.compile(rb"<!\s*DOCTYPE", re.IGNORECASE)
_ELEMENT_START = re.compile(rb"<[A-Za-z_]")
# Compiled per call (``root.xpath``): a shared XPath object is not safe across the reader threads.
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


E = TypeVar("E", bound=AnnotatorError)


def coded(error: E, code: str) -> E:
    """Attach a short machine-readable problem code (``not-well-formed``...) to an error.

    The validator reports these codes; callers that only want the message can ignore them.
    """
    error.code = code  # type: ignore[attr-defined]
    return error


def error_code(error: AnnotatorError, default: str = "unreadable") -> str:
    """The problem code attached by :func:`coded`, or ``default``."""
    return str(getattr(error, "code", default))


def _parser(huge: bool = False) -> etree.XMLParser:
    # Making a parser costs about as much as parsing a small note: one per thread is kept
    # (an lxml parser must not be shared between threads; the GUI parses in workers too).
    parsers: dict[bool, etree.XMLParser] | None = getattr(_PARSERS, "by_size", None)
    if parsers is None:
        parsers = _PARSERS.by_size = {}
    parser = parsers.get(huge)
    if parser is None:
        parser = parsers[huge] = _new_parser(huge)
    return parser


_PARSERS = threading.local()


def _new_parser(huge: bool) -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=huge,
        remove_blank_text=False,
        strip_cdata=True,
        remove_comments=False,
    )


def read_bytes(
    path: str | Path, limit: int = MAX_FILE_BYTES, head: int | None = None, holding: str = "one document"
) -> bytes:
    """Read a regular file's bytes with a size cap and a clear message on failure.

    With ``head``, only the first ``head`` bytes are read (for format sniffing); the file must
    still be a regular file within the cap, so a pipe or device never blocks or floods us.
    ``holding`` names what the cap is for in the message ("a note table").
    """
    path = Path(path)
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(status.st_mode):
            raise coded(InputError("not a regular file (a device, pipe or socket)", path), "unreadable")
        if status.st_size > limit:
            raise coded(
                UnsafeInputError(
                    f"file is {status.st_size:,} bytes, over the {limit:,}-byte limit for {holding}", path
                ),
                "too-large",
            )
        with path.open("rb") as handle:
            data = handle.read(limit + 1 if head is None else head)
        if head is None and len(data) > limit:
            raise coded(
                UnsafeInputError(f"file is over the {limit:,}-byte limit for {holding}", path), "too-large"
            )
        return data
    except IsADirectoryError:
        raise coded(InputError("is a folder, not a file", path), "unreadable") from None
    except FileNotFoundError:
        raise coded(InputError("no such file", path), "unreadable") from None
    except PermissionError:
        raise coded(InputError("permission denied", path), "unreadable") from None
    except OSError as error:
        raise coded(InputError(f"cannot read: {error.strerror}", path), "unreadable") from None


def sniff_problem(data: bytes) -> str | None:
    """A reason the bytes cannot be an XML document, checked before parsing."""
    found = sniff_problem_code(data)
    return found[1] if found else None


def sniff_problem_code(data: bytes) -> tuple[str, str] | None:
    """``(code, reason)`` when the bytes cannot be an XML document, checked before parsing."""
    if not data.strip() or data in _BOMS:
        return "empty", "empty file"
    if not data.startswith(_BOMS) and b"\x00" in data[:4096]:
        if _looks_like_utf16(data[:4096]):
            return "binary", "UTF-16 text without a byte-order mark, not read as XML: save it as UTF-8"
        return "binary", "binary data (NUL bytes), not an XML document"
    return None


def _looks_like_utf16(head: bytes) -> bool:
    """``<?xml`` or ``<tag`` in UTF-16 (big or little end), a NUL beside every ASCII byte."""
    return head.startswith((b"<\x00", b"\x00<")) and (
        head[1::2].count(0) > len(head) * 0.45 or head[0::2].count(0) > len(head) * 0.45
    )


def parse_xml(
    data: bytes, path: str | Path | None = None, limit: int = MAX_FILE_BYTES, huge: bool | None = None
) -> etree._Element:
    """Parse untrusted XML bytes into an element tree, safely.

    ``huge``: parse with libxml2's huge_tree (a text node over 10,000,000 bytes, nesting over
    256); by default only for files big enough to need it.

    Raises
    ------
    InputError
        Empty, binary, truncated or not well-formed input, or a wrong encoding.
    UnsafeInputError
        Entity declarations, or a document over the size limit.
    """
    if len(data) > limit:
        raise coded(
            UnsafeInputError(f"file is {len(data):,} bytes, over the {limit:,}-byte limit", path), "too-large"
        )
    problem = sniff_problem_code(data)
    if problem:
        raise coded(InputError(problem[1], path), problem[0])
    ascii_view = _as_utf8(data)
    prolog = ascii_view[: _root_start(ascii_view)]
    if _ENTITY_DECLARATION.search(ascii_view) or (_DOCTYPE.search(prolog) and b"[" in prolog):
        raise coded(
            UnsafeInputError("entity or DTD declarations are not allowed in annotation files", path), "entity"
        )
    if huge is None:  # libxml2's limits (a text node of 10,000,000 bytes, depth 256) only bind big files
        huge = len(data) > LIBXML_NODE_LIMIT
    try:
        root = etree.fromstring(data, _parser(huge))
    except etree.XMLSyntaxError as error:
        code, message = _describe_syntax_error(error, data)
        raise coded(InputError(message, path), code) from None
    except ValueError as error:  # lxml: e.g. unicode strings with an encoding declaration
        raise coded(InputError(f"not parseable as XML: {error}", path), "not-well-formed") from None
    # An element can only have more attributes than there are "=" bytes: the walk over every
    # element (in Python) is needed only when the bytes allow too many, or for huge files.
    if not huge and data.count(b"=") <= MAX_ATTRIBUTES:
        for node in root.iter(etree.Entity):  # filtered in C
            raise _undefined_entity(node, path)
        return root
    for element in root.iter():  # one pass over the tree: entities, then attribute counts
        if element.tag is etree.Entity:
            raise _undefined_entity(element, path)
        # len() is linear but lxml's attribute access is quadratic in the count: check first.
        if len(element.attrib) > MAX_ATTRIBUTES:
            raise coded(
                UnsafeInputError(
                    f"element <{element.tag}> on line {element.sourceline} has {len(element.attrib):,} "
                    f"attributes, over the limit of {MAX_ATTRIBUTES:,}",
                    path,
                ),
                "too-large",
            )
        if huge:
            _check_attribute_lengths(element, path)
    return root


def _undefined_entity(node: etree._Element, path: str | Path | None) -> UnsafeInputError:
    return coded(
        UnsafeInputError(f"undefined entity &{getattr(node, 'name', '?')}; is not allowed", path), "entity"
    )


def _check_attribute_lengths(element: etree._Element, path: str | Path | None) -> None:
    for name, value in element.items():
        if len(value) > LIBXML_NODE_LIMIT:
            raise coded(
                UnsafeInputError(
                    f"attribute {name!s} of <{element.tag!s}> on line {element.sourceline} is "
                    f"{len(value):,} characters long, over the limit of {LIBXML_NODE_LIMIT:,}",
                    path,
                ),
                "too-large",
            )


_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _as_utf8(data: bytes) -> bytes:
    """The bytes to scan for declarations: UTF-16/32 files re-encoded so byte patterns match."""
    for bom, codec in _WIDE_BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, errors="replace").encode("utf-8")
    return data


def _root_start(data: bytes) -> int:
    """Offset of the first element start tag, i.e. the end of the prolog."""
    match = _ELEMENT_START.search(data)
    return match.start() if match else len(data)


_ENCODING_DECLARATION = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_ROOT_NAME = re.compile(rb"<([A-Za-z_][\w.:-]*)")
# libxml2 messages quote element, attribute and entity names and sometimes raw content from
# the document, which may be note text (a stray "<" in a plain-text TEXT starts a "tag").
# Known messages are reworded without those parts; unknown ones are not shown at all.
_REWORDED = (
    (re.compile(r"^Opening and ending tag mismatch"), "opening and ending tags do not match"),
    (re.compile(r"^Specification mandates value for attribute"), "an attribute has no value"),
    (re.compile(r"^Attribute .* redefined"), "an attribute is given twice"),
    (re.compile(r"^Entity '.*' not defined"), "reference to an undefined entity"),
    (re.compile(r"^Double hyphen within comment"), "double hyphen within a comment"),
    (re.compile(r"^Namespace prefix .* not defined"), "undefined namespace prefix"),
    (re.compile(r"^Couldn't find end of Start Tag"), "unfinished start tag"),
    (re.compile(r"^Premature end of data in tag"), "premature end of data inside an element"),
    (re.compile(r"^CData section not finished"), "CDATA section not finished"),
    (re.compile(r"^Comment not terminated"), "comment not terminated"),
    (re.compile(r"^PCDATA invalid Char value"), "invalid character"),
    (re.compile(r"^xmlParseCharRef: invalid xmlChar value"), "character reference to an invalid character"),
    (re.compile(r"^Char 0x[0-9A-Fa-f]+ out of allowed range"), "invalid character"),
    (re.compile(r"^Start tag expected, '<' not found"), "start tag expected, '<' not found"),
    (re.compile(r"^Extra content at the end of the document"), "extra content after the root element"),
    (re.compile(r"^Unescaped '<' not allowed in attributes values"), "unescaped '<' in an attribute value"),
    (re.compile(r"^AttValue: \" or ' expected"), "attribute value without quotes"),
    (re.compile(r"^EntityRef: expecting ';'"), "'&' not followed by an entity name and ';'"),
    (re.compile(r"^xmlParseEntityRef: no name"), "'&' not followed by an entity name"),
    (re.compile(r"^StartTag: invalid element name"), "invalid element name"),
    (re.compile(r"^attributes construct error"), "malformed attributes"),
    (re.compile(r"^expected '>'"), "expected '>'"),
    (re.compile(r"^Document is empty"), "the document is empty"),
    (re.compile(r"^EndTag: '</' not found"), "end tag '</' not found"),
    (re.compile(r"^internal error|^Memory allocation failed"), "the parser failed"),
)
_POSITION = re.compile(r"line (\d+), column (\d+)\s*$")


def declared_encoding(data: bytes) -> str | None:
    """The encoding named in the XML declaration, if any (only for 8-bit files)."""
    match = _ENCODING_DECLARATION.match(data.removeprefix(b"\xef\xbb\xbf"))
    return match.group(1).decode("ascii").lower() if match else None


def _looks_truncated(data: bytes) -> bool:
    body = data.removeprefix(b"\xef\xbb\xbf")
    match = _ROOT_NAME.search(body[: _root_start(body) + 200])
    if match is None:
        return False
    tail = body.rstrip()
    return not (tail.endswith(b"</" + match.group(1) + b">") or tail.endswith(b"/>"))


def _describe_syntax_error(error: etree.XMLSyntaxError, data: bytes = b"") -> tuple[str, str]:
    original = str(error.msg or error).strip()
    message = _strip_bytes(original)
    line = error.lineno or (error.position[0] if error.position else 0)
    lowered = original.lower()
    declared = declared_encoding(data) if data else None
    if declared and declared.startswith("utf-16") and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "encoding", f"wrong encoding: the file declares {declared} but is not UTF-16"
    if "not proper utf-8" in lowered or "invalid utf-8" in lowered or "encoding" in lowered:
        if "unsupported encoding" in lowered:
            return "encoding", f"unsupported encoding {declared or ''} in the XML declaration".replace(
                "  ", " "
            )
        if declared is None:
            return (
                "encoding",
                f"undeclared encoding (line {line}): the bytes are not UTF-8 and the XML declaration names no encoding",
            )
        return (
            "encoding",
            f"wrong encoding (line {line}): the bytes are not valid {declared}; save the file as UTF-8 or declare its real encoding",
        )
    invalid = _invalid_character(error)
    if invalid is not None:
        return "not-well-formed", invalid
    if data and _looks_truncated(data):
        return (
            "truncated",
            f"truncated file (line {line}): the document ends before its root element is closed",
        )
    if "premature end" in lowered:
        return "truncated", f"truncated or unfinished XML (line {line}): {message}"
    if "entity" in lowered:
        return "entity", f"entity not allowed (line {line}): {message}"
    return "not-well-formed", f"not well-formed XML (line {line}): {message}"


_INVALID_CHAR = re.compile(r"Char value (\d+)")


def _invalid_character(error: etree.XMLSyntaxError) -> str | None:
    """A character XML cannot hold, said as such: libxml2 reports it beside a secondary
    complaint (inside CDATA, "CDATA section not finished"), which alone misleads."""
    for entry in list(error.error_log):  # type: ignore[call-overload]
        if entry.type_name == "ERR_INVALID_CHAR" and (value := _INVALID_CHAR.search(entry.message or "")):
            return f"character U+{int(value.group(1)):04X} cannot be in XML (line {entry.line}, column {entry.column})"
    return None


def _strip_bytes(message: str) -> str:
    """libxml2's complaint without anything quoted from the document (see _REWORDED)."""
    position = _POSITION.search(message)
    where = f", column {position.group(2)}" if position else ""
    for pattern, wording in _REWORDED:
        if pattern.search(message):
            return wording + where
    return "syntax error" + where
