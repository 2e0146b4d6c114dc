"""Whether a name from the input (a document id, an annotator) can name one file or folder.

Shared by the writers (:mod:`annotator.io.outputs`) and the project (:mod:`annotator.core.project`,
whose annotator names become folders): the same rules wherever a name becomes a path.
"""

from __future__ import annotations

#: The longest document id (in UTF-8 bytes) that may name an output file: the name gets a
#: suffix (``.xml``, ``.txt``, ``.ann``) and most file systems stop at 255 bytes.
MAX_NAME_BYTES = 200
# What Windows refuses in a file name: an output folder is often copied to a shared drive.
_WINDOWS_FORBIDDEN = frozenset('<>:"|?*')
# Windows reserves these names in any folder, with any extension (the superscript digits too).
_WINDOWS_DEVICES = frozenset(
    (
        "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
        *(f"{port}{n}" for port in ("COM", "LPT") for n in (*"123456789", "\u00b9", "\u00b2", "\u00b3")),
    )
)  # fmt: skip
_SHOWN_CHARACTERS = 40


def file_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the stem of one file directly in the output folder, or None."""
    if not name:
        return "it is empty"
    if "/" in name or "\\" in name:
        return "it holds a path separator (/ or \\)"
    if name in (".", ".."):
        return "it names a folder (the output folder or the one above it)"
    # Folders are read without hidden and temporary files, and staging and manifests are
    # hidden: such a document would be written where it is never read back.
    if name.startswith((".", "~")):
        return f"it starts with {name[0]!r} (a hidden or temporary file name)"
    for char in name:
        if not char.isprintable():  # controls, format characters (bidi overrides), surrogates
            return f"it holds the unprintable character U+{ord(char):04X}"
        if char in _WINDOWS_FORBIDDEN:
            return f"it holds {char!r}, which Windows refuses in file names"
    size = len(name.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return f"it is too long for a file name ({size:,} bytes in UTF-8, at most {MAX_NAME_BYTES})"
    if name.endswith((".", " ")):
        return "it ends with a dot or a space, which Windows drops from file names"
    if name.split(".")[0].rstrip(" ").upper() in _WINDOWS_DEVICES:
        return "it is a Windows device name"
    return None


def shown_name(name: str) -> str:
    """A document id fit for a one-line message: escaped, and cut when long."""
    if len(name) <= _SHOWN_CHARACTERS:
        return repr(name)
    return f"{name[:_SHOWN_CHARACTERS]!r}... ({len(name):,} characters)"
