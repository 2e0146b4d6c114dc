"""Small writers for hand-made i2b2 files used by the evaluation tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

RawTag = tuple[str, object, object, str]  # category, start, end, TYPE (start/end as written)


def at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(start, end) of a substring: its start is len(prefix) of the text before it."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    prefix = text[:start]
    return len(prefix), len(prefix) + len(needle)


def write_doc(folder: Path, name: str, text: str, tags: Sequence[RawTag]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        "<deIdi2b2>",
        f"<TEXT><![CDATA[{text}]]></TEXT>",
        "<TAGS>",
    ]
    for i, (category, start, end, type_) in enumerate(tags):
        try:
            snippet = text[int(str(start)) : int(str(end))]
        except ValueError:
            snippet = ""
        lines.append(
            f'<{category} id="P{i}" start="{start}" end="{end}" text={quoteattr(snippet)} TYPE="{type_}" comment="" />'
        )
    lines += ["</TAGS>", "</deIdi2b2>", ""]
    path = folder / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
