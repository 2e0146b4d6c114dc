"""Checking a crfsuite model's bytes before the C library reads them.

crfsuite trusts every offset and count in its model file: a damaged or crafted file makes it
read outside the buffer and the process dies (a segmentation fault, no message, unsaved work
in the window lost). This module walks the file's layout (crfsuite's ``crf1m_model.c`` and
``cqdb.c``: a header, the features, two string databases and two reference tables) and
refuses any offset, count or string that would lead the library outside the file. Weights
are not judged: a wrong weight gives wrong tags, never a crash; the model file's checksum
(:mod:`annotator.crf.tagger`) catches damage of that kind.
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

_HEADER = struct.Struct("<4sI4sIIIIIIIII")
_CHUNK = struct.Struct("<4sII")
_CQDB_HEADER = struct.Struct("<4sIIIII")
_CQDB_TABLES = 256
_FEATURE_DTYPE = np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("weight", "<f8")])
_STATE, _TRANSITION = 0, 1


class CorruptModel(ValueError):
    """The model's bytes would lead crfsuite outside the file; the message says where."""


def check_crfsuite_model(data: bytes) -> None:
    """Raise :class:`CorruptModel` unless crfsuite can read ``data`` without leaving it."""
    if len(data) < _HEADER.size:
        raise CorruptModel("the CRF model is shorter than its header")
    (magic, size, kind, _version, _unused, labels, attributes, off_features, off_labels, off_attributes,
     off_label_refs, off_attribute_refs) = _HEADER.unpack_from(data, 0)  # fmt: skip
    if magic != b"lCRF" or kind != b"FOMC":
        raise CorruptModel("the CRF model is not a crfsuite model")
    if size != len(data):
        raise CorruptModel(f"the CRF model is {len(data):,} bytes, its header says {size:,}")
    features = _check_features(data, off_features, labels, attributes)
    _check_strings(data, off_labels, labels, "label")
    _check_strings(data, off_attributes, attributes, "attribute")
    _check_references(data, off_label_refs, b"LFRF", labels, features, "label")
    _check_references(data, off_attribute_refs, b"AFRF", attributes, features, "attribute")


def _chunk(data: bytes, offset: int, name: bytes, what: str) -> tuple[int, int]:
    """(size, count) of the chunk at ``offset``, which must lie inside the file."""
    if offset + _CHUNK.size > len(data):
        raise CorruptModel(f"the CRF model's {what} lie outside the file")
    found, size, count = _CHUNK.unpack_from(data, offset)
    if found != name or size < _CHUNK.size or offset + size > len(data):
        raise CorruptModel(f"the CRF model's {what} are damaged")
    return size, count


def _check_features(data: bytes, offset: int, labels: int, attributes: int) -> int:
    size, count = _chunk(data, offset, b"FEAT", "features")
    if _CHUNK.size + count * _FEATURE_DTYPE.itemsize > size:
        raise CorruptModel("the CRF model's features are damaged")
    table = np.frombuffer(data, dtype=_FEATURE_DTYPE, count=count, offset=offset + _CHUNK.size)
    kinds, sources, targets = table["type"], table["src"], table["dst"]
    state, transition = kinds == _STATE, kinds == _TRANSITION
    if (
        not bool(np.all(state | transition))
        or bool(np.any(targets >= labels))
        or bool(np.any(sources[state] >= attributes))
        or bool(np.any(sources[transition] >= labels))
    ):
        raise CorruptModel("the CRF model's features name labels or attributes it does not have")
    return int(count)


