"""Small hostile and odd gold/system folder pairs for checking ``--mode i2b2`` against the
official i2b2 2014 script (``compare_official_scorer --edge-cases``).

Each case is a pair of folders the random corpus writer (random_corpus.py) never makes:
missing or odd TYPEs, unknown elements, inverted, empty and out-of-range spans, offsets
written oddly, CDATA split in two, CR and CRLF line ends, a byte-order mark, non-ASCII
text and file names, several system runs, ids that collide, stray files, files without
TAGS or TEXT, files that are not UTF-8, and so on. Some are inputs the official script
crashes on: there ``annotator evaluate --mode i2b2`` must stop with one line naming the
file (exit 1) instead of printing numbers. All text is synthetic.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

TEXT = (
    "\nRecord date: 2069-04-07\nPatient John Smith's MRN 1234567, seen at Boston General.\nDr. Amy Lee, 45.\n"
)


def tag(name: str, start: object, end: object, type_: str | None = None, text: str = "", **extra: str) -> str:
    """One tag element; ``None`` leaves an attribute out."""
    attrs = [f'id="P{zlib.crc32(repr((name, start, end, type_)).encode()) % 1000}"']
    if start is not None:
        attrs.append(f"start={quoteattr(str(start))}")
    if end is not None:
        attrs.append(f"end={quoteattr(str(end))}")
    attrs.append(f"text={quoteattr(text)}")
    if type_ is not None:
        attrs.append(f"TYPE={quoteattr(type_)}")
    attrs += [f"{k}={quoteattr(v)}" for k, v in extra.items()]
    return f"<{name} {' '.join(attrs)} />"


def doc(text: str = TEXT, tags: list[str] | tuple[str, ...] = (), root: str = "deIdi2b2") -> bytes:
    body = "\n".join(tags)
    return (
        f'<?xml version="1.0" encoding="UTF-8" ?>\n<{root}>\n<TEXT><![CDATA[{text}]]></TEXT>\n'
        f"<TAGS>\n{body}\n</TAGS>\n</{root}>\n"
    ).encode()


# The tags of TEXT: date 14-24, John Smith 33-43, MRN 50-57, Boston General 67-81, Amy Lee 87-94, 45 96-98.
assert (TEXT[14:24], TEXT[33:43], TEXT[50:57], TEXT[67:81], TEXT[87:94], TEXT[96:98]) == (
    "2069-04-07",
    "John Smith",
    "1234567",
    "Boston General",
    "Amy Lee",
    "45",
)
GOLD_TAGS = [
    tag("DATE", 14, 24, "DATE"),
    tag("NAME", 33, 43, "PATIENT"),
    tag("ID", 50, 57, "MEDICALRECORD"),
    tag("LOCATION", 67, 81, "HOSPITAL"),
    tag("NAME", 87, 94, "DOCTOR"),
    tag("AGE", 96, 98, "AGE"),
]


@dataclass
class EdgeCase:
    """Files of one case: name -> bytes (``None`` makes a folder) on each side."""

    name: str
    gold: Mapping[str, bytes | None]
    system: Mapping[str, bytes | None]
    verbose: bool = False
    #: why ``annotator evaluate --mode i2b2`` refuses, in one line, a case the script scores
    deliberate: str = ""
    #: compare these two files (gold, system) rather than the folders: the script's file form
    files: tuple[str, str] | None = None
    #: the script's options (``--filter F``, ``--invert``, ``--conjunctive``)
    options: tuple[str, ...] = ()

    def our_options(self) -> list[str]:
        """The same options for ``annotator evaluate --mode i2b2``."""
        return ["--i2b2-filter" if option == "--filter" else option for option in self.options]

    def write(self, root: Path) -> tuple[Path, Path]:
        folders = []
        for side, files in (("gold", self.gold), ("system", self.system)):
            folder = root / self.name / side
            folder.mkdir(parents=True, exist_ok=True)
            for name, data in files.items():
                if data is None:
                    (folder / name).mkdir(exist_ok=True)
                else:
                    (folder / name).write_bytes(data)
            folders.append(folder)
        if self.files:
            return folders[0] / self.files[0], folders[1] / self.files[1]
        return folders[0], folders[1]


def _pair(name: str, system_tags: list[str], gold_tags: list[str] | None = None, **kw: object) -> EdgeCase:
    gold = GOLD_TAGS if gold_tags is None else gold_tags
    return EdgeCase(name, {"100-01.xml": doc(tags=gold)}, {"100-01.xml": doc(tags=system_tags)}, **kw)  # type: ignore[arg-type]


def _cases() -> list[EdgeCase]:
    g = GOLD_TAGS
    cases = [
        _pair("baseline", g),
        _pair("type-missing", [*g[:1], tag("NAME", 33, 43, None)]),
        _pair("type-missing-gold", g, [tag("NAME", 33, 43, None), tag("DATE", 14, 24, None)]),
        _pair(
            "type-case",
            [tag("DATE", 14, 24, "date"), tag("NAME", 33, 43, "Patient"), tag("ID", 51, 58, "medicalRecord")],
        ),
        _pair("type-spaces", [tag("NAME", 33, 43, " PATIENT"), tag("DATE", 14, 24, "DATE ")]),
        _pair(
            "type-unknown",
            [tag("NAME", 33, 43, "FOO"), tag("DATE", 14, 24, ""), tag("NAME", 88, 95, "DATE")],
        ),
        _pair("type-prefix", [tag("NAME", 33, 43, "PATIENTS"), tag("ID", 51, 58, "IDNUMBER")]),
        _pair(
            "unknown-elements",
            [
                *g,
                tag("PHONE", 1, 7, "PHONE"),
                tag("name", 33, 43, "PATIENT"),
                tag("PHI", 33, 43, "PATIENT"),
                tag("PHI", 14, 24, "DATE"),
            ],
        ),
        _pair("phi-element-both", [tag("PHI", 33, 43, "PATIENT")], [tag("PHI", 33, 43, "patient")]),
        _pair(
            "overlap-nested",
            [
                tag("NAME", 33, 43, "PATIENT"),
                tag("NAME", 33, 37, "PATIENT"),
                tag("NAME", 38, 43, "PATIENT"),
                tag("NAME", 33, 45, "PATIENT"),
                tag("LOCATION", 68, 82, "HOSPITAL"),
                tag("LOCATION", 68, 74, "CITY"),
                tag("LOCATION", 60, 90, "HOSPITAL"),
            ],
        ),
        _pair("duplicates", [*g, *g, tag("NAME", 33, 43, "patient"), tag("NAME", 33, 43, "PATIENT")]),
        _pair(
            "relaxed-chain",
            [tag("NAME", 33, 41, "PATIENT"), tag("NAME", 33, 43, "PATIENT"), tag("NAME", 33, 45, "PATIENT")],
            [tag("NAME", 33, 42, "PATIENT"), tag("NAME", 33, 44, "PATIENT"), tag("NAME", 33, 47, "PATIENT")],
        ),
        _pair("zero-length", [tag("NAME", 33, 33, "PATIENT"), tag("DATE", 24, 24, "DATE")]),
        _pair("inverted", [tag("NAME", 43, 33, "PATIENT"), tag("DATE", 24, 14, "DATE")]),
        _pair("inverted-gold", g, [tag("NAME", 43, 33, "PATIENT"), tag("NAME", 43, 30, "PATIENT")]),
        _pair(
            "past-end",
            [tag("NAME", 95, 200, "DOCTOR"), tag("DATE", 300, 310, "DATE"), tag("AGE", 97, 101, "AGE")],
        ),
        _pair(
            "negative",
            [tag("NAME", -10, -2, "DOCTOR"), tag("DATE", -5, 24, "DATE"), tag("AGE", 97, -1, "AGE")],
        ),
        _pair(
            "text-attr-wrong",
            [tag("NAME", 33, 43, "PATIENT", text="Mary Jones"), tag("DATE", 14, 24, "DATE", text="")],
        ),
        _pair(
            "leading-zeros",
            [
                tag("NAME", "033", 43, "PATIENT"),
                tag("DATE", 14, "024", "DATE"),
                tag("AGE", "0097", "099", "AGE"),
            ],
        ),
        _pair("plus-sign", [tag("NAME", "+33", 43, "PATIENT"), tag("DATE", 14, "+24", "DATE")]),
        _pair(
            "offset-spaces",
            [
                tag("NAME", " 33", 43, "PATIENT"),
                tag("DATE", 14, "24 ", "DATE"),
                tag("AGE", "\t97", 99, "AGE"),
            ],
        ),
        _pair("offset-float", [tag("NAME", "33.0", 43, "PATIENT")]),
        _pair("offset-empty", [tag("NAME", "", 43, "PATIENT")]),
        _pair("offset-missing", [tag("NAME", None, 43, "PATIENT")]),
        _pair("offset-missing-end", [tag("NAME", 33, None, "PATIENT")]),
        _pair("offset-hex", [tag("NAME", "0x21", 43, "PATIENT")]),
        _pair("offset-underscore", [tag("NAME", "3_3", 43, "PATIENT")]),
        _pair("offset-fullwidth", [tag("NAME", "３３", 43, "PATIENT"), tag("DATE", 14, "２４", "DATE")]),
        _pair("offset-arabic-digits", [tag("NAME", "٣٣", 43, "PATIENT")]),
        _pair("offset-huge", [tag("NAME", 33, 10**30, "PATIENT"), tag("DATE", -(10**25), 24, "DATE")]),
        _pair("many-tags", [tag("NAME", i % 90, i % 90 + 1 + i % 7, "PATIENT") for i in range(3000)]),
        _pair("empty-tags", []),
        _pair("empty-both", [], []),
        _pair(
            "attr-noise",
            [
                tag("NAME", 33, 43, "PATIENT", comment="x", extra="y"),
                tag("DATE", 14, 24, "DATE", Type="NAME"),
            ],
        ),
        _pair("lower-attr-names", [tag("NAME", None, None, None, Start="33", END="43", type="PATIENT")]),
        _pair("non-ascii-type", [tag("NAME", 33, 43, "PATIENTé")]),
        _pair("non-ascii-id", [tag("NAME", 33, 43, "PATIENT").replace('id="', 'id="é')]),
        _pair("non-ascii-type-valid", [tag("NAME", 33, 43, "PATİENT")]),
        _pair("non-ascii-start", [tag("NAME", "3é", 43, "PATIENT")]),
        _pair("type-dotless-i", [tag("NAME", 33, 43, "patıent"), tag("ID", 50, 57, "ſſn")]),
        _pair("type-sharp-s", [tag("ID", 50, 57, "ßN")], [tag("ID", 50, 57, "SSN")]),
        _pair(
            "type-other-substring",
            [tag("OTHER", 33, 43, "her"), tag("OTHER", 50, 57, ""), tag("OTHER", 1, 5, "OTHERS")],
        ),
        _pair(
            "warning-newline",
            [
                tag("NAME", 33, 43, "FOO&#10;BAR").replace("&amp;", "&"),
                tag("DATE", 14, 24, "x&#13;y").replace("&amp;", "&"),
            ],
        ),
        _pair("warning-docid", [tag("NAME", 33, 43, "PATIENT", docid="é", comment="é")]),
        _pair(
            "risk-factor-tags",
            [
                *g,
                '<MEDICATION id="M0" start="1" end="7" text="Record" time="before DCT" type1="statin" type2="" />',
                '<MEDICATION id="M1" start="1" end="7" time="sometime" type1="candy" />',
                '<SMOKER id="S0" status="never" />',
                '<SMOKER id="S1" status="NEVER"><SMOKER id="S2" start="1" end="7" status="often"/></SMOKER>',
                '<FAMILY_HIST id="F0" start="-1" end="x" />',
                '<FAMILY_HIST id="F1" start="3" />',
                '<HYPERTENSION id="H0" start="1" end="7" time="continuing" indicator="High BP" />',
                '<DIABETES id="D0" start="1" end="7" time="During DCT" indicator="A1C" />',
                '<CAD id="C0" start="1" end="7" />',
                '<OBESE id="O0" start="1" end="7" time="after dct" indicator="BMİ" />',
                '<HYPERLIPIDEMIA id="L0" end="7" time="x" indicator="high LDL" />',
            ],
        ),
        _pair(
            "risk-factor-child-unknown",
            [*g, '<SMOKER id="S1" status="never"><NAME start="1" end="2" TYPE="PATIENT"/></SMOKER>'],
        ),
        _pair("risk-factor-child-comment", [*g, '<SMOKER id="S1" status="never"><!-- c --></SMOKER>']),
        _pair("risk-factor-family-bad-start", [*g, '<FAMILY_HIST id="F0" start="1.5" end="3" />']),
        _pair("risk-factor-non-ascii", [*g, '<SMOKER id="S0" start="1" end="2" status="nié" />']),
        _pair("risk-factor-non-ascii-valid", [*g, '<SMOKER id="é" start="1" end="2" status="never" />']),
    ]
    # Text shapes.
    crlf = TEXT.replace("\n", "\r\n")
    cases.append(
        EdgeCase(
            "crlf",
            {"100-01.xml": doc(crlf, g).replace(b"\n", b"\r\n")},
            {
                "100-01.xml": doc(
                    crlf, [tag("NAME", 33, 43, "PATIENT"), tag("NAME", 35, 45, "PATIENT")]
                ).replace(b"\n", b"\r\n")
            },
        )
    )
    lone_cr = TEXT.replace("\n", "\r")
    cases.append(EdgeCase("lone-cr", {"100-01.xml": doc(lone_cr, g)}, {"100-01.xml": doc(lone_cr, g[:3])}))
    split = "\nA ]]> B José Müller 北京 😀 Smith\n"
    split_xml = '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[\nA ]]]]><![CDATA[> B José Müller 北京 😀 Smith\n]]></TEXT>\n<TAGS>\n'
    unicode_tags = [
        tag("NAME", 9, 13, "PATIENT"),
        tag("NAME", 14, 20, "PATIENT"),
        tag("LOCATION", 21, 23, "CITY"),
        tag("NAME", 26, 31, "PATIENT"),
        tag("OTHER", 24, 25, "OTHER"),
    ]
    assert split[9:13] == "José" and split[26:31] == "Smith"
    cases.append(
        EdgeCase(
            "cdata-split-unicode",
            {"100-01.xml": (split_xml + "\n".join(unicode_tags) + "\n</TAGS>\n</deIdi2b2>\n").encode()},
            {
                "100-01.xml": (
                    split_xml
                    + "\n".join([*unicode_tags[1:], tag("NAME", 9, 12, "PATIENT")])
                    + "\n</TAGS>\n</deIdi2b2>\n"
                ).encode()
            },
            verbose=True,
        )
    )
    cases.append(
        EdgeCase(
            "bom",
            {"100-01.xml": b"\xef\xbb\xbf" + doc(tags=g)},
            {"100-01.xml": b"\xef\xbb\xbf" + doc(tags=g[:4])},
        )
    )
    cases.append(
        EdgeCase(
            "bom-one-side", {"100-01.xml": b"\xef\xbb\xbf" + doc(tags=g)}, {"100-01.xml": doc(tags=g[:4])}
        )
    )
    plain = (
        b'<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2><TEXT>Seen &amp; done on 2069-04-07 &#233;&lt;</TEXT><TAGS>'
        b'<DATE id="P0" start="17" end="27" text="" TYPE="DATE" /></TAGS></deIdi2b2>'
    )
    cases.append(EdgeCase("no-cdata-entities", {"100-01.xml": plain}, {"100-01.xml": plain}))
    latin = doc("\nMüller seen\n", [tag("NAME", 1, 7, "PATIENT")]).replace(b"UTF-8", b"ISO-8859-1")
    cases.append(EdgeCase("latin1-declared-utf8-bytes", {"100-01.xml": latin}, {"100-01.xml": latin}))
    latin_bytes = (
        doc("\nMüller seen\n", [tag("NAME", 1, 7, "PATIENT")])
        .replace(b"UTF-8", b"ISO-8859-1")
        .replace("ü".encode(), b"\xfc")
    )
    cases.append(EdgeCase("latin1-bytes", {"100-01.xml": latin_bytes}, {"100-01.xml": latin_bytes}))
    utf16 = (
        doc("\nMary seen\n", [tag("NAME", 1, 5, "PATIENT")])
        .replace(b"UTF-8", b"UTF-16")
        .decode()
        .encode("utf-16")
    )
    cases.append(EdgeCase("utf16", {"100-01.xml": utf16}, {"100-01.xml": utf16}))
    # Structure.
    no_tags = b'<?xml version="1.0"?><deIdi2b2><TEXT><![CDATA[abc]]></TEXT></deIdi2b2>'
    cases.append(
        EdgeCase(
            "no-tags-element",
            {"100-01.xml": doc(tags=g)},
            {"100-01.xml": no_tags.replace(b"abc", TEXT.encode())},
        )
    )
    cases.append(
        EdgeCase(
            "no-tags-element-unpaired",
            {"100-01.xml": doc(tags=g), "100-02.xml": no_tags},
            {"100-01.xml": doc(tags=g)},
        )
    )
    no_text_empty = b'<?xml version="1.0"?><deIdi2b2><TAGS></TAGS></deIdi2b2>'
    cases.append(
        EdgeCase(
            "no-text-no-tags",
            {"100-01.xml": doc(tags=g), "100-02.xml": no_text_empty},
            {"100-01.xml": doc(tags=g), "100-02.xml": no_text_empty},
        )
    )
    no_text_tagged = (
        b'<?xml version="1.0"?><deIdi2b2><TAGS><NAME start="1" end="3" TYPE="PATIENT"/></TAGS></deIdi2b2>'
    )
    cases.append(EdgeCase("no-text-tagged", {"100-01.xml": no_text_tagged}, {"100-01.xml": no_text_tagged}))
    empty_text = b'<?xml version="1.0"?><deIdi2b2><TEXT></TEXT><TAGS></TAGS></deIdi2b2>'
    empty_cdata = b'<?xml version="1.0"?><deIdi2b2><TEXT><![CDATA[]]></TEXT><TAGS></TAGS></deIdi2b2>'
    cases.append(
        EdgeCase(
            "empty-text",
            {"100-01.xml": empty_text, "100-02.xml": doc(tags=g)},
            {"100-01.xml": empty_text, "100-02.xml": doc(tags=g)},
        )
    )
    cases.append(EdgeCase("empty-text-vs-cdata", {"100-01.xml": empty_text}, {"100-01.xml": empty_cdata}))
    empty_text_tagged = b'<?xml version="1.0"?><deIdi2b2><TEXT/><TAGS><NAME start="0" end="0" TYPE="PATIENT"/></TAGS></deIdi2b2>'
    cases.append(
        EdgeCase("empty-text-tagged", {"100-01.xml": empty_text_tagged}, {"100-01.xml": empty_text_tagged})
    )
    odd = (
        '<?xml version="1.0"?><Philter><!-- c --><TAGS><NAME start="33" end="43" TYPE="PATIENT"/><!-- c -->'
        '<?pi x?><NAME start="88" end="95" TYPE="DOCTOR">child text<DATE start="14" end="24" TYPE="DATE"/></NAME>'
        "</TAGS><TEXT><![CDATA["
        + TEXT
        + ']]></TEXT><TEXT>second</TEXT><TAGS><AGE start="97" end="99" TYPE="AGE"/></TAGS></Philter>'
    ).encode()
    cases.append(EdgeCase("odd-structure", {"100-01.xml": doc(tags=g)}, {"100-01.xml": odd}))
    ns = doc(tags=g).replace(b"<deIdi2b2>", b'<deIdi2b2 xmlns="urn:x">')
    cases.append(EdgeCase("namespace", {"100-01.xml": ns}, {"100-01.xml": ns}))
    ns_tags = doc(tags=g).replace(b"<TAGS>", b'<TAGS xmlns:p="urn:p">').replace(b"<NAME ", b"<p:NAME ")
    cases.append(EdgeCase("namespace-prefix-tags", {"100-01.xml": doc(tags=g)}, {"100-01.xml": ns_tags}))
    comment_in_text = doc(tags=g).replace(b"<TEXT><![CDATA[", b"<TEXT><!-- x --><![CDATA[")
    cases.append(
        EdgeCase("comment-before-cdata", {"100-01.xml": comment_in_text}, {"100-01.xml": comment_in_text})
    )
    entity = doc(tags=g).replace(b"<deIdi2b2>", b'<!DOCTYPE deIdi2b2 [<!ENTITY x "Y">]>\n<deIdi2b2>')
    cases.append(
        EdgeCase(
            "internal-entity-declared",
            {"100-01.xml": entity},
            {"100-01.xml": doc(tags=g)},
            deliberate="entity declarations are refused in every annotation file (billion laughs)",
        )
    )
    cases.append(EdgeCase("not-well-formed", {"100-01.xml": doc(tags=g)}, {"100-01.xml": doc(tags=g)[:-20]}))
    cases.append(EdgeCase("empty-file", {"100-01.xml": doc(tags=g)}, {"100-01.xml": b""}))
    # Folders and names.
    both = {"100-01.xml": doc(tags=g), "100-02.xml": doc(tags=g[:2])}
    cases.append(
        EdgeCase(
            "one-sided",
            {**both, "101-01.xml": doc(tags=g)},
            {**both, "102-01.xml": doc(tags=g)},
            verbose=True,
        )
    )
    cases.append(
        EdgeCase("stray-system-files", both, {**both, "notes.txt": b"hello", "sub": None, "README": b"x"})
    )
    cases.append(EdgeCase("stray-gold-text-file", {**both, "notes.txt": b"hello"}, both))
    cases.append(EdgeCase("stray-gold-folder", {**both, "sub": None}, both))
    cases.append(EdgeCase("gold-xml-not-dot-xml", {**both, "100-01.xml.bak": doc(tags=[])}, both))
    cases.append(
        EdgeCase(
            "gold-upper-XML", {"100-01.XML": doc(tags=g)}, {"100-01.axml": doc(tags=g[:2])}, verbose=True
        )
    )
    cases.append(EdgeCase("system-folder-named-xml", both, {**both, "d.xml": None}))
    cases.append(
        EdgeCase(
            "gold-warnings-order",
            {f"10{i}-01.xml": doc(tags=[tag("NAME", 33, 43, f"T{i}")]) for i in range(6)},
            {f"10{i}-01.xml": doc(tags=[tag("DATE", 14, 24, f"D{i}")]) for i in range(6)},
        )
    )
    cases.append(
        EdgeCase(
            "warnings-unpaired-files",
            {"100-01.xml": doc(tags=g), "109-01.xml": doc(tags=[tag("AGE", 1, 2, "OLD")])},
            {"100-01.xml": doc(tags=g), "108-01.xml": doc(tags=[tag("AGE", 1, "", "OLD")])},
        )
    )
    cases.append(
        EdgeCase(
            "runs",
            {"100-01.xml": doc(tags=g), "100-02.xml": doc(tags=g[:2])},
            {
                "100-01runA.xml": doc(tags=g[:3]),
                "100-02runA.xml": doc(tags=g),
                "100-01runB.xml": doc(tags=g[1:]),
                "100-01.xml": doc(tags=g),
                "100-01_a_very_long_system_name.xml": doc(tags=g[:1]),
            },
            verbose=True,
        )
    )
    cases.append(
        EdgeCase("run-non-ascii", {"100-01.xml": doc(tags=g)}, {"100-01é.xml": doc(tags=g[:3])}, verbose=True)
    )
    cases.append(
        EdgeCase(
            "run-non-ascii-long", {"100-01.xml": doc(tags=g)}, {"100-01ééééééééééé.xml": doc(tags=g[:3])}
        )
    )
    cases.append(
        EdgeCase(
            "gold-collision",
            {"100-01.xml": doc(tags=g), "100-01b.xml": doc(tags=g[:2]), "100-01c.xml": doc(tags=g[:1])},
            {"100-01.xml": doc(tags=g)},
        )
    )
    cases.append(
        EdgeCase(
            "name-without-id",
            {"notes.xml": doc(tags=g), "a.b.xml": doc(tags=g)},
            {"notes.xml": doc(tags=g[:2]), "a.b.xml": doc(tags=g[:1])},
            verbose=True,
        )
    )
    cases.append(
        EdgeCase(
            "name-collision-system",
            {"foo.xml": doc(tags=g)},
            {"foo.xml": doc(tags=g[:2]), "foo.axml": doc(tags=g[:1])},
        )
    )
    cases.append(EdgeCase("arabic-digit-names", {"١٠٠-٠١.xml": doc(tags=g)}, {"١٠٠-٠١.xml": doc(tags=g[:2])}))
    cases.append(
        EdgeCase(
            "leading-zero-ids",
            {"0100-01.xml": doc(tags=g)},
            {"100-01.xml": doc(tags=g), "0100-01.xml": doc(tags=g[:1])},
        )
    )
    cases.append(EdgeCase("text-differs", {"100-01.xml": doc(tags=g)}, {"100-01.xml": doc(TEXT + " ", g)}))
    cases.append(
        EdgeCase(
            "text-differs-unpaired",
            {"100-01.xml": doc(tags=g), "100-02.xml": doc(tags=g)},
            {"100-01.xml": doc(tags=g), "100-03.xml": doc(TEXT + " ", g)},
        )
    )
    cases.append(
        EdgeCase(
            "no-common-document",
            {"100-01.xml": doc(tags=g)},
            {"100-02.xml": doc(tags=g)},
            deliberate="42 tables of (0), nan and 0.0 read like a result: refused, naming both folders",
        )
    )
    cases.append(
        EdgeCase(
            "empty-system-folder",
            {"100-01.xml": doc(tags=g)},
            {},
            deliberate="the script prints nothing at all; a folder without documents is refused",
        )
    )
    many = {f"{100 + i}-0{i % 3 + 1}.xml": doc(tags=g[: i % 7]) for i in range(40)}
    cases.append(
        EdgeCase(
            "many-documents-verbose",
            many,
            {k: doc(tags=g[i % 3 :]) for i, k in enumerate(many) if i % 5},
            verbose=True,
        )
    )
    big = "\nSmith " + "x" * 10_000_001 + "\n"
    cases.append(
        EdgeCase(
            "huge-text-node",
            {"100-01.xml": doc(big, [tag("NAME", 1, 6, "PATIENT")])},
            {"100-01.xml": doc(big, [])},
        )
    )
    surrogate = doc(tags=g).replace(b"Record", "Rec\ud800rd".encode("utf-8", "surrogatepass"))
    cases.append(EdgeCase("encoded-surrogate", {"100-01.xml": surrogate}, {"100-01.xml": surrogate}))
    deep = doc(tags=[*g, "<NAME>" * 300 + "</NAME>" * 300])
    cases.append(EdgeCase("deep-nesting", {"100-01.xml": deep}, {"100-01.xml": doc(tags=g)}))
    many_runs = {
        f"100-0{d}{run}.xml": doc(tags=g[: (d + len(run)) % 7])
        for d in (1, 2)
        for run in ("", "a", "bb", "run3", "X", "_4", "-5", "é6", "7", "runB", "zz")
    }
    cases.append(
        EdgeCase(
            "many-runs", {"100-01.xml": doc(tags=g), "100-02.xml": doc(tags=g[:3])}, many_runs, verbose=True
        )
    )
    cases.append(
        EdgeCase(
            "attribute-line-breaks",
            {"100-01.xml": doc(tags=g)},
            {
                "100-01.xml": doc(
                    tags=[
                        tag("NAME", "33", 43, "PATIENT").replace('start="33"', 'start="\n33\t"'),
                        tag("DATE", 14, 24, "DATE").replace('TYPE="DATE"', 'TYPE="DA&#10;TE"'),
                    ]
                )
            },
        )
    )
    cases.append(
        EdgeCase(
            "hidden-and-odd-names",
            {".100-01.xml": doc(tags=g), "100-01 .xml": doc(tags=g)},
            {".100-01.xml": doc(tags=g[:2]), "100-01 .xml": doc(tags=g[:3])},
            verbose=True,
        )
    )
    limit = "\nSmith " + "x" * (10_000_000 - 8) + "\n"  # a CDATA section of exactly 10,000,000 bytes
    cases.append(
        EdgeCase(
            "cdata-at-the-limit",
            {"100-01.xml": doc(limit, [tag("NAME", 1, 6, "PATIENT")])},
            {"100-01.xml": doc(limit, [])},
        )
    )
    long_plain = (
        '<?xml version="1.0"?><deIdi2b2><TEXT>\nSmith '
        + "y" * 10_500_000
        + '</TEXT><TAGS><NAME start="1" end="6" TYPE="PATIENT"/></TAGS></deIdi2b2>'
    ).encode()
    cases.append(EdgeCase("long-text-outside-cdata", {"100-01.xml": long_plain}, {"100-01.xml": long_plain}))
    for levels in (256, 257, 258):  # deIdi2b2, TAGS, then nested X elements
        nested = "<X>" * (levels - 2) + "</X>" * (levels - 2)
        cases.append(
            EdgeCase(
                f"nesting-{levels}-levels",
                {"100-01.xml": doc(tags=[*g, nested])},
                {"100-01.xml": doc(tags=g)},
            )
        )
    cases.append(
        EdgeCase(
            "two-files", both, {"100-01runA.xml": doc(tags=g[:3])}, files=("100-01.xml", "100-01runA.xml")
        )
    )
    cases.append(
        EdgeCase(
            "two-files-warnings",
            {"g.txt": doc(tags=[tag("NAME", 1, 5, "X")])},
            {"g.xml": doc(tags=[tag("DATE", 1, 5, "DAY"), tag("NAME", 1, 5, "X")])},
            files=("g.txt", "g.xml"),
        )
    )
    cases.append(
        EdgeCase(
            "two-files-other-ids",
            both,
            {"100-02.xml": doc(tags=g)},
            files=("100-01.xml", "100-02.xml"),
            deliberate="42 empty blocks read like a result: refused as folders without a common document are",
        )
    )
    mixed_gold = {
        "100-01.xml": doc(tags=[*g, tag("PHI", 1, 7, "OTHER"), tag("CONTACT", 60, 66, "PHONE")]),
        "100-02.xml": doc(tags=g[:3]),
        "100-03.xml": doc(tags=[]),
    }
    mixed_system = {
        "100-01.xml": doc(
            tags=[
                *g[1:],
                tag("NAME", 33, 45, "patient"),
                tag("DATE", 14, 23, "DATE"),
                tag("PHI", 1, 7, "OTHER"),
                tag("ID", 50, 57, "IDNUM"),
                tag("LOCATION", 67, 73, "CITY"),
            ]
        ),
        "100-02.xml": doc(tags=g[1:4]),
        "100-03.xml": doc(tags=[tag("AGE", 96, 98, "AGE")]),
        "100-01runB.xml": doc(tags=g[:2]),
    }
    for label, options in (
        ("name", ("--filter", "NAME")),
        ("name-date", ("--filter", "NAME,DATE")),
        ("name-date-conjunctive", ("--filter", "NAME,DATE", "--conjunctive")),
        ("name-invert", ("--filter", "NAME", "--invert")),
        ("name-date-invert", ("--filter", "NAME,DATE", "--invert")),
        ("name-date-invert-conjunctive", ("--filter", "NAME,DATE", "--invert", "--conjunctive")),
        ("type-value", ("--filter", "DOCTOR")),
        ("risk-value", ("--filter", "mention")),
        ("risk-value-invert", ("--filter", "statin", "--invert")),
        ("phi", ("--filter", "PHI")),
        ("name-and-unknown", ("--filter", "NAME,DOCTOR")),
        ("name-and-unknown-conjunctive", ("--filter", "NAME,DOCTOR", "--conjunctive")),
        ("empty-value", ("--filter", "NAME,")),
        ("invert-alone", ("--invert",)),
        ("empty-filter", ("--filter", "", "--invert")),
    ):
        cases.append(EdgeCase(f"filter-{label}", mixed_gold, mixed_system, options=options))
    # Every case again with -v, where it was not asked for already.
    verbose = [
        EdgeCase(c.name + "+v", c.gold, c.system, True, c.deliberate, c.files, c.options)
        for c in cases
        if not c.verbose and c.name != "many-tags"
    ]
    return cases + verbose


EDGE_CASES: Callable[[], list[EdgeCase]] = _cases


def write_edge_cases(out: Path) -> list[tuple[EdgeCase, Path, Path]]:
    """Write every case under ``out``; (case, gold folder, system folder) for each."""
    return [(case, *case.write(out)) for case in _cases()]
