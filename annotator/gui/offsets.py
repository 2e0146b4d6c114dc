"""Code points (our offsets) to UTF-16 positions (Qt's) and back.

Qt counts positions in UTF-16 code units; a character outside the Basic Multilingual Plane
(an emoji, some CJK) takes two. Every offset that crosses the Qt boundary goes through an
:class:`OffsetMap` so the highlights and selections stay on the right characters.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right


class OffsetMap:
    """Converts between code-point offsets and UTF-16 positions for one text.

    Parameters
    ----------
    text:
        The note text.
    """

    def __init__(self, text: str) -> None:
        # Code-point offsets of astral characters; empty (the usual case) means identity.
        self._astral = [i for i, c in enumerate(text) if ord(c) > 0xFFFF] if not text.isascii() else []
        # Their UTF-16 positions.
        self._astral16 = [cp + n for n, cp in enumerate(self._astral)]
        self.identity = not self._astral

    def to_qt(self, offset: int) -> int:
        """The UTF-16 position of a code-point offset."""
        if self.identity:
            return offset
        return offset + bisect_left(self._astral, offset)

    def from_qt(self, position: int) -> int:
        """The code-point offset of a UTF-16 position (inside a pair rounds down)."""
        if self.identity:
            return position
        whole = bisect_right(self._astral16, position - 2)
        if whole < len(self._astral16) and self._astral16[whole] + 1 == position:
            return self._astral[whole]
        return position - whole
