"""Tag-set mappings as data: rename, merge or drop (category, type) pairs.

Mappings live in ``resources/mappings/*.toml`` and serve as filters in every report: the
HIPAA subset, harmonisation between schemes (merge DOCTOR and PATIENT into NAME, drop
classes, i2b2 2006 <-> 2014, 2014 -> CCHMC 12 classes) and excluded types.

File format::

    name = "hipaa"
    title = "..."
    source = "i2b2-2014"        # informative: the scheme the rules read
    target = "i2b2-2014"        # informative: the scheme they produce
    unmatched = "drop"          # what happens to a pair no rule names: "keep" or "drop"

    [[rule]]
    from = "NAME/PATIENT"       # CATEGORY/TYPE; either side may be "*"
    to = "NAME/PATIENT"         # CATEGORY/TYPE, CATEGORY/* (keep the type) or "drop"

The first matching rule wins. TYPE comparison ignores case.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.resources import resource_path
from annotator.core.text_files import refuse_special_file
from annotator.errors import SchemaError

MAPPING_DIR = resource_path("mappings")
WILDCARD = "*"


@dataclass(frozen=True)
class MappingRule:
    """One rule: a (category, type) pattern and its target (``None`` drops the pair)."""

    category: str
    type: str
    target: tuple[str, str] | None

    def matches(self, category: str, type_: str) -> bool:
        return (self.category in (WILDCARD, category)) and (
            self.type == WILDCARD or self.type.upper() == type_.upper()
        )


@dataclass(frozen=True)
class Mapping:
    """A mapping from (category, type) to (category, type), or to nothing (dropped).

    Attributes
    ----------
    name: short identifier (the file stem for bundled mappings).
    title: a human-readable description.
    rules: tried in order; the first match decides.
    keep_unmatched: pairs no rule names are kept unchanged (else dropped).
    then: another mapping applied to the result (composition).
    """

    name: str
    title: str = ""
    rules: tuple[MappingRule, ...] = ()
    keep_unmatched: bool = True
    source: str = ""
    target: str = ""
    then: Mapping | None = field(default=None)

    def map(self, category: str, type_: str) -> tuple[str, str] | None:
        """The mapped (category, type), or ``None`` when the pair is dropped."""
        result: tuple[str, str] | None = None
        for rule in self.rules:
            if rule.matches(category, type_):
                if rule.target is None:
                    return None
                new_category, new_type = rule.target
                result = (
                    category if new_category == WILDCARD else new_category,
                    type_ if new_type == WILDCARD else new_type,
                )
                break
        else:
            if not self.keep_unmatched:
                return None
            result = (category, type_)
        if self.then is not None and result is not None:
            return self.then.map(*result)
        return result

    def keeps(self, category: str, type_: str) -> bool:
        return self.map(category, type_) is not None

    def map_annotation(self, annotation: Annotation) -> Annotation | None:
        """The annotation with its category and type mapped, or ``None`` when dropped."""
        mapped = self.map(annotation.tag, annotation.type)
        if mapped is None:
            return None
        if mapped == (annotation.tag, annotation.type):
            return annotation
        return annotation.replace(tag=mapped[0], type=mapped[1])

    def map_annotations(self, annotations: Iterable[Annotation]) -> list[Annotation]:
        out = []
        for annotation in annotations:
            mapped = self.map_annotation(annotation)
            if mapped is not None:
                out.append(mapped)
        return out

    def compose(self, other: Mapping) -> Mapping:
        """This mapping followed by ``other``."""
        tail = other if self.then is None else self.then.compose(other)
        return Mapping(
            name=f"{self.name}+{other.name}",
            title=self.title,
            rules=self.rules,
            keep_unmatched=self.keep_unmatched,
            source=self.source,
            target=other.target or self.target,
            then=tail,
        )

    @classmethod
    def identity(cls) -> Mapping:
        return cls(name="identity", title="no mapping")

    @classmethod
    def excluding(cls, types: Sequence[str]) -> Mapping:
        """Drop the given types (``TYPE``, ``CATEGORY/TYPE`` or ``CATEGORY/*``), keep the rest."""
        rules = []
        for item in types:
            item = item.strip()
            if not item:
                continue
            category, type_ = item.split("/", 1) if "/" in item else (WILDCARD, item)
            rules.append(MappingRule(category, type_, None))
        return cls(name="exclude", title="excluded: " + ", ".join(types), rules=tuple(rules))


def _pair(value: object, where: str) -> tuple[str, str]:
    if not isinstance(value, str) or "/" not in value:
        raise SchemaError(f"{where}: expected CATEGORY/TYPE, got {value!r}")
    category, type_ = value.split("/", 1)
    return category.strip(), type_.strip()


def mapping_from_dict(data: dict[str, object], source: str = "<mapping>") -> Mapping:
    """Build a mapping from parsed TOML (see the module docstring for the format)."""
    unmatched = data.get("unmatched", "keep")
    if unmatched not in ("keep", "drop"):
        raise SchemaError(f'unmatched must be "keep" or "drop", not {unmatched!r}', source)
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        raise SchemaError("rule must be an array of tables", source)
    rules = []
    for index, raw in enumerate(raw_rules):
        if not isinstance(raw, dict) or "from" not in raw or "to" not in raw:
            raise SchemaError(f"rule {index + 1} needs 'from' and 'to'", source)
        category, type_ = _pair(raw["from"], f"{source}: rule {index + 1}")
        target = None if raw["to"] == "drop" else _pair(raw["to"], f"{source}: rule {index + 1}")
        rules.append(MappingRule(category, type_, target))
    name = data.get("name")
    if not isinstance(name, str):
        raise SchemaError("mapping has no name", source)
    return Mapping(
        name=name,
        title=str(data.get("title", name)),
        rules=tuple(rules),
        keep_unmatched=unmatched == "keep",
        source=str(data.get("source", "")),
        target=str(data.get("target", "")),
    )


def read_mapping(path: str | Path) -> Mapping:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SchemaError(f"cannot read mapping: {error.strerror}", path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise SchemaError(f"not a valid mapping file: {error}", path) from None
    except RecursionError:
        raise SchemaError("not a valid mapping file: tables or arrays nested too deeply", path) from None
    return mapping_from_dict(data, str(path))


def available_mappings() -> list[str]:
    """Names of the bundled mappings."""
    return sorted(p.stem for p in MAPPING_DIR.glob("*.toml"))


def load_mapping(name: str) -> Mapping:
    """A bundled mapping by name (``hipaa``, ``merge-names`` ...) or a TOML file path."""
    candidate = MAPPING_DIR / f"{name}.toml"
    if candidate.is_file():
        return read_mapping(candidate)
    path = Path(name)
    if path.is_file():
        return read_mapping(name)
    if path.exists():  # a folder, a pipe or a device given as the mapping file
        refuse_special_file(path, "a mapping file")
        raise SchemaError("not a mapping file: a folder", path)
    raise SchemaError(f"unknown mapping {name!r} (bundled: {', '.join(available_mappings())})")
