"""Rules for PHI that running prose announces by its phrasing, in any note style.

:mod:`annotator.crf.format_rules` finds PHI by its written form and
:mod:`annotator.crf.field_rules` by a record field's label; these read the phrases of
ordinary English around it, which every note style shares:

* dates without a year or a day: ``mid-February``, ``the summer of 2088``, ``Autumn '85``,
  ``dx '85``, ``On 1/20,``, ``for 5/23``, weekdays (``DVT FRIDAY``) and holidays with a year
  (``New Year's Day 2066``);
* occupations in any words, where the sentence says it is one: ``Works as a crane operator``,
  ``Occupation: publican``, ``Ex-sheep farmer, now retired``, ``this 74yo postman, who works
  for``; and the employer after it: ``who works for Oakhurst Dairy Co-op``;
* the state after a town: ``Lives in Newside, NM with``; hospitals by acronym where the
  sentence says one is meant (``presents to NHC``, ``s/p CABG at ECH``, ``BRMC RADIOLOGY``)
  and by their usual names (``Stonewall Clinic``, ``Mercy Fernleigh``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from annotator.crf.field_rules import generic_unit_words, is_generic_unit, state_names
from annotator.crf.lexicons import LEXICON_DIR, LEXICON_FILES, read_entries
from annotator.crf.name_labels import is_name_word
from annotator.crf.templates import MONTH
from annotator.crf.tokenizer import note_words

Candidate = tuple[str, int, int]

_YEAR = r"(?:\d{4}|['’]\d{2})"
_SEASON_YEAR = re.compile(rf"(?i:\b(?:spring|summer|autumn|fall|winter)(?:[ \t]+of)?)[ \t]+{_YEAR}(?![\w'’])")
_MID_MONTH = re.compile(rf"\b(?i:mid|early|late)-{MONTH}\b(?:,?[ \t]+{_YEAR}(?![\w'’]))?")
# "dx '85", "CABG '66": an apostrophe and two digits name a year (5'10" has a letter or digit before).
_SHORT_YEAR = re.compile(r"(?<![\w'’])['’]\d{2}(?![\w'’\"”])")
_WEEKDAY = re.compile(
    r"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|(?:MON|TUES|WEDNES|THURS|FRI|SATUR|SUN)DAYS?"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b"
)
# "since the spring", "last winter": a season named as a time (not "the fall", a fall).
_SEASON = re.compile(
    r"(?i:\b(?:the|last|this|next|early|late)[ \t]+)((?i:spring|summer|autumn|winter))\b(?![ \t-]*(?:roll|onion|squash|coat|tyre))"
)
# "On 1/20,", "around 9/25", "for 5/23.": a month and day after a word that dates something.
_MONTH_DAY = re.compile(
    r"(?i:\b(?:on|around|since|until|till|by|from|before|after|dated|starting|through|thru|due|of|for"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day,?)[ \t]+)"
    r"(\d{1,2})/(\d{1,2})(?![\w/]|\.\d|[ \t]*(?i:tabs?|tablets?|hours?|hrs?|days?|wks?|weeks?|months?|mg|ml|doses?"
    r"|strength|units?|cups?|glass|of\b|dose|pt|pts|points?))"
)
_HOLIDAY_YEAR = r"(?:[ \t]+\d{4}\b)?"
# "started 2/2072": a month and a four-digit year.
_MONTH_YEAR = re.compile(r"(?<![\w/.-])(\d{1,2})/((?:19|20|21)\d{2})(?![\w/.-])")
# A table's header row of dates: "   8/16     9/1     9/12" (two or more, nothing else on the line).
_DATE_ROW = re.compile(r"^[ \t]*\d{1,2}/\d{1,2}(?:[ \t]+\d{1,2}/\d{1,2})+[ \t]*$", re.MULTILINE)

_WORK_AS = re.compile(
    r"(?i:\b(?:works?|worked|working|employed|job|trained|retired)[ \t]+as|\boccupation[ \t]*[:-]|\bprofession[ \t]*[:-]"
    r"|\bjob[ \t]*:)[ \t]*(?:(?i:an?|the)[ \t]+)?"
)
_EX_JOB = re.compile(r"(?i:\bex-)")
# "shifts as crane operator", "who is a locksmith", "57 years old man, tattoo artist (": an
# occupation where English puts one; its last word must be on the occupation list.
_LISTED_JOB_CONTEXT = re.compile(
    r"(?i:\bas|\bwho[ \t]+(?:is|was)|\b(?:man|woman|male|female|gentleman|lady|patient|person|mother|father),)"
    r"[ \t]+(?:(?i:an?|the)[ \t]+)?(?=[a-z])"
)
_BEFORE_WHO_WORKS = re.compile(r"(?=,?[ \t]+who[ \t]+(?:works|worked|is[ \t]+employed)\b)")
_OCCUPATION_WORDS = re.compile(r"[a-z][a-z'-]*(?:[ \t]+[a-z][a-z'-]*){0,2}", re.IGNORECASE)
_NOT_OCCUPATION = frozenset(
    {
        "smoker", "drinker", "user", "partner", "member", "brother", "sister", "mother", "father",
        "daughter", "other", "number", "fever", "ulcer", "never", "ever", "later", "after", "over",
        "under", "water", "paper", "usual", "well", "before", "better", "wife", "husband",
    }
)  # fmt: skip
_STOP_AFTER_JOB = frozenset(
    {"at", "for", "in", "with", "and", "since", "until", "but", "on", "from", "who", "now", "part",
     "full", "before", "when", "while", "of", "to", "by", "as"}
)  # fmt: skip
_OCCUPATION_SUFFIXES = (
    "er",
    "or",
    "ist",
    "ian",
    "man",
    "men",
    "woman",
    "ant",
    "ent",
    "eer",
    "smith",
    "wright",
    "hand",
)

_EMPLOYER_TRIGGER = re.compile(
    r"(?i:\b(?:works?|worked|working)[ \t]+(?:for|at)|\bemployed[ \t]+(?:by|at)|\bemployer[ \t]*[:-])[ \t]*"
)
_PROPER_PHRASE = re.compile(r"(?:[A-Z][\w'’-]*|&)(?:[ \t]+(?:[A-Z][\w'’-]*|&|and|of|the))*(?<=[\w'’])")
_HEALTH_WORDS = re.compile(r"(?i:\b(?:hospital|clinic|infirmary|medical|health|surgery|hospice)\b)")

_TOWN = r"[A-Z][A-Za-z'’-]+(?:[ \t][A-Z][A-Za-z'’-]+)?"
_TOWN_STATE = re.compile(
    rf"\b(in|near|from|to|at|of)[ \t]+({_TOWN}),[ \t]+([A-Z]{{2}}|[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)(?![\w.])"
)
# Abbreviations that are also degrees or diagnoses: a state only where someone lives.
_AMBIGUOUS_STATES = frozenset(
    {"MD", "DO", "PA", "MI", "OR", "IN", "ME", "OK", "HI", "CT", "MS", "AL", "LA", "CO", "DE", "GA", "ND", "SD",
     "NE", "VA", "MA", "MO", "ID", "PR", "SC", "NC", "MT", "UT"}
)  # fmt: skip
_LIVES_BEFORE = re.compile(
    r"(?i:\b(?:lives|living|lived|resides|residing|moved|relocated|born|raised|grew[ \t]+up|home|from)\b)[^.\n]{0,30}\b(?:in|from)[ \t]"
)

_ACRONYM_CONTEXT = re.compile(
    r"(?:(?i:\b(?:presents?|presented|presenting|admitted|admission|transferred|transfer|referred|brought|came"
    r"|seen|treated|discharged|attended|returned|went)[ \t]+(?:to|at|from|in))|\b(at))[ \t]+(?:the[ \t]+)?"
    r"([A-Z]{2,6})\b(?![-/&])"
)
# A note's header: the hospital's acronym on a line of its own next to the note's title.
_ACRONYM_LINE = re.compile(
    r"(?:^|(?i:note|summary|report)[ \t]*\n)[ \t]*([A-Z]{2,6})[ \t]*(?=\n[ \t]*(?:[A-Z][A-Z ]*(?:NOTE|SUMMARY|REPORT)"
    r"|(?:Progress|Discharge|Clinic|Consult\w*)[ \t]+\w+|Patient:))",
    re.MULTILINE,
)
_ACRONYM_HEADER = re.compile(
    r"^[ \t]*([A-Z]{2,6})[ \t]+(?:RADIOLOGY|EMERGENCY|DISCHARGE|OPERATIVE|PATHOLOGY|LABORATORY|CARDIOLOGY"
    r"|OUTPATIENT|INPATIENT|ADMISSION)\b",
    re.MULTILINE,
)
# Section headings, never a hospital.
_SECTION_ACRONYMS = frozenset({"PMH", "PSH", "SH", "FH", "FHH", "PMHX", "PSHX", "SHX", "FHX", "HPI", "DH"})
# Acronyms of kinds of care or tests, not of one hospital.
_CLINICAL_ACRONYMS = frozenset(
    {"OSH", "ETOH", "LHC", "RHC", "CBC", "OTC", "ABC", "ICC", "PTC", "ERC", "HOH", "NH", "SNF", "SAH",
     "GTC", "VBAC", "ESRC", "DNH", "HTC", "ACC", "PCC", "NIC", "RCC", "HCC", "SCC", "BCC", "CCC", "ETC"}
)  # fmt: skip
_NAMED_CLINIC = re.compile(
    r"\b(?:S[Tt]\.?[ \t]+)?((?:[A-Z][\w'’-]+[ \t]+){1,4})(?:Clinic|CLINIC|Health[ \t]+Hub|HEALTH[ \t]+HUB"
    r"|Community[ \t]+Mental[ \t]+Health|COMMUNITY[ \t]+MENTAL[ \t]+HEALTH|Medical[ \t]+Centre|MEDICAL[ \t]+CENTRE)\b"
)
_CLINIC_KINDS = frozenset(
    {"physio", "rehab", "rehabilitation", "dental", "medical", "health", "general", "children's", "women's","outpatient", "inpatient", "walk", "urgent", "pain", "eye", "fracture", "memory", "free", "family",
     "specialty", "community", "day", "private", "local", "mental", "sleep", "skin", "diabetes", "diabetic",
     "antenatal", "prenatal", "travel", "wound", "vascular", "heart", "foot", "hand", "spine", "weight",
     "the", "a", "our", "this", "that", "your", "his", "her", "their", "same", "follow", "clinic"}
)  # fmt: skip
_MERCY = re.compile(
    r"\b(?:Mercy|MERCY)[ \t]+[A-Z][A-Za-z'’]+(?:[ \t]+(?:Bay|BAY|Vale|VALE|Hill|HILL|Park|PARK))?\b"
)


# "Coolabah Early Psychosis Program", "Fraser Wing", "Heron Step-Down Unit": a unit with a proper name.
_NAMED_UNIT = re.compile(
    r"\b((?:[A-Z][\w'’-]+ ){1,4})(?:Program|Programme|Wing|Unit|Service|Team|Ward)\b(?![ \t]*(?i:no\b|number|#))"
)
# A hospital's last word in a unit's name: the words up to it name the hospital, not the unit.
_HOSPITAL_IN_UNIT = re.compile(r".*\b(?:Hospital|Infirmary)\b")
_LANDMARK_WORDS = (
    r"Park|Reserve|Beach|Pier|Trail|Mall|Plaza|Gardens|Marina|Stadium|Arena|Oval|Lookout|Bridge"
    r"|Forest|Campground|campground|boat[ \t]+ramp|Racecourse|Speedway|Showground|Lighthouse|Quarry|Dam|Reservoir"
)
_LANDMARK = re.compile(
    rf"(?i:\b(?:near|at|in|on|from|around|by|off)[ \t]+(?:the[ \t]+)?)"
    rf"((?:[A-Z][\w'’-]+[ \t]+){{1,3}}(?:{_LANDMARK_WORDS})\b|Pier[ \t]+\d+\b)"
)
_EVENT = re.compile(
    r"\b(?:the[ \t]+)?((?:[A-Z][\w'’-]+[ \t]+){1,2}(?:[a-z]+[ \t]+)?(?:derailment|collapse|fire|bushfire|wildfire|flood"
    r"|floods|earthquake|explosion|shooting|crash|storm|cyclone|hurricane|tornado|bombing|disaster|riots?|siege"
    r"|blackout|landslide|tsunami|massacre|(?:county|state|craft|trade|book|agricultural)[ \t]+fair|festival|marathon"
    r"|contest))\b"
)


@cache
def _occupation_heads() -> frozenset[str]:
    """Last words of the listed occupations ("driver", "farmer", "publican")."""
    files = LEXICON_FILES["PROFESSION"][0]
    return frozenset(
        e.split()[-1].lower() for name in files for e in read_entries(LEXICON_DIR / name) if e.split()
    )


@cache
def _long_heads() -> tuple[str, ...]:
    return tuple(h for h in _occupation_heads() if len(h) >= 5)


def _is_occupation_head(word: str, listed_only: bool = False) -> bool:
    word = word.lower()
    if word in _NOT_OCCUPATION:
        return False
    heads = _occupation_heads()
    # "schoolteacher", "stonemason": a listed occupation joined to the word before it.
    if word in heads or (len(word) > 7 and word.endswith(_long_heads())):
        return True
    return not listed_only and len(word) > 4 and word.endswith(_OCCUPATION_SUFFIXES)


def _occupation_at(text: str, start: int, listed_only: bool = False) -> tuple[int, int] | None:
    """The occupation of up to three lower-case words starting at ``start``, if its last word is one."""
    match = _OCCUPATION_WORDS.match(text, start)
    if not match:
        return None
    words = list(re.finditer(r"[A-Za-z][A-Za-z'-]*", match.group()))
    kept = []
    for word in words:
        if word.group().lower() in _STOP_AFTER_JOB:
            break
        kept.append(word)
    for size in range(len(kept), 0, -1):
        if _is_occupation_head(kept[size - 1].group(), listed_only):
            return start + kept[0].start(), start + kept[size - 1].end()
    return None


def _dates(text: str) -> Iterator[Candidate]:
    yield from calendar_words(text)
    for pattern in (_MID_MONTH, _SHORT_YEAR):
        for match in pattern.finditer(text):
            yield "DATE", match.start(), match.end()
    for match in _MONTH_DAY.finditer(text):
        month, day = int(match.group(1)), int(match.group(2))
        # "for 2/7", "for 3/12": days and months written as fractions in British notes.
        duration = (
            match.group(2) in ("7", "12", "52") and month < day and match.group().lower().startswith("for")
        )
        if 1 <= month <= 12 and 1 <= day <= 31 and not duration:
            yield "DATE", match.start(1), match.end(2)
    for match in _MONTH_YEAR.finditer(text):
        if 1 <= int(match.group(1)) <= 12:
            yield "DATE", match.start(), match.end()
    for row in _DATE_ROW.finditer(text):
        for match in re.finditer(r"(\d{1,2})/(\d{1,2})", row.group()):
            if 1 <= int(match.group(1)) <= 12 and 1 <= int(match.group(2)) <= 31:
                yield "DATE", row.start() + match.start(), row.start() + match.end()


_WEEKDAY_KEYS = frozenset(
    f"{day}day{plural}"
    for day in ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
    for plural in ("", "s")
)
_SEASON_KEYS = frozenset({"spring", "summer", "autumn", "fall", "winter"})


def calendar_words(text: str, words: frozenset[str] | None = None) -> Iterator[Candidate]:
    """Dates by their word alone: a weekday, a season named as a time, a holiday.

    ``words``: the note's :func:`~annotator.crf.tokenizer.note_words`, if already known.
    """
    words = note_words(text) if words is None else words
    if not words.isdisjoint(_WEEKDAY_KEYS):
        for match in _WEEKDAY.finditer(text):
            yield "DATE", match.start(), match.end()
    if not words.isdisjoint(_SEASON_KEYS):
        for match in _SEASON_YEAR.finditer(text):
            yield "DATE", match.start(), match.end()
        for match in _SEASON.finditer(text):
            yield "DATE", match.start(1), match.end(1)
    if not words.isdisjoint(_holiday_keys()):
        yield from _holidays(text)


def _holidays(text: str) -> Iterator[Candidate]:
    for holiday in _holiday_patterns():
        for match in holiday.finditer(text):
            yield "DATE", match.start(), match.end()


@cache
def _holiday_names() -> list[str]:
    names = sorted(read_entries(LEXICON_DIR / "holidays.txt"), key=len, reverse=True)
    return [n for n in names if len(n) > 5]


@cache
def _holiday_keys() -> frozenset[str]:
    """Each holiday name's first word, lower-cased: a note without any holds no holiday."""
    return frozenset(re.findall(r"[a-z]+", name.lower())[0] for name in _holiday_names())


