"""Where style C's patients live: Canada (English and French), Australia, New Zealand, Ireland.

Each region has its own postcode shape, phone conventions, health-card scheme, provinces and
towns, and the Faker locales its people's names come from (a mixed population: a Sydney
clinic sees Filipino, Mexican and Indian names as well as Anglo ones).
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from annotator.synth.style_c.formats import digits, letters


@dataclass(frozen=True)
class Region:
    key: str
    #: the country as an address line writes it
    country: str
    #: (full name, abbreviation) of states or provinces
    subdivisions: tuple[tuple[str, str], ...]
    towns: tuple[str, ...]
    #: Faker locales the region's people are named from, with weights
    name_locales: tuple[tuple[str, int], ...]
    postcode: Callable[[random.Random], str]
    phone: Callable[[random.Random], str]
    mobile: Callable[[random.Random], str]
    #: what a health card is called here, and how its number looks
    health_card_label: str
    health_card: Callable[[random.Random], str]
    email_domain: str
    web_suffix: str


def _canadian_postcode(rng: random.Random) -> str:
    # Letter-digit-letter digit-letter-digit, mostly with the space.
    code = [letters(rng, 1), digits(rng, 1), letters(rng, 1), digits(rng, 1), letters(rng, 1), digits(rng, 1)]
    return "".join(code[:3]) + rng.choice((" ", " ", "")) + "".join(code[3:])


def _north_american_phone(rng: random.Random) -> str:
    area, line = f"{rng.randint(2, 9)}{digits(rng, 2)}", digits(rng, 4)
    number = rng.choice(
        (f"({area}) 555-{line}", f"{area}-555-{line}", f"{area}.555.{line}", f"1-{area}-555-{line}")
    )
    if rng.random() < 0.25:
        number += rng.choice((f" ext. {digits(rng, 4)}", f" x{digits(rng, 3)}", f" ext {digits(rng, 3)}"))
    return number


def _ohip(rng: random.Random) -> str:
    return f"{digits(rng, 4)}-{digits(rng, 3)}-{digits(rng, 3)}-{letters(rng, 2)}"


def _ramq(rng: random.Random) -> str:
    return f"{letters(rng, 4)} {digits(rng, 4)} {digits(rng, 4)}"


def _au_phone(rng: random.Random) -> str:
    area = rng.choice(("02", "03", "07", "08"))
    return rng.choice(
        (f"({area}) {digits(rng, 4)} {digits(rng, 4)}", f"{area} {digits(rng, 4)} {digits(rng, 4)}")
    )


def _au_mobile(rng: random.Random) -> str:
    return rng.choice(
        (
            f"04{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 3)}",
            f"+61 4{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 3)}",
        )
    )


def _medicare(rng: random.Random) -> str:
    return f"{digits(rng, 4)} {digits(rng, 5)} {digits(rng, 1)}"


def _nz_phone(rng: random.Random) -> str:
    return f"(0{rng.choice('3467')}) {digits(rng, 3)} {digits(rng, 4)}"


def _nz_mobile(rng: random.Random) -> str:
    return f"02{rng.choice('17')} {digits(rng, 3)} {digits(rng, 4)}"


def _nhi(rng: random.Random) -> str:
    return f"{''.join(rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ') for _ in range(3))}{digits(rng, 4)}"


def _eircode(rng: random.Random) -> str:
    return f"{rng.choice('ADEFHKNPRTVWXY')}{digits(rng, 2)} {rng.choice(string.ascii_uppercase)}{digits(rng, 1)}{letters(rng, 1)}{digits(rng, 1)}"


def _ie_phone(rng: random.Random) -> str:
    return rng.choice(
        (
            f"(0{rng.choice('19')}{digits(rng, 1)}) {digits(rng, 3)} {digits(rng, 4)}",
            f"+353 {digits(rng, 1)} {digits(rng, 3)} {digits(rng, 4)}",
        )
    )


def _ie_mobile(rng: random.Random) -> str:
    return f"08{rng.choice('3567')} {digits(rng, 3)} {digits(rng, 4)}"


def _medical_card(rng: random.Random) -> str:
    return f"{digits(rng, 7)}{letters(rng, 1)}"


REGIONS = (
    Region(
        "ON",
        "Canada",
        (("Ontario", "ON"), ("Manitoba", "MB"), ("Nova Scotia", "NS"), ("British Columbia", "BC")),
        (
            "Thunder Bay",
            "Kenora",
            "Sault Ste. Marie",
            "Brandon",
            "Truro",
            "Kamloops",
            "Peterborough",
            "Sudbury",
        ),
        (("en_CA", 5), ("en_PH", 2), ("en_IN", 1), ("es_MX", 1)),
        _canadian_postcode,
        _north_american_phone,
        _north_american_phone,
        "OHIP",
        _ohip,
        "northmail.ca",
        ".ca",
    ),
    Region(
        "QC",
        "Canada",
        (("Québec", "QC"), ("Quebec", "QC")),
        ("Rimouski", "Trois-Rivières", "Saguenay", "Gatineau", "Sherbrooke", "Val-d'Or"),
        (("fr_CA", 6), ("en_CA", 1), ("es_MX", 1)),
        _canadian_postcode,
        _north_american_phone,
        _north_american_phone,
        "RAMQ",
        _ramq,
        "videotron.qc.ca",
        ".qc.ca",
    ),
    Region(
        "AU",
        "Australia",
        (("New South Wales", "NSW"), ("Queensland", "Qld"), ("Victoria", "VIC"), ("Western Australia", "WA")),
        ("Wagga Wagga", "Toowoomba", "Ballarat", "Bunbury", "Dubbo", "Mackay", "Geraldton", "Bendigo"),
        (("en_AU", 5), ("en_PH", 1), ("en_IN", 1), ("en_NZ", 1)),
        lambda rng: digits(rng, 4),
        _au_phone,
        _au_mobile,
        "Medicare",
        _medicare,
        "bigpond.com.au",
        ".com.au",
    ),
    Region(
        "NZ",
        "New Zealand",
        (("Waikato", "Waikato"), ("Canterbury", "Canterbury"), ("Otago", "Otago")),
        ("Hamilton", "Timaru", "Invercargill", "Whanganui", "Rotorua", "Gisborne"),
        (("en_NZ", 5), ("en_AU", 1), ("en_PH", 1)),
        lambda rng: digits(rng, 4),
        _nz_phone,
        _nz_mobile,
        "NHI",
        _nhi,
        "xtra.co.nz",
        ".co.nz",
    ),
    Region(
        "IE",
        "Ireland",
        (("Co. Galway", "Galway"), ("Co. Kerry", "Kerry"), ("Co. Mayo", "Mayo"), ("Co. Cork", "Cork")),
        ("Tralee", "Castlebar", "Ennis", "Mallow", "Tuam", "Clonakilty"),
        (("en_IE", 6), ("en_IN", 1), ("en_GB", 1)),
        _eircode,
        _ie_phone,
        _ie_mobile,
        "Medical Card",
        _medical_card,
        "eircom.net",
        ".ie",
    ),
)
