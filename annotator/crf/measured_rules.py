"""Patterns precise enough on real notes to stand without the model's agreement, or nearly.

Most rules are weighed by the model (:mod:`annotator.crf.evidence`): on real nursing notes a
rule alone was right 4-55 % of the time. The patterns below were measured apart on the
PhysioNet deid corpus's training patients (1-110, 1,884 notes; never on the test patients).
The first group was right on every match there, or nearly (month/day: 307 of 313; the other six
are dates the gold leaves untagged, ``HCT DOWN TO 27.9 7/16 AM``; a relation's name: 71 of 73,
the others misspelt verbs, ``WIFE AGRESS``) and stands on its own; the model, which sees
these shapes rarely, often gives them less than the usual gate. "Added" counts the spans the
pattern added where the model had found nothing, in 3-fold cross-validation by patient:

=========================  =======  =====  ===========  ======================================
pattern                    matches  right  added/right  example
=========================  =======  =====  ===========  ======================================
apostrophe year            21       21     11 / 11      ``s/p MI '92``, ``STOPPED SMOKING 62'``, ``2/'95``
dotted date                0        0      0 / 0        ``10.25.78``, ``3.23.64`` (not ``7.35.45``)
decade                     0        0      0 / 0        ``the 1960's``, ``2060s`` (not ``the 60's``)
date heading a line        13       13     7 / 7        ``3-24-17 B:``, ``10-15-19 csru note``
phone number               28       28     7 / 7        ``212- 476- 8356``, ``HOME-410 671-9309``
extension after its label  0        0      0 / 0        ``ext. 5-6394``, ``extension 219`` (not ``x 12``)
month name and day/year    6        6      3 / 3        ``may 16, 2015``, ``MARCH OF 1993``
month/two-digit year       10       10     4 / 4        ``fx4/97``, ``AVR 8/88`` (not ``2/70's``)
month/day in a line        313      307    40 / 40      ``extubated 8/28``, ``UO-9/10`` (not ``PSV 10/5``, ``pain 6/10``)
day of the month alone     2        2      1 / 1        ``drawn on the 11th.`` (not ``the 4th ventricle``)
year in a history          35       35     13 / 13      ``S/P MI 1992``, ``CABG 81, Redo CABG 84``
signature and credential   15       15     2 / 2        ``ROBERT V. DEGIORGIO, RRT``
doctor's title and word    244      244    6 / 6        ``dr small``, ``Drs' Ballou and Dutter``
courtesy title, surname    43       43     4 / 4        ``MRS BRUCER``, ``mr.renzi`` (not ``MS:``)
initial, surname, action   10       10     5 / 5        ``E. WELSH AWARE``, ``M. PEPPLER PLACING``
relation and first name    84       82     9 / 9        ``dtr laverne``, ``DAUGHTER-KRISSY`` (not ``son-in-law``)
name before a call, visit  31       31     6 / 6        ``bill called``, ``Radu wishes`` (not ``dauther visited``)
name and credential        29       29     2 / 2        ``Andrwe O'connell MD spoke``, ``q. lander rrt`` (not ``PA cath``)
faith or saint hospital    22       22     6 / 6        ``HOLY CROSS``, ``St. Mary's`` (not ``ST DEPRESSION``)
university                 5        5      2 / 2        ``U OF MD``, ``U Maryland`` (not ``10 u of blood``)
hospital after to or at    42       42     2 / 2        ``TAKEN TO UNION HOSPITAL``, ``AT UNION MEMORIAL`` (not ``in poor health``)
web or mail address        0        0      0 / 0        ``www.kestrelpointhealth.qc.ca``, ``a.b@mail.ca``
town where one lives       7        7      2 / 2        ``lives in rome``, ``LIVING IN ROME``
town after from or at      12       12     5 / 5        ``DAUGHTER FROM ROME``, ``Son from Pikesville`` (not ``from foley``)
age in a phrase            0        0      0 / 0        ``died at 71``, ``is a 62F``, ``73M with BPH``
login beside a signature   0        0      0 / 0        ``FILBERT BRIGHT, M.D.    FB59``
login after a sign-off     0        0      0 / 0        ``Typed by: RM5``, ``e-signed by gyg62``
weekday, season, holiday   65       63     3 / 3        ``TRACH ON MONDAY``, ``the summer`` (not ``a fall``)
occupation so named        0        0      0 / 0        ``works as a crane operator``, ``Ex-publican``
=========================  =======  =====  ===========  ======================================

A web or mail address has one written form and no clinical reading; the nursing notes hold
none, so it costs them nothing, and on a synthetic style left out of training the model, which
learnt addresses from other styles' letterheads, weighed them below its gate. The same holds of
more kinds the nursing notes hardly hold and our guidelines always tag:

* an occupation where the sentence says one is meant (``works as``, ``Ex-``, ``who is a``:
  :func:`~annotator.crf.phrase_rules.occupations`): right on all 246 matches in 40 patients of
  each synthetic style, none in the nursing notes;
* weekdays, seasons and holidays: 412 matches in the same synthetic notes, none wrong; on the
  nursing notes the weekdays are right by our guidelines and untagged by the PhysioNet gold
  (``--guideline safe-harbor`` drops them), and the two wrong matches are ``the summer
  months``, which that gold leaves untagged and Safe Harbor drops too;
* an age by the phrase around it: 110 matches in style A, none wrong, none in the nursing
  notes; found among the misses of a model that never saw style A;
* dotted dates, a month before an apostrophe year (``Oct. '74``), four-digit decades and an
  extension after its label: seed 003's shapes of the i2b2 2014 corpus. In the 1,882 synthetic
  training notes they match 310 times, each exactly a gold span of its type; none matches in
  the nursing notes;
* a clinician's login beside or under the signature and degree (``M.D.    FB59``: the
  shapes of :mod:`annotator.crf.id_rules`): none in the 2,434 nursing notes; found among
  the misses on five public real i2b2 2014 notes, where the model read ``FB`` as an
  abbreviation (``bp``, ``tb``) and weighed the login below the gate;
* a login right after a sign-off's ``by`` (``Typed by: RM5``, ``e-signed by gyg62 @ 18:00``):
  49 matches in the 1,882 synthetic training notes, each exactly a gold USERNAME; none in the
  nursing notes.

A standing name also widens the model's shorter span over it (``ROBERT V.`` to ``ROBERT V.
DEGIORGIO``), and a standing hospital takes over the model's pieces of it (``maryland`` of
``university of maryland hospital``, which the PhysioNet gold tags word by word: 8 gold spans
more found in cross-validation, none lost).

The second group is weighed, with a lower gate than other rules: a span stands where the model
gives at least its gate to PHI on one of its tokens. Alone these patterns are right 48-72 % of
the time (42-57 % before the seventh round took the commonest words out of relations' and
facilities' names); with the gate, where the model had found nothing (same cross-validation):

=========================  =====  ===========  ======================================
pattern                    gate   added/right  example
=========================  =====  ===========  ======================================
relation and word          0.01   14 / 13      ``son bill``, ``dtr laverne``
initial and surname        0.01   6 / 5        ``d. renna``, ``Q. LANDER`` (not ``R. GROIN``)
name before a facility     0.01   11 / 11      ``kernan hosp``, ``ZAGARIA CAMPUS`` (not ``CON'T REHAB``)
town after a preposition   0.05   6 / 6        ``from Middle River``, ``lives in rome``
=========================  =====  ===========  ======================================

Towns are GeoNames' (``resources/lexicons/cities_real.txt``): every US city of 15,000 people
or more and the world's cities of a million or more. A relation's first name and a name before
a call or visit may be any given name of the 1990 US Census
(``resources/lexicons/first_names_census.txt``: ``pat``, ``rob``, ``charlie``), which added 9
matches to the relation pattern on patients 1-110, all right, and 46 in the synthetic
training notes, all right.

A name joined by ``and`` or ``&`` to a name found by the model or a rule (``Both Suzette and
Hank``, ``suzette and ank``, ``d. renna and j. o'brien``) is a name of the same kind when it
is a given name or rare in English and no relation (:func:`add_name_partners`): anchored on the
gold names of patients 1-110, 20 such words, all 20 PHI (none in the synthetic training notes);
3 added in cross-validation, none wrong.

``python -m tests.benchmarks.bench_measured_rules`` measures every match again.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache, lru_cache
from itertools import accumulate
from typing import NamedTuple, TypeVar

from annotator.core.english import zipf
from annotator.crf.features import is_public
from annotator.crf.format_rules import EMAIL_ADDRESS, URL_WITH_SCHEME
from annotator.crf.id_rules import logins_after_by, signed_usernames
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import (
    FIRST_NAME_LEXICONS,
    LEXICON_DIR,
    Lexicons,
    census_first_names,
    default_lexicons,
    is_listed_name,
    read_entries,
)
from annotator.crf.name_labels import RELATIVE_WORD, ROLE_WORD
from annotator.crf.phrase_rules import calendar_words, occupations
from annotator.crf.tokenizer import note_words

MEASURED_ORIGIN = "measured-rule"
MEASURED_CONFIDENCE = 0.95
# The standing patterns' names, as their matches carry them (the benchmark lists each, with no
# match too: a shape the nursing notes never hold is reported as such).
STANDING_PATTERNS = (
    "apostrophe year",
    "dotted date",
    "decade",
    "month/two-digit year",
    "month/day in a line",
    "day of the month alone",
    "date heading a line",
    "phone number",
    "extension after its label",
    "month name and day/year",
    "year in a history",
    "signature and credential",
    "login beside a signature",
    "login after a sign-off",
    "doctor's title and word",
    "courtesy title, surname",
    "relation and first name",
    "name before a call or visit",
    "initial, surname, action",
    "name and credential",
    "web or mail address",
    "faith or saint hospital",
    "university",
    "hospital's name after to or at",
    "town where one lives",
    "town after from or at",
    "age in a phrase",
    "weekday, season, holiday",
    "occupation so named",
)
_FIRST_NAMES = FIRST_NAME_LEXICONS
_ARTICLE_NEXT = re.compile(r"[ \t]+(?:a|an|the)\b", re.IGNORECASE)
# From this Zipf value a word in -ed or -ing is a verb after a doctor's title, not a surname.
_VERB_ZIPF = 3.0
# P(PHI) the weighed patterns need on one of their tokens; a town name, more often a word
# ("Foley", "Orange", "Normal"), needs more.
WEIGHED_GATE = 0.01
TOWN_GATE = 0.05
# The model's P(PHI) over a span: the highest of its tokens'.
Strength = Callable[[int, int], float]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = r"(?:19[3-9]|20[0-3])\d"
# Words clinicians write after a title or a relation that are not names ("dr aware", "son here").
_NOT_A_NAME = frozenset((
    "aware", "notified", "called", "here", "in", "at", "to", "and", "of", "the", "a", "is", "was",
    "will", "has", "had", "ordered", "order", "orders", "team", "paged", "informed", "made", "re",
    "regarding", "about", "with", "for", "on", "by", "from", "that", "this", "these", "who",
    "which", "note", "notes", "said", "says", "states", "stated", "wants", "would", "may", "can",
    "could", "should", "also", "not", "no", "plan", "plans", "out", "up", "were", "are", "be",
    "been", "being", "updated", "present", "visited", "visit", "visiting", "came", "come", "comes",
    "spoke", "spoken", "talked", "into", "s", "brought", "brings", "left", "feels", "felt", "asked",
    "asking", "requested", "requests", "agrees", "agreed", "died", "alive", "passed", "deceased",
    # function words no surname shares ("follow up with the doctor if she has pain")
    "if", "all", "as", "or", "but", "then", "there", "they", "when", "where", "while", "what", "since",
    "because", "until", "unless", "we", "you", "i", "it", "its", "our", "their", "them", "your", "my",
    "did", "does", "must", "might", "office",
))  # fmt: skip
_RELATIONS = (
    "son|sons|daughter|daughters|dtr|wife|husband|brother|sister|mother|father|friend|niece|neice|nephew"
    "|girlfriend|boyfriend|fiance|grandson|granddaughter|cousin|aunt|uncle|sister-in-law"
    "|brother-in-law|rabbi|priest|pastor"
)

# "'92" but not "'90s" or a quotation ('ok').
_APOSTROPHE_YEAR = re.compile(r"(?<![\w'])'(\d{2})(?![\d'\w])(?!\s*s\b)")
# The month written before it belongs to the date: "2/'95", "Oct. '74" (seed 003's shapes of the
# i2b2 2014 corpus, which the model read in two pieces).
_MONTH_APOSTROPHE_YEAR = re.compile(
    rf"(?i)(?<![\w/.'-])((?:(?:0?[1-9]|1[0-2])/|{_MONTH}\.?,?[ \t]+)'\d{{2}})(?![\d'\w])(?!\s*s\b)"
)
# Month, day and year with periods ("10.25.78", "3.23.64"): a month and a day that can be one,
# not a version or a lab value ("7.35.45" has no 35th).
_DOTTED_DATE = re.compile(
    r"(?<![\w.])((?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01])\.(?:\d{2}|(?:19|20)\d{2}))(?![\w]|\.\d)"
)
# A decade by its four digits ("the 1960's", "2060s"); "the 60's" is more often a blood pressure.
_DECADE = re.compile(r"(?<![\w/.'-])((?:19|20)\d0'?s)(?!\w)")
# "CVA 74'", "STOPPED SMOKING 62'": the apostrophe after. Not a distance ("HOB 30'",
# "AMBULATED 25'"): no multiple of ten, nothing walked.
_YEAR_APOSTROPHE = re.compile(
    r"(?i)(?<!ambulated[ \t])(?<!walked[ \t])(?<!hob[ \t])(?<![\w/.'-])(\d[1-9])'(?![\w'])"
)
# Month and two-digit year ("fx 4/97", "AVR 8/88"): a year over 31 cannot be a day, a month
# under 13 with it is no blood pressure ("120-140'2/70's" is one).
_MONTH_YEAR_NUMBERS = re.compile(
    r"(?<![\d/.,:'-])((?:0?[1-9]|1[0-2])/(?:3[2-9]|[4-9]\d))(?![\w/%:'-])(?!\.\d)"
)
# Month and day in running text ("extubated 8/28", "REINTUBATION 9/30"); not a fraction, a
# grade or a pain score ("1/2 way up", "5/5", "6/10", "2/6 murmur"), blood cultures ("2/4 bottles") or a
# ventilator's settings ("PSV 10/5", "40%, & 5/8", "10/5 BIPAP"): those stand near their words.
# A hyphen may join a month/day to the word before it ("UO-9/10 LASIX", "LA-10/3"), not to a
# number ("1-2/3").
_MONTH_DAY_NUMBERS = re.compile(
    r"(?i)(?<![\w/.+'])(?<![^a-z]-)(?<!^-)(\d{1,2})/(\d{1,2})(?:-\d{1,2}/\d{1,2})?(?![\w/']|\.\d)"
    r"(?![ \t]?(?:up|way|st|strength|bottles?|hrs?|hours?|amps?|ns|of)\b"
    r"|-(?:years?|yrs?|months?|mos?|weeks?|wks?|days?)\b)"
)
_FRACTIONS_AND_GRADES = frozenset((
    (1, 2), (1, 3), (1, 4), (2, 3), (3, 4), (2, 4), (1, 8), (3, 8), (1, 5), (2, 5), (3, 5), (4, 5),
))  # fmt: skip
_NOT_A_DATE_BEFORE = re.compile(
    r"(?i)\b(?:rales|crackles|pain|cp|trial|grade|gr|gcs|i:e|ratio|strength|power|motor)\W*\Z"
)
# Words before a count as often as before a date ("2/3 cxs positive", "in 1/2", "for 3/4"),
# and fractions that are days too: such a month/day stands when another date of its note
# names the same month ("completed 3/3 ... extubated 3/5", "last cx 3/23 ... 3/21").
_COUNT_BEFORE = re.compile(r"(?i)\b(?:cxs?|in|for)\W*\Z")
# A murmur's grade; days or weeks in British shorthand ("2/7 history", "3/7 ago"); a count
# or a mixture ("8/12 cores positive", "1/5 lymph nodes", "9/1 mixture").
_NOT_A_DATE_AFTER = re.compile(
    r"(?i)[ \t]*(?:murmur|sem|hsm|systolic|diastolic|hx|history|ago|days?|weeks?|wks?"
    r"|cores?|(?:lymph[ \t]+)?nodes?|specimens?|samples?|biops(?:y|ies)|mixture|ratio|dilution)\b"
)
_VENTILATOR = re.compile(
    r"(?i)\b(?:c-?pap|bi-?pap|psv?|peep|ips|s?imv|vent\w*|wean\w*|flow ?by|pressure support|co/ci|ac)\b"
)
_VENTILATOR_AFTER = re.compile(r"(?i)[ \t,]*(?:fio2|%|\d+%|bi-?pap|c-?pap|psv?|peep)")
_VENTILATOR_LOOKBEHIND = 40
# Out of ten is a pain score when pain is named on its line before it ("describes pain as
# 5/10", "c/o 3/10", "CP, 5/10", "#9/10") or just after it ("8/10 CP", "10/10 angina");
# otherwise it is a day that stands when its note has another date of that month ("8/2 -
# 8/10", "9/10 PROCAN DCED").
_PAIN_BEFORE = re.compile(
    r"(?i)(?:\b(?:pain|cp|angina|discomfort|ha|h/a|headache|c/o|rat(?:es|ed|ing)|scale|score|severe"
    r"|mild|moderate)\b[^\n]{0,20}|#)\Z"
)
_PAIN_AFTER = re.compile(
    r"(?i)[ \t,]*(?:cp|pain|angina|discomfort|ha|h/a|headache|chest|incisional|back|abd\w*|sharp|dull"
    r"|on (?:the )?(?:pain )?scale)\b"
)
# A day of the month named alone, closing its clause ("drawn on the 11th.", "it's the 11th"):
# before a noun it is an ordinal ("the 4th ventricle", "the 2nd then").
_DAY_OF_THE_MONTH = re.compile(
    r"(?i)\b(?:on|it's|it is|since|until|till|by|before|after) the ((?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th))\b"
    r"(?=[ \t]*(?:[.,;:)!?\"]|\n|\Z))"
)
# A date opening a line ("3-24-17 B:"): notes are headed by the day they were written.
_LINE_HEAD_DATE = re.compile(r"(?m)^[ \t]*((\d{1,2})[-/](\d{1,2})[-/](?:\d{4}|\d{2}))(?![\w/-])")
# Area code, exchange and line, spaced, hyphenated or run together ("212- 476- 8356",
# "CELLULAR-410 202-6694", "202 2671093"); a five-digit line is a clinician's typo.
_PHONE = re.compile(
    r"(?<![\w/.])(\(?\d{3}\)?[ \t-]*\d{3}(?:[ \t]*-[ \t]*|[ \t]+)?\d{4,5}|\d{3}/\d{3}/\d{4})(?![\w/-])"
)
# An extension after its label ("ext. 5-6394", "extension 219"): never a setting, as "x 12" is.
_LABELLED_EXTENSION = re.compile(
    r"(?i:\b(?:ext|extn|extension)\b)\.?[ \t]*[:#]?[ \t]*(\d{2,5}|\d-\d{4})(?![\w-])"
)
_MONTH_DAY = re.compile(
    rf"(?i)(?<![\w/])({_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+'?\d{{2,4}})?)(?![\w/:%])"
)
_MONTH_YEAR = re.compile(rf"(?i)(?<![\w/])({_MONTH}\.?,?\s+(?:of\s+)?(?:19|20)\d\d)(?![\w/])")
# Years in a past history: 1960-1999 cannot be a clock time; other years need an event or a
# preposition before them, or another year beside them ("CABG 1957, 1971").
_UNIT_AFTER = r"(?!\s*(?:cc|ml|mg|kcal|cal|g|mcg|units?|u|hrs?|h)\b)"
_YEAR_NOT_A_TIME = re.compile(rf"(?<![\w/:.,-])(19[6-9]\d)(?![\w/:%-]){_UNIT_AFTER}")
_YEAR_AFTER_EVENT = re.compile(
    r"(?i)\b(?:mi|cabg|cva|ptca|stent|repair|fx|ca|surgery|since|dx|diagnosed|s/p|hx|in|of|year|yr)"
    rf"[\s,:]+({_YEAR})(?![\w/:%-]){_UNIT_AFTER}"
)
# Two-digit years after a cardiac event or procedure ("CABG 81, Redo CABG 84", "CVA 74'").
_YEAR_AFTER_PROCEDURE = re.compile(
    r"(?i)\b(?:mi|cabg|cva|ptca|avr|mvr|stent|ca|repair)[ \t]*'?(\d{2})'?(?![\w/%:'-]|\.\d)"
    r"(?!\s*(?:cc|ml|mg|hrs?|h|%|mmhg|yo|y/o|yr|years?|min|cm|mm|x)\b)"
)
_YEAR_IN_LIST = re.compile(rf"(?<![\w/:.-])({_YEAR})(?=,\s*{_YEAR}\b)|(?<=\d\d,\s)({_YEAR})\b")
# A name and a credential closing a line: how respiratory therapists and nurses sign.
# ("Signed Mac RN" is a signing word and a name: no two-word name.)
_SIGNATURE = re.compile(
    r"(?m)^[ \t]*(?!(?i:signed|by|electronically|per|note)\b)((?:[A-Z][A-Za-z'-]*\.?[ \t]+){1,3}[A-Z][A-Za-z'-]+)"
    r"[ \t]*,?[ \t]+"
    r"(?:RN|RRT|CRT|NP|MD|LPN|CCRN|RN,[ \t]*BSN|BSN)\.?[ \t]*$"
)
# Two words no dictionary knows, or an initial and such a word ("q. lander rrt", "N. RUTH
# NP"), then a credential, mid-line ("Andrwe O'connell MD spoke"); not "PA" (a PA catheter).
_NAME_CREDENTIAL = re.compile(
    r"(?<![\w.])([A-Za-z](?:[A-Za-z'-]+|\.)?)[ \t]+([A-Za-z][A-Za-z'-]+)[ \t]*,?[ \t]+"
    r"(?:MD|NP|RN|RRT|CRT|LCSW|LICSW|md|np|rrt|crt|licsw|lcsw)\b"
)
# Hospitals named for a faith ("Holy Cross", "Sacred Heart") or a saint ("St. Mary's": the
# saint's name must be a first name, not "ST DEPRESSION" or "ST BETADINE").
_FAITH_HOSPITAL = re.compile(
    r"(?i)\b(holy[ \t]+(?:cross|family|redeemer|name|spirit)|sacred[ \t]+heart|good[ \t]+samaritan"
    r"|our[ \t]+lady[ \t]+of[ \t]+[a-z]+)\b"
)
_SAINT = re.compile(r"(?i)\b(?:st\.?|saint)[ \t]+([a-z]+)('s)?(?![\w'])")
# "University of Maryland", "U OF MD", "U Maryland" (a state's name), not "10 u of blood".
_UNIVERSITY = re.compile(
    r"(?i)\b((?:university|univ\.?)[ \t]+of[ \t]+[a-z][a-z'-]+)"
    r"|(?<![\w/])((?-i:U)[ \t]+(?:(?i:of)[ \t]+(?-i:[A-Z][A-Za-z]+)|(?-i:[A-Z][a-z]+|[A-Z]{4,})))"
)
# A name's letters, with inner hyphens or apostrophes (not "Frances-" before a phone number),
# without a possessive: both corpora tag "Dr. [Thorne]'s service".
_NAME_WORD = r"[a-z](?:[a-z'-]*[a-z])?(?<!'s)"
# The title and the name on one line ("Msg left for Dr.\nPt states" is no name).
# "doctor." ends a sentence ("his primary doctor. All questions"); "Doctor M.D." is a degree.
_DOCTOR_TITLE = re.compile(rf"(?i)(?:\b(?:dr|drs)\b\.?'?|\bdoctor\b'?)[ \t]+({_NAME_WORD})(?!\.[a-z]\.)")
# The second of two doctors ("Drs' Ballou and Dutter").
_SECOND_DOCTOR = re.compile(rf"(?i)\bdrs\b\.?'?[ \t]+{_NAME_WORD}[ \t]+(?:and|&)[ \t]+({_NAME_WORD})")
_COURTESY_TITLE = re.compile(rf"(?i)\b(?:mr|mrs|ms|miss)\b\.?[ \t]*({_NAME_WORD})")
_INITIAL_SURNAME_ACTING = re.compile(
    r"(?i)(?:^|(?<=[\s(,;:&-]))([a-z]\.[ \t]+[a-z][a-z'-]{2,})(?:\s*,)?\s+"
    r"(?:aware|notified|made\s+aware|paged|called|informed|in\s+to|at\s+bedside|to\s+bedside"
    r"|placing|placed|ordered|spoke|here|updated|present|pronounced|wants|wishes|said|states|will)\b"
)
_RELATION = re.compile(
    rf"(?i)\b(?:{_RELATIONS})\b[,:-]*\s+(?!(?:{_RELATIONS}|aunts|uncles|cousins)\b)({_NAME_WORD})"
)
# "dtr laverne", "DAUGHTER-KRISSY", "son ,dave,", "significant other charlie": a relation, then
# one word (not "son-in-law"); it stands when the word is a listed first name or rare in English.
_RELATION_NAMED = re.compile(
    rf"(?i)\b(?:{_RELATIONS}|caregiver|significant[ \t]+other)\b(?:[ \t]*[,:-]+[ \t]*|[ \t]+)"
    rf"(?!(?:{_RELATIONS}|aunts|uncles|cousins|in-?laws?)\b)([A-Za-z][a-z]+|[A-Z]+)\b(?![-'’]\w)"
)
_RARE_ZIPF = 3.0
# A town whose words are this common is often a word: "orange", "central", "normal".
_COMMON_TOWN_ZIPF = 5.0
_CASE_WINDOW = 200
_CONTACT_WORDS = frozenset({"called", "visited", "phoned", "wishes", "wants", "visit", "visiting"})
_NAME_IN_CONTACT = re.compile(
    r"(?i)(?<![\w.'’/-])([a-z][a-z'-]{1,}[a-z])[ \t]+(?:called|visited|phoned|wishes|wants|in[ \t]+to[ \t]+visit|visiting)\b"
)
_RELATIVE_PATTERN = "relation and first name"
_COMMONEST_ZIPF = 5.5
_SURNAME_AFTER = re.compile(r",?[ \t]([A-Za-z][a-z'-]+|[A-Z][A-Z'-]+)\b(?![-'’]\w)")
# A genus's initial and its species are a microbe, not a person ("H. pylori", "E. coli").
_SPECIES = frozenset({
    "pylori", "coli", "diff", "difficile", "aureus", "epidermidis", "aeruginosa", "pneumoniae", "albicans",
    "faecalis", "faecium", "tuberculosis", "gonorrhoeae", "pallidum", "fragilis", "influenzae", "mirabilis",
    "cloacae", "marcescens", "pyogenes", "agalactiae", "viridans", "jirovecii", "carinii", "glabrata",
    "trachomatis", "vaginalis", "burgdorferi", "typhi", "meningitidis", "catarrhalis", "maltophilia",
    "baumannii", "lugdunensis", "perfringens", "botulinum", "monocytogenes", "jejuni", "lamblia", "vulgaris",
    "oxytoca", "freundii", "aerogenes", "hominis", "neoformans", "fumigatus", "acnes", "pertussis", "cereus",
    "enterica", "krusei", "saprophyticus", "sanguinis", "mutans", "mitis", "bovis", "avium", "kansasii",
    "marinum", "capitis", "haemolyticus", "hemolyticus",
})  # fmt: skip
_INITIAL_SURNAME = re.compile(r"(?<![\w.])[A-Za-z]\.[ \t]+([A-Za-z][a-z'-]+|[A-Z][A-Z'-]+)\b")
# A facility word, then up to three words before it ("kernan hosp", "ZAGARIA CAMPUS"): the
# words are looked for behind each facility word, which is rarer than a word start.
_FACILITY = re.compile(
    r"(?i)[ \t]+(?:hospital|hosp|campus|rehab|medical[ \t]+center|med[ \t]+center|memorial|regional"
    r"|nursing[ \t]+home|house|health(?![ \t]+care)|er|ew|ed)\b"
)
_HOSPITAL_HEAD = re.compile(
    r"(?i)(?:hospital|hosp|campus|rehab|medical[ \t]+center|med[ \t]+center|memorial|regional)\Z"
)
_PLACE_PREPOSITION_BEFORE = re.compile(r"(?i)(?:^|[^\w'])(?:to|at|from|in|@)[ \t]+\Z")
_WORDS_BEFORE_FACILITY = re.compile(r"(?i)(?<![\w'-])((?:[a-z][a-z'-]*[ \t]+){0,2}[a-z][a-z'-]*)\Z")
_FACILITY_LOOKBEHIND = 80
# Words before a facility word that are not its name ("to the ER", "outside hospital").
_NOT_A_PLACE = frozenset((
    "the", "a", "an", "to", "from", "at", "in", "of", "this", "that", "outside", "other",
    "general", "another", "local", "same", "our", "his", "her", "their", "your", "my", "pt",
    "patient", "pt's", "patient's", "va", "osh", "rehab", "hospital", "nursing", "and", "or", "by",
    "for", "with", "on", "community", "state", "con't", "cont", "prev", "previous", "prior", "is", "are",
    "was", "acute", "inpatient", "leave", "outlying",
))  # fmt: skip

# Up to three words after "from", "in", "of", "to", "near", "at".
# Its own pattern: "TO FLY FROM ROME" must not be read as "to" and three words. The words are
# looked at, not taken, so "from ROME. Son from Pikesville" finds both towns.
# No article before a town: "to the palmer aponeurosis", "at the Superior Gluteal Nerve",
# "in the spring of 2066" (no match in patients 1-110 had one).
_AFTER_FROM_OR_AT = re.compile(r"(?i)\b(?:from|at)[ \t]+(?=([a-z][\w.'-]*(?:[ \t]+[a-z][\w.'-]*){0,2}))")
_AFTER_PLACE_PREPOSITION = re.compile(
    r"(?i)\b(?:from|in|of|to|near|at)[ \t]+([a-z][\w.'-]*(?:[ \t]+[a-z][\w.'-]*){0,2})"
)
# An age by the phrase around it: "died at 71", "alive at 78", "is a 62F", "73M with BPH".
_AGE_PHRASES = (
    re.compile(
        r"(?i)\b(?:died|alive|deceased|passed[ \t]+away|expired)[ \t]+at[ \t]+(?:age[ \t]+)?(\d{1,3})\b(?![./:]\d)"
    ),
    re.compile(r"\b(?:[Aa]n?|is)[ \t]+(\d{1,3})[ \t]?[MF]\b"),
    re.compile(r"(?m)(?:^|\. )(\d{1,3})[ \t]?[MF][ \t]+(?:with|w/|presenting|admitted|s/p)\b"),
)
_LIFE_WORDS = frozenset({"died", "alive", "deceased", "passed", "expired"})
_AGE_AND_SEX = re.compile(r"\d[ \t]?[MF]\b")
# Where someone lives: "lives in rome", "LIVING IN ROME", "lives nearby in rockport".
_LIVES_BEFORE = re.compile(
    r"(?i)\b(?:lives?|living|resides?|residing)(?:[ \t]+(?:nearby|close[ \t]+by|alone))?[ \t]+\Z"
)
_RESIDENCE_WORDS = frozenset({"live", "lives", "living", "reside", "resides", "residing"})
_YEAR_PATTERNS = (_YEAR_NOT_A_TIME, _YEAR_AFTER_EVENT, _YEAR_AFTER_PROCEDURE, _YEAR_IN_LIST)


def _plausible_month_day(first: int, second: int) -> bool:
    return (1 <= first <= 12 and 1 <= second <= 31) or (1 <= first <= 31 and 1 <= second <= 12)


def first_group_span(match: re.Match[str]) -> tuple[int, int]:
    """The span of the first group that took part (alternatives use different groups)."""
    index = next(i for i in range(1, (match.lastindex or 1) + 1) if match.group(i) is not None)
    return match.span(index)


class MeasuredMatch(NamedTuple):
    """One match of a measured pattern: which pattern, the PHI type it gives, where."""

    pattern: str
    kind: str
    start: int
    end: int
    # P(PHI) the model must give one of its tokens (0: the pattern stands on its own).
    gate: float = 0.0


# The key words of the patterns below: each match holds one of them as a whole word.
_TITLE_WORDS = frozenset({"dr", "drs", "doctor"})
_EXTENSION_WORDS = frozenset({"ext", "extn", "extension"})
_COURTESY_WORDS = frozenset({"mr", "mrs", "ms", "miss"})
_MONTH_WORDS = frozenset(re.findall(r"[a-z]+", "jan january feb february mar march apr april may jun june jul july "
                                                "aug august sep sept september oct october nov november dec december"))  # fmt: skip
_PROCEDURE_WORDS = frozenset({"mi", "cabg", "cva", "ptca", "avr", "mvr", "stent", "ca", "repair"})
_CREDENTIAL_WORDS = frozenset({"md", "np", "rn", "rrt", "crt", "lcsw", "licsw"})
_FAITH_WORDS = frozenset({"holy", "sacred", "samaritan", "lady"})
_SAINT_WORDS = frozenset({"st", "saint"})
_UNIVERSITY_WORDS = frozenset({"university", "univ", "u"})
_RELATION_WORDS = frozenset(relation.split("-")[0] for relation in _RELATIONS.split("|"))  # "sister-in-law"
_CARER_WORDS = frozenset({"caregiver", "significant"})
_FACILITY_WORDS = frozenset(
    {
        "hospital",
        "hosp",
        "campus",
        "rehab",
        "medical",
        "med",
        "memorial",
        "regional",
        "nursing",
        "house",
        "health",
    }
    | {"er", "ew", "ed"}
)
# Every year the year patterns take (1930-2039) holds one of these.
_YEAR_DIGITS = re.compile(r"19[3-9]\d|20[0-3]\d")


def standing_matches(text: str) -> Iterator[MeasuredMatch]:
    """Matches of the patterns that stand without the model."""
    words = note_words(text)
    if "'" in text:
        for pattern in (_MONTH_APOSTROPHE_YEAR, _APOSTROPHE_YEAR, _YEAR_APOSTROPHE):
            for match in pattern.finditer(text):
                yield MeasuredMatch("apostrophe year", "DATE", *match.span(1))
    if "." in text:
        for match in _DOTTED_DATE.finditer(text):
            yield MeasuredMatch("dotted date", "DATE", *match.span(1))
    if "0s" in text or "0's" in text:
        for match in _DECADE.finditer(text):
            yield MeasuredMatch("decade", "DATE", *match.span(1))
    if "/" in text:
        for match in _MONTH_YEAR_NUMBERS.finditer(text):
            yield MeasuredMatch("month/two-digit year", "DATE", *match.span(1))
        yield from _month_days(text)
    if "the" in words:
        for match in _DAY_OF_THE_MONTH.finditer(text):
            yield MeasuredMatch("day of the month alone", "DATE", *match.span(1))
    for match in _LINE_HEAD_DATE.finditer(text):
        if _plausible_month_day(int(match.group(2)), int(match.group(3))):
            yield MeasuredMatch("date heading a line", "DATE", *match.span(1))
    for match in _PHONE.finditer(text):
        yield MeasuredMatch("phone number", "PHONE", *match.span(1))
    if not words.isdisjoint(_EXTENSION_WORDS):
        for match in _LABELLED_EXTENSION.finditer(text):
            yield MeasuredMatch("extension after its label", "PHONE", *match.span(1))
    if not words.isdisjoint(_MONTH_WORDS):
        for pattern in (_MONTH_DAY, _MONTH_YEAR):
            for match in pattern.finditer(text):
                yield MeasuredMatch("month name and day/year", "DATE", *match.span(1))
    has_year = _YEAR_DIGITS.search(text) is not None
    for pattern in _YEAR_PATTERNS:
        if has_year if pattern is not _YEAR_AFTER_PROCEDURE else not words.isdisjoint(_PROCEDURE_WORDS):
            for match in pattern.finditer(text):
                yield MeasuredMatch("year in a history", "DATE", *first_group_span(match))
    for match in _SIGNATURE.finditer(text):
        yield MeasuredMatch("signature and credential", "DOCTOR", *match.span(1))
    for start, end in signed_usernames(text):
        yield MeasuredMatch("login beside a signature", "USERNAME", start, end)
    if "by" in words:
        for start, end in logins_after_by(text):
            yield MeasuredMatch("login after a sign-off", "USERNAME", start, end)
    if not words.isdisjoint(_TITLE_WORDS):
        for pattern in (_DOCTOR_TITLE, _SECOND_DOCTOR):
            for match in pattern.finditer(text):
                lower = match.group(1).lower()
                spelt_out = match.group().lower().startswith("doctor")
                if lower not in _NOT_A_NAME and not (spelt_out and _verb_form(lower)):
                    yield MeasuredMatch("doctor's title and word", "DOCTOR", *match.span(1))
    if not words.isdisjoint(_COURTESY_WORDS):
        for match in _COURTESY_TITLE.finditer(text):
            # "MS" is also mental status: only a word no dictionary knows is taken for a name.
            if not is_public(match.group(1).lower()):
                yield MeasuredMatch("courtesy title, surname", "PATIENT", *match.span(1))
    if not words.isdisjoint(_RELATION_WORDS) or not words.isdisjoint(_CARER_WORDS):
        yield from _relations_named(text)
    if not words.isdisjoint(_CONTACT_WORDS):
        yield from _names_in_contact(text)
    for match in _INITIAL_SURNAME_ACTING.finditer(text):
        yield MeasuredMatch("initial, surname, action", "DOCTOR", *match.span(1))
    if not words.isdisjoint(_CREDENTIAL_WORDS):
        for match in _NAME_CREDENTIAL.finditer(text):
            first = match.group(1).lower().rstrip(".")
            if (len(first) == 1 or not is_public(first)) and not is_public(match.group(2).lower()):
                yield MeasuredMatch("name and credential", "DOCTOR", match.start(1), match.end(2))
    if "@" in text:
        for match in EMAIL_ADDRESS.finditer(text):
            yield MeasuredMatch("web or mail address", "EMAIL", *match.span())
    for match in URL_WITH_SCHEME.finditer(text):
        yield MeasuredMatch("web or mail address", "URL", *match.span())
    yield from _hospitals(text, words)
    if not words.isdisjoint(_FACILITY_WORDS):
        yield from _hospitals_gone_to(text)
    if not words.isdisjoint(_RESIDENCE_WORDS):
        yield from _residences(text)
    if "from" in words or "at" in words:
        yield from _towns_come_from(text)
    yield from _ages(text, words)
    for _, start, end in calendar_words(text, words):
        yield MeasuredMatch("weekday, season, holiday", "DATE", start, end)
    for _, start, end in occupations(text, words):
        yield MeasuredMatch("occupation so named", "PROFESSION", start, end)


def _surname_end(text: str, word: str, end: int, lexicons: Lexicons) -> int:
    """Where the name after a relation ends: with the surname after it, or the first name after
    a surname in capitals ("RILEY, Ian"), when there is one."""
    following = _SURNAME_AFTER.match(text, end)
    if following is None:
        return end
    after = following.group(1)
    if after.lower() in _NOT_A_NAME:
        return end
    if text[end] == ",":
        named = word.isupper() and len(word) > 3 and after.istitle()
        first_name = lexicons.contains_any(_FIRST_NAMES, after.lower()) or not is_public(after.lower())
        return following.end(1) if named and first_name else end
    # In mixed case a capital says a name ("Angela Frank"); in one case, a word no dictionary knows.
    if (word.istitle() and after.istitle()) or (_written_alike(word, after) and _rare(after.lower())):
        return following.end(1)
    return end


def _written_alike(first: str, second: str) -> bool:
    """Both words in capitals, both capitalised, or both in lower case."""
    return (
        (first.isupper() and second.isupper())
        or (first.istitle() and second.istitle())
        or (first.islower() and second.islower())
    )


def _may_name(lower: str) -> bool:
    """Whether a word after a relation may be a name: not one of the commonest English words
    (``very``, ``today``, ``still``) nor clinical vocabulary (``NAD``, ``phoned``, ``trached``)
    unless a first name (``Frank``). On patients 1-110 none of the 45 such words after a
    relation was a name."""
    lexicons = default_lexicons()
    return (
        lower not in _NOT_A_NAME
        and _zipf(lower) < _COMMONEST_ZIPF
        and (lexicons.contains_any(_FIRST_NAMES, lower) or not lexicons.contains("CLINICAL", lower))
    )


def _rare(lower: str) -> bool:
    """Rare in public English: names and misspellings, not ``consented`` or ``smokes``."""
    return _zipf(lower) < _RARE_ZIPF


@lru_cache(maxsize=100_000)
def _zipf(lower: str) -> float:
    """How common a word is in public English (``wordfreq``'s Zipf scale, 0-8)."""
    return zipf(lower)


def _relations_named(text: str) -> Iterator[MeasuredMatch]:
    lexicons = default_lexicons()
    for match in _RELATION_NAMED.finditer(text):
        word = match.group(1)
        lower = word.lower()
        if not _may_name(lower):
            continue
        if (
            word.isupper()
            and len(word) <= 3
            and not (_given_name(lower, lexicons) and not lexicons.contains("CLINICAL", lower))
        ):
            continue  # "CMO", "PT"; but "GIRLFRIEND EVE", "SON ROB" (2 of 2 on patients 1-110)
        if _takes_an_object(text, match.end(1), lower, lexicons):
            continue
        if _given_name(lower, lexicons) or _rare(lower):
            # A surname after it, written alike: "son Xavier Bolton", "Lopie Certusi".
            end = _surname_end(text, word, match.end(1), lexicons)
            yield MeasuredMatch(_RELATIVE_PATTERN, "PATIENT", match.start(1), end)


def _month_days(text: str) -> Iterator[MeasuredMatch]:
    months: set[int] = set()
    doubtful: list[tuple[int, re.Match[str]]] = []
    for match in _MONTH_DAY_NUMBERS.finditer(text):
        month, day = int(match.group(1)), int(match.group(2))
        if not (1 <= month <= 12 and 1 <= day <= 31):
            continue
        if day == month <= 5:
            continue  # all of a count, or "2/2" (secondary to)
        line_start = text.rfind("\n", 0, match.start()) + 1
        before = text[max(line_start, match.start() - _VENTILATOR_LOOKBEHIND) : match.start()]
        out_of_ten = day == 10 and month <= 10
        if out_of_ten and (_PAIN_BEFORE.search(before) or _PAIN_AFTER.match(text, match.end())):
            continue  # a pain score
        if (
            _NOT_A_DATE_BEFORE.search(before)
            or _VENTILATOR.search(before)
            or "%" in before[-10:]
            or _VENTILATOR_AFTER.match(text, match.end())
            or _NOT_A_DATE_AFTER.match(text, match.end())
        ):
            continue
        if out_of_ten or (month, day) in _FRACTIONS_AND_GRADES or _COUNT_BEFORE.search(before):
            doubtful.append((month, match))
            continue
        months.add(month)
        yield MeasuredMatch("month/day in a line", "DATE", *match.span())
    for month, match in doubtful:
        if month in months:
            yield MeasuredMatch("month/day in a line", "DATE", *match.span())


def _hospitals(text: str, words: frozenset[str]) -> Iterator[MeasuredMatch]:
    if not words.isdisjoint(_FAITH_WORDS):
        for match in _FAITH_HOSPITAL.finditer(text):
            yield MeasuredMatch("faith or saint hospital", "HOSPITAL", *match.span(1))
    lexicons = default_lexicons()
    if not words.isdisjoint(_SAINT_WORDS):
        for match in _SAINT.finditer(text):
            if lexicons.contains_any(_FIRST_NAMES, match.group(1).lower()):
                yield MeasuredMatch("faith or saint hospital", "HOSPITAL", *match.span())
    if words.isdisjoint(_UNIVERSITY_WORDS):
        return
    for match in _UNIVERSITY.finditer(text):
        if match.group(1):
            yield MeasuredMatch("university", "HOSPITAL", *match.span(1))
        elif " of" in match.group(2).lower() or lexicons.contains("STATE", match.group(2).split()[-1]):
            yield MeasuredMatch("university", "HOSPITAL", *match.span(2))


def weighed_candidates(text: str) -> Iterator[MeasuredMatch]:
    """Matches of the patterns that stand only where the model suspects PHI."""
    words = note_words(text)
    if not words.isdisjoint(_RELATION_WORDS):
        lexicons = default_lexicons()
        for match in _RELATION.finditer(text):
            lower = match.group(1).lower()
            if _may_name(lower) and not _takes_an_object(text, match.end(1), lower, lexicons):
                yield MeasuredMatch("relation and word", "PATIENT", *match.span(1), WEIGHED_GATE)
    for match in _INITIAL_SURNAME.finditer(text):
        lower = match.group(1).lower()
        if not is_public(lower) and lower not in _SPECIES:
            yield MeasuredMatch("initial and surname", "DOCTOR", match.start(), match.end(1), WEIGHED_GATE)
    if not words.isdisjoint(_FACILITY_WORDS):
        yield from _facility_names(text)
    yield from _towns(text)


def _names_in_contact(text: str) -> Iterator[MeasuredMatch]:
    """A first name, or a word rare in English, right before ``called``, ``visited``,
    ``wishes``, ``in to visit``: the family in a nursing note's social line (``social: bill
    called``, ``sarah and margie in to visit``). Not a relation however spelt (``dauther
    visited``), a clinician's role (``Radiologist phoned``) or a possessive (``MD'S CALLED``)."""
    lexicons = default_lexicons()
    for match in _NAME_IN_CONTACT.finditer(text):
        word = match.group(1)
        lower = word.lower()
        if (
            lower.endswith("'s")  # "MD'S CALLED"
            or RELATIVE_WORD.fullmatch(word.split("-")[0])  # "son-inlaw"
            or ROLE_WORD.fullmatch(word)
            or lexicons.contains("PROFESSION", lower)
        ):
            continue
        if _a_persons_name(lower, lexicons):
            yield MeasuredMatch("name before a call or visit", "PATIENT", *match.span(1))


def _a_persons_name(lower: str, lexicons: Lexicons) -> bool:
    """Neither among the commonest nor clinical words, no relation however misspelt, and a
    given name or rare in English: what the call and partner patterns take."""
    return (
        _may_name(lower) and not _misspelt_relation(lower) and (_given_name(lower, lexicons) or _rare(lower))
    )


@lru_cache(maxsize=10_000)
def _misspelt_relation(lower: str) -> bool:
    """A relation misspelt ("neice", "duaghter", "grandaughter"; two slips in a long one: "dauther"): no name."""
    from rapidfuzz.distance import OSA

    return any(
        len(relation) >= 5 and OSA.distance(lower, relation) <= (2 if len(relation) >= 7 else 1)
        for relation in _RELATION_WORDS
    )


def _facility_names(text: str) -> Iterator[MeasuredMatch]:
    """The name before a facility word: the words after the last that cannot be part of one."""
    previous_end = 0
    for facility in _FACILITY.finditer(text):
        window_start = max(previous_end, facility.start() - _FACILITY_LOOKBEHIND)
        previous_end = facility.end()
        before = _WORDS_BEFORE_FACILITY.search(text, window_start, facility.start())
        if before is None:
            continue
        words = list(re.finditer(r"\S+", before.group(1)))
        while words and words[-1].group().lower() not in _NOT_A_PLACE:
            words.pop()
        start = before.start(1) + (words[-1].end() if words else 0)
        name = text[start : before.end(1)].strip()
        if name and not _holds_commonest_word(name):
            yield MeasuredMatch(
                "name before a facility", "HOSPITAL", before.end(1) - len(name), before.end(1), WEIGHED_GATE
            )


def _hospitals_gone_to(text: str) -> Iterator[MeasuredMatch]:
    """A facility's name after ``to``, ``at``, ``from`` or ``in`` whose head is a hospital's
    (``TAKEN TO UNION HOSPITAL``, ``AT UNION MEMORIAL``, ``from baltimore rehab``): it stands
    without the model. A house, health or an ER after a preposition is as often no place
    (``in poor health``)."""
    for match in _facility_names(text):
        head = _FACILITY.match(text, match.end)
        if (
            head is not None
            and _HOSPITAL_HEAD.match(head.group().strip())
            and _PLACE_PREPOSITION_BEFORE.search(text, max(0, match.start - 8), match.start)
        ):
            yield match._replace(pattern="hospital's name after to or at", gate=0.0)


def _holds_commonest_word(name: str) -> bool:
    """A word among the commonest of English ("FOUND WANDERING hospital", "will require rehab"):
    on patients 1-110, 17 of the 18 facility names holding one were no place."""
    return any(_zipf(word) >= _COMMONEST_ZIPF for word in re.findall(r"[a-z]+", name.lower()))


def _towns(text: str) -> Iterator[MeasuredMatch]:
    """The longest run of up to three words after a place preposition that names a town."""
    for match in _AFTER_PLACE_PREPOSITION.finditer(text):
        town = _town_at(text, match)
        if town is not None:
            yield MeasuredMatch("town after a preposition", "CITY", *town, TOWN_GATE)


def _ages(text: str, words: frozenset[str]) -> Iterator[MeasuredMatch]:
    died, sex_after, sex_first = _AGE_PHRASES
    patterns = [died] if not words.isdisjoint(_LIFE_WORDS) else []
    if _AGE_AND_SEX.search(text):
        patterns += [sex_after, sex_first]
    for pattern in patterns:
        for match in pattern.finditer(text):
            yield MeasuredMatch("age in a phrase", "AGE", *match.span(1))


def _residences(text: str) -> Iterator[MeasuredMatch]:
    """A town after "lives in": where someone lives is always PHI (7 of 7 on patients 1-110)."""
    for match in _AFTER_PLACE_PREPOSITION.finditer(text):
        if match.group().lower().startswith("in") and _LIVES_BEFORE.search(
            text, max(0, match.start() - 30), match.start()
        ):
            town = _town_at(text, match)
            if town is not None:
                yield MeasuredMatch("town where one lives", "CITY", *town)


def _towns_come_from(text: str) -> Iterator[MeasuredMatch]:
    """A real town after ``from`` or ``at`` (``DAUGHTER FROM ROME``, ``Son from Pikesville``,
    ``AT BALTIMORE REHAB``) none of whose words is clinical or among the commonest of English
    (not ``from foley``, ``from central line``): 12 of 12 on patients 1-110."""
    lexicons = default_lexicons()
    for match in _AFTER_FROM_OR_AT.finditer(text):
        town = _town_at(text, match)
        if town is None or not _cased_as_a_name(text, town[0]):
            continue
        if any(
            _zipf(word) >= _COMMON_TOWN_ZIPF
            or lexicons.contains("CLINICAL", word)
            or lexicons.contains("DRUG", word)
            for word in text[town[0] : town[1]].lower().split()
        ):
            continue
        yield MeasuredMatch("town after from or at", "CITY", *town)


def _cased_as_a_name(text: str, start: int) -> bool:
    """Capitalised, or on a line written in one case: in mixed case a town has its capital
    ("benefit from opportunity" is no town)."""
    if not text[start].islower():
        return True
    # The line around it, at most a window either side: a megabyte-long line is read once per
    # match otherwise.
    line_start = text.rfind("\n", max(0, start - _CASE_WINDOW), start) + 1
    line_end = text.find("\n", start, start + _CASE_WINDOW)
    line = text[max(line_start, start - _CASE_WINDOW) : line_end if line_end >= 0 else start + _CASE_WINDOW]
    return not any(character.isupper() for character in line)


def _town_at(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    towns = _real_towns()
    words = list(re.finditer(r"[^\s,;:()]+", match.group(1)))
    for count in range(len(words), 0, -1):
        start = match.start(1) + words[0].start()
        name = text[start : match.start(1) + words[count - 1].end()].rstrip(".'")
        if name.lower() in towns:
            return start, start + len(name)
    return None


def _takes_an_object(text: str, end: int, lower: str, lexicons: Lexicons) -> bool:
    """A word before an article is a verb with its object ("helped a friend unload a
    motorcycle"), unless it is a given name ("son Frank a teacher")."""
    return _ARTICLE_NEXT.match(text, end) is not None and not _given_name(lower, lexicons)


def _verb_form(lower: str) -> bool:
    """A common English word in ``-ed`` or ``-ing`` that no name list holds: after ``doctor``
    spelt out, what the doctor did (``their doctor prescribed``), not who (``doctor Reed``).
    After ``Dr.`` a surname is the rule, ``Dr. Fielding`` among them."""
    if not lower.endswith(("ed", "ing")) or _zipf(lower) < _VERB_ZIPF:
        return False
    return not is_listed_name(lower)


def _given_name(lower: str, lexicons: Lexicons) -> bool:
    """A listed first name: ours (SSA, through Faker) or the 1990 US Census's 5,163."""
    return lexicons.contains_any(_FIRST_NAMES, lower) or lower in census_first_names()


@cache
def _real_towns() -> frozenset[str]:
    return frozenset(e.lower() for e in read_entries(LEXICON_DIR / "cities_real.txt"))


def _weighed_matches(text: str, strength: Strength | None) -> Iterator[MeasuredMatch]:
    if strength is not None and strength(0, len(text)) < min(WEIGHED_GATE, TOWN_GATE):
        return  # the model suspects no token of the note: no weighed match could stand
    for found in weighed_candidates(text):
        if strength is None or strength(found.start, found.end) >= found.gate:
            yield found


def _without_overlaps(found: Iterable[MeasuredMatch]) -> list[MeasuredMatch]:
    """Text order; of overlapping matches the first found (standing before weighed) wins."""
    kept: list[MeasuredMatch] = []
    # The kept bounds, sorted: they overlap no other, so their ends rise with their starts and
    # the last one starting before a match's end is the only one that can reach into it (a
    # pairwise check took 33 s on 25,000 "Dr." matches).
    bounds: list[tuple[int, int]] = []
    for match in found:
        before = bisect_left(bounds, (match.end, -1))
        if before and bounds[before - 1][1] > match.start:
            continue
        insort(bounds, (match.start, match.end))
        kept.append(match)
    return sorted(kept, key=lambda m: (m.start, m.end))


def measured_rule_predictions(
    text: str, allowed: set[str] | None = None, strength: Strength | None = None
) -> list[Prediction]:
    """Every standing match, and each weighed match ``strength`` admits, in text order.

    Without ``strength`` (the rules-only baseline) every weighed match stands too.
    """
    return _predictions(list(standing_matches(text)), text, allowed, strength)


def _predictions(
    standing: list[MeasuredMatch], text: str, allowed: set[str] | None, strength: Strength | None
) -> list[Prediction]:
    found = _without_overlaps([*standing, *_weighed_matches(text, strength)])
    return [
        Prediction(m.kind, m.start, m.end, MEASURED_CONFIDENCE, MEASURED_ORIGIN)
        for m in found
        if allowed is None or m.kind in allowed
    ]


def add_measured_spans(
    text: str,
    predictions: list[Prediction],
    allowed: set[str] | None = None,
    strength: Strength | None = None,
) -> list[Prediction]:
    """``predictions`` with each measured match that overlaps none of them.

    A standing name match that covers the model's shorter name spans (the model found
    ``ROBERT V.`` of ``ROBERT V. DEGIORGIO, RRT``) widens them to the whole name; an address,
    the model's pieces of it (``https://glenmorgan`` of ``https://glenmorgan.co.nz/patients``).
    """
    standing = list(standing_matches(text))
    wholes = [(m.start, m.end, _WIDENED[m.kind]) for m in standing if m.kind in _WIDENED]
    places = [m for m in standing if m.kind == "HOSPITAL"]
    relatives = [m for m in standing if m.pattern == _RELATIVE_PATTERN]
    widened = _as_relatives(_widen_places(_widen(predictions, wholes), places), relatives)
    return add_where_free(widened, _predictions(standing, text, allowed, strength))


_NAME_KINDS = frozenset({"DOCTOR", "PATIENT"})
# Kinds whose standing match widens the model's shorter spans inside it, if they are of these kinds.
_WIDENED = {
    "DOCTOR": _NAME_KINDS,
    "PATIENT": _NAME_KINDS,
    "URL": frozenset({"URL"}),
    "EMAIL": frozenset({"EMAIL"}),
    "PROFESSION": frozenset({"PROFESSION"}),
    "DATE": frozenset({"DATE"}),
}


def _bounds(prediction: Prediction) -> tuple[int, int]:
    return prediction.start, prediction.end


def _widen(predictions: list[Prediction], wholes: list[tuple[int, int, frozenset[str]]]) -> list[Prediction]:
    return _merge_over(predictions, wholes, _whole_over)


def _whole_over(start: int, end: int, kinds: frozenset[str], inside: list[Prediction]) -> Prediction | None:
    """The span over a standing match and the model's shorter spans inside it, or None."""
    if (
        not inside
        or any(p.type not in kinds or p.start < start or p.end > end for p in inside)
        or (len(inside) == 1 and (inside[0].start, inside[0].end) == (start, end))
    ):
        return None
    # The pattern set these bounds: the span stands as its own, not to be trimmed again.
    return replace(
        inside[0], start=start, end=end, confidence=max(p.confidence for p in inside), origin=MEASURED_ORIGIN
    )


_Match = TypeVar("_Match")


def _merge_over(
    predictions: list[Prediction],
    matches: Iterable[tuple[int, int, _Match]],
    merged: Callable[[int, int, _Match, list[Prediction]], Prediction | None],
    scan: bool = False,
) -> list[Prediction]:
    """Each match in turn replaces the spans it overlaps (``inside``) by ``merged``'s span
    over them, unless that gives None; the spans come back in order.

    Spans in order (as the tagger gives them) are found by bisection, not by a scan of the
    note's every span for each match (a note of 500,000 characters holds some 20,000 of both);
    spans out of order or repeated, or ``scan`` (what the tests compare with), take the scan.
    """
    ordered = sorted(predictions, key=_bounds)
    if scan or ordered != predictions or len(set(predictions)) < len(predictions):
        for start, end, what in matches:
            inside = [p for p in predictions if p.start < end and start < p.end]
            whole = merged(start, end, what, inside)
            if whole is not None:
                predictions = sorted([p for p in predictions if p not in inside] + [whole], key=_bounds)
        return predictions
    starts = [p.start for p in ordered]
    longest = max((p.end - p.start for p in ordered), default=0)
    for start, end, what in matches:
        first = bisect_left(starts, start - longest)
        last = bisect_left(starts, end, first)
        inside = [p for p in ordered[first:last] if start < p.end]
        whole = merged(start, end, what, inside)
        if whole is None:
            continue
        # Every span outside ``first:last`` sorts before or after the new one: only the run moves.
        run = sorted([p for p in ordered[first:last] if p not in inside] + [whole], key=_bounds)
        ordered[first:last] = run
        starts[first:last] = [p.start for p in run]
        longest = max(longest, whole.end - whole.start)
    return ordered


def _as_relatives(predictions: list[Prediction], relatives: list[MeasuredMatch]) -> list[Prediction]:
    """A name right after a relation is the relative's (PATIENT, as our guidelines type family),
    whatever name type the model gave it ("dtr laverne" as a clinician)."""
    bounds = {(m.start, m.end) for m in relatives}
    return [
        replace(p, type="PATIENT") if p.type == "DOCTOR" and (p.start, p.end) in bounds else p
        for p in predictions
    ]


# Kinds a standing hospital's name takes over: the model's pieces of it ("maryland" of
# "university of maryland hospital", "MARY" of "ST. MARY").
_PLACE_PIECES = frozenset(
    {"HOSPITAL", "LOCATION-OTHER", "CITY", "STATE", "ORGANIZATION", "DOCTOR", "PATIENT"}
)


def _widen_places(predictions: list[Prediction], places: list[MeasuredMatch]) -> list[Prediction]:
    """A standing hospital and the model's pieces of it become one HOSPITAL over both."""
    return _merge_over(predictions, ((m.start, m.end, m) for m in places), _place_over)


def _place_over(_start: int, _end: int, place: MeasuredMatch, inside: list[Prediction]) -> Prediction | None:
    """The HOSPITAL over a standing place and the model's pieces of it, or None to leave them."""
    if not inside or any(p.type not in _PLACE_PIECES for p in inside):
        return None
    if len(inside) == 1 and inside[0].start <= place.start and place.end <= inside[0].end:
        return None  # the model's span holds the whole name: its bounds and type stand
    return replace(
        inside[0],
        type="HOSPITAL",
        start=min(place.start, inside[0].start),
        end=max(place.end, inside[-1].end),
        confidence=max(p.confidence for p in inside),
        origin=MEASURED_ORIGIN,
    )


# "Suzette and Hank", "d. renna and j. o'brien": a word joined to a found name by "and" or "&".
_PARTNER_AFTER = re.compile(r"[ \t]+(?:and|&)[ \t]+(?:[A-Za-z]\.[ \t]*)?([A-Za-z][a-z'’-]+|[A-Z][A-Z'’-]+)\b")
_PARTNER_BEFORE = re.compile(r"(?<![\w.'’-])([A-Za-z][a-z'’-]+|[A-Z][A-Z'’-]+)[ \t]+(?:and|&)[ \t]+$")
_PARTNER_LOOKBEHIND = 40


def add_name_partners(
    text: str, predictions: list[Prediction], allowed: set[str] | None = None
) -> list[Prediction]:
    """A given name or a word rare in English joined by ``and`` or ``&`` to a found name is a
    name of the same kind (``Both Suzette and Hank are his proxies``, ``suzette and ank``,
    ``nsg (d. renna and j. o'brien)``), unless a relation however spelt or a common word."""
    lexicons = default_lexicons()
    found: list[Prediction] = []
    for name in predictions:
        if name.type not in _NAME_KINDS or (allowed is not None and name.type not in allowed):
            continue
        partners = []
        if after := _PARTNER_AFTER.match(text, name.end):
            partners.append(after.span(1))
        if before := _PARTNER_BEFORE.search(text, max(0, name.start - _PARTNER_LOOKBEHIND), name.start):
            partners.append(before.span(1))
        for start, end in partners:
            word = text[start:end]
            lower = word.lower().rstrip("'’")
            if text[name.start].isupper() and word[:1].islower():
                continue  # "Dr. XYZ and immunopathology": a name in capitals has a capitalised partner
            if not RELATIVE_WORD.fullmatch(word) and _a_persons_name(lower, lexicons):
                found.append(Prediction(name.type, start, end, MEASURED_CONFIDENCE, MEASURED_ORIGIN))
    return add_where_free(predictions, found) if found else predictions


def add_where_free(predictions: list[Prediction], found: Iterable[Prediction]) -> list[Prediction]:
    """``predictions`` with each of ``found`` that overlaps none of them, in text order."""
    # The spans sorted by start, each with the furthest end up to it: one of them overlaps
    # [start, end) if any of those starting before ``end`` reaches past ``start``.
    taken = sorted((p.start, p.end) for p in predictions)
    starts = [start for start, _ in taken]
    reach = list(accumulate((end for _, end in taken), max))
    added = []
    for f in found:
        before = bisect_left(starts, f.end)
        if not (before and reach[before - 1] > f.start):
            added.append(f)
    if not added:
        return predictions
    return sorted([*predictions, *added], key=lambda p: (p.start, p.end))
