"""Surrogates that keep a string's shape: numbers, phones, e-mails, URLs, IP addresses.

Digits become random digits and letters random letters of the same case, at the same
positions; separators stay. The first digit is never zero (seed 000: no original started
with one, and a leading zero is easy to lose), and each digit group of a phone number starts
with 2-9 as North American area codes and exchanges do.
"""

from __future__ import annotations

import random
import re

from annotator.deid.textcase import random_like

_DIGIT_RUN = re.compile(r"\d+")
_IPV4 = re.compile(r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def id_like(text: str, rng: random.Random) -> str:
    """Random digits and letters in the same format (IDs, record numbers, ZIP codes)."""
    return random_like(text, rng)


def phone_like(text: str, rng: random.Random) -> str:
    """Random digits in the same format, every digit group starting with 2-9."""

    def group(match: re.Match[str]) -> str:
        digits = match.group()
        return str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in digits[1:])

    return _DIGIT_RUN.sub(group, random_like(text, rng))


def _host_like(host: str, rng: random.Random) -> str:
    labels = host.split(".")
    out = []
    for index, label in enumerate(labels):
        keep = (index == len(labels) - 1 and len(labels) > 1) or label.lower() == "www"
        out.append(label if keep else random_like(label, rng))
    return ".".join(out)


def email_like(text: str, rng: random.Random) -> str:
    """A fake address of the same shape: random local part and domain, same top-level domain."""
    local, at, domain = text.rpartition("@")
    if not at:
        return random_like(text, rng)
    return random_like(local, rng, nonzero_first=False) + "@" + _host_like(domain, rng)


def url_like(text: str, rng: random.Random) -> str:
    """A fake URL: scheme, ``www`` and top-level domain kept, everything else random."""
    scheme = _SCHEME.match(text)
    prefix = scheme.group() if scheme else ""
    rest = text[len(prefix) :]
    host, slash, path = rest.partition("/")
    return prefix + _host_like(host, rng) + slash + random_like(path, rng, nonzero_first=False)


def ip_like(text: str, rng: random.Random) -> str:
    """A random IPv4 address with octets of the same digit counts (other forms: same shape)."""
    match = _IPV4.fullmatch(text)
    if match is None:
        return random_like(text, rng)
    octets = []
    for index, octet in enumerate(match.groups()):
        low, high = {1: (0, 9), 2: (10, 99), 3: (100, 255)}[len(octet)]
        if index == 0:
            low = max(low, 1)
        octets.append(str(rng.randint(low, high)))
    return ".".join(octets)


def username_like(text: str, rng: random.Random) -> str:
    """A fake user name of the same shape (letters, digits and punctuation in place)."""
    return random_like(text, rng, nonzero_first=False)
