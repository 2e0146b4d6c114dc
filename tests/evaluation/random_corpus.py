"""A quick random i2b2 2014 corpus writer for scorer comparisons and benchmarks.

It deliberately produces the cases where scorers disagree: exact and near duplicates,
nested spans, lower-case TYPEs, zero-padded offsets, punctuation-only tags, non-ASCII
letters, ID/IDNUM, the generic ``PHI`` element, CRLF line ends, empty documents and
documents present on one side only. All text is random synthetic words.
"""

from __future__ import annotations

import random
from pathlib import Path
from xml.sax.saxutils import quoteattr

TYPES = {
    "NAME": ["PATIENT", "DOCTOR", "USERNAME"],
    "PROFESSION": ["PROFESSION"],
    "LOCATION": [
        "ROOM",
        "DEPARTMENT",
        "HOSPITAL",
        "ORGANIZATION",
        "STREET",
        "CITY",
        "STATE",
        "COUNTRY",
        "ZIP",
        "LOCATION-OTHER",
    ],
    "AGE": ["AGE"],
    "DATE": ["DATE"],
    "CONTACT": ["PHONE", "FAX", "EMAIL", "URL", "IPADDR"],
    "ID": ["SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"],
    "OTHER": ["OTHER"],
}
WORDS = [
    "patient",
    "seen",
    "Smith",
    "Boston",
    "2069-04-07",
    "(617)",
    "555-1234",
    "José",
    "Müller",
    "Dr.Lee",
    "a_b",
    "-",
    "MRN",
    "1234567",
    "age",
    "45",
    "St.",
    "Mass",
    "General",
    "on",
    "the",
    "with",
    "'s",
    "O'Neil",
    "x",
    "--",
    "#12",
    "e-mail",
    "lee@x.org",
    "10.0.0.1",
    "Springfield",
    "Ave",
    "ZIP",
    "02114",
]
Tag = tuple[str, int, int, str, str]  # category, start, end, TYPE, start string


def _text(rng: random.Random, n_words: int) -> str:
    parts = ["\n\n"]
    for i in range(n_words):
        parts.append(rng.choice(WORDS))
        parts.append(rng.choice([" ", " ", " ", ", ", ".\n", "\r\n", "  "]) if i < n_words - 1 else "\n")
    return "".join(parts)


def _gold_tags(rng: random.Random, text: str, n_tags: int) -> list[Tag]:
    # word boundaries in the XML-normalised text (CRLF -> LF)
    norm = text.replace("\r\n", "\n")
    starts = [i for i in range(len(norm)) if norm[i] not in " \n," and (i == 0 or norm[i - 1] in " \n,")]
    tags: list[Tag] = []
    for _ in range(n_tags):
        if not starts:
            break
        s = rng.choice(starts)
        e = s + 1
        while e < len(norm) and norm[e] not in " \n,":
            e += 1
        if rng.random() < 0.3:  # two or three words
            for _ in range(rng.randint(1, 2)):
                nxt = e + 1
                while nxt < len(norm) and norm[nxt] not in " \n,":
                    nxt += 1
                e = min(nxt, len(norm))
        category = rng.choice(list(TYPES))
        tags.append((category, s, e, rng.choice(TYPES[category]), str(s)))
    return tags


def _system_tags(rng: random.Random, gold: list[Tag], text_length: int) -> list[Tag]:
    system: list[Tag] = []
    for category, s, e, type_, s_str in gold:
        r = rng.random()
        if r < 0.12:
            continue  # missed
        if r < 0.22:
            e = max(s, min(text_length, e + rng.choice([-3, -2, -1, 1, 2, 3])))  # boundary error
        elif r < 0.28:
            category = rng.choice(list(TYPES))
            type_ = rng.choice(TYPES[category])
        elif r < 0.31:
            type_ = type_.lower()
        elif r < 0.33:
            s_str = "0" + s_str
        system.append((category, s, e, type_, s_str))
        if rng.random() < 0.04:
            system.append((category, s, e, type_, s_str))  # exact duplicate
        if rng.random() < 0.04:
            system.append((category, s, max(s, e - 1), type_, s_str))  # near duplicate
    for _ in range(rng.randint(0, 3)):  # spurious
        s = rng.randrange(0, max(1, text_length - 5))
        category = rng.choice([*TYPES, "PHI"])
        system.append((category, s, s + rng.randint(0, 6), rng.choice(TYPES.get(category, ["DATE"])), str(s)))
    rng.shuffle(system)
    return system


def _xml(text: str, tags: list[Tag]) -> str:
    norm = text.replace("\r\n", "\n")
    lines = [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        "<deIdi2b2>",
        f"<TEXT><![CDATA[{text}]]></TEXT>",
        "<TAGS>",
    ]
    for i, (category, s, e, type_, s_str) in enumerate(tags):
        lines.append(
            f'<{category} id="P{i}" start="{s_str}" end="{e}" text={quoteattr(norm[s:e])} TYPE="{type_}" comment="" />'
        )
    lines += ["</TAGS>", "</deIdi2b2>", ""]
    return "\n".join(lines)


def write_random_corpus(
    out: Path, documents: int = 500, seed: int = 0, tags_per_document: int = 23, words: int = 180
) -> tuple[Path, Path]:
    """Write ``out/gold`` and ``out/system`` and return them.

    About 1 % of documents exist on one side only, about 2 % have no tags at all.
    """
    rng = random.Random(seed)
    gold_dir, system_dir = out / "gold", out / "system"
    gold_dir.mkdir(parents=True, exist_ok=True)
    system_dir.mkdir(parents=True, exist_ok=True)
    for index in range(documents):
        name = f"{100 + index // 5}-{index % 5 + 1:02d}.xml"
        text = _text(rng, rng.randint(words // 2, words * 3 // 2))
        n = 0 if rng.random() < 0.02 else rng.randint(tags_per_document // 2, tags_per_document * 3 // 2)
        gold = _gold_tags(rng, text, n)
        system = _system_tags(rng, gold, len(text.replace("\r\n", "\n"))) if n else []
        where = rng.random()
        if where >= 0.005:
            (gold_dir / name).write_text(_xml(text, gold), encoding="utf-8", newline="")
        if where < 0.005 or where >= 0.01:
            (system_dir / name).write_text(_xml(text, system), encoding="utf-8", newline="")
    return gold_dir, system_dir
