"""Rules for PHI with a well-known written form, beyond what one note style teaches (seed 003).

A CRF weighs only the features it saw in training: a model trained on notes that write
``03/09/2067`` has no weight for ``9.3.2067`` or ``30-NOV-2063``, whatever its templates say.
Public conventions do not depend on a note style, so these rules find them directly: dates
in numeric and month-name forms (validated ranges), ages before "yo"/"years old" or after
"Age:"/"aged" (also in words), international phone numbers and numbers announced by
"Tel"/"Mob"/"Fax", record and other identifiers announced by their label (MRN, Hosp no, Lab
no, Acct ...), street addresses, UK postcodes, US ZIP codes after a state, rooms and beds,
hospital names, occupations from the profession list after "works as" / "Occupation:", and
names where the note says whose name it is (:mod:`annotator.crf.name_labels`); such
evidence settles the type even where the tagger found the same span with another.

A rule span replaces the tagger's spans it contains (the tagger found a piece, ``61`` of
``+61 8 6204 1524``), and yields to any span it only partly overlaps.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache

from annotator.crf.features import is_public
from annotator.crf.field_rules import field_candidates, is_generic_unit
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import LEXICON_DIR, LEXICON_FILES, NAME_LEXICONS, default_lexicons, read_entries
from annotator.crf.name_labels import is_name_word, name_spans
from annotator.crf.phrase_rules import phrase_candidates
from annotator.crf.templates import MONTH, TENS, UNITS
from annotator.crf.tokenizer import note_words

FORMAT_CONFIDENCE = 0.95
ORIGIN = "format-rule"
SETTLING_ORIGIN = "label-rule"

# A date may end a sentence ("review on 2095.08.20."): a period after it is no part of a number.
_NUMERIC_DATE = re.compile(r"(?<![\w./:-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\w/%-]|\.\d|:\d)")
_ISO_DATE = re.compile(r"(?<![\w./-])(1[89]\d{2}|2[01]\d{2})([./-])(\d{1,2})\2(\d{1,2})(?![\w/-]|\.\d)")
_ORDINAL = r"(?:st|nd|rd|th|ST|ND|RD|TH)?"
# "Tue 9 Apr 2075": a weekday written before a date belongs to it (RFC 2822 and most record systems).
_WEEKDAY = r"(?:(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)\.?,?[ \t]+)?"
_YEAR = r"(?:\d{4}|'\d{2})"
_NAMED_DATES = (
    re.compile(
        rf"\b{_WEEKDAY}\d{{1,2}}{_ORDINAL}(?:[ \t]+(?:of|OF))?[ \t-]+{MONTH}\.?(?![A-Za-z])(?:,?[ \t-]+{_YEAR}\b|-\d{{2}}\b)?"
    ),
    re.compile(rf"\b{MONTH}\.?[ \t]+\d{{1,2}}{_ORDINAL}\b(?:,?[ \t]+{_YEAR}\b)?"),
    re.compile(rf"\b{MONTH}\.?,?[ \t-]+(?:of[ \t]+)?\d{{4}}\b"),
)
_MONTH_ABBREVIATION = re.compile(r"(?i:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)")
_AGE_WORD = rf"(?:{TENS}(?:[\s-]{UNITS})?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
_AGE_AFTER = r"(?=\s*-?\s*(?:y/?o\b|yo\b|y\.o\.|yrs?\b|years?[\s-]*old\b|year-old\b|yr-old\b|-year-old\b))"
_AGES = (
    re.compile(rf"(?i)\b(\d{{1,3}}|{_AGE_WORD}){_AGE_AFTER}"),
    re.compile(rf"(?i)\b(?:age|aged)\s*[:=]?\s*(\d{{1,3}}|{_AGE_WORD})\b(?![./:]\d)"),
    # "died at 71", "alive at 78 with ...".
    re.compile(
        rf"(?i)\b(?:died|alive|deceased|passed\s+away|diagnosed)\s+at\s+(?:age\s+)?(\d{{1,3}}|{_AGE_WORD})\b(?![./:]\d)"
    ),
    # "in her 50s", "in his early 70s".
    re.compile(r"(?i)\bin\s+(?:his|her|their)\s+(?:early\s+|mid-?\s*|late\s+)?([1-9]0'?s)\b"),
    # "a 69F with", "71 M": age and sex, a clinical shorthand.
    re.compile(r"(?<![\w./-])(\d{1,3})\s?(?=[MF]\b(?![./-]\w))"),
)
_PHONE_TRIGGER = (
    r"(?i:\b(tel|telephone|phone|ph|mob|mobile|cell|contact|pager|bleep|fax|facsimile"
    r"|call(?:[ \t]+(?:back|me|us))?|ring|reach(?:ed)?|(?:home|work)(?=[ \t]*:))\b(?:[ \t]+(?:on|at))?)"
)
_PHONES = (
    re.compile(r"(?<![\w+])()\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,5}(?:[\s.-]\d{2,6}){1,4}(?![\w-])"),
    re.compile(r"(?<![\w-])()1-\d{3}-\d{3}-\d{4}(?![\w-])"),
    re.compile(r"(?<![\w(-])()\(\d{3}\)\s?\d{3}[\s.-]\d{4}(?![\w-])"),
    re.compile(r"(?<![\w.-])()\d{3}([.-])\d{3}\2\d{4}(?![\w.-])"),
    re.compile(
        _PHONE_TRIGGER + r"[.:#]?\s*(?:no\.?\s*)?((?:\(\d{2,5}\)\s?)?\d{2,5}(?:[ .-]\d{2,6}){1,3})(?![\w-])"
    ),
)
# Short internal numbers after their label: "Pager 41872", "bleep 2608", "ext 219", "call me at 12088".
_SHORT_PHONE = re.compile(
    r"(?i:\b(?:bleep|pager|beeper)\b)\.?[ \t]*[:#]?[ \t]*(\d{4,5})(?![\w-])"
    r"|(?i:\b(?:ext|extension)\b)\.?[ \t]*[:#]?[ \t]*(\d{2,5})(?![\w-])"
    # Five digits, not four: "call at 1400" is a time.
    r"|(?i:\bcall(?:[ \t]+(?:me|us|back))?[ \t]+(?:at|on))[ \t]+(\d{5})(?![\w-])"
)
_ID_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("MEDICALRECORD", r"MRN|MR\s*#|medical\s+record(?:\s+(?:number|no\.?))?|hosp(?:ital)?\s+(?:no|number)\.?|unit\s+(?:no|number)\.?|record\s+(?:no|number)\.?|chart\s+(?:no|number)\.?"),
    ("ACCOUNT", r"acct|account(?:\s+(?:no|number))?\.?"),
    ("LICENSE", r"licen[cs]e(?:\s+(?:no|number))?\.?"),
    ("HEALTHPLAN", r"policy(?:\s+(?:no|number))?\.?|member\s+(?:id|no)\.?|insurance\s+(?:id|no)\.?"),
    ("IDNUM", r"ID|lab\s+no\.?|accession(?:\s+no)?\.?|specimen\s+(?:no|id)\.?|ref(?:erence)?(?:\s+no)?\.?"),
)  # fmt: skip
_ID_VALUE = r"\s*[:#.]?\s*#?([A-Za-z0-9][A-Za-z0-9/-]{2,}[A-Za-z0-9])\b"
_IDS = tuple((kind, re.compile(rf"(?i:\b(?:{trigger}))" + _ID_VALUE)) for kind, trigger in _ID_TRIGGERS)
_STREET_SUFFIX = (
    r"(?i:street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|court|ct|place|pl|terrace|crescent|close|grove"
    r"|mews|boulevard|blvd|parkway|pkwy|highway|hwy|square|sq|row|gardens|walk|circle|cir|parade|esplanade|quay"
    r"|wharf|circuit|alley)"
)
# "Unit 40, 2416 Thériault Rd": a unit before the number, accented letters in the name.
_STREET = re.compile(
    rf"\b(?:(?i:unit|apt|apartment|flat|suite)[ \t]*\d+[A-Z]?,?[ \t]+)?\d{{1,5}}[ \t]+"
    rf"(?:[A-ZÀ-ÖØ-Þ][A-Za-zÀ-ÖØ-öø-ÿ'’]+[ \t]+){{1,3}}{_STREET_SUFFIX}\b\.?"
)
# Rural routes and post-office boxes: "RR 2, Site 3", "PO Box 118".
# (A bare "RR 12" is a respiratory rate: a rural route needs its site or its full name.)
_RURAL = re.compile(
    r"\b(?:(?:RR|R\.R\.)[ \t]*\d+(?:,[ \t]*(?:Site|Comp|Box)[ \t]*\d+)+|Rural[ \t]+Route[ \t]*\d+"
    r"(?:,[ \t]*(?:Site|Comp|Box)[ \t]*\d+)*)|\bP\.?O\.?[ \t]+Box[ \t]+\d+"
)
# The town after a street or a hospital: "12 Elm Street, Springfield, MA", "Mercy Hospital, Boston".
_TOWN = r"([A-Z][A-Za-z'’-]+(?: [A-Z][A-Za-z'’-]+)?)"
_TOWN_AFTER = re.compile(rf", {_TOWN}(?=,|\n|$| [A-Z]{{2,3}}\b|\s*\()")
_LIVES_IN = re.compile(
    rf"(?i:\b(?:lives|living|resides|residing|moved|relocated|home)\b)[^.\n]{{0,45}}?\b(?:in|to|at) {_TOWN}(?![\w'])"
)
EMAIL_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
# A web address with its scheme or "www.": one span whatever the tagger cut out of it ("P/1765").
URL_WITH_SCHEME = re.compile(r"\b(?i:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:)]")
_UK_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b")
_US_ZIP = re.compile(r"(?<=\b[A-Z]{2}\s)\d{5}(?:-\d{4})?\b")
# "Springfield, IL 62704": a state abbreviation between a comma and a ZIP code.
_STATE_BEFORE_ZIP = re.compile(r"(?<=, )([A-Z]{2})(?=[ \t]+\d{5}(?:-\d{4})?\b)")
_ORGANIZATION = re.compile(
    r"\b(?!(?:The|This|That|Our|Your|His|Her|Their|A|An|Local|Other|Any)\b)(?:[A-Z][A-Za-z'’&-]+[ \t]+){1,3}"
    r"(?:Inc\.?|LLC|Ltd\.?|Corporation|Corp\.?|Company|Insurance|Bank|University|College|School|Church"
    r"|District|Telephone|Freight|Laboratories|Industries|Foundation|Council|Airlines|Railway|Construction|Roofing"
    r"|Plumbing|Electrical|Transport|Logistics|Motors|Farms?|Dairy|Fisheries|Seafoods?|Foods|Bakery|Club|Brothers"
    r"|Bros\.?|Co-op|Cooperative|Joinery|Builders|Mining|Mills|Holdings)\b"
)
# "room 3.27": a building's floor and room.
_ROOM = re.compile(r"(?i:\b(?:room|rm|bed|bay)\b)\s*[:#.]?\s*(\d{1,4}(?:\.\d{1,3}(?!\.?\d))?[A-Z]?)\b")
_NOT_A_NAME = (
    r"(?!(?:The|This|That|Our|Your|His|Her|Their|A|An|Same|Local|Other|Community|Any|To|From|At|In)\b)"
)
_HOSPITAL = re.compile(
    rf"\b(?:S[Tt]\.?[ \t]+)?{_NOT_A_NAME}(?:[A-Z][A-Za-z'’-]+[ \t]+){{1,3}}"
    r"(?:Hospital|Health[ \t]+System|Health[ \t]+Services?|HEALTH[ \t]+SERVICES?|Medical[ \t]+Cent(?:er|re)|Infirmary|Health[ \t]+Cent(?:er|re)|Hospice"
    r"|Medical[ \t]+Group|Family[ \t]+Practice|FAMILY[ \t]+PRACTICE|HOSPITAL|INFIRMARY|HOSPICE|HEALTH[ \t]+SYSTEM|HEALTH[ \t]+CENT(?:ER|RE)|MEDICAL[ \t]+(?:CENT(?:ER|RE)|GROUP))\b"
)
_WORK_TRIGGER = re.compile(
    r"(?i)\b(?:works?\s+as|worked\s+as|employed\s+as|occupation|profession|job|retired|ex(?=-))\s*[:-]?\s*(?:an?\s+)?"
)


# Key words: every match of the pattern beside them holds one as a whole word (lower-cased),
# so a note without any is not scanned (annotator.crf.tokenizer.note_words).
_AGE_KEYS: tuple[frozenset[str] | None, ...] = (
    None,
    frozenset({"age", "aged"}),
    frozenset({"died", "alive", "deceased", "passed", "diagnosed"}),
    frozenset({"his", "her", "their"}),
    None,
)
_SHORT_PHONE_KEYS = frozenset({"bleep", "pager", "beeper", "ext", "extension", "call"})
_STREET_KEYS = frozenset(re.findall(r"[a-z]+", _STREET_SUFFIX.removeprefix("(?i:")))
_RURAL_KEYS = frozenset({"rr", "r", "rural", "box"})
_LIVES_KEYS = frozenset({"lives", "living", "resides", "residing", "moved", "relocated", "home"})
_ORGANIZATION_KEYS = frozenset(
    [
        "inc",
        "llc",
        "ltd",
        "corporation",
        "corp",
        "company",
        "insurance",
        "bank",
        "university",
        "college",
        "school",
        "church",
        "district",
        "telephone",
        "freight",
        "laboratories",
        "industries",
        "foundation",
        "council",
        "airlines",
        "railway",
        "construction",
        "roofing",
        "plumbing",
        "electrical",
        "transport",
        "logistics",
        "motors",
        "farm",
        "farms",
        "dairy",
        "fisheries",
        "seafood",
        "seafoods",
        "foods",
        "bakery",
        "club",
        "brothers",
        "bros",
        "co",
        "cooperative",
        "joinery",
        "builders",
        "mining",
        "mills",
        "holdings",
    ]
)
_ROOM_KEYS = frozenset({"room", "rm", "bed", "bay"})
_HOSPITAL_KEYS = frozenset({"hospital", "health", "medical", "infirmary", "hospice", "family"})
_WORK_KEYS = frozenset(
    {"works", "work", "worked", "employed", "occupation", "profession", "job", "retired", "ex"}
)


@cache
def _professions() -> frozenset[str]:
    files = LEXICON_FILES["PROFESSION"][0]
    return frozenset(e.lower() for name in files for e in read_entries(LEXICON_DIR / name))


_COUNTRY_CANDIDATE = re.compile(r"\b[A-Z][A-Za-z]+(?:[ \t]+(?:of[ \t]+)?[A-Z][A-Za-z]+){0,2}\b")


def _countries(text: str) -> Iterator[tuple[str, int, int]]:
    """Country names of the country list, capitalised, that are not also person names (Jordan, Chad)."""
    lexicons = default_lexicons()
    for match in _COUNTRY_CANDIDATE.finditer(text):
        words = match.group().split()
        # The longest leading run of words that is a country ("Cape Verde", "Ireland").
        for size in range(len(words), 0, -1):
            phrase = " ".join(words[:size])
            if _is_country(phrase) and not (
                size == 1 and any(lexicons.contains(n, phrase) for n in NAME_LEXICONS)
            ):
                yield "COUNTRY", match.start(), match.start() + len(phrase)
                break


@cache
def _country_names() -> frozenset[str]:
    files = LEXICON_FILES["COUNTRY"][0]
    return frozenset(e.lower() for name in files for e in read_entries(LEXICON_DIR / name)) | {
        "usa",
        "u.s.a.",
        # The nations of the United Kingdom, named as countries in notes ("Born in Scotland").
        "england",
        "scotland",
        "wales",
        "northern ireland",
    }


def _is_country(phrase: str) -> bool:
    return phrase.lower() in _country_names()


# "23 yrs ago", "smoker x 20 yrs", "approx 3yrs", "girlfriend of 20yrs": how long, not how old
# (on the PhysioNet training patients, all 12 wrong age matches were these).
_YEARS_GONE_BEFORE = re.compile(r"(?i)(?:\bx|\bapprox\.?|\bof|\bfor|\bover|\bsince|\bpast|\blast)[ \t]*\Z")
_YEARS_GONE_AFTER = re.compile(r"(?i)[ \t]*-?[ \t]*(?:yrs?|years?)\.?[ \t]+ago\b")


def _is_duration(text: str, start: int, end: int) -> bool:
    """Whether the number at ``start:end`` counts years gone by rather than a person's age."""
    return bool(
        _YEARS_GONE_BEFORE.search(text, max(0, start - 10), start) or _YEARS_GONE_AFTER.match(text, end)
    )