@cache
def _holiday_patterns() -> tuple[re.Pattern[str], ...]:
    alternatives = "|".join(re.escape(n).replace("'", "['’]") for n in _holiday_names())
    return (re.compile(rf"\b(?:{alternatives})(?![\w'’]){_HOLIDAY_YEAR}"),)


_WORK_KEYS = frozenset(
    {
        "works",
        "work",
        "worked",
        "working",
        "employed",
        "job",
        "trained",
        "retired",
        "occupation",
        "profession",
    }
)
_LISTED_JOB_KEYS = frozenset(
    {
        "as",
        "who",
        "man",
        "woman",
        "male",
        "female",
        "gentleman",
        "lady",
        "patient",
        "person",
        "mother",
        "father",
    }
)


def occupations(text: str, words: frozenset[str] | None = None) -> Iterator[Candidate]:
    """Occupations where the sentence says one is meant (``works as``, ``Ex-``, ``who is a``).

    Each phrasing is looked for only in a note holding its key words (and, where only a listed
    occupation may follow, one of the list's words): most notes hold none.
    """
    words = note_words(text) if words is None else words
    if not words.isdisjoint(_WORK_KEYS):
        for match in _WORK_AS.finditer(text):
            span = _occupation_at(text, match.end())
            if span:
                yield "PROFESSION", *span
    if "ex" in words:
        for match in _EX_JOB.finditer(text):
            span = _occupation_at(text, match.end())
            if span is None:
                continue
            retired = re.match(r",?[ \t]+(?:now[ \t]+)?retired\b", text[span[1] : span[1] + 24])
            if retired or _is_occupation_head(text[span[0] : span[1]].split()[-1], listed_only=True):
                yield "PROFESSION", *span
    if "who" in words or (not words.isdisjoint(_LISTED_JOB_KEYS) and _holds_occupation_word(words)):
        for match in _LISTED_JOB_CONTEXT.finditer(text):
            # "who is a locksmith" names an unlisted trade; "who is indigent", "who was
            # pregnant" (no article) a state, so there only a listed occupation counts.
            lower = match.group().lower()
            listed_only = not lower.startswith("who") or not re.search(r"\b(?:an?|the)[ \t]+$", lower)
            span = _occupation_at(text, match.end(), listed_only=listed_only)
            if span and _job_ends_phrase(text, span[1]):
                yield "PROFESSION", *span
    if "who" in words:
        for match in _BEFORE_WHO_WORKS.finditer(text):
            yield from _occupation_before(text, match.start())


