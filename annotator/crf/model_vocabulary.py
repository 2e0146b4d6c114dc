"""The attribute names a crfsuite model has weights for, read from the model's own bytes.

Tagging hands crfsuite every attribute of every token; crfsuite converts each name, looks it
up and drops the ones its model never learnt. On nursing notes a seventh of the attributes
are such, so the tagger leaves them out itself (:func:`annotator.crf.features.document_attributes`).

pycrfsuite lists a model's attributes only through ``Tagger.info()``, which writes the whole
model as text to a temporary file: a model trained with private features would put its
training notes' words on disk. The names are read here from the model bytes instead: a
crfsuite 1-d model (``lCRF``) keeps them in a constant quark database (``CQDB``) whose
backward array points at each record (id, key size, key with its terminating NUL).
"""

from __future__ import annotations

import struct

# lCRF header: magic, size, type, version, features, labels, attributes, then the offsets of
# the features, the label CQDB and the attribute CQDB (and two more not needed here).
_MODEL_HEADER = struct.Struct("<4sI4sIIIIIII")
# CQDB header: chunk id, size, flags, byte order, backward array length and offset.
_CQDB_HEADER = struct.Struct("<4sIIIII")
_UINT32 = struct.Struct("<I")
_PAIR = struct.Struct("<II")
# One object per distinct vocabulary: the features' caches are keyed by it, and two equal but
# distinct sets (two models trained on the same notes) would be compared element by element
# on every cache hit, a sevenfold slower tagging (measured: 5 s to 35 s on 550 nursing notes).
_INTERNED: dict[frozenset[str], frozenset[str]] = {}
_MAX_INTERNED = 16


def model_attributes(model: bytes) -> frozenset[str] | None:
    """Every attribute name of a crfsuite model, or ``None`` if the bytes are not one we can read.

    ``None`` only means "do not filter": tagging then hands crfsuite every attribute, as
    before, and gets the same labels.
    """
    try:
        magic, _, _, _, _, _, count, _, _, offset = _MODEL_HEADER.unpack_from(model, 0)
        if magic != b"lCRF":
            return None
        chunk, _, _, _, backward_size, backward_offset = _CQDB_HEADER.unpack_from(model, offset)
        if chunk != b"CQDB" or backward_size < count:
            return None
        names = set()
        for index in range(backward_size):
            (record,) = _UINT32.unpack_from(model, offset + backward_offset + 4 * index)
            if record:
                _, size = _PAIR.unpack_from(model, offset + record)
                start = offset + record + _PAIR.size
                names.add(model[start : start + size - 1].decode("utf-8"))
    except (struct.error, UnicodeDecodeError):
        return None
    return _interned(frozenset(names)) if len(names) == count else None


def _interned(vocabulary: frozenset[str]) -> frozenset[str]:
    if len(_INTERNED) >= _MAX_INTERNED and vocabulary not in _INTERNED:
        _INTERNED.clear()
    return _INTERNED.setdefault(vocabulary, vocabulary)
