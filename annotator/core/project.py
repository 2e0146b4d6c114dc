"""A project folder: configuration, source notes, each annotator's versions, gold, models.

Layout::

    project.toml                  name, schema, annotators (and optionally where the
                                  pre-annotations are: ``preannotations = "preannotated"``;
                                  how the queue works: ``queue_by_patient = true``,
                                  ``annotators_per_document = 2``, ``retrain_every = 5``;
                                  what the gold tags: ``guideline = "safe-harbor"``;
                                  retrain from gold beside the bundled model's synthetic
                                  notes: ``train_with_synthetic = true``;
                                  the site's own names and places, for pre-annotation and
                                  the export's leak check:
                                  ``site_lists = "site-lists.tsv"``)
    source/PPP-RR.xml             the notes (i2b2 XML; TAGS may be empty)
    preannotations/PPP-RR.xml     model suggestions (pending annotations), optional
    annotations/<annotator>/      each annotator's working copy of every document
    gold/                         adjudicated gold standard
    models/  reports/  exports/   tagger models, IAA reports, de-identified copies
    .annotator/                   tool state: document status, working time, recovery files

A plain folder of XML files also opens: it is treated as ``source/`` of an unnamed project.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from annotator.core.atomic import atomic_write_text
from annotator.core.file_names import file_name_problem, shown_name
from annotator.core.guidelines import GUIDELINES, I2B2_2014
from annotator.core.text_files import read_utf8
from annotator.errors import InputError, StorageError, UsageError

PROJECT_FILE = "project.toml"
STATE_DIR = ".annotator"
#: the keys :class:`Project` reads; any other key or table is kept as it is (``extra``)
KNOWN_KEYS = frozenset(
    {
        "name",
        "schema",
        "annotators",
        "preannotations",
        "queue_by_patient",
        "annotators_per_document",
        "retrain_every",
        "guideline",
        "site_lists",
        "train_with_synthetic",
    }
)


@dataclass
class Project:
    """A project on disk.

    Attributes
    ----------
    root: the project folder.
    name: shown in the window title and reports.
    schema: name of a bundled schema or a path to a schema file.
    annotators: the annotators' names, in the order they were added.
    plain_folder: True when opened from a bare folder of XML files (no project.toml).
    """

    root: Path
    name: str
    schema: str = "i2b2-2014"
    annotators: list[str] = field(default_factory=list)
    plain_folder: bool = False
    #: the pre-annotations folder, relative to the root (``annotator synth`` calls it "preannotated")
    preannotations: str = "preannotations"
    #: the annotation queue serves a patient's notes together (``queue_by_patient = true``)
    queue_by_patient: bool = False
    #: how many annotators each note needs: once that many others started it, it is claimed
    annotators_per_document: int = 1
    #: retrain the tagger in the background after this many newly finished notes (0: never)
    retrain_every: int = 0
    #: the guideline the gold follows (:mod:`annotator.core.guidelines`): what the model suggests
    guideline: str = I2B2_2014
    #: the site's lists of names and places (:mod:`annotator.crf.site_lists`), a file or a
    #: deid.pl ``lists/`` folder, relative to the root or absolute; "" for none
    site_lists: str = ""
    #: "Retrain from gold" learns the bundled model's synthetic notes too (``--with-synthetic``)
    train_with_synthetic: bool = False
    #: keys and tables of project.toml this version does not know (a newer version's, a
    #: site's own): written back unchanged on save, never dropped
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def site_lists_path(self) -> Path | None:
        return self.root / self.site_lists if self.site_lists else None

    @property
    def source_dir(self) -> Path:
        return self.root if self.plain_folder else self.root / "source"

    @property
    def preannotations_dir(self) -> Path:
        return self.root / self.preannotations

    @property
    def gold_dir(self) -> Path:
        return self.root / "gold"

    @property
    def models_dir(self) -> Path:
        return self.root / "models"

    @property
    def reports_dir(self) -> Path:
        return self.root / "reports"

    def reports_folder(self) -> Path:
        """``reports/``, created (like its parent) if missing, so save dialogs open there;
        the project folder when it cannot be created."""
        try:
            make_folder_like_parent(self.reports_dir)
        except StorageError:
            return self.root
        return self.reports_dir

    @property
    def exports_dir(self) -> Path:
        return self.root / "exports"

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    def annotations_dir(self, annotator: str) -> Path:
        """Where an annotator's versions live (the folder itself for a plain folder)."""
        if self.plain_folder:
            return self.root
        return self.root / "annotations" / annotator

    def require_source(self) -> None:
        """Refuse a project whose notes folder is missing (or is a file): listing it would
        find no note, and a queue of nothing reads like a finished project."""
        if not self.source_dir.is_dir():
            raise InputError("the project has no source/ folder (the notes to annotate)", self.source_dir)

    def document_ids(self) -> list[str]:
        """Ids of the source documents, sorted."""
        return sorted(p.stem for p in self.source_dir.glob("*.xml") if not p.name.startswith("."))

    @classmethod
    def create(
        cls, root: str | Path, name: str, schema: str = "i2b2-2014", annotators: list[str] | None = None
    ) -> Project:
        """Make the folders and write ``project.toml`` (an existing project is an error)."""
        root = Path(root)
        if (root / PROJECT_FILE).exists():
            raise UsageError("a project already exists here", root / PROJECT_FILE)
        for annotator in annotators or []:
            _check_annotator_name(annotator)
        project = cls(root=root, name=name, schema=schema, annotators=list(annotators or []))
        for folder in (
            project.source_dir,
            project.gold_dir,
            project.models_dir,
            project.reports_dir,
            project.state_dir,
        ):
            folder.mkdir(parents=True, exist_ok=True)
        for annotator in project.annotators:
            project.annotations_dir(annotator).mkdir(parents=True, exist_ok=True)
        project.save()
        return project

    @classmethod
    def open(cls, path: str | Path) -> Project:
        """Open a project folder, its ``project.toml``, or a plain folder of XML files."""
        path = Path(path)
        if path.is_file() and path.name == PROJECT_FILE:
            path = path.parent
        if not path.is_dir():
            raise InputError("not a project or folder", path)
        config_path = path / PROJECT_FILE
        if not config_path.exists():
            if config_path.is_symlink():  # a moved target: no plain folder, whose settings are gone
                raise InputError(
                    "a symbolic link to nothing (its target is missing, or it loops)", config_path
                )
            return cls(root=path, name=path.name, plain_folder=True)
        data = _read_project_file(config_path)
        name = data.get("name", path.name)
        schema = data.get("schema", "i2b2-2014")
        # str() of a table or list would be saved back as a different name: refused instead.
        if not isinstance(name, str):
            raise InputError("name must be a string", config_path)
        if not isinstance(schema, str):
            raise InputError("schema must be the name or path of a schema, a string", config_path)
        annotators = data.get("annotators", [])
        if not isinstance(annotators, list) or not all(isinstance(a, str) for a in annotators):
            raise InputError("annotators must be a list of names", config_path)
        for annotator in annotators:
            # Each name becomes annotations/<name>/: "../x" or "/abs" would write outside.
            problem = file_name_problem(annotator)
            if problem is not None:
                raise InputError(
                    f"annotator name {shown_name(annotator)} cannot be a folder name: {problem}",
                    config_path,
                )
        preannotations = data.get("preannotations", "preannotations")
        if not isinstance(preannotations, str) or not _is_plain_folder_name(preannotations):
            raise InputError("preannotations must name a folder inside the project", config_path)
        queue_by_patient = data.get("queue_by_patient", False)
        if not isinstance(queue_by_patient, bool):
            raise InputError("queue_by_patient must be true or false", config_path)
        counts = {}
        for key, default, least in (("annotators_per_document", 1, 1), ("retrain_every", 0, 0)):
            value = data.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise InputError(f"{key} must be a whole number of at least {least}", config_path)
            counts[key] = value
        guideline = data.get("guideline", I2B2_2014)
        if guideline not in GUIDELINES:
            raise InputError(f"guideline must be one of {', '.join(GUIDELINES)}", config_path)
        site_lists = data.get("site_lists", "")
        if not isinstance(site_lists, str):
            raise InputError("site_lists must be the path of a site-lists file or folder", config_path)
        train_with_synthetic = data.get("train_with_synthetic", False)
        if not isinstance(train_with_synthetic, bool):
            raise InputError("train_with_synthetic must be true or false", config_path)
        return cls(
            root=path,
            name=name,
            schema=schema,
            annotators=annotators,
            preannotations=preannotations,
            queue_by_patient=queue_by_patient,
            annotators_per_document=counts["annotators_per_document"],
            retrain_every=counts["retrain_every"],
            guideline=guideline,
            site_lists=site_lists,
            train_with_synthetic=train_with_synthetic,
            extra={key: value for key, value in data.items() if key not in KNOWN_KEYS},
        )

    def add_annotator(self, annotator: str) -> None:
        """List an annotator (in ``project.toml``) and make sure their folder exists.

        A project may list someone whose folder was never made (written by hand, or copied
        without its empty folders): opening it creates the folder instead of failing.
        """
        if self.plain_folder:
            return
        # The name becomes a folder: never one outside annotations/ (whoever passed it).
        _check_annotator_name(annotator)
        make_folder_like_parent(self.annotations_dir(annotator))
        if annotator not in self.annotators:
            self.annotators.append(annotator)
            self.save()

    def save(self) -> None:
        """Write ``project.toml`` atomically (not for plain folders)."""
        if self.plain_folder:
            return
        data: dict[str, Any] = {"name": self.name, "schema": self.schema, "annotators": self.annotators}
        if self.preannotations != "preannotations":
            data["preannotations"] = self.preannotations
        if self.queue_by_patient:
            data["queue_by_patient"] = True
        if self.annotators_per_document != 1:
            data["annotators_per_document"] = self.annotators_per_document
        if self.retrain_every:
            data["retrain_every"] = self.retrain_every
        if self.guideline != I2B2_2014:
            data["guideline"] = self.guideline
        if self.site_lists:
            data["site_lists"] = self.site_lists
        if self.train_with_synthetic:
            data["train_with_synthetic"] = True
        data.update((key, value) for key, value in self.extra.items() if key not in KNOWN_KEYS)
        try:
            text = toml_dumps(data)
        except ValueError as error:
            raise UsageError(f"cannot write the project file: {error}", self.root / PROJECT_FILE) from None
        atomic_write_text(self.root / PROJECT_FILE, text)