def _holds_occupation_word(words: frozenset[str]) -> bool:
    """Whether a word of the note is a listed occupation's last word, alone or joined ("schoolteacher")."""
    if not words.isdisjoint(_occupation_heads()):
        return True
    long_heads = _long_heads()
    return any(len(word) > 7 and word.endswith(long_heads) for word in words)


def _job_ends_phrase(text: str, end: int) -> bool:
    """An occupation ends its phrase: punctuation, a line's end, or a word that starts a new one."""
    after = re.match(r"[ \t]*(\S*)", text[end : end + 30])
    following = after.group(1).lower() if after else ""
    return not following or not following[0].isalpha() or following in _STOP_AFTER_JOB


def _occupation_before(text: str, end: int) -> Iterator[Candidate]:
    """ "this 74yo postman, who works for": up to three lower-case words before "who works"."""
    words = list(re.finditer(r"[A-Za-z][A-Za-z'-]*", text[max(0, end - 50) : end]))
    offset = max(0, end - 50)
    kept: list[re.Match[str]] = []
    for word in reversed(words):
        token = word.group()
        between = text[offset + word.end() : offset + (kept[0].start() if kept else end - offset)]
        if (
            not token.islower()
            or token in _STOP_AFTER_JOB
            or token in _NOT_A_JOB_WORD
            or between.strip(" \t")
        ):
            break
        kept.insert(0, word)
        if len(kept) == 3:
            break
    if kept and _is_occupation_head(kept[-1].group()):
        yield "PROFESSION", offset + kept[0].start(), offset + kept[-1].end()


