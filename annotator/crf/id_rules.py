"""Rules for identifiers written in the public forms of many countries' record systems.

Each rule is a public convention, not one note style's quirk: a UK National Insurance number
(two letters, three digit pairs, a final A-D) and any number after ``SSN``, ``NI no``,
``social security no``; health-plan numbers after ``Medicare``, ``Medicaid``, ``health
card``, ``OHIP``, ``insurance no``, ``member ID``, ``policy no`` (also in digit groups:
``7070 60569 6``); biobank and specimen codes; practitioner registrations after the
regulator that issues them (``GMC``, ``NMC``, ``AHPRA``, ``DEA``, ``NPI``); vehicle plates
after ``vehicle reg``, ``plate``, ``rego``; device serial numbers after ``SN``/``serial``
(trailing ``-02`` included); operating theatres and side rooms (``Theatre 3``, ``OR 6``,
``room SR6``); laboratory, accession, order and billing numbers; complete IPv4 addresses;
and user names where dictation systems write them (``nfa95/lu``, ``-- ngk7``, alone under a
signature, or closing its line after a wide gap, also in capitals: ``M.D.    FB59``). The
regulator or label stays outside the span: only the value is PHI.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from annotator.crf.labels import Prediction

Candidate = tuple[str, int, int]

# The label's separator, then the value: "no. ", ": ", "# ".
_SEP = r"\.?[ \t]*[:#]?[ \t]*"
# A code of letters, digits and dashes, or digit groups ("7070 60569 6", "FL 38 73 62 A").
_CODE = r"[A-Za-z0-9][A-Za-z0-9/-]*[A-Za-z0-9]"
_GROUPS = r"(?:[A-Z]{1,4}[ \t-]?)?\d{1,6}(?:[ \t-]\d{1,6}){1,4}(?:[ \t-][A-Z]{1,2})?"
# A value has a digit: "Insurance member ID: X" reads past "member" to the value.
_VALUE = rf"({_GROUPS}|(?=[A-Za-z0-9/-]*\d){_CODE})(?![\w-])"
_NUMBER_WORD = r"(?i:[ \t]+(?:no|number|num|#|id|card))?"
# A label ends at a word's end: "plate" is no label in "PLATELETS".
_END = r"(?![A-Za-z])"

# Unlabelled, only in the spaced form: written solid ("KZ924987D") the shape is also a record number's.
_NINO = re.compile(r"(?<![\w-])[A-CEGHJ-PR-TW-Z]{2} \d{2} \d{2} \d{2} [A-D](?![\w-])")
_SSN_LABEL = re.compile(
    rf"(?:(?i:\bnational[ \t]+insurance|\bsocial[ \t]+security){_NUMBER_WORD}|\bNI[ \t]+(?:no|No|NO|number)|\bNINO|\bSSN){_END}"
    rf"{_SEP}{_VALUE}"
)
# Laboratory and order numbers: the label says which number it is, whatever the tagger thought.
_LAB_LABEL = re.compile(
    r"(?i:\baccession(?:[ \t]*(?:no|number|#))?|\blab(?:oratory)?[ \t]*(?:no|number|#)|\border[ \t]*(?:no|number|#))"
    rf"{_END}{_SEP}{_VALUE}"
)
_BILLING_LABEL = re.compile(
    rf"(?i:\bbilling[ \t]*(?:ref(?:erence)?|no|number|account|acct|#)){_END}{_SEP}{_VALUE}"
)
_HEALTHPLAN_LABEL = re.compile(
    r"(?i:\b(?:medicare|medicaid|OHIP|RAMQ|health[ \t]+card|medical[ \t]+card)(?:[ \t]+(?:card|no|number|num|id|#))*"
    # Said alone, these words name no number ("member of the team", "policy 2067-03-01").
    r"|\b(?:health[ \t]+plan|(?<!national[ \t])insurance|member|policy|subscriber)[ \t]*(?:no|number|num|id|#))"
    rf"{_END}{_SEP}{_VALUE}"
)
# A label's colon or hash ("#:" too), the value after it.
_LABEL_MARK = r"[ \t]*(?:#[ \t]*:?|:)[ \t]*"
# "Acct: AC480948177", "Account #: 23266-705": said alone, "account" names no number, so the
# label needs its colon or hash.
_ACCOUNT_LABEL = re.compile(
    rf"(?i:\b(?:acct|account)(?:[ \t]*(?:no|number|num))?){_END}\.?{_LABEL_MARK}{_VALUE}"
)
# An encounter's number identifies the patient's stay: a record number, as our guidelines say
# of a number that identifies the patient ("Enc#: 6241/09576", "Encounter no: E78870105").
_ENCOUNTER_LABEL = re.compile(
    rf"(?i:\b(?:enc|encounter)(?:[ \t]*(?:no|number|num|id))?){_END}\.?{_LABEL_MARK}{_VALUE}"
)
_BIOID_LABEL = re.compile(
    r"(?i:\b(?:bio[ \t-]?bank|tissue[ \t]+bank|biometric)(?:[ \t]+(?:sample|specimen|enrol{1,2}ment|no|number|id|#))*"
    r"|\bspecimen[ \t]+(?:id|no|number))"
    rf"{_END}{_SEP}{_VALUE}"
)
# Regulators that issue practitioner numbers: UK GMC, NMC, GPhC, HCPC; Australian AHPRA; US DEA, NPI.
# A bare "prescriber no." names a payer's provider number, not a licence: it is left to the ID rules.
_LICENSE_LABEL = re.compile(
    r"(?:\b(?:GMC|NMC|GPhC|HCPC|AHPRA|DEA|NPI)(?:[ \t]+(?:no|No|number|reg|registration|#))?"
    r"|(?i:\b(?:prescriber|practitioner|professional)[ \t]+(?:registration|reg)(?:[ \t]+(?:no|number))?))"
    rf"{_END}{_SEP}{_VALUE}"
)
# "vehicle reg EP39 XEJ", "plate 3NUN 460": a plate of capitals and digits, one or two groups.
_VEHICLE_LABEL = re.compile(
    r"(?i:\b(?:vehicle|car|van)[ \t]+(?:reg(?:istration)?|plate|licen[cs]e)(?:[ \t]+(?:no|number|plate))?"
    r"|\b(?:licen[cs]e|number|registration)[ \t]+plate|\bplate(?:[ \t]+(?:no|number))?|\brego|\breg\.?[ \t]+no)"
    rf"{_END}\.?[ \t]*[:#]?[ \t]*([A-Z0-9]{{2,8}}(?:[ -][A-Z0-9]{{1,4}})?)(?![\w-])"
)
_SERIAL = re.compile(
    rf"(?:\bS/?N|(?i:\bserial)(?:[ \t]+(?:no|No|number|#))?){_END}"
    rf"{_SEP}([A-Za-z0-9][A-Za-z0-9]*(?:[-/][A-Za-z0-9]+)*)(?![\w-])"
)
_THEATRE = re.compile(
    r"(?i:\btheat(?:re|er)s?)[ \t]+(?:(?i:no)\.?[ \t]*)?(\d{1,2}[A-Z]?)(?![\w.,-]?\d)"
    r"(?![ \t]*(?i:x\b|times|days?|weeks?|months?|hours?|hrs?|mins?|minutes|am\b|pm\b))"
)
_OPERATING_ROOM = re.compile(r"\bOR[ \t]+(\d{1,2})(?![\w.,-]?\d)")
_ROOM_CODE = re.compile(
    r"(?i:\b(?:side[ \t]+room|room|rm|bay|bed|cubicle|theat(?:re|er)))[ \t]*[:#.]?[ \t]*([A-Z]{1,3}\d{1,4}[A-Z]?)(?![\w-])"
)
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = re.compile(rf"(?<![\w.])(?<!\d/){_OCTET}(?:\.{_OCTET}){{3}}(?![\w]|\.\d)")

_USER = r"([a-zß-öø-ÿ]{2,8}\d{1,3})"
# Under or beside a signature a login may be written in capitals ("FB59").
_SIGNED_USER = r"([a-zß-öø-ÿ]{2,8}\d{1,3}|[A-Z]{2,4}\d{1,3})"
# The degrees and roles a clinician signs with (the signature's own period is optional after it).
SIGNATURE_CREDENTIALS = (
    r"(?:RN|MD|M\.D\.|DO|D\.O\.|NP|PA|PA-C|PhD|Ph\.D\.|MBBS|MBChB|FRCP|FRACP|RGN|RMN|CNS|APRN|LPN)"
)
# "kpb80/jl": the author's user name, then the typist's initials, on a line of their own.
_DICTATION_LINE = re.compile(rf"(?m)^[ \t]*{_USER}/[a-z]{{1,3}}[ \t]*$")
_DASHED_LINE = re.compile(rf"(?m)^--[ \t]*{_USER}[ \t]*$")
_SIGNATURE_THEN_USER = re.compile(
    rf"(?m)^[^\n]*,[ \t]*{SIGNATURE_CREDENTIALS}\.?[ \t]*\n[ \t]*{_SIGNED_USER}[ \t]*$"
)
# "FILBERT BRIGHT, M.D.    FB59": the login closes the signature's line, after a wide gap.
_SIGNATURE_AND_USER = re.compile(
    rf"(?m)^[^\n]*,[ \t]*{SIGNATURE_CREDENTIALS}\.?(?:[ \t]{{2,}}|\t){_SIGNED_USER}[ \t]*$"
)
# "Read by: Robin Wright  rdw50": the reader's login closes the sign-off line, after the name.
_SIGNED_BY_LINE = re.compile(
    r"(?m)^[ \t]*(?i:read|reported|verified|signed|dictated|authori[sz]ed|approved)[ \t]+(?i:by)\b:?"
    rf"[^\n]{{0,60}}?[ \t]{_USER}[ \t]*$"
)
# "Typed by: RM5", "e-signed by gyg62 @ 18:00": a login right after a sign-off's "by" (a name
# after it is no login: letters then digits are).
_LOGIN_AFTER_BY = re.compile(
    r"(?i:\b(?:typed|transcribed|e-?signed|signed|dictated|entered|reviewed|read|verified)[ \t]+by)"
    rf"[ \t]*:?[ \t]*{_SIGNED_USER}(?![\w/.-]?\w)"
)
# Lower-case letters and digits that name a measurement, not a person ("spo2", "fio2", "hba1c").
NOT_USER = frozenset({"spo", "fio", "pao", "paco", "hba", "vit", "abg", "etco", "tsh", "covid"})


_DATE_SHAPE = re.compile(r"\d{1,2}([-/.])\d{1,2}\1(?:\d{2}|\d{4})|\d{4}([-/.])\d{1,2}\2\d{1,2}")


def _digits(value: str) -> int:
    """Digits in a value; none for a date ("2067-03-01" after a label is when, not which)."""
    return 0 if _DATE_SHAPE.fullmatch(value) else sum(c.isdigit() for c in value)


def ssn(text: str) -> Iterator[Candidate]:
    for match in _NINO.finditer(text):
        yield "SSN!", match.start(), match.end()
    for match in _SSN_LABEL.finditer(text):
        if _digits(match.group(1)) >= 6:
            yield "SSN!", match.start(1), match.end(1)


def _labelled(kind: str, pattern: re.Pattern[str], min_digits: int) -> Callable[[str], Iterator[Candidate]]:
    def rule(text: str) -> Iterator[Candidate]:
        for match in pattern.finditer(text):
            if _digits(match.group(1)) >= min_digits:
                yield kind, match.start(1), match.end(1)

    return rule


healthplan = _labelled("HEALTHPLAN!", _HEALTHPLAN_LABEL, 5)
bioid = _labelled("BIOID!", _BIOID_LABEL, 4)
license_number = _labelled("LICENSE!", _LICENSE_LABEL, 5)
device = _labelled("DEVICE!", _SERIAL, 4)
lab_number = _labelled("IDNUM!", _LAB_LABEL, 4)
billing = _labelled("ACCOUNT!", _BILLING_LABEL, 4)
account = _labelled("ACCOUNT!", _ACCOUNT_LABEL, 4)
encounter = _labelled("MEDICALRECORD!", _ENCOUNTER_LABEL, 4)


# A clinician's registration number: "Reg. no. 0740449".
_REGISTRATION_LABEL = re.compile(
    r"(?i:\b(?:reg(?:istration)?\.?|prescriber)[ \t]*(?:no|number|#))\.?[ \t]*[:#]?[ \t]*(\d{4,9})(?![\w-])"
)
registration = _labelled("IDNUM", _REGISTRATION_LABEL, 4)
# A number no calendar, phone plan or measurement writes: seven or more digits alone
# ("SALGADO, Julio   5444921", after a wide gap, not a label), or digit groups around a
# slash ("6241/09576"): an identifier.
_BARE_NUMBER = re.compile(r"(?<![\w.,/:+()-])(?:\d{7,10}|\d{4,}/\d{4,})(?![\w,/-]|[.:]\d)")


# A label just before a number ("GMC 9528736", "NPI: 1234567890"): its own rule types it.
_LABEL_JUST_BEFORE = re.compile(r"[A-Za-z]{2,}\.?[ \t]?[:#]?[ \t]?$")


def bare_number(text: str) -> Iterator[Candidate]:
    for match in _BARE_NUMBER.finditer(text):
        slash = "/" in match.group()
        if slash or not _LABEL_JUST_BEFORE.search(text, max(0, match.start() - 16), match.start()):
            yield "MEDICALRECORD", match.start(), match.end()


def vehicle(text: str) -> Iterator[Candidate]:
    for match in _VEHICLE_LABEL.finditer(text):
        plate = match.group(1)
        letters = sum(c.isalpha() for c in plate)
        # A plate has letters and digits, and five or more of them ("LCP 4" names a bone plate).
        if letters and _digits(plate) and letters + _digits(plate) >= 5:
            yield "VEHICLE!", match.start(1), match.end(1)


def _caps_line(text: str, position: int) -> bool:
    """Whether the line around ``position`` is written in capitals (there ``OR`` is the word "or")."""
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    line = text[start : end if end >= 0 else len(text)]
    return sum(c.isupper() for c in line) > 2 * sum(c.islower() for c in line)


def room(text: str) -> Iterator[Candidate]:
    for match in _THEATRE.finditer(text):
        yield "ROOM", match.start(1), match.end(1)
    for match in _OPERATING_ROOM.finditer(text):
        if not _caps_line(text, match.start()):
            yield "ROOM", match.start(1), match.end(1)
    for match in _ROOM_CODE.finditer(text):
        yield "ROOM", match.start(1), match.end(1)


def ip_address(text: str) -> Iterator[Candidate]:
    for match in IPV4.finditer(text):
        yield "IPADDR!", match.start(), match.end()


def _logins(text: str, patterns: Iterable[re.Pattern[str]]) -> Iterator[tuple[int, int]]:
    for pattern in patterns:
        for match in pattern.finditer(text):
            if match.group(1).rstrip("0123456789").lower() not in NOT_USER:
                yield match.span(1)


def signed_usernames(text: str) -> Iterator[tuple[int, int]]:
    """A login beside or under a clinician's signature and degree (``M.D.    FB59``)."""
    if "," in text:
        yield from _logins(text, (_SIGNATURE_THEN_USER, _SIGNATURE_AND_USER))


