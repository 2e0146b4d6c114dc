"""A damaged or crafted model file is refused with a message, never a crash of the process."""

from __future__ import annotations

import io
import json
import random
import struct
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.crf.crfsuite_file import CorruptModel, check_crfsuite_model
from annotator.crf.default_model import default_model_path
from annotator.crf.tagger import CrfTagger
from annotator.errors import ModelError

_HEADER = struct.Struct("<4sI4sIIIIIIIII")


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _write_model(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.fixture(scope="module")
def crfsuite_bytes() -> bytes:
    return _members(default_model_path())["model.crfsuite"]


def _offsets(data: bytes) -> dict[str, int]:
    fields = _HEADER.unpack_from(data, 0)
    return dict(
        zip(("features", "labels", "attributes", "label_refs", "attribute_refs"), fields[7:12], strict=True)
    )


def _put(data: bytes, position: int, value: int) -> bytes:
    changed = bytearray(data)
    struct.pack_into("<I", changed, position, value)
    return bytes(changed)


def _table_entry(data: bytes, cqdb: int, want_used: bool) -> int:
    """Position of the first hash-table reference of a string database that is (un)used."""
    for table in range(256):
        position = cqdb + 24 + 8 * table
        if (struct.unpack_from("<I", data, position)[0] != 0) == want_used:
            return position
    raise AssertionError("no such table")


def _first_record(data: bytes, cqdb: int) -> int:
    backward = struct.unpack_from("<I", data, cqdb + 20)[0]
    return cqdb + struct.unpack_from("<I", data, cqdb + backward)[0]


# Each damage below crashed the process (or hung it) when the library read the file as it was.
DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "used hash table of no buckets": lambda d: _put(
        d, _table_entry(d, _offsets(d)["attributes"], True) + 4, 0
    ),
    "empty hash table of four billion buckets": lambda d: _put(
        d, _table_entry(d, _offsets(d)["labels"], False) + 4, 0xFFFFFFFF
    ),
    "label reference to the header": lambda d: _put(d, _offsets(d)["label_refs"] + 12 + 4 * 5, 0),
    "attribute reference past the end": lambda d: _put(d, _offsets(d)["attribute_refs"] + 12, len(d) - 2),
    "feature of a label the model lacks": lambda d: _put(d, _offsets(d)["features"] + 12 + 8, 10_000),
    "string record of an id the model lacks": lambda d: _put(
        d, _first_record(d, _offsets(d)["labels"]), 999_999
    ),
    "string without its end": lambda d: _put(d, _first_record(d, _offsets(d)["attributes"]) + 4, 10**7),
    "features table too short for its count": lambda d: _put(d, _offsets(d)["features"] + 8, 10**8),
    "header size": lambda d: _put(d, 4, len(d) + 1),
    "not a crfsuite model": lambda d: b"XCRF" + d[4:],
}


def test_the_bundled_model_passes(crfsuite_bytes: bytes) -> None:
    check_crfsuite_model(crfsuite_bytes)