_NOT_A_JOB_WORD = frozenset(
    {"old", "a", "an", "the", "yo", "yrs", "yr", "aged", "year", "years", "this", "my", "y", "o"}
)


def _employers(text: str) -> Iterator[Candidate]:
    for match in _EMPLOYER_TRIGGER.finditer(text):
        name = _PROPER_PHRASE.match(text, match.end())
        if not name:
            continue
        end = name.end()
        while (tail := re.search(r"[ \t]+(?:&|and|of|the)$", text[name.start() : end])) is not None:
            end = name.start() + tail.start()
        phrase = text[name.start() : end]
        if phrase.split()[0] in ("The", "A", "An", "Home", "Himself", "Herself"):
            continue
        yield ("HOSPITAL" if _HEALTH_WORDS.search(phrase) else "ORGANIZATION"), name.start(), end


def _named_things(text: str) -> Iterator[Candidate]:
    stems = {w[:5] for w in generic_unit_words()}
    for match in _NAMED_UNIT.finditer(text):
        words = [w for w in re.split(r"[ \t-]+", match.group(1)) if w]
        first = words[0].lower()
        # A proper name first ("Coolabah", "Fraser"), not a kind of care ("Intensive Care Unit").
        if (
            first not in _CLINIC_KINDS
            and first[:5] not in stems
            and is_name_word(words[0])
            and not is_generic_unit(match.group(1))  # "Postanesthesia Care Unit"
        ):
            hospital = _HOSPITAL_IN_UNIT.search(match.group(1))
            if hospital:  # "Fairmount Memorial Hospital Cardiology Service": the hospital's service
                yield "HOSPITAL", match.start(), match.start() + hospital.end()
            else:
                yield "DEPARTMENT", match.start(), match.end()
    for match in _LANDMARK.finditer(text):
        yield "LOCATION-OTHER", match.start(1), match.end(1)
    for match in _EVENT.finditer(text):
        words = match.group(1).split()
        if is_name_word(words[0]) and words[0] not in (
            "The",
            "A",
            "An",
            "This",
            "That",
            "No",
            "Any",
            "House",
            "Grass",
            "Bush",
            "Car",
            "Motor",
        ):
            yield "OTHER", match.start(1), match.end(1)


