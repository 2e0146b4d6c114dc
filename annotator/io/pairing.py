"""Pairing annotator folders whose files carry the annotator's name (MedTator's ``A_doc1.xml``).

MedTator saves each annotator's copy as ``<annotator>_<document>.xml``, so the folders of
two annotators share no file name. When no name is shared and every folder has its own
common ``<prefix>_``, the prefixes are dropped for pairing; otherwise names pair as they are.
A gold standard MedTator exported names its files ``G__<document>.xml_<n>.xml``: the extra
underscore and the ``.xml_<n>`` are dropped too (``G__doc_1.txt.xml_1`` pairs with
``sys_doc_1.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from annotator.core.document import Document, split_record_name

_ANNOTATOR_PREFIX = re.compile(r"^([^\W_]+)_(.+)$")
_EXPORT_SUFFIX = re.compile(r"\.xml_\d+$")


def _document_name(rest: str) -> str:
    """The document a prefixed name is about (``_doc_1.txt.xml_1`` -> ``doc_1.txt``)."""
    return _EXPORT_SUFFIX.sub("", rest.lstrip("_")) or rest


def _common_prefix(stems: Sequence[str]) -> str | None:
    matches = [_ANNOTATOR_PREFIX.match(stem) for stem in stems]
    prefixes = {m.group(1) for m in matches if m is not None}
    if not stems or not all(matches) or len(prefixes) != 1:
        return None
    return prefixes.pop()


def pairing_keys(groups: Sequence[Sequence[str]]) -> list[dict[str, str]]:
    """For each group of file stems, stem -> the name it pairs by.

    Examples
    --------
    >>> pairing_keys([["A_doc1", "A_doc2"], ["B_doc1"]])
    [{'A_doc1': 'doc1', 'A_doc2': 'doc2'}, {'B_doc1': 'doc1'}]
    """
    identity = [{stem: stem for stem in group} for group in groups]
    if len(groups) < 2 or set(groups[0]).intersection(*map(set, groups[1:])):
        return identity
    prefixes = [_common_prefix(group) for group in groups]
    if any(p is None for p in prefixes) or len(set(prefixes)) != len(prefixes):
        return identity
    stripped = [
        {stem: _document_name(stem[len(str(p)) + 1 :]) for stem in group}
        for p, group in zip(prefixes, groups, strict=True)
    ]
    if not set(stripped[0].values()).intersection(*(set(s.values()) for s in stripped[1:])):
        return identity
    return stripped


def align_annotator_prefixes(groups: Sequence[Sequence[Document]]) -> None:
    """Rename the documents of each annotator's group to the names they pair by (in place)."""
    keys = pairing_keys([[d.doc_id for d in group] for group in groups])
    for group, mapping in zip(groups, keys, strict=True):
        for document in group:
            document.doc_id = mapping[document.doc_id]
            document.patient_id, document.record = split_record_name(document.doc_id)