def logins_after_by(text: str) -> Iterator[tuple[int, int]]:
    """A login right after a sign-off label and its ``by`` (``Typed by: RM5``)."""
    yield from _logins(text, (_LOGIN_AFTER_BY,))


def username(text: str) -> Iterator[Candidate]:
    spans = [*_logins(text, (_DICTATION_LINE, _DASHED_LINE, _SIGNED_BY_LINE)), *signed_usernames(text)]
    for start, end in spans:
        yield "USERNAME", start, end


# Named, so that each rule's hits and false positives can be counted on its own.
ID_RULES: dict[str, Callable[[str], Iterator[Candidate]]] = {
    "ssn": ssn,
    "healthplan": healthplan,
    "bioid": bioid,
    "license": license_number,
    "vehicle": vehicle,
    "device": device,
    "idnum": lab_number,
    "account": billing,
    "account label": account,
    "encounter": encounter,
    "room": room,
    "ipaddr": ip_address,
    "username": username,
    "registration": registration,
    "bare number": bare_number,
}


def id_candidates(text: str) -> Iterator[Candidate]:
    """Every identifier rule's spans as ``(type, start, end)``; ``!`` settles the type."""
    for rule in ID_RULES.values():
        yield from rule(text)


_SHORT_NUMBER = re.compile(r"\d{2,6}")
# Where a short number is a phone number: "bleep 2175", "ext 219", "call me at 12088",
# "beeper number 55037" (but "page number 12" is a page's).
_SHORT_PHONE_LABEL = re.compile(
    r"(?i:\b(?:(?:bleep|pager|beeper|ext|extension|tel|phone|ph)(?:\.?[ \t]*(?:no\.?|number))?|page|x"
    r"|call(?:[ \t]+(?:me|us|back))?(?:[ \t]+(?:at|on))?))\.?[ \t]*[:#]?[ \t]*$"
)


