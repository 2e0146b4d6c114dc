"""One patient's surrogates: a consistent, seeded replacement for every PHI string.

:class:`CorpusContext` holds what must be known about the whole original corpus (every name
token, every original value per kind) so no surrogate re-uses a real value.
:class:`PatientSurrogates` gives each annotation its replacement; the same original string
of the same kind always gets the same surrogate within a patient's records.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.placeholders import PLACEHOLDER
from annotator.deid import places, shapes
from annotator.deid.date_plans import DatePlan, plan_document, render_plan, resolve_centuries
from annotator.deid.dates import (
    DateShift,
    ParsedDate,
    draw_shift,
    parse_date,
    reference_date,
    shift_date,
    writes_day_first,
)
from annotator.deid.kept_tokens import kept_tokens
from annotator.deid.name_slots import plan_names
from annotator.deid.names import NameMapper, name_tokens, without_diacritics
from annotator.deid.place_phrases import PlaceMapper, plan_places
from annotator.deid.placeholders import PROTOTYPES, is_placeholder_tag, name_roles, numeric_date, tail
from annotator.deid.tag_runs import line_after, line_before
from annotator.deid.textcase import apply_case, random_like

# Annotation TYPE (or category, for schemes without types) -> surrogate kind.
KINDS: dict[str, str] = {
    "PATIENT": "name", "DOCTOR": "name", "NAME": "name", "RELATIVE": "name", "PERSON": "name",
    "USERNAME": "username", "INITIALS": "initials",
    "PROFESSION": "profession",
    "ROOM": "id", "DEPARTMENT": "department", "HOSPITAL": "hospital", "INSTITUTION": "hospital",
    "ORGANIZATION": "organization", "STREET": "street", "CITY": "city", "STATE": "state",
    "COUNTRY": "country", "ZIP": "id", "LOCATION-OTHER": "location", "LOCATION": "location",
    "AGE": "age", "DATE": "date",
    "PHONE": "phone", "FAX": "phone", "EMAIL": "email", "URL": "url", "IPADDR": "ip", "IPADDRESS": "ip",
    "SSN": "id", "MEDICALRECORD": "id", "HEALTHPLAN": "id", "ACCOUNT": "id", "LICENSE": "id",
    "VEHICLE": "id", "DEVICE": "id", "BIOID": "id", "IDNUM": "id", "ID": "id",
}  # fmt: skip
# Kinds whose surrogates must differ from every original value anywhere in the corpus.
STRICT_KINDS = frozenset({"name", "username", "initials", "id", "phone", "email", "url", "ip", "street"})
# A patient with no year anywhere has their dates read around this year.
YEARLESS_YEAR = 2002
PLACE_KINDS = ("location", "city", "hospital", "organization", "state", "country", "street")
_AGE_NUMBER = re.compile(r"\d+")
_AGE_WORDS_OVER_89 = re.compile(r"\b(ninety|hundred)", re.IGNORECASE)


def secret_seed() -> int:
    """A seed nobody can guess. Each patient's generator derives from the seed and the patient
    id (the file name), so a known seed redraws every date shift and name letter."""
    return secrets.randbits(64)


def with_secret_seed(options: DeidOptions) -> DeidOptions:
    """``options`` with a seed: a drawn one when none was given."""
    return options if options.seed is not None else replace(options, seed=secret_seed())


def kind_of(annotation: Annotation) -> str:
    """The surrogate kind of an annotation (``review`` when no generator fits)."""
    return KINDS.get(annotation.type.upper()) or KINDS.get(annotation.tag.upper()) or "review"


def normalise(text: str) -> str:
    return " ".join(text.split()).lower()


@dataclass
class DeidOptions:
    """What a de-identified export does.

    Attributes
    ----------
    method: ``"surrogate"`` or ``"mask"``.
    seed: makes surrogates reproducible; each patient's generator derives from it. ``None``:
        a secret seed drawn for this run (:func:`with_secret_seed`), written in the audit map only.
    mask_style: ``"brackets"`` (``[**DOCTOR**]``) or ``"chars"`` (same length, ``mask_char``).
    mask_char: the character for the ``chars`` style.
    short_numeric_dates: ``"month-day"`` (``5/3`` is May 3rd) or ``"flag"`` (always flagged).
    min_leak_length: shortest original string the leak check looks for.
    """

    method: str = "surrogate"
    seed: int | None = 0
    mask_style: str = "brackets"
    mask_char: str = "X"
    short_numeric_dates: str = "month-day"
    min_leak_length: int = 3


@dataclass
class CorpusContext:
    """Original values of the whole corpus, which surrogates must avoid."""

    name_tokens: frozenset[str] = frozenset()
    values: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_documents(cls, documents: Iterable[Document]) -> CorpusContext:
        tokens: set[str] = set()
        values: dict[str, set[str]] = {}
        for document in documents:
            for annotation in document:
                kind = kind_of(annotation)
                values.setdefault(kind, set()).add(normalise(annotation.text))
                if kind in ("name", "username", "initials"):
                    # Also as a system without accents writes it: a patient Mónica's mother
                    # must not become "Monica" (the name, read so, is in the patient's notes).
                    for token in name_tokens(annotation.text):
                        tokens.update((token.lower(), without_diacritics(token).lower()))
        return cls(frozenset(tokens), {k: frozenset(v) for k, v in values.items()})

    def avoid(self, kind: str) -> frozenset[str]:
        return self.values.get(kind, frozenset())

    def place_words(self) -> frozenset[str]:
        """Every original place string of the corpus and each of its words (lower case)."""
        found: set[str] = set()
        for kind in PLACE_KINDS:
            for value in self.values.get(kind, ()):
                found.add(value)
                found.update(value.split())
        return frozenset(found)


@dataclass
class Surrogate:
    """The replacement of one annotation; ``review`` says why it was masked instead, ``note``
    why an unusual replacement was made (an impossible date repaired, a day read with its
    neighbours ...)."""

    text: str
    review: str | None = None
    note: str | None = None


class PatientSurrogates:
    """The surrogates of one patient's records.

    Parameters
    ----------
    patient_id:
        Seeds the patient's generator together with ``options.seed``.
    documents:
        The patient's records (read to pick a date shift that creates no collisions).
    """

    def __init__(
        self,
        patient_id: str,
        documents: list[Document],
        options: DeidOptions,
        context: CorpusContext,
    ) -> None:
        self.patient_id = patient_id
        self.options = options
        self.context = context
        seed = secret_seed() if options.seed is None else options.seed
        self.rng = random.Random(f"{seed}:{patient_id}")
        self.names = NameMapper(self.rng, context.name_tokens)
        for document in documents:
            for annotation in document:
                if kind_of(annotation) == "name" and not is_placeholder_tag(annotation):
                    self.names.learn(annotation.text)
        own_places = {
            w for d in documents for a in d if kind_of(a) in PLACE_KINDS for w in a.text.lower().split()
        }
        self.places = PlaceMapper(self.rng, context.place_words(), own_places)
        for document in documents:
            for annotation in document:
                if kind_of(annotation) == "location" and not is_placeholder_tag(annotation):
                    self.places.learn(
                        annotation.text, document.text[max(0, annotation.start - 8) : annotation.start]
                    )
        self._places: dict[tuple[int, int], tuple[str, str | None]] = {}
        self._names: dict[tuple[int, int], str] = {}
        self._memo: dict[tuple[str, str], str] = {}
        # One writer's convention for the whole patient: a "21/4/01" anywhere in their notes
        # makes their "3/4/01" 3 April too (read US style, the intervals between the dates
        # would be wrong, and the surrogate written month first in a day-first record).
        self.day_first = writes_day_first(
            a.text for d in documents for a in d if kind_of(a) == "date" and not is_placeholder_tag(a)
        )
        self._dates = self._parse_dates(documents)
        self._plans = {d.doc_id: self._plan_dates(d) for d in documents}
        resolve_centuries({id(p): p for plans in self._plans.values() for p, _ in plans.values()}.values())
        reference = min((d for p in self._dates.values() if p and (d := reference_date(p))), default=None)
        # Without any full date, year-less dates are read around 2002: it and the years
        # beside it have no 29 February, which a reader of such notes cannot place either.
        self.default_year = reference.year if reference else YEARLESS_YEAR
        self._note_dates = self._context_dates(documents)
        self._doc_id = ""
        self._text: str | None = None
        self._rendered: dict[int, list[str]] = {}
        self._current_dates: list[dt.date] = []
        self._years: dict[tuple[int, int], int] = {}
        self.shift = self._draw_shift(reference, documents)

    def _context_dates(self, documents: list[Document]) -> dict[str, list[dt.date]]:
        """The full dates a note's year-less dates are read against: the note's own, else the
        patient's (a reader of the patient's notes does the same), else one anchor date."""
        own = {d.doc_id: self._full_dates(d) for d in documents}
        patient = [day for d in documents for day in own[d.doc_id]]
        if not patient:
            for plan, _ in (p for d in documents for p in self._plans[d.doc_id].values()):
                first = plan.segments[0].parsed
                if first.month is not None and first.day is not None and (first.month, first.day) != (2, 29):
                    patient = [dt.date(self.default_year, first.month, first.day)]
                    break
        return {doc_id: dates or patient for doc_id, dates in own.items()}

    def begin_document(self, document: Document) -> None:
        """Dates without a year in this document are read in the year that puts them nearest
        to its own full dates (else the patient's)."""
        self._read_in(self._note_dates.get(document.doc_id, []))
        self._doc_id = document.doc_id
        self._text = document.text
        self._rendered = {}
        # A placeholder's words are its label: no place or name to plan around.
        tags = [a for a in document if not is_placeholder_tag(a)]
        self._places = plan_places(document, [a for a in tags if kind_of(a) == "location"], self.places)
        self._names = plan_names(document, [a for a in tags if kind_of(a) == "name"], self.names)

    def _plan_dates(self, document: Document) -> dict[tuple[int, int], tuple[DatePlan, int]]:
        tags = [a for a in document if kind_of(a) == "date" and not is_placeholder_tag(a)]
        plans = plan_document(document, tags, self.options.short_numeric_dates, self.day_first)
        return {key: (plan, index) for plan in plans for index, key in enumerate(plan.keys)}

    def _read_in(self, note_dates: list[dt.date]) -> None:
        # Each distinct date once, in order of first appearance (the first of equally near
        # dates still decides), and the year of each month and day worked out once: a long
        # note's thousands of dates would otherwise be compared with each other.
        self._current_dates = list(dict.fromkeys(note_dates))
        self._years = {}

    def _full_dates(self, document: Document) -> list[dt.date]:
        # Dates read with their neighbours count too ("21 Apr, 21" in three tags).
        plans = {id(plan): plan for plan, _ in self._plans.get(document.doc_id, {}).values()}
        ordered = sorted(plans.values(), key=lambda plan: plan.keys[0])
        return [day for plan in ordered for day in plan.full_dates()]

    def _year_for(self, parsed: ParsedDate) -> int:
        """The year a year-less date most likely has: the one that puts it nearest to a full
        date of the same note (so "11/24" beside "12/01/2093" is 2093-11-24, 7 days before)."""
        if parsed.year is not None:
            return parsed.year
        if parsed.month is None or not self._current_dates:
            return self.default_year
        day = parsed.day or 15
        known = self._years.get((parsed.month, day))
        if known is None:
            known = self._years[(parsed.month, day)] = self._nearest_year(parsed.month, day)
        return known

    def _nearest_year(self, month: int, day: int) -> int:
        best: tuple[int, int] | None = None
        for note_date in self._current_dates:
            for year in (note_date.year - 1, note_date.year, note_date.year + 1):
                try:
                    gap = abs((dt.date(year, month, day) - note_date).days)
                except ValueError:
                    continue  # 29 February in a common year
                if best is None or gap < best[0]:
                    best = (gap, year)
        return best[1] if best is not None else self.default_year

    # -- dates ---------------------------------------------------------------------------
    def _parse_dates(self, documents: list[Document]) -> dict[str, ParsedDate | None]:
        dates: dict[str, ParsedDate | None] = {}
        for document in documents:
            for annotation in document:
                if kind_of(annotation) == "date":
                    text = annotation.text.strip()
                    dates[text] = parse_date(text, self.options.short_numeric_dates, self.day_first)
        return dates

    def _draw_shift(self, reference: dt.date | None, documents: list[Document]) -> DateShift:
        # Intervals are kept, so a shift equal to the gap between two of the patient's own
        # dates would write one real date where the other stood: draw again.
        originals = {text.lower() for text, parsed in self._dates.items() if parsed and parsed.identifying}
        # And each tag a date plan reads where the parser alone does not (a zero-padded "04/01"
        # of a day-first writer): a shift of days only wrote it as "07/01", another of theirs.
        originals |= {text.lower() for text in self._planned_originals(documents)}
        # Each date as it will be read: a year-less one in its own note's year.
        # Each distinct (text, year) once: a long note repeats its dates.
        readings: dict[tuple[str, int], ParsedDate] = {}
        for document in documents:
            self._read_in(self._note_dates.get(document.doc_id, []))
            for annotation in document:
                text = annotation.text.strip()
                parsed = self._dates.get(text) if kind_of(annotation) == "date" else None
                if parsed is not None and parsed.identifying:
                    readings.setdefault((text, self._year_for(parsed)), parsed)
        span = self._yearless_span(documents) if reference is None else None
        self._read_in([])
        shift = draw_shift(self.rng, reference)
        for _ in range(50):
            shifted = {shift_date(parsed, shift, year).lower() for (_, year), parsed in readings.items()}
            shifted |= self._planned_texts(documents, shift) if originals else set()
            # A whole number of weeks would leave every weekday name as it was.
            if not shifted & originals and shift.total_days % 7 and not _spans_leap_day(span, shift):
                break
            shift = draw_shift(self.rng, reference)
        return shift

    def _planned_texts(self, documents: list[Document], shift: DateShift) -> set[str]:
        """What the date plans would write with ``shift`` (lower case): a day alone may be
        written with its month, and a date only a plan reads may be written as another of the
        patient's; neither may be one of the patient's original dates."""
        texts: set[str] = set()
        for document in documents:
            self._read_in(self._note_dates.get(document.doc_id, []))
            for plan in self._plans_to_check(document):
                texts.update(t.lower() for t in render_plan(plan, shift, self._year_for))
        self._read_in([])
        return texts

    def _planned_originals(self, documents: list[Document]) -> set[str]:
        """The numeric dates (a day and a month at least) among the tags of the plans
        :meth:`_planned_texts` renders. Not a weekday or a day alone: one of seven names or
        of 31 numbers repeats across a patient's notes by chance, and shunning each would
        leave no shift to draw."""
        texts = (
            plan.text[start:end].strip()
            for document in documents
            for plan in self._plans_to_check(document)
            for start, end in plan.spans
        )
        return {text for text in texts if _DAY_AND_MONTH.search(text)}

    def _plans_to_check(self, document: Document) -> list[DatePlan]:
        """The note's plans whose rendering the parser's reading does not foresee: a day alone
        written with its month, or an identifying date the parser alone leaves unread."""
        plans = {id(plan): plan for plan, _ in self._plans[document.doc_id].values()}
        return [
            plan
            for plan in plans.values()
            if any(segment.neighbour is not None for segment in plan.segments)
            or any(
                segment.parsed.identifying and self._dates.get(plan.text.strip()) is None
                for segment in plan.segments
            )
        ]

    def _yearless_span(self, documents: list[Document]) -> tuple[dt.date, dt.date] | None:
        """First and last day a patient's notes name, when none of them has a year."""
        days = []
        for document in documents:
            self._read_in(self._note_dates.get(document.doc_id, []))
            for plan, _ in self._plans[document.doc_id].values():
                for segment in plan.segments:
                    parsed = segment.parsed
                    if (
                        parsed.month is not None
                        and parsed.day is not None
                        and (parsed.month, parsed.day) != (2, 29)
                    ):
                        days.append(dt.date(self._year_for(parsed), parsed.month, parsed.day))
        return (min(days), max(days)) if days else None

    # -- one annotation ------------------------------------------------------------------
    def surrogate(self, annotation: Annotation) -> Surrogate:
        """The replacement text of an annotation (same leading/trailing blanks); masked when the
        type's surrogate would keep an identifying piece of the span (``Smith, John (MRN
        1234567)`` as a name keeps the number, ``95 yo Smith`` as an age keeps the name)."""
        made = self._replacement(annotation)
        if kept_tokens(annotation.text, made.text, kind_of(annotation)):
            return Surrogate(f"[**{annotation.type}**]", "the surrogate would keep part of the original span")
        return made

    def _replacement(self, annotation: Annotation) -> Surrogate:
        text = annotation.text
        core = text.strip()
        if not core:
            return Surrogate(text)
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        kind = kind_of(annotation)
        if kind == "review":
            return Surrogate(f"[**{annotation.type}**]", f"no surrogate generator for type {annotation.type}")
        if is_placeholder_tag(annotation):
            return self._placeholder(annotation, core, kind, lead, trail)
        if kind == "date":
            return self._date(annotation, core, lead, trail)
        if kind == "age":
            if _AGE_WORDS_OVER_89.search(core):
                return Surrogate(f"[**{annotation.type}**]", "age written in words, possibly over 89")
            return Surrogate(lead + _age(core) + trail)
        if kind == "name":
            # The name map keeps its own per-token memory and copies each token's case.
            start = annotation.start + len(lead)
            replaced = self._names.get((start, start + len(core))) or self.names.replace(core)
            if normalise(replaced) == normalise(core):
                # Never publish a "surrogate" that is the original (e.g. a lone initial and a
                # two-letter surname both kept): mask it and say so.
                return Surrogate(f"[**{annotation.type}**]", "no surrogate different from the original")
            return Surrogate(lead + replaced + trail)
        start = annotation.start + len(lead)
        if kind == "location" and (start, start + len(core)) in self._places:
            new, note = self._places[(start, start + len(core))]
            return Surrogate(lead + new + trail, note=note)
        if kind == "location" and self._text is not None and self._text[start : start + len(core)] == core:
            # Not planned: overlapping tags replaced as one region. Read as a phrase too, so
            # it is the place the patient's other notes name ("Kessler-Adventist Hosp" over
            # "Kessler-Adventist" and "Adventist Hosp" is their "Kessler Adventist").
            end = start + len(core)
            before, after = line_before(self._text, start, 40), line_after(self._text, end, 30)
            new, _, note = self.places.replace(core, before, after)
            return Surrogate(lead + new + trail, note=note)
        if kind == "state" and places.state_key(core) is not None:
            # The patient's one surrogate of this state, whatever type its other tags have.
            return Surrogate(lead + self.places.state(core) + trail)
        # A place however it is written ("St. Joseph Hosp", "Saint Joseph Hospital"; "MGH",
        # "Mgh") is one place: its first spelling's surrogate, in this one's case.
        key = (kind, _reading(kind)(core))
        if key not in self._memo:
            self._memo[key] = self._unused(kind, core)
        # "12 Elm St" after "12 Elm Street": the same street, its suffix as written here.
        made = places.street_in_form(core, self._memo[key]) if kind == "street" else self._memo[key]
        # "BOSTON" after "Boston": the same surrogate, in this occurrence's case.
        return Surrogate(lead + apply_case(core, made) + trail)

    def _placeholder(self, annotation: Annotation, core: str, kind: str, lead: str, trail: str) -> Surrogate:
        """A surrogate drawn from a placeholder's label; the same placeholder gets the same one."""
        key = ("placeholder", normalise(core))
        if key not in self._memo:
            made = self._from_label(core, kind)
            if made is None:
                return Surrogate(f"[**{annotation.type}**]", "a placeholder with no value to shift")
            self._memo[key] = made
        return Surrogate(lead + self._memo[key] + trail)

    def _from_label(self, core: str, kind: str) -> str | None:
        if kind == "date":
            value = numeric_date(core)
            parsed = parse_date(value, self.options.short_numeric_dates) if value else None
            return shift_date(parsed, self.shift, self._year_for(parsed)) if parsed else None
        if kind == "age":
            # "[**Age over 90 **]": as any age over 89 becomes 90 (Safe Harbor's top group).
            return "90" if "over 90" in core.lower() else None
        if kind == "name":
            # Each placeholder in its place, the gaps between kept ("[**Known lastname 1**],
            # [**Known firstname 2**]"); each keyed by itself as written, so the surname is the
            # same alone or in a full name, and its mixed case keeps the name's own.
            pieces, position = [], 0
            for match, role in zip(PLACEHOLDER.finditer(core), name_roles(core), strict=True):
                pieces.append(core[position : match.start()])
                if role == "initial":
                    pieces.append(self.names.initial(self.rng.choice("ABCDEFGHIJKLMNOPRSTW")) + ".")
                else:
                    pieces.append(self.names.token(match.group(), role))
                position = match.end()
            return "".join(pieces) + core[position:]
        if kind == "hospital" and tail(core):
            return self._generate(kind, "Mercy" + tail(core))  # "[**Hospital 1121**] Hospital"
        return self._generate(kind, PROTOTYPES[kind])

    def _date(self, annotation: Annotation, core: str, lead: str, trail: str) -> Surrogate:
        start = annotation.start + len(lead)
        planned = self._plans.get(self._doc_id, {}).get((start, start + len(core)))
        if planned is not None:
            plan, index = planned
            if id(plan) not in self._rendered:
                self._rendered[id(plan)] = render_plan(plan, self.shift, self._year_for)
            return Surrogate(lead + self._rendered[id(plan)][index] + trail, note=plan.note)
        parsed = self._dates.get(core) or parse_date(core, self.options.short_numeric_dates, self.day_first)
        if parsed is None:
            return Surrogate(f"[**{annotation.type}**]", "date format not recognised or ambiguous")
        return Surrogate(lead + shift_date(parsed, self.shift, self._year_for(parsed)) + trail)

    def _unused(self, kind: str, core: str) -> str:
        """A surrogate no other original of this kind has in the patient's notes (two hospitals
        given one name would read as one), drawn again while it is taken; generic department
        names are shared by design."""
        made = self._unlike(core, self._generate(kind, core), kind)
        if kind == "department":
            return made
        read = _reading(kind)
        taken = {read(value) for (other, _), value in self._memo.items() if other == kind}
        for _ in range(20):
            if read(made) not in taken:
                break
            made = self._unlike(core, self._generate(kind, core), kind)
        return made

    def _unlike(self, original: str, surrogate: str, kind: str) -> str:
        """A last guard: a surrogate equal to its original is re-drawn as random characters."""
        if kind == "department" or normalise(surrogate) != normalise(original):
            return surrogate
        for _ in range(20):
            candidate = random_like(original, self.rng)
            if normalise(candidate) != normalise(original):
                return candidate
        return f"[**{kind.upper()}**]"

    def _generate(self, kind: str, text: str) -> str:
        rng = self.rng
        avoid = self.context.avoid(kind)
        if kind == "initials":
            return "".join(self.names.initial(c) if c.isalpha() else c for c in text)
        if kind in ("id", "phone", "email", "url", "ip", "username"):
            make = {
                "id": shapes.id_like, "phone": shapes.phone_like, "email": shapes.email_like,
                "url": shapes.url_like, "ip": shapes.ip_like, "username": shapes.username_like,
            }[kind]  # fmt: skip
            candidate = make(text, rng)
            for _ in range(50):
                # A drawn group can repeat one of the original's by chance ("T6Y 9Z0" drew
                # "T6Y 8O7" once in 6,760): draw again rather than mask the tag.
                fresh = not kept_tokens(text, candidate, kind)
                if normalise(candidate) not in avoid and candidate != text and fresh:
                    break
                candidate = make(text, rng)
            return candidate
        if kind == "department":
            return places.department_like(text)
        if kind in ("hospital", "organization"):
            return places.institution_like(text, rng, kind, avoid)
        if kind == "city":
            # "Boston, MA": its state is the patient's one surrogate of MA.
            return places.city_like(text, rng, avoid, state_for=self.places.state)
        generators = {
            "street": places.street_like, "city": places.city_like, "state": places.state_like,
            "country": places.country_like, "profession": places.profession_like,
            "location": places.location_other_like,
        }  # fmt: skip
        return generators[kind](text, rng, avoid)


def _reading(kind: str) -> Callable[[str], str]:
    """How two originals (or surrogates) of ``kind`` are compared: a place by its words read
    alike, a state by the state it names (``MA``, ``Massachusetts``), a street with its suffix
    in full (``Elm St``, ``Elm Street``), the rest by their text."""
    if kind == "state":
        return lambda text: places.state_key(text) or places.place_key(text)
    if kind == "street":
        return places.street_key
    return places.place_key if kind in PLACE_KINDS else normalise


# Two numbers with something between: a numeric day and month at least ("04/01", "4.1.93").
_DAY_AND_MONTH = re.compile(r"\d+\D+\d+")


def _spans_leap_day(span: tuple[dt.date, dt.date] | None, shift: DateShift) -> bool:
    """Whether year-less dates moved by ``shift`` would span a 29 February: read without a
    year, their intervals would then be a day off."""
    if span is None:
        return False
    first, last = (day + dt.timedelta(days=shift.total_days) for day in span)
    return any(
        first <= dt.date(year, 2, 29) <= last
        for year in range(first.year, last.year + 1)
        if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    )


def _age(text: str) -> str:
    """Ages over 89 become 90 (HIPAA); the rest of the string stays (``92yo`` -> ``90yo``)."""
    match = _AGE_NUMBER.search(text)
    if match is None or not age_over(match.group(), 89):
        return text
    return text[: match.start()] + "90" + text[match.end() :]


def age_over(digits: str, limit: int) -> bool:
    """Whether a run of digits is a number over ``limit`` (a small limit): compared by length
    first, since int() refuses strings of more than 4,300 digits."""
    significant = digits.lstrip("0")
    return len(significant) > len(str(limit)) or int(significant or "0") > limit
