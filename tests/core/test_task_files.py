"""A task file cut short or declaring an attribute twice is refused, naming the file."""

from __future__ import annotations

import pytest

from annotator.core.task import parse_dtd
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
    ],
)
def test_a_broken_dtd_is_refused_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(SchemaError, match=message) as error:
        parse_dtd(text, "phi.dtd")
    assert "phi.dtd" in str(error.value)
