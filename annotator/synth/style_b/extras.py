"""Style B's administrative footer: the identifiers that only some notes carry.

Every patient gets a few of these for sure (in turn, so 30 patients cover every type of the
schema) and any note may carry one by chance; wording and formats are style B's own.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from annotator.synth.builder import NoteBuilder
from annotator.synth.style_b import vocab
from annotator.synth.style_b.formats import make_id, make_phone_b, write_date_b
from annotator.synth.style_b.people import Cast

Extra = Callable[[NoteBuilder, Cast, random.Random], None]


def _labelled(label: str, kind: str, value: Callable[[Cast, random.Random], str]) -> Extra:
    def write(b: NoteBuilder, c: Cast, rng: random.Random) -> None:
        b.add(label).phi(value(c, rng), kind)

    return write


def _simple(label: str, kind: str) -> Extra:
    return _labelled(label, kind, lambda c, rng: make_id(rng, kind))


def _ip(b: NoteBuilder, c: Cast, rng: random.Random) -> None:
    b.add("Telehealth session logged from host ").phi(
        f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}", "IPADDR"
    )


def _url(b: NoteBuilder, c: Cast, rng: random.Random) -> None:
    slug = c.town.lower().replace(" ", "")
    b.add("Patient portal: ").phi(f"https://myrecord.{slug}health.example/p/{rng.randint(1000, 9999)}", "URL")


extras: dict[str, Extra] = {
    "FAX": _labelled("Results by fax to ", "FAX", lambda c, rng: make_phone_b(rng, c.region)),
    "EMAIL": _labelled("Contact e-mail on file: ", "EMAIL", lambda c, rng: c.email),
    "URL": _url,
    "IPADDR": _ip,
    "SSN": _simple("National insurance no. ", "SSN"),
    "HEALTHPLAN": _simple("Medicare card ", "HEALTHPLAN"),
    "ACCOUNT": _simple("Billing ref ", "ACCOUNT"),
    "LICENSE": _simple("Prescriber registration GMC ", "LICENSE"),
    "DEVICE": _simple("Insulin pump SN:", "DEVICE"),
    "VEHICLE": _simple("Patient transport vehicle reg ", "VEHICLE"),
    "BIOID": _simple("Biobank sample ", "BIOID"),
    "IDNUM": _simple("Order number ", "IDNUM"),
    "LOCATION-OTHER": _labelled(
        "Fell while walking on ", "LOCATION-OTHER", lambda c, rng: rng.choice(vocab.LOCATION_OTHER)
    ),
    "ROOM": _labelled("Side room ", "ROOM", lambda c, rng: f"SR{rng.randint(1, 12)}"),
    "DEPARTMENT": _labelled("Booked on ", "DEPARTMENT", lambda c, rng: rng.choice(vocab.DEPARTMENTS)),
    "OTHER": _labelled("Volunteer at the ", "OTHER", lambda c, rng: f"{c.town} lifeboat station"),
    "PROFESSION": _labelled("Occupation: ", "PROFESSION", lambda c, rng: c.profession),
    "ORGANIZATION": _labelled("Employer: ", "ORGANIZATION", lambda c, rng: c.employer),
    "COUNTRY": _labelled("Born in ", "COUNTRY", lambda c, rng: c.country_of_birth),
    "STREET": _labelled("Home address: ", "STREET", lambda c, rng: c.street),
}
EXTRA_KINDS = tuple(extras)


def admin_footer(b: NoteBuilder, c: Cast, rng: random.Random, kinds: list[str]) -> None:
    """One ``-- admin --`` line, items separated by `` | `` (style A writes a paragraph)."""
    if not kinds:
        return
    b.add("" if b.ends_with_newline() else "\n").add("-- admin -- ")
    for number, kind in enumerate(kinds):
        b.add(" | " if number else "")
        extras[kind](b, c, rng)
    if rng.random() < 0.5:
        b.add(" | next review ")
        write_date_b(b, c.record_dates[-1], rng, c.dmy)
    b.add("\n")