def _valid_day_month(first: int, second: int) -> bool:
    return (1 <= first <= 31 and 1 <= second <= 12) or (1 <= first <= 12 and 1 <= second <= 31)


def _candidates(text: str) -> Iterator[tuple[str, int, int]]:
    for match in _NUMERIC_DATE.finditer(text):
        year = match.group(4)
        if _valid_day_month(int(match.group(1)), int(match.group(3))) and (
            len(year) == 2 or 1800 <= int(year) <= 2199  # "co/ci/svr 3/2/1500" has no year
        ):
            yield "DATE", match.start(), match.end()
    for match in _ISO_DATE.finditer(text):
        if 1 <= int(match.group(3)) <= 12 and 1 <= int(match.group(4)) <= 31:
            yield "DATE", match.start(), match.end()
    for pattern in _NAMED_DATES:
        for match in pattern.finditer(text):
            end = match.end()
            # "Jan." keeps its period; "January." and "May." end a sentence.
            if text[end - 1] == "." and not _MONTH_ABBREVIATION.fullmatch(
                re.findall(r"[A-Za-z]+", match.group())[-1]
            ):
                end -= 1
            yield "DATE", match.start(), end
    present = note_words(text)
    for pattern, keys in zip(_AGES, _AGE_KEYS, strict=True):
        if keys is not None and present.isdisjoint(keys):
            continue
        for match in pattern.finditer(text):
            value = match.group(1)
            if (not value.isdigit() or int(value) <= 120) and not _is_duration(text, *match.span(1)):
                yield "AGE", match.start(1), match.end(1)
    for pattern in _PHONES:
        for match in pattern.finditer(text):
            start, end = (
                (match.start(), match.end()) if not match.group(1) else match.span(match.lastindex or 0)
            )
            span = text[start:end]
            if sum(c.isdigit() for c in span) < 7:
                continue
            trigger = match.group(1) or ""
            # "fax" just before the number, with no other number in between.
            before = re.split(r"\d", text[max(0, start - 25) : start])[-1].lower()
            fax = trigger.lower() in ("fax", "facsimile") or "fax" in before
            yield ("FAX" if fax else "PHONE"), start, end
    for match in _SHORT_PHONE.finditer(text) if not present.isdisjoint(_SHORT_PHONE_KEYS) else ():
        # The label says what it is: a bleep number is no year, whatever the tagger thought.
        yield "PHONE!", match.start(match.lastindex or 0), match.end(match.lastindex or 0)
    for kind, pattern in _IDS:
        for match in pattern.finditer(text):
            if sum(c.isdigit() for c in match.group(1)) >= 4:
                yield kind, match.start(1), match.end(1)
    for match in EMAIL_ADDRESS.finditer(text):
        yield "EMAIL", match.start(), match.end()
    for match in URL_WITH_SCHEME.finditer(text):
        yield "URL", match.start(), match.end()
    for match in _STREET.finditer(text) if not present.isdisjoint(_STREET_KEYS) else ():
        yield "STREET", match.start(), match.end()
        town = _TOWN_AFTER.match(text, match.end())
        if town:
            yield "CITY", town.start(1), town.end(1)
    for match in _RURAL.finditer(text) if not present.isdisjoint(_RURAL_KEYS) else ():
        yield "STREET", match.start(), match.end()
    for match in _LIVES_IN.finditer(text) if not present.isdisjoint(_LIVES_KEYS) else ():
        if all(is_name_word(w) or w.isupper() for w in match.group(1).split()):
            yield "CITY", match.start(1), match.end(1)
    for match in _UK_POSTCODE.finditer(text):
        yield "ZIP", match.start(), match.end()
    for match in _US_ZIP.finditer(text):
        yield "ZIP!", match.start(), match.end()
    lexicons = default_lexicons()
    for match in _STATE_BEFORE_ZIP.finditer(text):
        if lexicons.contains("STATE_ABBR", match.group(1)):
            yield "STATE", match.start(1), match.end(1)
    for match in _ORGANIZATION.finditer(text) if not present.isdisjoint(_ORGANIZATION_KEYS) else ():
        yield "ORGANIZATION!", match.start(), match.end()  # its last word says what it is
    yield from _countries(text)
    for match in _ROOM.finditer(text) if not present.isdisjoint(_ROOM_KEYS) else ():
        yield "ROOM", match.start(1), match.end(1)
    for match in _HOSPITAL.finditer(text) if not present.isdisjoint(_HOSPITAL_KEYS) else ():
        yield "HOSPITAL", match.start(), match.end()
        town = _TOWN_AFTER.match(text, match.end())
        if town:
            yield "CITY", town.start(1), town.end(1)
    professions = _professions()
    for match in _WORK_TRIGGER.finditer(text) if not present.isdisjoint(_WORK_KEYS) else ():
        words = list(re.finditer(r"[A-Za-z][A-Za-z'-]*", text[match.end() : match.end() + 60]))
        for size in (3, 2, 1):
            if len(words) >= size:
                phrase = " ".join(w.group() for w in words[:size]).lower()
                if phrase in professions:
                    yield "PROFESSION", match.end() + words[0].start(), match.end() + words[size - 1].end()
                    break
    yield from field_candidates(text)
    yield from phrase_candidates(text)


