"""Adjudication decisions on a gold document: undoable commands, provenance, decision log.

An :class:`AdjudicationSession` holds one document's alignment, the gold document being
built and a :class:`~annotator.core.history.History`. Each decision (take a version, take
all, neither, edit, accept or dismiss a missed candidate) is ONE composite command that
removes what an earlier decision on the same unit put in the gold, adds the new gold tags and
records the unit as resolved; undo restores the previous state exactly.

Gold tags carry ``source="adjudicated"``, ``annotator=<adjudicator>`` and an extra attribute
``agreed_by="alice,bob"`` naming the versions that held that very tag. The decision log
(``<doc_id>.decisions.jsonl`` beside the gold file) records unit id, decision, versions,
adjudicator and time, never note text; replaying it rebuilds the gold, which is how an
interrupted adjudication resumes.

Signals (on :class:`AdjudicationSession`)
-----------------------------------------
resolution_changed(str)   a unit was resolved or unresolved (its id)
finalised_changed(bool)   the document was finalised or reopened
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from psygnal import Signal

from annotator.adjudication.links import agreed_links
from annotator.adjudication.units import Alignment, AnnotationKey, Unit, UnitKind
from annotator.core.annotation import Annotation, Source
from annotator.core.atomic import atomic_write_text
from annotator.core.document import Document, Origin
from annotator.core.history import AddAnnotation, Command, CompositeCommand, History, RemoveAnnotation
from annotator.core.text_files import read_utf8
from annotator.errors import AnnotatorError, InputError, UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.io.journal import JournalWriter

LOG_SUFFIX = ".decisions.jsonl"
MAX_LISTED_OFFSETS = 10


class UnresolvedUnitsError(AnnotatorError):
    """A document cannot be finalised while some of its units are undecided."""


class AutoAccept(StrEnum):
    """Which units are resolved without the adjudicator."""

    UNANIMOUS = "unanimous"
    """Exact agreements of every version."""
    MAJORITY = "majority"
    """Also any unit where more than half of the versions hold the same (non-empty) tags."""
    OFF = "off"


class DecisionKind(StrEnum):
    TAKE = "take"
    ALL = "all"
    NEITHER = "neither"
    EDIT = "edit"
    ACCEPT = "accept"
    DISMISS = "dismiss"


@dataclass(frozen=True)
class Decision:
    """What the adjudicator chose for a unit.

    Attributes
    ----------
    kind: see :class:`DecisionKind`.
    version: the version taken (``TAKE``).
    keys: the ``(tag, type, start, end)`` tags to put in the gold (``EDIT``).
    auto: made by the auto-accept rule, not by a person.
    adjudicator: who made it, when not the session's adjudicator (a decision of an earlier
        session replayed from its log stays under its own adjudicator's name).
    """

    kind: DecisionKind
    version: int | None = None
    keys: tuple[AnnotationKey, ...] = ()
    auto: bool = False
    adjudicator: str = ""


@dataclass(frozen=True)
class Resolution:
    """A resolved unit: the decision and the gold tags it produced."""

    decision: Decision
    gold_ids: tuple[str, ...]


def log_path(gold_dir: Path, doc_id: str) -> Path:
    return gold_dir / f"{doc_id}{LOG_SUFFIX}"


def read_log(path: Path) -> list[dict[str, object]]:
    """The entries of a decision log (empty when the file does not exist)."""
    if not path.exists():
        return []
    entries = []
    for number, line in enumerate(read_utf8(path, "a decision log").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise InputError(f"line {number} is not valid JSON", path) from None
        if not isinstance(entry, dict):
            raise InputError(f"line {number} is not a JSON object", path)
        entries.append(entry)
    return entries


def log_is_finalised(entries: Sequence[dict[str, object]]) -> bool:
    """True when the last entry of a decision log finalised the document."""
    return bool(entries) and entries[-1].get("decision") == "finalise"


_clock: list[object] = [0, ""]


def _now() -> str:
    """The current UTC time to the second (formatted once per second: auto-accepting
    thousands of units should not cost thousands of isoformat calls)."""
    second = int(time.time())
    if _clock[0] != second:
        _clock[0] = second
        _clock[1] = datetime.fromtimestamp(second, UTC).isoformat()
    return str(_clock[1])


def _merged_comment(holders: Sequence[tuple[str, Annotation]]) -> str:
    """The comments of the versions that hold a gold tag: one when they say the same, else
    each with its annotator ("alice: street? | bob: a ward"), so none is lost on an agreement."""
    said: dict[str, list[str]] = {}
    for name, annotation in holders:
        if annotation.comment.strip():
            said.setdefault(annotation.comment.strip(), []).append(name)
    if len(said) <= 1:
        return next(iter(said), "")
    return " | ".join(f"{','.join(names)}: {comment}" for comment, names in said.items())


def _merged_extra(holders: Sequence[tuple[str, Annotation]]) -> tuple[tuple[str, str], ...]:
    """The other attributes of a gold tag: the copied version's, and those only another
    version filled in (an attribute the versions set differently keeps the copied one's value)."""
    merged: dict[str, str] = {}
    for _, annotation in holders:
        for name, value in annotation.extra:
            if value and not merged.get(name):
                merged[name] = value
            else:
                merged.setdefault(name, value)
    return tuple(merged.items())


def unit_fingerprint(unit: Unit, names: Sequence[str]) -> str:
    """A short hash of what each version (by name) held in the unit, and of a candidate's
    suggestion: a decision logged with another fingerprint was made on other versions."""
    held = sorted(
        [name, sorted(list(a.key) for a in annotations)]
        for name, annotations in zip(names, unit.versions, strict=True)
    )
    suggestion = list(unit.suggestion.key) if unit.suggestion is not None else None
    data = json.dumps([unit.kind.value, held, suggestion], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]


def _format_offsets(units: Sequence[Unit]) -> str:
    shown = ", ".join(f"{u.start}-{u.end}" for u in units[:MAX_LISTED_OFFSETS])
    more = len(units) - MAX_LISTED_OFFSETS
    return shown + (f" and {more} more" if more > 0 else "")


class _SetResolution(Command):
    """Records a unit's resolution in the session; part of each decision's composite."""

    def __init__(self, session: AdjudicationSession, unit: Unit, new: Resolution | None) -> None:
        self.session = session
        self.unit = unit
        self.old = session.resolutions.get(unit.id)
        self.new = new
        self.description = "adjudicate"

    def apply(self) -> None:
        self.session._set_resolution(self.unit, self.new, undo=False)

    def revert(self) -> None:
        self.session._set_resolution(self.unit, self.old, undo=True)


class AdjudicationSession:
    """The adjudication of one document.

    Parameters
    ----------
    alignment:
        The document's units (with missed candidates if wanted).
    adjudicator:
        Recorded on every gold tag and log entry.
    auto:
        Which units to resolve automatically (see :class:`AutoAccept`).
    log:
        An existing decision log to replay (resuming an earlier session).
    key_numbers:
        The key (1, 2 ...) of each version: its folder's place among all the folders, which
        differs from its place here when an annotator lacks the document (default 1, 2 ...).
    """

    resolution_changed = Signal(str)
    finalised_changed = Signal(bool)

    def __init__(
        self,
        alignment: Alignment,
        adjudicator: str = "adjudicator",
        auto: AutoAccept | str = AutoAccept.UNANIMOUS,
        log: Sequence[dict[str, object]] = (),
        key_numbers: Sequence[int] | None = None,
    ) -> None:
        self.alignment = alignment
        self.adjudicator = adjudicator
        self.auto = AutoAccept(auto)
        reference = alignment.versions[0]
        layout = dict(reference.origin.layout) if reference.origin.format == "i2b2" else {}
        self.gold = Document(alignment.doc_id, alignment.text, (), Origin(format="i2b2", layout=layout))
        self.history = History()
        self.resolutions: dict[str, Resolution] = {}
        self.log: list[dict[str, object]] = list(log)
        #: units whose logged decision was made on versions that have changed since (an
        #: annotator edited their copy): not replayed, so the unit is open again
        self.stale: list[str] = []
        #: links of the versions the gold does not hold (they disagree, or name a tag left out),
        #: counted when the gold is saved
        self.links_left_out = 0
        self.key_numbers = list(key_numbers or range(1, len(alignment.names) + 1))
        self._units = {u.id: u for u in alignment.units}
        self._logging = True
        self._stack: list[str] = []
        self.finalised = False
        self._journal: tuple[JournalWriter, Path] | None = None
        if self.log:
            self._replay(self.log)
        # A decision left out because its versions changed means the gold is not the one
        # finalised: it must be looked at (and finalised) again.
        self.finalised = log_is_finalised(self.log) and not self.stale
        self.auto_accept()

    # -- state ---------------------------------------------------------------------------
    @property
    def doc_id(self) -> str:
        return self.alignment.doc_id

    @property
    def names(self) -> list[str]:
        return self.alignment.names

    @property
    def units(self) -> list[Unit]:
        return self.alignment.units

    def unit(self, unit_id: str) -> Unit:
        try:
            return self._units[unit_id]
        except KeyError:
            raise UsageError(f"document {self.doc_id}: no unit {unit_id!r}") from None

    def is_resolved(self, unit_id: str) -> bool:
        return unit_id in self.resolutions

    def unresolved(self) -> list[Unit]:
        return [u for u in self.alignment.units if u.id not in self.resolutions]

    def progress(self) -> tuple[int, int]:
        """(resolved units, all units)."""
        return len(self.resolutions), len(self.alignment.units)

    def next_unresolved(self, after: int = -1) -> Unit | None:
        """The first unresolved unit starting after offset ``after`` (wrapping around)."""
        # One pass that stops at the answer: listing every unresolved unit first cost a
        # 5,000-tag record 5 ms a keystroke.
        first: Unit | None = None
        for unit in self.alignment.units:
            if unit.id in self.resolutions:
                continue
            if unit.start > after:
                return unit
            first = first or unit
        return first

    def previous_unresolved(self, before: int) -> Unit | None:
        """The last unresolved unit starting before offset ``before`` (wrapping around)."""
        pending = self.unresolved()
        for unit in reversed(pending):
            if unit.start < before:
                return unit
        return pending[-1] if pending else None

    # -- deciding ------------------------------------------------------------------------
    def take(self, unit_id: str, version: int) -> Command:
        """Put version ``version``'s tags of the unit in the gold."""
        if not 0 <= version < len(self.names):
            raise UsageError(
                f"document {self.doc_id}: no version {version + 1} (there are {len(self.names)})"
            )
        return self.decide(unit_id, Decision(DecisionKind.TAKE, version=version))

    def take_all(self, unit_id: str) -> Command:
        """Put every version's tags (each distinct tag once) in the gold."""
        return self.decide(unit_id, Decision(DecisionKind.ALL))

    def neither(self, unit_id: str) -> Command:
        """Put nothing in the gold for this unit."""
        return self.decide(unit_id, Decision(DecisionKind.NEITHER))

    def edit(self, unit_id: str, keys: Sequence[AnnotationKey]) -> Command:
        """Put custom ``(tag, type, start, end)`` tags in the gold for this unit."""
        return self.decide(unit_id, Decision(DecisionKind.EDIT, keys=tuple(keys)))

    def accept(self, unit_id: str) -> Command:
        """Accept a missed candidate with the type it got elsewhere."""
        return self.decide(unit_id, Decision(DecisionKind.ACCEPT))

    def dismiss(self, unit_id: str) -> Command:
        """Dismiss a missed candidate."""
        return self.decide(unit_id, Decision(DecisionKind.DISMISS))

    def decide(self, unit_id: str, decision: Decision) -> Command:
        """Apply a decision as one undo step and return its command."""
        command = self._command(self.unit(unit_id), decision)
        if decision.auto:
            command.apply()
        else:
            self.history.push(command)
        return command

    def version_of_key(self, key: int) -> int | None:
        """The version (0-based, here) that key ``key`` takes, or None when its annotator lacks
        the document."""
        return self.key_numbers.index(key) if key in self.key_numbers else None

    def undo(self) -> Unit | None:
        """Undo the last decision; returns its unit (``None`` when nothing to undo)."""
        return self._unit_of(self.history.undo())

    def redo(self) -> Unit | None:
        """Redo the last undone decision; returns its unit."""
        return self._unit_of(self.history.redo())

    @staticmethod
    def _unit_of(command: Command | None) -> Unit | None:
        if isinstance(command, CompositeCommand) and isinstance(command.commands[-1], _SetResolution):
            return command.commands[-1].unit
        return None

    def auto_accept(self) -> int:
        """Resolve the units the auto-accept rule covers; returns how many."""
        if self.auto is AutoAccept.OFF:
            return 0
        count = 0
        for unit in self.alignment.units:
            if unit.id in self.resolutions or unit.kind is UnitKind.MISSED_CANDIDATE:
                continue
            if unit.kind is UnitKind.AGREEMENT:
                self.decide(unit.id, Decision(DecisionKind.TAKE, version=0, auto=True))
                count += 1
            elif self.auto is AutoAccept.MAJORITY:
                majority = unit.majority()
                if majority is not None:
                    self.decide(unit.id, Decision(DecisionKind.TAKE, version=majority[1][0], auto=True))
                    count += 1
        return count

    def _chosen(self, unit: Unit, decision: Decision) -> list[tuple[AnnotationKey, Annotation | None]]:
        """The keys a decision puts in the gold, each with a version tag to copy from."""
        if decision.kind is DecisionKind.TAKE:
            assert decision.version is not None
            return [(a.key, a) for a in unit.versions[decision.version]]
        if decision.kind is DecisionKind.ALL:
            seen: dict[AnnotationKey, Annotation] = {}
            for annotations in unit.versions:
                for annotation in annotations:
                    seen.setdefault(annotation.key, annotation)
            return sorted(seen.items(), key=lambda item: (item[0][2], item[0][3], item[0][1]))
        if decision.kind is DecisionKind.EDIT:
            known = {a.key: a for annotations in unit.versions for a in annotations}
            for tag, type_, start, end in decision.keys:
                if not (0 <= start < end <= len(self.alignment.text)) or not tag or not type_:
                    raise UsageError(
                        f"document {self.doc_id}: edited tag {tag}/{type_} at {start}-{end} is not valid"
                    )
            return [(key, known.get(key)) for key in decision.keys]
        if decision.kind is DecisionKind.ACCEPT:
            if unit.suggestion is None:
                raise UsageError(f"document {self.doc_id}: unit {unit.id} is not a missed candidate")
            return [(unit.suggestion.key, unit.suggestion)]
        return []

    def _command(self, unit: Unit, decision: Decision) -> Command:
        commands: list[Command] = []
        previous = self.resolutions.get(unit.id)
        if previous is not None:
            commands.extend(RemoveAnnotation(self.gold, gold_id) for gold_id in previous.gold_ids)
        gold_ids = []
        key_sets = [unit.keys_of(i) for i in range(len(self.names))]
        for key, template in self._chosen(unit, decision):
            agreed = [name for name, keys in zip(self.names, key_sets, strict=True) if key in keys]
            holders = self._holders(unit, key, template)
            extra = tuple((k, v) for k, v in _merged_extra(holders) if k != "agreed_by")
            if agreed:
                extra = (*extra, ("agreed_by", ",".join(agreed)))
            tag, type_, start, end = key
            annotation = self.gold.make_annotation(
                tag,
                type_,
                start,
                end,
                comment=_merged_comment(holders),
                source=Source.ADJUDICATED,
                annotator=decision.adjudicator or self.adjudicator,
                extra=extra,
            )
            # Reserve the id now: a later command in the same composite needs a fresh one too.
            gold_ids.append(annotation.id)
            commands.append(AddAnnotation(self.gold, annotation))
        commands.append(_SetResolution(self, unit, Resolution(decision, tuple(gold_ids))))
        return CompositeCommand(commands, f"{decision.kind.value} {unit.kind.value}")

    def _holders(
        self, unit: Unit, key: AnnotationKey, template: Annotation | None
    ) -> list[tuple[str, Annotation]]:
        """(version name, its tag) for every version holding ``key``, the copied one first."""
        found = [
            (name, a)
            for name, annotations in zip(self.names, unit.versions, strict=True)
            for a in annotations
            if a.key == key and a is not template
        ]
        if template is None:
            return found
        owner = next(
            (n for n, annotations in zip(self.names, unit.versions, strict=True) if template in annotations),
            "",
        )
        return [(owner, template), *found]

    def _set_resolution(self, unit: Unit, resolution: Resolution | None, *, undo: bool) -> None:
        if resolution is None:
            self.resolutions.pop(unit.id, None)
        else:
            self.resolutions[unit.id] = resolution
        if undo:
            if self._stack and self._stack[-1] == unit.id:
                self._stack.pop()
            self._log({"unit": unit.id, "decision": "undo"})
        else:
            assert resolution is not None
            if not resolution.decision.auto:
                self._stack.append(unit.id)
            self._log(self._entry(unit, resolution.decision))
        self._set_finalised(False)
        self.resolution_changed.emit(unit.id)

    def _entry(self, unit: Unit, decision: Decision) -> dict[str, object]:
        entry: dict[str, object] = {"unit": unit.id, "kind": unit.kind.value, "decision": decision.kind.value}
        if decision.kind is DecisionKind.TAKE:
            assert decision.version is not None
            entry["version"] = self.names[decision.version]
            key_sets = [unit.keys_of(i) for i in range(len(self.names))]
            taken = key_sets[decision.version]
            entry["versions"] = [
                name for name, keys in zip(self.names, key_sets, strict=True) if keys == taken
            ]
        elif decision.kind is DecisionKind.ALL:
            entry["versions"] = [self.names[i] for i, annotations in enumerate(unit.versions) if annotations]
        elif decision.kind is DecisionKind.EDIT:
            entry["tags"] = [list(key) for key in decision.keys]
        entry["fingerprint"] = unit_fingerprint(unit, self.names)
        if decision.auto:
            entry["auto"] = self.auto.value
        return entry

    def _log(self, entry: dict[str, object]) -> None:
        if not self._logging:
            return
        entry["adjudicator"] = self.adjudicator
        entry["time"] = _now()
        self.log.append(entry)
        if self._journal is not None:
            writer, path = self._journal
            writer.append(path, entry)

    def journal_to(self, writer: JournalWriter, path: Path) -> None:
        """Append every decision from now on to the decision log ``path`` as it is made
        (fsynced by ``writer``), so a crash loses no decision; :meth:`save` rewrites it whole."""
        self._journal = (writer, path)

    def _set_finalised(self, value: bool) -> None:
        if self.finalised == value:
            return
        self.finalised = value
        self.finalised_changed.emit(value)

    # -- finishing -----------------------------------------------------------------------
    def finalise(self) -> None:
        """Mark the document done; refused while any unit is unresolved."""
        pending = self.unresolved()
        if pending:
            raise UnresolvedUnitsError(
                f"document {self.doc_id} cannot be finalised: {len(pending)} unresolved "
                f"unit{'s' if len(pending) != 1 else ''} at offsets {_format_offsets(pending)}"
            )
        if not self.finalised:
            self._log({"unit": "", "decision": "finalise"})
            self._set_finalised(True)

    def save(self, gold_dir: str | Path) -> Path:
        """Write the gold file and its decision log (both atomically); return the gold path."""
        folder = Path(gold_dir)
        path = folder / f"{self.doc_id}.xml"
        self._carry_links()
        write_i2b2(self.gold, path)
        if self._journal is not None:
            # Appends so far reach the old file before the whole log replaces it.
            self._journal[0].close_file(self._journal[1])
        text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in self.log)
        atomic_write_text(log_path(folder, self.doc_id), text)
        return path

    def _carry_links(self) -> None:
        """The gold's links: those every version holds between tags the gold holds (the rest
        are counted in ``links_left_out``)."""
        for relation in self.gold.relations:
            self.gold.remove_relation(relation.id)
        carried, self.links_left_out = agreed_links(self.alignment.versions, self.gold)
        for relation in carried:
            self.gold.add_relation(relation)

    # -- resuming ------------------------------------------------------------------------
    def _replay(self, entries: Sequence[dict[str, object]]) -> None:
        """Re-apply a decision log without logging again; unknown units are skipped.

        A decision made on versions that changed since is not applied; the unit is ``stale``
        while such a decision is the one that stands (not undone, not decided again since).
        """
        self._logging = False
        # The undo stack as the log wrote it, (unit, stale) per manual decision: the stale
        # ones are not applied, so ``_stack`` lacks them, but an undo in the log may be theirs.
        self._replayed: list[tuple[str, bool]] = []
        self._stale_auto: set[str] = set()
        try:
            for entry in entries:
                self._replay_entry(entry)
        finally:
            self._logging = True
        self.stale = [unit_id for unit_id in self.stale if self._stands_stale(unit_id)]

    def _stands_stale(self, unit_id: str) -> bool:
        for replayed, stale in reversed(self._replayed):
            if replayed == unit_id:
                return stale
        return unit_id in self._stale_auto and unit_id not in self.resolutions

    def _replay_entry(self, entry: dict[str, object]) -> None:
        unit_id = str(entry.get("unit", ""))
        kind = str(entry.get("decision", ""))
        if kind == "undo":
            was_stale = False
            if self._replayed and self._replayed[-1][0] == unit_id:
                was_stale = self._replayed.pop()[1]
            if not was_stale and self._stack and self._stack[-1] == unit_id:
                self.history.undo()
            return
        if unit_id not in self._units or kind not in {k.value for k in DecisionKind}:
            return
        fingerprint = entry.get("fingerprint")
        if fingerprint is not None and fingerprint != unit_fingerprint(self._units[unit_id], self.names):
            if unit_id not in self.stale:
                self.stale.append(unit_id)
            if "auto" in entry:
                self._stale_auto.add(unit_id)
            else:
                self._replayed.append((unit_id, True))
            return
        decision_kind = DecisionKind(kind)
        version = None
        if decision_kind is DecisionKind.TAKE:
            name = entry.get("version")
            if name not in self.names:
                return
            version = self.names.index(str(name))
        keys: tuple[AnnotationKey, ...] = ()
        if decision_kind is DecisionKind.EDIT:
            raw = entry.get("tags", [])
            assert isinstance(raw, list)
            keys = tuple((str(t[0]), str(t[1]), int(t[2]), int(t[3])) for t in raw)
        adjudicator = entry.get("adjudicator")
        if adjudicator == self.adjudicator:
            adjudicator = ""
        self.decide(
            unit_id,
            Decision(
                decision_kind,
                version,
                keys,
                auto="auto" in entry,
                adjudicator=adjudicator if isinstance(adjudicator, str) else "",
            ),
        )
        # Decided on the versions as they are: this decision stands now, not the stale one.
        if "auto" in entry:
            self._stale_auto.discard(unit_id)
        else:
            self._replayed.append((unit_id, False))
