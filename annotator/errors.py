"""One exception tree for the whole tool.

Messages name the file, the tag id and the offsets and say what is wrong; they never quote
note text, so an error printed to a terminal or a log cannot leak PHI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class AnnotatorError(Exception):
    """Base of every error the tool raises on purpose.

    Parameters
    ----------
    message:
        What is wrong, without any note text.
    path:
        The file concerned, if any; shown first in the one-line message.
    """

    exit_code = 1

    def __init__(self, message: str, path: str | Path | None = None) -> None:
        self.message = message
        self.path = str(path) if path is not None else None
        super().__init__(self.one_line())

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process, it crosses to the parent whole (message, file and what
        # a subclass keeps: a leak error's findings, a lock's holder), whatever the
        # subclass's own constructor takes.
        return _rebuilt_error, (type(self), self.args, self.__dict__)

    def one_line(self) -> str:
        # Messages quote ids, types and names read from files: escaped like paths, so none of
        # them can forge a line or reorder the terminal's text.
        text = printable_path(" ".join(self.message.split()))
        return f"{printable_path(self.path)}: {text}" if self.path else text


def _rebuilt_error(cls: type[AnnotatorError], args: tuple[Any, ...], state: dict[str, Any]) -> AnnotatorError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


def printable_path(path: str | Path) -> str:
    """A path safe to print on one terminal line: control characters shown escaped.

    A file name may hold a newline (which would split or forge an error line), a terminal
    escape sequence or a bidirectional override (which reorders what follows); they are shown
    as ``\\n``, ``\\x1b``, ``\\u202e``. Bytes that are not UTF-8 (kept by Python as lone
    surrogates) are shown as the bytes they were, ``\\xff``. The GUI uses this too.
    """
    text = str(path)
    if text.isprintable():
        return text
    return "".join(_escaped(char) for char in text)


def _escaped(char: str) -> str:
    if char.isprintable():
        return char
    if "\udc80" <= char <= "\udcff":  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{ord(char) - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


def printable_json(text: str) -> str:
    """JSON text with every unprintable character inside its strings written as ``\\uXXXX``.

    ``json.dumps(..., ensure_ascii=False)`` keeps PHI readable but lets a bidirectional
    override or a lone surrogate (an undecodable file-name byte) through raw; the escaped form
    is the same JSON value. Structural newlines and indentation are left alone.
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char in "\n " else f"\\u{ord(char):04x}" for char in text)


class UsageError(AnnotatorError):
    """The command line or a call was used wrongly (exit code 2)."""

    exit_code = 2


class InputError(AnnotatorError):
    """A file could not be read as what it claims to be."""


class UnsafeInputError(InputError):
    """A file asks for something we refuse to do: external entities, a DTD, huge size."""


class OffsetError(InputError):
    """An annotation's offsets do not fit the note text."""


class SchemaError(AnnotatorError):
    """A schema file is wrong, or an annotation is unknown to the schema."""


class StorageError(AnnotatorError):
    """Saving, locking or recovering a file failed."""


class LockedError(StorageError):
    """Someone else holds the lock on a document."""


class TextMismatchError(InputError):
    """Versions of one document that should share their TEXT do not."""


class ModelError(AnnotatorError):
    """A tagger model file is missing, corrupt or from another feature version."""
