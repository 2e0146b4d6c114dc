"""A task file cut short or declaring an attribute twice is refused, naming the file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from annotator.core.task import MAX_TASK_BYTES, parse_dtd, read_task
from annotator.errors import SchemaError

GOOD = """<!ENTITY name "PHI">
<!ELEMENT NAME ( #PCDATA ) >
<!ATTLIST NAME id ID prefix="N" #REQUIRED >
<!ATTLIST NAME TYPE ( PATIENT | DOCTOR ) #IMPLIED >
<!ELEMENT DATE ( #PCDATA ) >
"""


def test_a_whole_dtd_reads() -> None:
    task = parse_dtd(GOOD, "phi.dtd")
    assert [t.name for t in task.extent_tags] == ["NAME", "DATE"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD + "<!ELEMENT AGE ( #PCDATA", "ends inside a declaration"),
        (GOOD + "<!ATTLIST NAME TYPE ( USERNAME ) #IMPLIED >\n", "declares attribute 'TYPE' of 'NAME' twice"),
        # Entities are never expanded (nor loaded: test_dtd_is_never_loaded_as_xml); a value
        # list naming one read it as it stood, a type named "&types;" beside the real ones.
        (
            '<!ENTITY name "PHI">\n<!ENTITY types "PATIENT | DOCTOR">\n<!ELEMENT NAME ( #PCDATA ) >\n'
            "<!ATTLIST NAME TYPE ( &types; ) #IMPLIED >\n",
            "refers to entity 'types'",
        ),
        (GOOD.replace("PATIENT |", "&lol9; |"), "refers to entity 'lol9'"),
    ],
)
def test_a_broken_dtd_is_refused_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(SchemaError, match=message) as error:
        parse_dtd(text, "phi.dtd")
    assert "phi.dtd" in str(error.value)


def test_a_medtator_yaml_task_reads(tmp_path: Path) -> None:
    path = tmp_path / "task.yaml"
    path.write_text(
        "name: PHI\netags:\n  - name: NAME\n    attrs:\n      - name: type\n        vtype: list\n"
        "        values: [PATIENT, Not bothersome]\n",
        encoding="utf-8",
    )
    task = read_task(path)
    assert [(t.name, t.attributes[0].values) for t in task.tags] == [("NAME", ("PATIENT", "Not bothersome"))]


def test_a_yaml_task_with_aliases_is_refused_before_it_multiplies(tmp_path: Path) -> None:
    """Tags, attributes and values each repeating one alias 2,000 times: 33 KB of YAML that
    read as 8 billion values (14 GB of memory in two minutes)."""
    many = 2000
    values = "[" + ",".join(f"v{i}" for i in range(many)) + "]"
    path = tmp_path / "bomb.yaml"
    path.write_text(
        f"vals: &vals {values}\n"
        "attr: &attr {name: type, vtype: list, values: *vals}\n"
        "tag: &tag {name: X, attrs: [" + ",".join(["*attr"] * many) + "]}\n"
        "name: T\n"
        "etags: [" + ",".join(["*tag"] * many) + "]\n",
        encoding="utf-8",
    )
    with pytest.raises(
        SchemaError, match=r"line 2: an alias \(\*name\), which a task file may not use"
    ) as error:
        read_task(path)
    assert str(path) in str(error.value)


def test_a_task_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.dtd"
    with path.open("wb") as handle:
        handle.truncate(MAX_TASK_BYTES + 1)
    with pytest.raises(SchemaError, match="over the 16,777,216-byte limit"):
        read_task(path)


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"name": "", "etags": [{"name": "NAME"}]}, "the MedTator schema has an empty name"),
        ({"name": "T", "etags": [{"name": " "}]}, "a tag of the MedTator schema has an empty name"),
        ({"name": "T", "etags": [{"name": "NAME"}, {"name": "NAME"}]}, "declares tag 'NAME' twice"),
        (
            {"name": "T", "etags": [{"name": "NAME", "attrs": [{"name": "TYPE"}, {"name": "TYPE"}]}]},
            "declares attribute 'TYPE' of 'NAME' twice",
        ),
        (
            {"name": "T", "etags": [{"name": "NAME", "attrs": [{"name": ""}]}]},
            "an attribute of tag 'NAME' has an empty name",
        ),
    ],
)
def test_a_medtator_task_with_empty_or_repeated_names_is_refused(
    tmp_path: Path, schema: dict[str, object], message: str
) -> None:
    """The DTD reader already refused a declaration given twice; the JSON and YAML reader
    took them, and the second of two same-named tags could never be reached."""
    path = tmp_path / "task.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(SchemaError, match=re.escape(message)):
        read_task(path)