def test_a_freshly_trained_model_passes(trained_tagger: CrfTagger, tmp_path: Path) -> None:
    trained_tagger.save(tmp_path / "fresh.model")
    check_crfsuite_model(_members(tmp_path / "fresh.model")["model.crfsuite"])
    assert CrfTagger.load(tmp_path / "fresh.model").metadata is not None


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_structure_is_refused_naming_the_file(
    crfsuite_bytes: bytes, tmp_path: Path, damage: str
) -> None:
    damaged = DAMAGE[damage](crfsuite_bytes)
    assert damaged != crfsuite_bytes
    with pytest.raises(CorruptModel):
        check_crfsuite_model(damaged)
    members = _members(default_model_path())
    path = _write_model(tmp_path / "damaged.model", {**members, "model.crfsuite": damaged})
    with pytest.raises(ModelError, match="corrupt tagger model file") as error:
        CrfTagger.load(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


_PROBE = """
import sys
from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger
from annotator.errors import ModelError
try:
    tagger = CrfTagger.load(sys.argv[1])
except ModelError:
    sys.exit(3)
tagger.predict(Document("100-01", "Seen by Dr. Mary Jones at Mercy Hospital on 3/4/2020. ABG 7.40/40."), recall_bias=0.9)
"""


@pytest.mark.slow
def test_randomly_damaged_models_never_crash_the_process(crfsuite_bytes: bytes, tmp_path: Path) -> None:
    """Bytes changed at random in the structural parts: refused, or read and used safely."""
    rng = random.Random(7)
    offsets = _offsets(crfsuite_bytes)
    regions = [(0, 48), *((offsets[k], offsets[k] + 2072) for k in ("labels", "attributes"))]
    regions += [
        (offsets["label_refs"], offsets["attribute_refs"]),
        (offsets["attribute_refs"], offsets["attribute_refs"] + 4000),
    ]
    members = _members(default_model_path())
    outcomes = []
    for attempt in range(24):
        damaged = bytearray(crfsuite_bytes)
        start, end = regions[attempt % len(regions)]
        for _ in range(rng.randint(1, 4)):
            position = rng.randrange(start, end - 4)
            struct.pack_into(
                "<I", damaged, position, rng.choice([0, 0xFFFFFFFF, rng.randrange(len(damaged))])
            )
        path = _write_model(tmp_path / f"m{attempt}.model", {**members, "model.crfsuite": bytes(damaged)})
        run = subprocess.run([sys.executable, "-c", _PROBE, str(path)], capture_output=True, timeout=120)
        assert run.returncode in (0, 3), (attempt, run.returncode, run.stderr[-500:])
        outcomes.append(run.returncode)
    assert 3 in outcomes


def _rewrite_metadata(path: Path, **changes: object) -> Path:
    members = _members(default_model_path())
    metadata = json.loads(members["metadata.json"]) | changes
    return _write_model(path, {**members, "metadata.json": json.dumps(metadata).encode("utf-8")})


@pytest.mark.parametrize(
    ("field", "value"),
    [("feature_version", "4"), ("feature_version", True), ("schema", ["i2b2-2014"]), ("schema", 5),
     ("labels", "O"), ("categories", {"NAME": 1}), ("private_features", "no")],
)  # fmt: skip
def test_metadata_of_the_wrong_type_is_refused(tmp_path: Path, field: str, value: object) -> None:
    path = _rewrite_metadata(tmp_path / "typed.model", **{field: value})
    with pytest.raises(ModelError, match=f"metadata's '{field}' is not valid") as error:
        CrfTagger.load(path)
    assert str(path) in str(error.value)


@pytest.mark.parametrize("missing", [("labels",), ("labels", "schema")])
def test_metadata_without_a_required_field_names_it(tmp_path: Path, missing: tuple[str, ...]) -> None:
    members = _members(default_model_path())
    metadata = {k: v for k, v in json.loads(members["metadata.json"]).items() if k not in missing}
    path = _write_model(tmp_path / "short.model", {**members, "metadata.json": json.dumps(metadata).encode()})
    with pytest.raises(ModelError) as error:
        CrfTagger.load(path)
    assert error.value.message == f"corrupt tagger model file: its metadata has no {', '.join(missing)}"


def _patched_zip(tmp_path: Path, flag: int | None = None, method: int | None = None) -> Path:
    """The bundled model with every member marked encrypted, or compressed by another method."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, member in _members(default_model_path()).items():
            archive.writestr(name, member)
    data = bytearray(buffer.getvalue())
    for signature, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        position = data.find(signature)
        while position != -1:
            if flag is not None:
                struct.pack_into("<H", data, position + flag_at, flag)
            if method is not None:
                struct.pack_into("<H", data, position + method_at, method)
            position = data.find(signature, position + 4)
    path = tmp_path / "patched.model"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(("flag", "method"), [(1, None), (None, 99)])
def test_encrypted_or_unknown_compression_is_refused(
    tmp_path: Path, flag: int | None, method: int | None
) -> None:
    path = _patched_zip(tmp_path, flag, method)
    with pytest.raises(ModelError, match="encrypted or unknown compression") as error:
        CrfTagger.load(path)
    assert str(path) in str(error.value)


@pytest.mark.parametrize("member", ["metadata.json", "phi-memory.json", "model.crfsuite"])
def test_a_member_that_unpacks_too_large_is_refused_before_reading(tmp_path: Path, member: str) -> None:
    """A zip bomb: the file is small, the member it says it holds is not."""
    members = _members(default_model_path())
    limit = {"metadata.json": 16 * 1024 * 1024, "phi-memory.json": 256 * 1024 * 1024}.get(
        member, 512 * 1024 * 1024
    )
    padding = b" " * (limit + 1) if member != "model.crfsuite" else None
    path = tmp_path / "bomb.model"
    if padding is not None:
        members[member] = members.get(member, b"{}").rstrip() + padding
        _write_model(path, members)
    else:
        _write_model(path, members)
        # Claiming more than the limit in both headers is what a bomb of that size looks like.
        data = bytearray(path.read_bytes())
        for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
            position = data.find(signature)
            while position != -1:
                name_at = position + (30 if signature == b"PK\x03\x04" else 46)
                if data[name_at : name_at + len(member)] == member.encode():
                    struct.pack_into("<I", data, position + size_at, limit + 1)
                position = data.find(signature, position + 4)
        path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match=f"{member} unpacks to") as error:
        CrfTagger.load(path)
    assert str(path) in str(error.value)
