"""Tag-set mappings: bundled files, rule order, wildcards, composition, exclusion."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.core.annotation import Annotation
from annotator.core.mapping import Mapping, available_mappings, load_mapping, read_mapping
from annotator.core.schema import load_schema
from annotator.errors import AnnotatorError, SchemaError


def test_bundled_mappings_load() -> None:
    names = available_mappings()
    for name in (
        "hipaa",
        "merge-names",
        "i2b2-2014-to-cchmc-12",
        "i2b2-2006-to-i2b2-2014",
        "i2b2-2014-to-i2b2-2006",
    ):
        assert name in names
        load_mapping(name)


def test_hipaa_subset_includes_idnum_and_drops_non_hipaa() -> None:
    hipaa = load_mapping("hipaa")
    assert hipaa.map("NAME", "PATIENT") == ("NAME", "PATIENT")
    assert hipaa.map("NAME", "patient") == ("NAME", "patient")  # TYPE case ignored
    assert hipaa.map("ID", "IDNUM") == ("ID", "IDNUM")
    assert hipaa.map("AGE", "AGE") == ("AGE", "AGE")
    for category, type_ in (
        ("NAME", "DOCTOR"),
        ("LOCATION", "HOSPITAL"),
        ("PROFESSION", "PROFESSION"),
        ("CONTACT", "URL"),
        ("OTHER", "OTHER"),
    ):
        assert hipaa.map(category, type_) is None


# The HIPAA subset as the corpus paper lists it (Stubbs & Uzuner 2015, section 8), written out
# here independently of resources/mappings/hipaa.toml; IDNUM is in it (clean mode).
HIPAA_2014 = {
    ("NAME", "PATIENT"), ("AGE", "AGE"), ("DATE", "DATE"),
    ("LOCATION", "CITY"), ("LOCATION", "STREET"), ("LOCATION", "ZIP"), ("LOCATION", "ORGANIZATION"),
    ("CONTACT", "PHONE"), ("CONTACT", "FAX"), ("CONTACT", "EMAIL"),
    *(("ID", t) for t in ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE",
                          "BIOID", "IDNUM")),
}  # fmt: skip


@pytest.mark.parametrize("type_def", load_schema("i2b2-2014").types, ids=lambda t: f"{t.category}/{t.name}")
def test_hipaa_keeps_exactly_the_papers_types(type_def: object) -> None:
    category, name = type_def.category, type_def.name  # type: ignore[attr-defined]
    kept = load_mapping("hipaa").map(category, name)
    assert (kept == (category, name)) if (category, name) in HIPAA_2014 else kept is None


def test_every_2014_type_maps_into_the_target_schemes() -> None:
    i2b2_2014 = load_schema("i2b2-2014")
    cchmc = load_schema("cchmc-12")
    to_cchmc = load_mapping("i2b2-2014-to-cchmc-12")
    to_2006 = load_mapping("i2b2-2014-to-i2b2-2006")
    i2b2_2006 = load_schema("i2b2-2006")
    for type_def in i2b2_2014.types:
        mapped = to_cchmc.map(type_def.category, type_def.name)
        if type_def.category != "PROFESSION":
            assert mapped is not None and cchmc.is_valid(*mapped), type_def.name
        back = to_2006.map(type_def.category, type_def.name)
        assert back is None or i2b2_2006.is_valid(*back), type_def.name
    from_2006 = load_mapping("i2b2-2006-to-i2b2-2014")
    for type_def in i2b2_2006.types:
        mapped = from_2006.map(type_def.category, type_def.name)
        assert mapped is not None and i2b2_2014.is_valid(*mapped)


def test_merge_names_and_composition() -> None:
    merge = load_mapping("merge-names")
    assert merge.map("NAME", "DOCTOR") == ("NAME", "NAME")
    assert merge.map("DATE", "DATE") == ("DATE", "DATE")
    chained = load_mapping("hipaa").compose(merge)
    assert chained.map("NAME", "PATIENT") == ("NAME", "NAME")
    assert chained.map("NAME", "DOCTOR") is None  # HIPAA drops it before the merge


def test_excluding_types() -> None:
    mapping = Mapping.excluding(["DOCTOR", "LOCATION/*", " "])
    assert mapping.map("NAME", "DOCTOR") is None
    assert mapping.map("LOCATION", "CITY") is None
    assert mapping.map("NAME", "PATIENT") == ("NAME", "PATIENT")


def test_map_annotation_keeps_identity_and_drops() -> None:
    annotation = Annotation("P0", "NAME", "DOCTOR", 0, 3, "Lee")
    merged = load_mapping("merge-names").map_annotation(annotation)
    assert merged is not None and (merged.tag, merged.type, merged.start) == ("NAME", "NAME", 0)
    assert load_mapping("hipaa").map_annotation(annotation) is None
    assert Mapping.identity().map_annotation(annotation) is annotation


def test_custom_file_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nunmatched = "drop"\nrule = [{ from = "*/PHONE", to = "TEL/*" }]\n')
    mapping = read_mapping(path)
    assert mapping.map("CONTACT", "PHONE") == ("TEL", "PHONE")
    assert mapping.map("CONTACT", "FAX") is None
    assert load_mapping(str(path)).name == "mine"
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nrule = [{ from = "NAME", to = "X/Y" }]\n')
    with pytest.raises(SchemaError, match="CATEGORY/TYPE"):
        read_mapping(bad)
    with pytest.raises(SchemaError, match="unknown mapping"):
        load_mapping("no-such-mapping")


def test_a_folder_or_a_pipe_given_as_a_mapping_is_named_as_such(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="not a mapping file: a folder"):
        load_mapping(str(tmp_path))
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    with pytest.raises(AnnotatorError, match="is a pipe, socket or device, not a mapping file"):
        load_mapping(str(pipe))  # never opened: a pipe waits for a writer forever