def _unlabelled_short_number(text: str, prediction: Prediction) -> bool:
    if not _SHORT_NUMBER.fullmatch(text, prediction.start, prediction.end):
        return False
    return not _SHORT_PHONE_LABEL.search(text, max(0, prediction.start - 30), prediction.start)


def relabel_short_phones(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """A phone span of a few digits with no phone label before it is a year ("dx 2058") or nothing."""
    result = []
    for prediction in predictions:
        if prediction.type in ("PHONE", "FAX") and _unlabelled_short_number(text, prediction):
            span = text[prediction.start : prediction.end]
            if len(span) != 4 or not 1800 <= int(span) <= 2199:
                continue
            prediction = replace(prediction, type="DATE")
        result.append(prediction)
    return result


# A number after a phone's label is a phone number, whatever the model typed it ("Home: 08 4086
# 6883" as a record number): seven to fifteen digits in a phone's characters, nothing else.
_PHONE_LABEL = re.compile(
    r"(?i:\b(?:tel|telephone|ph|phone|home|cell|mobile|mob|work|pager|beeper|callback|call[ \t]+back))"
    r"\.?[ \t]*(?:#|no\.?|number)?[ \t]*:?[ \t]*$"
)
_PHONE_SHAPE = re.compile(r"\+?[\d()]+(?:[ .-]*[\d()]+)*")
# The schema's identifier types that a number may be read as.
IDENTIFIER_TYPES = frozenset(
    {"MEDICALRECORD", "IDNUM", "ACCOUNT", "HEALTHPLAN", "LICENSE", "DEVICE", "BIOID"}
)


def relabel_labelled_phones(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """An identifier-typed number after a phone's label becomes a PHONE."""
    result = []
    for prediction in predictions:
        if (
            prediction.type in IDENTIFIER_TYPES
            and _PHONE_SHAPE.fullmatch(text, prediction.start, prediction.end)
            and 7 <= sum(c.isdigit() for c in text[prediction.start : prediction.end]) <= 15
            and _PHONE_LABEL.search(text, max(0, prediction.start - 30), prediction.start)
        ):
            prediction = replace(prediction, type="PHONE")
        result.append(prediction)
    return result