def format_rule_predictions(text: str, allowed: Iterable[str] | None = None) -> list[Prediction]:
    """Every rule span, earlier and longer first; overlapping rule spans are dropped."""
    allowed_set = set(allowed) if allowed is not None else None
    found: list[Prediction] = []
    last_end = -1
    candidates = [(kind, start, end, ORIGIN) for kind, start, end in _candidates(text)]
    candidates += [(kind, start, end, SETTLING_ORIGIN) for kind, start, end in name_spans(text)]
    # A kind ending in "!" settles the type like a name label does (a ZIP code after a state).
    candidates = [
        (kind.rstrip("!"), start, end, SETTLING_ORIGIN if kind.endswith("!") else origin)
        for kind, start, end, origin in candidates
    ]
    # At one start, the longer span first, and of equal spans the one whose label settles the type.
    for kind, start, end, origin in sorted(
        candidates, key=lambda c: (c[1], -(c[2] - c[1]), c[3] != SETTLING_ORIGIN)
    ):
        if end <= start or start < last_end or (allowed_set is not None and kind not in allowed_set):
            continue
        found.append(Prediction(kind, start, end, FORMAT_CONFIDENCE, origin))
        last_end = end
    return found


def apply_format_rules(
    text: str, predictions: list[Prediction], allowed: Iterable[str] | None = None
) -> list[Prediction]:
    """Predictions with the rule spans added: a rule span replaces the spans inside it.

    A tagger span that holds a rule span and more stands (``John Smith`` over a rule's
    ``Smith``). One that only crosses a rule span's edge ran past its own end into the
    rule's PHI (``Elmhurst Hospital around New`` over ``New Year's Day``): it is cut back to
    the side outside the rule span.
    """
    ordered = sorted(predictions, key=lambda p: (p.start, p.end))
    starts = [p.start for p in ordered]
    removed: set[int] = set()
    added: list[Prediction] = []
    for rule in format_rule_predictions(text, allowed):
        # Predictions are nearly disjoint: the ones overlapping start just before the rule's end.
        high = bisect.bisect_left(starts, rule.end)
        low = high
        while low > 0 and ordered[low - 1].end > rule.start:
            low -= 1
        overlapping = [
            i
            for i in range(low, high)
            if ordered[i].end > rule.start and ordered[i].start < rule.end and i not in removed
        ]
        holding = [
            i
            for i in overlapping
            if ordered[i].start <= rule.start
            and ordered[i].end >= rule.end
            and (ordered[i].start, ordered[i].end) != (rule.start, rule.end)
        ]
        if any(not _excess_is_noise(text, ordered[i], rule) for i in holding):
            continue
        if rule.origin != SETTLING_ORIGIN and any(
            (ordered[i].start, ordered[i].end) == (rule.start, rule.end) for i in overlapping
        ):
            continue  # the tagger found this very span: its type stands (a name label settles it)
        crossing = [i for i in overlapping if ordered[i].start < rule.start or ordered[i].end > rule.end]
        if rule.origin == SETTLING_ORIGIN and any(i not in holding for i in crossing):
            continue  # a label's name or type evidence does not cut what the tagger found
        for i in overlapping:
            outside = None if i in holding else _outside(text, ordered[i], rule)
            if outside is not None:
                ordered[i] = outside  # its start is unchanged or later: ``starts`` stays a lower bound
            else:
                removed.add(i)
        added.append(rule)
    return [p for i, p in enumerate(ordered) if i not in removed] + added


