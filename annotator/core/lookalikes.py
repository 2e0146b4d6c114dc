"""Characters that look like ASCII spaces, hyphens and quotes, read as those.

Tagging and the leak check read a note with these in place of their look-alikes; the note
itself, and every offset into it, stays as written.
"""

from __future__ import annotations

import re

from annotator.core.document import Document

# Spaces, hyphens and quotes other than the ASCII ones (no-break, narrow no-break, thin, figure
# and ideographic spaces; the Unicode hyphen, the no-break hyphen, figure and en dashes, the
# minus sign; curly quotes and the modifier apostrophe): an EHR export keeps them where an
# editor put them ("St.\u00a0Mary's", "410\u2011555\u20111234", "\u201992" for '92), and the
# rules read " ", "\t", "-" and "'". An em dash stays: it breaks a clause rather than joining
# a number's or a name's parts.
_LOOKALIKE = re.compile(
    "[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u2010-\u2013\u2212\u2018\u2019\u02bc\u201c\u201d]"
)
_AS_ASCII = {
    **{code: " " for code in (0x00A0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)},
    **{code: "-" for code in (0x2010, 0x2011, 0x2012, 0x2013, 0x2212)},
    **{code: "'" for code in (0x2018, 0x2019, 0x02BC)},
    **{code: '"' for code in (0x201C, 0x201D)},
}


def ascii_lookalikes(text: str) -> str:
    """``text`` with every other space as an ASCII space, every other hyphen or dash but the em
    dash as ``-`` and curly quotes as straight ones: the same length, so the same offsets
    (``text`` itself when it holds none)."""
    return text.translate(_AS_ASCII) if _LOOKALIKE.search(text) else text


def ascii_document(document: Document) -> Document:
    """The document read with :func:`ascii_lookalikes`: its text and its tags' texts (the
    document itself when its text holds none). Offsets are the same, so a span found in it is
    one into the note as written."""
    text = ascii_lookalikes(document.text)
    if text is document.text:
        return document
    annotations = [a.replace(text=ascii_lookalikes(a.text)) for a in document.annotations]
    plain = Document(document.doc_id, text, annotations, document.origin)
    plain.patient_id, plain.record = document.patient_id, document.record
    return plain