def _check_references(data: bytes, offset: int, name: bytes, items: int, features: int, what: str) -> None:
    """Each item's list of feature ids: inside the chunk, naming existing features."""
    size, count = _chunk(data, offset, name, f"{what} references")
    end = offset + size
    if count < items or _CHUNK.size + 4 * count > size:
        raise CorruptModel(f"the CRF model's {what} references are damaged")
    # Only the first ``items`` entries are ever read (the label table's last two are empty).
    starts = np.frombuffer(data, dtype="<u4", count=items, offset=offset + _CHUNK.size).astype(np.int64)
    if bool(np.any(starts < offset + _CHUNK.size)) or bool(np.any(starts + 4 > end)):
        raise CorruptModel(f"the CRF model's {what} references point outside their table")
    for start in starts.tolist():
        (length,) = struct.unpack_from("<I", data, start)
        if start + 4 + 4 * length > end:
            raise CorruptModel(f"the CRF model's {what} references point outside their table")
        ids = np.frombuffer(data, dtype="<u4", count=length, offset=start + 4)
        if length and int(ids.max()) >= features:
            raise CorruptModel(f"the CRF model's {what} references name features it does not have")


def _check_strings(data: bytes, offset: int, expected: int, what: str) -> None:
    """A string database (CQDB): its hash tables and its id table point at whole records."""
    if offset + _CQDB_HEADER.size + 8 * _CQDB_TABLES > len(data):
        raise CorruptModel(f"the CRF model's {what} names lie outside the file")
    magic, size, _flag, _order, count, backward = _CQDB_HEADER.unpack_from(data, offset)
    if magic != b"CQDB" or offset + size > len(data) or count != expected:
        raise CorruptModel(f"the CRF model's {what} names are damaged")
    chunk = np.frombuffer(data, dtype=np.uint8, count=size, offset=offset)
    tables = np.frombuffer(data, dtype="<u4", count=2 * _CQDB_TABLES, offset=offset + _CQDB_HEADER.size)
    refs = tables.reshape(_CQDB_TABLES, 2).astype(np.int64)
    # The library counts the strings as half the buckets of every table, and sizes its own
    # arrays by that count; it takes a bucket index modulo a used table's size.
    if int((refs[:, 1] // 2).sum()) != expected or bool(np.any((refs[:, 0] != 0) & (refs[:, 1] == 0))):
        raise CorruptModel(f"the CRF model's {what} names are damaged")
    records: list[npt.NDArray[np.int64]] = []
    for table_offset, buckets in refs.tolist():
        if not table_offset:
            continue  # an empty table: the library reads none of it
        if table_offset + 8 * buckets > size:
            raise CorruptModel(f"the CRF model's {what} names are damaged")
        pairs = np.frombuffer(data, dtype="<u4", count=2 * buckets, offset=offset + table_offset)
        # A look-up probes until an empty bucket: a table without one loops for ever.
        if buckets and bool(np.all(pairs[1::2] != 0)):
            raise CorruptModel(f"the CRF model's {what} names are damaged")
        records.append(pairs[1::2].astype(np.int64))
    if count:
        if backward + 4 * count > size:
            raise CorruptModel(f"the CRF model's {what} names are damaged")
        records.append(
            np.frombuffer(data, dtype="<u4", count=count, offset=offset + backward).astype(np.int64)
        )
    starts = np.concatenate(records) if records else np.zeros(0, dtype=np.int64)
    starts = starts[starts != 0]
    if bool(np.any(starts + 8 > size)):
        raise CorruptModel(f"the CRF model's {what} names point outside their table")
    # A record's id indexes the model's tables: it must be one the model has.
    if bool(np.any(_uint32_at(chunk, starts) >= expected)):
        raise CorruptModel(f"the CRF model's {what} names are damaged")
    lengths = _uint32_at(chunk, starts + 4)
    ends = starts + 8 + lengths
    # A key is a C string: its stated length includes the NUL that ends it, inside the table.
    if bool(np.any(lengths == 0)) or bool(np.any(ends > size)) or bool(np.any(chunk[ends - 1] != 0)):
        raise CorruptModel(f"the CRF model's {what} names are damaged")


def _uint32_at(chunk: npt.NDArray[np.uint8], at: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Little-endian uint32s at byte offsets that need not be aligned."""
    wide = chunk.astype(np.int64)
    return wide[at] | wide[at + 1] << 8 | wide[at + 2] << 16 | wide[at + 3] << 24