# Function words a tagger span may run on into at a cut ("Hospital around New").
_FUNCTION_WORDS = frozenset(
    {"around", "about", "in", "on", "at", "of", "the", "and", "with", "for", "from", "to", "since", "by"}
)
_FUNCTION_WORD = "|".join(sorted(_FUNCTION_WORDS))
_TRAILING_WORDS = re.compile(rf"(?:[\s,;:(/-]+(?:{_FUNCTION_WORD}))*[\s,;:(/-]*$")
_LEADING_WORDS = re.compile(rf"^[\s,;:)/-]*(?:(?:{_FUNCTION_WORD})[\s,;:)/-]+)*")


# Words a tagger span runs on into after a place's name: a heading, a field, a kind of service.
_HEADING_WORDS = frozenset(
    {"outpatient", "inpatient", "primary", "care", "emergency", "radiology", "accession", "note", "record",
     "summary", "discharge", "fax", "tel", "phone", "mobile", "theatre", "admission", "progress", "report"}
)  # fmt: skip


def _excess_is_noise(text: str, prediction: Prediction, rule: Prediction) -> bool:
    """Whether what a tagger span holds beyond a (non-name) rule span is no PHI: then the rule wins."""
    if prediction.origin == "cut-by-rule":
        return True
    if rule.type in ("PATIENT", "DOCTOR", "USERNAME"):
        return False
    excess = text[prediction.start : rule.start] + " " + text[rule.end : prediction.end]
    words = re.findall(r"[A-Za-z]+", excess)
    return bool(words) and all(
        w.lower() in _GENERIC_PLACE_WORDS
        or w.lower() in _HEADING_WORDS
        or w.lower() in _FUNCTION_WORDS
        or (len(w) > 1 and w.isupper() and is_public(w.lower()))
        for w in words
    )