# "confirm postcode 4297", "Postal code: K1A 0B1": a postcode after its name, in any country's form.
_POSTCODE_AFTER_LABEL = re.compile(
    r"(?i:\b(?:post[ \t]?code|postal[ \t]+code|zip(?:[ \t]+code)?))[ \t]*[:#]?[ \t]*"
    r"([A-Z]\d[A-Z][ \t]?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?[ \t]\d[A-Z]{2}|\d{4,5}(?:-\d{4})?)(?![\w-])"
)
# A sign-off's initials on a line of their own: "/cp" (the author's initials, a name).
_INITIALS_LINE = re.compile(r"^[ \t]*/([a-z]{2,3})[ \t]*$", re.MULTILINE)


def _places(text: str) -> Iterator[Candidate]:
    names, abbreviations = state_names()
    for match in _TOWN_STATE.finditer(text):
        state = match.group(3)
        if not (state in abbreviations or state.lower() in names):
            continue
        if state in _AMBIGUOUS_STATES and not _LIVES_BEFORE.search(
            text, max(0, match.start() - 40), match.start() + 3
        ):
            continue  # "letter from Smith, MD", "history of Hypertension, MI": a degree, a diagnosis
        yield "CITY", match.start(2), match.end(2)
        yield "STATE", match.start(3), match.end(3)
    for match in _ACRONYM_CONTEXT.finditer(text):
        # After "presents to" only a place can follow; after a bare "at", also a test ("at LHC").
        if _hospital_acronym(match.group(2), strict=match.group(1) is not None, abbreviations=abbreviations):
            yield "HOSPITAL", match.start(2), match.end(2)
    for match in _ACRONYM_LINE.finditer(text):
        if _hospital_acronym(match.group(1), strict=False, abbreviations=frozenset()):
            yield "HOSPITAL", match.start(1), match.end(1)
    for match in _ACRONYM_HEADER.finditer(text):
        if _hospital_acronym(match.group(1), strict=True, abbreviations=abbreviations):
            yield "HOSPITAL", match.start(1), match.end(1)
    stems = {w[:5] for w in generic_unit_words()}
    for match in _NAMED_CLINIC.finditer(text):
        words = [w.lower() for w in re.split(r"[ \t-]+", match.group(1)) if w]
        # "Endocrine Clinic" is a department: its word shares a stem with "endocrinology".
        # "Kestrel Point Walk-in Clinic": a proper name before the kind of clinic names one.
        if any(w not in _CLINIC_KINDS and w[:5] not in stems and w not in ("in", "st", "st.") for w in words):
            yield "HOSPITAL", match.start(), match.end()
    for match in _MERCY.finditer(text):
        yield "HOSPITAL", match.start(), match.end()


def _hospital_acronym(acronym: str, strict: bool, abbreviations: frozenset[str]) -> bool:
    """An acronym ending in H or C (hospital, centre, clinic) that names no test or kind of care."""
    if (
        acronym[-1] not in "HC"
        or acronym in abbreviations
        or acronym in _SECTION_ACRONYMS
        or acronym in ("OSH", "ETOH")
    ):
        return False
    return not strict or acronym not in _CLINICAL_ACRONYMS


def phrase_candidates(text: str) -> Iterator[Candidate]:
    """Rule spans as ``(type, start, end)`` from the phrasing around them."""
    yield from _dates(text)
    yield from occupations(text)
    yield from _employers(text)
    yield from _places(text)
    yield from _named_things(text)
    for match in _POSTCODE_AFTER_LABEL.finditer(text):
        yield "ZIP!", match.start(1), match.end(1)
    for match in _INITIALS_LINE.finditer(text):
        yield "DOCTOR", match.start(1), match.end(1)
