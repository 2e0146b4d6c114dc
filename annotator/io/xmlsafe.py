"""Safe XML parsing for untrusted annotation files.

Refuses entity declarations (no billion-laughs, no external entities), never loads a DTD
or touches the network, caps the file size, and turns every parser complaint into one
line naming the file, the line and the problem, never the note text.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from annotator.errors import InputError, UnsafeInputError

# Records reach ~200,000 characters; 64 MiB leaves room for any real note and stops a
# runaway file before it is parsed.
MAX_FILE_BYTES = 64 * 1024 * 1024

_ENTITY_DECLARATION = re.compile(rb"<!\s*ENTITY", re.IGNORECASE)
_DOCTYPE = re.compile(rb"<!\s*DOCTYPE", re.IGNORECASE)
_ELEMENT_START = re.compile(rb"<[A-Za-z_]")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
        strip_cdata=True,
        remove_comments=False,
    )


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """Read a file's bytes with a size cap and a clear message on failure."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise UnsafeInputError(
                f"file is {size:,} bytes, over the {limit:,}-byte limit for one document", path
            )
        return path.read_bytes()
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path) from None
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None


def sniff_problem(data: bytes) -> str | None:
    """A reason the bytes cannot be an XML document, checked before parsing."""
    if not data.strip():
        return "empty file"
    if not data.startswith(_BOMS) and b"\x00" in data[:4096]:
        return "binary data (NUL bytes), not an XML document"
    return None


def parse_xml(data: bytes, path: str | Path | None = None, limit: int = MAX_FILE_BYTES) -> etree._Element:
    """Parse untrusted XML bytes into an element tree, safely.

    Raises
    ------
    InputError
        Empty, binary, truncated or not well-formed input, or a wrong encoding.
    UnsafeInputError
        Entity declarations, or a document over the size limit.
    """
    if len(data) > limit:
        raise UnsafeInputError(f"file is {len(data):,} bytes, over the {limit:,}-byte limit", path)
    problem = sniff_problem(data)
    if problem:
        raise InputError(problem, path)
    prolog = data[: _root_start(data)]
    if _ENTITY_DECLARATION.search(data) or (_DOCTYPE.search(prolog) and b"[" in prolog):
        raise UnsafeInputError("entity or DTD declarations are not allowed in annotation files", path)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        raise InputError(_describe_syntax_error(error), path) from None
    except ValueError as error:  # lxml: e.g. unicode strings with an encoding declaration
        raise InputError(f"not parseable as XML: {error}", path) from None
    for node in root.iter(etree.Entity):
        raise UnsafeInputError(f"undefined entity &{node.name}; is not allowed", path)
    return root


def _root_start(data: bytes) -> int:
    """Offset of the first element start tag, i.e. the end of the prolog."""
    match = _ELEMENT_START.search(data)
    return match.start() if match else len(data)


def _describe_syntax_error(error: etree.XMLSyntaxError) -> str:
    message = str(error.msg or error).strip()
    line = error.lineno or (error.position[0] if error.position else 0)
    lowered = message.lower()
    if "not proper utf-8" in lowered or "invalid utf-8" in lowered or "encoding" in lowered:
        return f"wrong or undeclared encoding (line {line}): the bytes are not valid in the declared encoding; save the file as UTF-8 or declare its encoding"
    if "premature end" in lowered or "extra content" not in lowered and "end of data" in lowered:
        return f"truncated or unfinished XML (line {line}): {_strip_bytes(message)}"
    if "entity" in lowered:
        return f"entity not allowed (line {line}): {_strip_bytes(message)}"
    return f"not well-formed XML (line {line}): {_strip_bytes(message)}"


def _strip_bytes(message: str) -> str:
    # libxml2 quotes raw bytes of content in some messages; they could be note text.
    return re.sub(r"Bytes:.*", "", message).rstrip(" ,:")