_NUMBER_TYPES = frozenset(
    {"PHONE", "FAX", "AGE", "ZIP", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "DEVICE", "BIOID", "IDNUM",
     "SSN", "VEHICLE", "IPADDR"}
)  # fmt: skip


def _outside(text: str, prediction: Prediction, rule: Prediction) -> Prediction | None:
    """The part of a tagger span outside the rule span it crosses, without edge function words."""
    if prediction.start < rule.start:
        start, end = prediction.start, rule.start
        end = start + _TRAILING_WORDS.search(text[start:end]).start()  # type: ignore[union-attr]
    elif prediction.end > rule.end:
        start, end = rule.end, prediction.end
        start += _LEADING_WORDS.match(text[start:end]).end()  # type: ignore[union-attr]
    else:
        return None  # inside the rule span
    if not any(c.isalnum() for c in text[start:end]):
        return None
    if prediction.type in _NUMBER_TYPES and not any(c.isdigit() for c in text[start:end]):
        return None  # "Fax" left of a phone number cut away: a number's remnant without digits
    return replace(prediction, start=start, end=end, origin="cut-by-rule")


# Words that name a kind of place, not a place: "Hospital Discharge", "INTER-HOSPITAL TRANSFER".
_GENERIC_PLACE_WORDS = frozenset(
    [
        "hospital",
        "hospitals",
        "clinic",
        "clinics",
        "infirmary",
        "medical",
        "center",
        "centre",
        "health",
        "system",
        "inter",
        "unit",
        "ward",
        "department",
        "dept",
        "surgery",
        "the",
        "general",
    ]
)
_PLACE_TYPES = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT"})


