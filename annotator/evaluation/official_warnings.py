"""The ``WARNING:`` lines the official i2b2 2014 script prints on stdout while reading a file.

While it reads a file, the script (tags.py, ``AnnotatorTag.__init__``) checks each
attribute of each tag it builds, in the order its tag class lists them, and prints one line
to stdout for an attribute that is present but not valid and for a key attribute that is
missing. It builds a tag for every PHI element of TAGS (start, end and TYPE checked) and,
because the same reader serves the cardiac-risk track, for every risk-factor element too
(``MEDICATION``, ``SMOKER``...: time, indicator, status, type1, type2 checked). These lines
come before any table, gold files first, each folder in ``os.listdir`` order.

Under Python 2 some of those reads crash instead: a warning holding a value or id that is
not ASCII (``str.format`` of a unicode value), a document-level risk-factor element with a
child element it has no class for (a comment counts), and a ``FAMILY_HIST`` tag whose start
or end is not an integer. :func:`tag_warnings` raises an ``InputError`` for those.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from annotator.errors import InputError, printable_path

PHI_ORDER = ("PHI", "CONTACT", "NAME", "DATE", "AGE", "PROFESSION", "ID", "OTHER", "LOCATION")
# DocumentTag.tag_types in Python 2 dict order.
RISK_ORDER = (
    "HYPERLIPIDEMIA",
    "OBESE",
    "MEDICATION",
    "HYPERTENSION",
    "CAD",
    "FAMILY_HIST",
    "SMOKER",
    "DIABETES",
)

TYPES_BY_CATEGORY: dict[str, tuple[str, ...]] = {
    "NAME": ("PATIENT", "DOCTOR", "USERNAME"),
    "PROFESSION": ("PROFESSION",),
    "LOCATION": (
        "ROOM",
        "DEPARTMENT",
        "HOSPITAL",
        "ORGANIZATION",
        "STREET",
        "CITY",
        "STATE",
        "COUNTRY",
        "ZIP",
        "LOCATION-OTHER",
    ),
    "AGE": ("AGE",),
    "DATE": ("DATE",),
    "CONTACT": ("PHONE", "FAX", "EMAIL", "URL", "IPADDR"),
    "ID": ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"),
}
_PHI_TYPES = (*tuple(t for types in TYPES_BY_CATEGORY.values() for t in types), "OTHER")

_TIME = ("before dct", "during dct", "after dct", "continuing")
_DRUGS = (
    "ace inhibitor",
    "amylin",
    "anti diabetes",
    "arb",
    "aspirin",
    "beta blocker",
    "calcium channel blocker",
    "diuretic",
    "dpp4 inhibitors",
    "ezetimibe",
    "fibrate",
    "glp1 agonists",
    "meglitinides",
    "insulin",
    "metformin",
    "niacin",
    "nitrate",
    "obesity",
    "statin",
    "sulfonylureas",
    "thiazolidinedione",
    "thienopyridine",
)


def py2_upper(value: str) -> str:
    """``unicode.upper()`` of Python 2: one character for one (``ß`` stays ``ß``)."""
    if value.isascii():
        return value.upper()
    return "".join(up if len(up := char.upper()) == 1 else char for char in value)


def py2_lower(value: str) -> str:
    """``unicode.lower()`` of Python 2: one character for one (``İ`` becomes ``i``)."""
    if value.isascii():
        return value.lower()
    out = []
    for char in value:
        low = char.lower()
        out.append(low if len(low) == 1 else ("i" if char == "\u0130" else char))
    return "".join(out)


def py2_int(value: str) -> int:
    """``int(value)`` as Python 2 read it: no ``_`` digit separators."""
    if "_" in value:
        raise ValueError(value)
    return int(value)


def _is_int(value: str) -> bool:
    try:
        py2_int(value)
    except ValueError:
        return False
    return True


def _always(_: str) -> bool:
    return True


def _lower_in(valid: tuple[str, ...]) -> Callable[[str], bool]:
    return lambda value: py2_lower(value) in valid


Check = tuple[str, Callable[[str], bool]]
_BASE: tuple[Check, ...] = (
    ("id", _always),
    ("docid", _always),
    ("start", _is_int),
    ("end", _is_int),
    ("text", _always),
)


def _phi_type(name: str) -> Callable[[str], bool]:
    if name == "OTHER":  # OtherTag.valid_TYPE is the string "OTHER": a substring test
        return lambda value: py2_upper(value) in "OTHER"
    valid = _PHI_TYPES if name == "PHI" else TYPES_BY_CATEGORY[name]
    return lambda value: py2_upper(value) in valid


# Per element name: the attributes checked in order, and the key attributes warned about when missing.
CLASSES: dict[str, tuple[tuple[Check, ...], tuple[str, ...]]] = {
    **{name: ((*_BASE, ("TYPE", _phi_type(name))), ("start", "end", "TYPE")) for name in PHI_ORDER},
    **{
        name: ((*_BASE, ("time", _lower_in(_TIME)), ("indicator", check)), ("time", "indicator"))
        for name, check in (
            ("HYPERLIPIDEMIA", _lower_in(("mention", "high chol.", "high ldl", "high-ldl", "high-chol"))),
            ("OBESE", _lower_in(("mention", "bmi", "waist circum."))),
            ("HYPERTENSION", lambda value: value in ("mention", "high bp")),  # case-sensitive there
            ("CAD", _lower_in(("mention", "event", "test", "symptom"))),
            ("DIABETES", _lower_in(("mention", "a1c", "glucose"))),
        )
    },
    "MEDICATION": (
        (
            *_BASE,
            ("time", _lower_in(_TIME)),
            ("type1", _lower_in(_DRUGS)),
            ("type2", _lower_in((*_DRUGS, ""))),
        ),
        ("time", "type1", "type2"),
    ),
    "FAMILY_HIST": ((*_BASE, ("indicator", _lower_in(("present", "not present")))), ("indicator",)),
    "SMOKER": ((*_BASE, ("status", _lower_in(("current", "past", "ever", "never", "unknown")))), ("status",)),
}


def _crash(path: str | Path, name: str, what: str) -> InputError:
    return InputError(f"<{name}> tag: {what}; the official script crashes on it", path)


def _one_tag(element: Any, name: str, path: str | Path, out: list[str]) -> None:
    attrib = dict(element.attrib)
    if name == "FAMILY_HIST" and "indicator" not in attrib:
        # FamilyHistTag sets an indicator from int(start) and int(end) before the checks.
        try:
            start = attrib["start"]
            present = py2_int(start) != -1 and py2_int(attrib["end"]) != -1
        except KeyError:
            present = False
        except ValueError:
            raise _crash(path, name, "no indicator, and a start or end that is not an integer") from None
        attrib["indicator"] = "present" if present else "not present"
    checks, keys = CLASSES[name]
    tag_id = attrib.get("id", "")
    for key, valid in checks:
        if key in attrib:
            value = attrib[key]
            if valid(value):
                continue
            line = f"WARNING: Expected attribute '{key}' for xml element <{name} ({tag_id})>  was not valid ('{value}')"
        elif key in keys:
            line = f"WARNING: Expected attribute '{key}' for xml element <{name} ('{tag_id}')>, setting to ''"
        else:
            continue
        if not line.isascii():
            raise _crash(
                path,
                name,
                f"{printable_path(repr(tag_id))}: its {key} is missing or not valid and the warning about it "
                "holds characters that are not ASCII (Python 2 cannot print it)",
            )
        out.append(line)


# The TYPEs, as written, that need no check: nearly every tag has one of these and plain offsets.
PLAIN_TYPES = {
    name: frozenset(
        _PHI_TYPES if name == "PHI" else ("OTHER",) if name == "OTHER" else TYPES_BY_CATEGORY[name]
    )
    for name in PHI_ORDER
}
RISK_NAMES = frozenset(RISK_ORDER)


def tag_warnings(checked: dict[str, list[Any]], path: str | Path) -> list[str]:
    """The WARNING lines the script prints while reading some children of a TAGS element.

    ``checked``: by element name, the PHI elements that may deserve a warning (the others
    have a TYPE of their element as written and offsets of plain digits) and every
    cardiac-risk element, in document order.

    Raises
    ------
    InputError
        Where the script crashes while reading them.
    """
    out: list[str] = []
    for name in PHI_ORDER:
        for element in checked.get(name, ()):
            _one_tag(element, name, path, out)
    for name in RISK_ORDER:
        for element in checked.get(name, ()):
            if "start" in element.attrib or "end" in element.attrib:
                _one_tag(element, name, path, out)
                continue
            # A document-level tag: each child element becomes a tag of its own name's class.
            for child in element:
                if not isinstance(child.tag, str) or child.tag not in RISK_ORDER:
                    raise _crash(
                        path, name, "a document-level tag holding an element or comment of another kind"
                    )
                _one_tag(child, child.tag, path, out)
    return out