def make_folder_like_parent(folder: Path) -> None:
    """Create ``folder`` (and missing parents), each as readable as the folder it is made in.

    A shared project folder stays shared (group-writable, setgid kept) and a private one
    private, whatever the user's umask says.
    """
    if folder.is_dir():
        return
    make_folder_like_parent(folder.parent)
    try:
        folder.mkdir(exist_ok=True)
        os.chmod(folder, folder.parent.stat().st_mode & 0o2777)
    except OSError as error:
        raise StorageError(f"cannot create the folder: {error.strerror}", folder) from None


def _check_annotator_name(annotator: str) -> None:
    problem = file_name_problem(annotator)
    if problem is not None:
        raise UsageError(
            f"the annotator name {shown_name(annotator)} cannot be used as a folder name: {problem}"
        )


# Older versions wrote names with json.dumps: a character beyond U+FFFF became a pair of
# \\uD83D\\uDE00 escapes, which TOML refuses. Only an escape preceded by an even number of
# backslashes is one (an odd number means the backslash itself was escaped).
_SURROGATE_PAIR_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
)


def _joined_pair(match: re.Match[str]) -> str:
    high, low = int(match.group(2), 16), int(match.group(3), 16)
    return f"{match.group(1)}\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08X}"


def _read_project_file(path: Path) -> dict[str, Any]:
    text = read_utf8(path, "a project file")
    try:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            repaired = _SURROGATE_PAIR_ESCAPE.sub(_joined_pair, text)
            if repaired == text:
                raise InputError(f"not a valid project file: {error}", path) from None
            try:
                return tomllib.loads(repaired)  # a file an older version wrote: read as meant
            except tomllib.TOMLDecodeError:
                raise InputError(f"not a valid project file: {error}", path) from None
    except RecursionError:
        raise InputError("not a valid project file: nested too deeply", path) from None


# -- writing TOML (the standard library only reads it) -------------------------------------


def toml_dumps(data: Mapping[str, Any]) -> str:
    """``data`` as TOML that :mod:`tomllib` reads back equal (tomli-w: plain keys first, then
    tables; characters beyond U+FFFF as UTF-8, which older versions' JSON escapes broke)."""
    for text in _strings(data):
        lone = next((c for c in text if 0xD800 <= ord(c) <= 0xDFFF), None)
        if lone is not None:
            # An undecodable byte of a command-line argument: no character, TOML cannot hold it.
            raise ValueError(f"{shown_name(text)} holds U+{ord(lone):04X}, which is not a character")
    try:
        return tomli_w.dumps(data)
    except TypeError as error:
        raise ValueError(str(error)) from None


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _is_plain_folder_name(name: str) -> bool:
    # One folder inside the project: no separators, no "..", nothing hidden.
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")