def _generic(span: str) -> bool:
    words = re.findall(r"[A-Za-z]+", span)
    if all(w.lower() in _GENERIC_PLACE_WORDS for w in words):
        return True
    # An all-caps run of common words is a heading ("DISCHARGE SUMMARY"), not a place.
    return len(words) >= 2 and span.isupper() and all(is_public(w.lower()) for w in words)


def drop_generic_places(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """Drop place spans made only of generic words or heading words (they name no place), and
    units named only by the generic department list ("Postanesthesia Care Unit")."""
    return [
        p
        for p in predictions
        if p.type not in _PLACE_TYPES
        or not (
            _generic(text[p.start : p.end])
            or (_GENERIC_UNIT_END.search(text, p.start, p.end) and is_generic_unit(text[p.start : p.end]))
        )
    ]


_GENERIC_UNIT_END = re.compile(r"(?i)\b(?:unit|suite|ward|department|dept|program)$")


_FRACTION = re.compile(r"^(\d{1,3})/(\d{1,3})$")
# "x2/7", "for 3/12", "in 6/52": days, months and weeks written as fractions (British notes).
_DURATION_BEFORE = re.compile(r"(?i)(?:\bx|\bfor|\bin|\bover|\bpast|\blast|\bnext|\bwithin)\s*$")
# Ventilator settings and pain scores written as fractions ("PSV 10/5", "cpap/ps (10/5)",
# "flowby 6/3", "pain 8/10"): nursing notes write them daily.
_SETTING_BEFORE = re.compile(
    r"(?i)\b(?:psv?|cpap|bipap|peep|flow-?by|simv|imv|vent|settings?|wean(?:ed)?\s+(?:down\s+)?to|pain|rating|rates?|cp|angina)\b[^a-z0-9]*(?:\d+(?:x\d+)?%?[ ,&]*)*[^a-z0-9]*$"
)


_DIGIT_GROUPS = re.compile(r"^(\d+)/(\d+)$")


def _implausible_date(span: str, before: str) -> bool:
    groups = _DIGIT_GROUPS.match(span)
    if groups and (len(groups.group(1)) > 2 or len(groups.group(2)) > 4 or len(groups.group(2)) == 3):
        # "6241/09576": no day, month and year give these lengths (a month and a year is "2/2072").
        return not (len(groups.group(1)) == 4 and len(groups.group(2)) <= 2)
    fraction = _FRACTION.match(span)
    if fraction:
        first, second = int(fraction.group(1)), int(fraction.group(2))
        if fraction.group(2) in ("7", "12", "52") and _DURATION_BEFORE.search(before):
            return True
        if _SETTING_BEFORE.search(before):
            return True
        month_year = 1 <= first <= 12 and len(fraction.group(2)) == 2
        return not (_valid_day_month(first, second) or month_year)
    # A four-digit number that is no year of a date (a clock time: "0300").
    return span.isdigit() and len(span) == 4 and not 1800 <= int(span) <= 2199


def drop_implausible_dates(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """Drop dates no calendar has: ``120/80``, ``14/15``, ``0300``, durations ``x2/7``."""
    return [
        p
        for p in predictions
        if p.type != "DATE"
        or not _implausible_date(text[p.start : p.end], text[max(0, p.start - 30) : p.start])
    ]


_ARTICLE = re.compile(r"(?i)(?:an?|the)\s+")


def strip_articles(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """An occupation starts after its article: "Works as a [janitor]" (guidelines, section 4)."""
    result = []
    for prediction in predictions:
        if prediction.type == "PROFESSION":
            article = _ARTICLE.match(text, prediction.start, prediction.end)
            if article and article.end() < prediction.end:
                prediction = replace(prediction, start=article.end())
        result.append(prediction)
    return result
