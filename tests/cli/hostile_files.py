"""A zoo of hostile input files for the command-line tests.

Each entry writes one file (or folder, or link) into a folder and returns its path. Every
note text written here carries :data:`MARKER`, so a test can assert that no command ever
echoes note text into its messages. Entries have a ``kind``:

``bad``
    every reader must refuse it (one-line error naming the file, exit 1 or 2);
``flagged``
    readable, but ``validate`` must report an error (for an unknown TYPE or category: with
    ``--schema``); other commands may go on or refuse it cleanly;
``ok``
    legitimate but unusual; every command must accept it (exit 0);
``skip``
    not a document at all (a folder named ``*.xml``, a symlink loop): folder readers pass
    over it, and naming it directly as a file is a usage error.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from xml.sax.saxutils import quoteattr

MARKER = "ZZSECRET"
PASSWD_MARKER = "root:x:0:0"
HOSTILE_NAME = "900-01.xml"

Kind = Literal["bad", "flagged", "ok", "skip"]

_PREFIX = "Patient "
_PATIENT = "Alice Smith"
_MIDDLE = " was seen on "
_DATE = "2080-05-03"
_DOCTOR_PREFIX = " by Dr. "
_DOCTOR = "Bob Jones"
NOTE_TEXT = (
    f"{_PREFIX}{_PATIENT}{_MIDDLE}{_DATE}{_DOCTOR_PREFIX}{_DOCTOR}.\nThe {MARKER} plan is unchanged.\n"
)

Tag = tuple[str, str, str, object, object, str]


def note_tags(text: str = NOTE_TEXT) -> list[Tag]:
    """The three tags of :data:`NOTE_TEXT` as (id, category, TYPE, start, end, text)."""
    patient = text.index(_PATIENT)
    date = text.index(_DATE)
    doctor = text.index(_DOCTOR)
    return [
        ("P0", "NAME", "PATIENT", patient, patient + len(_PATIENT), _PATIENT),
        ("P1", "DATE", "DATE", date, date + len(_DATE), _DATE),
        ("P2", "NAME", "DOCTOR", doctor, doctor + len(_DOCTOR), _DOCTOR),
    ]


def i2b2_xml(
    text: str = NOTE_TEXT,
    tags: list[Tag] | None = None,
    declaration: str = '<?xml version="1.0" encoding="UTF-8" ?>\n',
    doctype: str = "",
    with_text: bool = True,
    with_tags: bool = True,
    extra_root_children: str = "",
) -> str:
    """An i2b2 2014 document as a string (TEXT in one CDATA section)."""
    tags = note_tags(text) if tags is None else tags
    lines = [declaration + doctype + "<deIdi2b2>"]
    if with_text:
        lines.append("<TEXT><![CDATA[" + text + "]]></TEXT>")
    if with_tags:
        lines.append("<TAGS>")
        for tag_id, category, type_, start, end, value in tags:
            lines.append(
                f'<{category} id="{tag_id}" start="{start}" end="{end}" text={quoteattr(value)} '
                f'TYPE="{type_}" comment="" />'
            )
        lines.append("</TAGS>")
    lines.append(extra_root_children)
    lines.append("</deIdi2b2>\n")
    return "\n".join(line for line in lines if line)


def _write(folder: Path, data: bytes, name: str = HOSTILE_NAME) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _utf8(text: str) -> bytes:
    return text.encode("utf-8")


def _with_tags(tags: list[Tag]) -> bytes:
    return _utf8(i2b2_xml(tags=tags))


def _shifted(index: int, start: object = None, end: object = None, text: str | None = None) -> bytes:
    tags = note_tags()
    tag_id, category, type_, old_start, old_end, old_text = tags[index]
    tags[index] = (
        tag_id,
        category,
        type_,
        old_start if start is None else start,
        old_end if end is None else end,
        old_text if text is None else text,
    )
    return _with_tags(tags)


# -- the entries ----------------------------------------------------------------------------


def malformed(folder: Path) -> Path:
    return _write(folder, _utf8(i2b2_xml()).replace(b"</TAGS>", b"</TAG>"))


def truncated(folder: Path) -> Path:
    data = _utf8(i2b2_xml())
    return _write(folder, data[: len(data) // 2])


def empty(folder: Path) -> Path:
    return _write(folder, b"")


def binary(folder: Path) -> Path:
    # A PNG signature and a stretch of NUL bytes: clearly not text.
    return _write(folder, b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8 + MARKER.encode())


def latin1_undeclared(folder: Path) -> Path:
    text = NOTE_TEXT + "Caf\u00e9 visit.\n"
    tags = note_tags(text)
    data = i2b2_xml(text, tags, declaration='<?xml version="1.0" ?>\n').encode("latin-1")
    return _write(folder, data)


def latin1_declared(folder: Path) -> Path:
    """Legitimate XML: ISO-8859-1 bytes that say so in the declaration."""
    text = NOTE_TEXT + "Caf\u00e9 visit.\n"
    tags = note_tags(text)
    declaration = '<?xml version="1.0" encoding="ISO-8859-1" ?>\n'
    return _write(folder, i2b2_xml(text, tags, declaration=declaration).encode("latin-1"))


def declares_utf16_is_utf8(folder: Path) -> Path:
    declaration = '<?xml version="1.0" encoding="UTF-16" ?>\n'
    return _write(folder, _utf8(i2b2_xml(declaration=declaration)))


def utf16_with_bom(folder: Path) -> Path:
    """Legitimate XML: UTF-16 with a byte-order mark and a matching declaration."""
    declaration = '<?xml version="1.0" encoding="UTF-16" ?>\n'
    return _write(folder, i2b2_xml(declaration=declaration).encode("utf-16"))


def utf16_without_bom(folder: Path) -> Path:
    declaration = '<?xml version="1.0" encoding="UTF-16" ?>\n'
    return _write(folder, i2b2_xml(declaration=declaration).encode("utf-16-le"))


def utf8_with_bom(folder: Path) -> Path:
    """Legitimate XML: a UTF-8 byte-order mark before the declaration."""
    return _write(folder, b"\xef\xbb\xbf" + _utf8(i2b2_xml()))


def unsupported_encoding(folder: Path) -> Path:
    declaration = '<?xml version="1.0" encoding="X-NO-SUCH-CODEC" ?>\n'
    return _write(folder, _utf8(i2b2_xml(declaration=declaration)))


def whitespace_only(folder: Path) -> Path:
    return _write(folder, b" \n\t\r\n   \n")


def control_character(folder: Path) -> Path:
    """A raw U+0001 inside the CDATA: not allowed anywhere in XML 1.0."""
    return _write(folder, _utf8(i2b2_xml(NOTE_TEXT + "Bell \x01 here.\n")))


def undefined_entity(folder: Path) -> Path:
    data = i2b2_xml().replace("<TEXT><![CDATA[", "<TEXT>&secret;<![CDATA[")
    return _write(folder, _utf8(data))


def billion_laughs(folder: Path) -> Path:
    entities = ['<!ENTITY lol0 "lol">']
    entities += [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    doctype = "<!DOCTYPE deIdi2b2 [\n" + "\n".join(entities) + "\n]>\n"
    text_marker = f"{MARKER} &lol9;"
    data = i2b2_xml(doctype=doctype).replace("<TEXT><![CDATA[", f"<TEXT>{text_marker}<![CDATA[")
    return _write(folder, _utf8(data))


def external_entity_file(folder: Path) -> Path:
    doctype = '<!DOCTYPE deIdi2b2 [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n'
    data = i2b2_xml(doctype=doctype).replace("<TEXT><![CDATA[", "<TEXT>&xxe;<![CDATA[")
    return _write(folder, _utf8(data))


def external_entity_http(folder: Path) -> Path:
    doctype = '<!DOCTYPE deIdi2b2 [ <!ENTITY xxe SYSTEM "http://127.0.0.1:9/x"> ]>\n'
    data = i2b2_xml(doctype=doctype).replace("<TEXT><![CDATA[", "<TEXT>&xxe;<![CDATA[")
    return _write(folder, _utf8(data))


def parameter_entity(folder: Path) -> Path:
    doctype = '<!DOCTYPE deIdi2b2 [ <!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote; ]>\n'
    return _write(folder, _utf8(i2b2_xml(doctype=doctype)))


def xinclude(folder: Path) -> Path:
    """An XInclude inside TEXT: inline markup, and never expanded."""
    include = (
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>'
    )
    data = i2b2_xml().replace("<TEXT><![CDATA[", f"<TEXT>{include}<![CDATA[")
    return _write(folder, _utf8(data))


def xinclude_sibling(folder: Path) -> Path:
    """An XInclude as an unknown root child: kept as it is, never expanded."""
    include = (
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>'
    )
    return _write(folder, _utf8(i2b2_xml(extra_root_children=include)))


def doctype_internal_subset(folder: Path) -> Path:
    doctype = "<!DOCTYPE deIdi2b2 [ <!ELEMENT deIdi2b2 ANY> <!ATTLIST TAGS x CDATA #FIXED 'y'> ]>\n"
    return _write(folder, _utf8(i2b2_xml(doctype=doctype)))


def doctype_external_dtd(folder: Path) -> Path:
    """A DOCTYPE naming a remote DTD: must never be fetched (no network)."""
    doctype = '<!DOCTYPE deIdi2b2 SYSTEM "http://127.0.0.1:9/task.dtd">\n'
    return _write(folder, _utf8(i2b2_xml(doctype=doctype)))


def missing_text(folder: Path) -> Path:
    return _write(folder, _utf8(i2b2_xml(with_text=False)))


def missing_tags(folder: Path) -> Path:
    return _write(folder, _utf8(i2b2_xml(with_tags=False)))


def offset_negative(folder: Path) -> Path:
    return _write(folder, _shifted(1, start=-5))


def offset_beyond(folder: Path) -> Path:
    length = len(NOTE_TEXT)
    return _write(folder, _shifted(1, start=length + 10, end=length + 20))


def offset_start_after_end(folder: Path) -> Path:
    date = NOTE_TEXT.index(_DATE)
    return _write(folder, _shifted(1, start=date + len(_DATE), end=date))


def offset_not_integer(folder: Path) -> Path:
    return _write(folder, _shifted(1, start="twelve"))


def offset_float(folder: Path) -> Path:
    date = NOTE_TEXT.index(_DATE)
    return _write(folder, _shifted(1, start=f"{date}.0"))


def text_mismatch(folder: Path) -> Path:
    """The text attribute does not match TEXT[start:end] (it quotes other note text)."""
    return _write(folder, _shifted(1, text=f"{MARKER}-05"))


def duplicate_ids(folder: Path) -> Path:
    tags = note_tags()
    tags[2] = ("P0", *tags[2][1:])
    return _write(folder, _with_tags(tags))


def unknown_type(folder: Path) -> Path:
    tags = note_tags()
    tags[1] = (tags[1][0], "DATE", "BIRTHDAYZ", *tags[1][3:])
    return _write(folder, _with_tags(tags))


def unknown_category(folder: Path) -> Path:
    tags = note_tags()
    tags[1] = (tags[1][0], "SPACESHIP", "DATE", *tags[1][3:])
    return _write(folder, _with_tags(tags))


def huge_file(folder: Path) -> Path:
    """70 MB, mostly a sparse hole: over the 64 MiB limit for one document."""
    path = folder / HOSTILE_NAME
    head = _utf8(i2b2_xml()).split(b"<![CDATA[")[0] + b"<![CDATA[" + MARKER.encode()
    tail = b"]]></TEXT><TAGS></TAGS></deIdi2b2>\n"
    with path.open("wb") as stream:
        stream.write(head)
        stream.seek(70 * 1024 * 1024 - len(tail))
        stream.write(tail)
    return path


def cdata_terminator(folder: Path) -> Path:
    """Legitimate: a note containing ']]>', stored as two CDATA sections."""
    text = NOTE_TEXT + "Lab: x]]>y.\n"
    body = text.replace("]]>", "]]]]><![CDATA[>")
    data = i2b2_xml(text).replace(f"<![CDATA[{text}]]>", f"<![CDATA[{body}]]>")
    assert data.count("<![CDATA[") == 2
    return _write(folder, _utf8(data))


def utf16_offsets(folder: Path) -> Path:
    """A non-BMP character before the tags, whose offsets count UTF-16 units (Java tools)."""
    text = "\U0001f600 " + NOTE_TEXT
    # The emoji is one code point but two UTF-16 units: every later offset is one too far.
    tags: list[Tag] = [(i, c, t, int(str(s)) + 1, int(str(e)) + 1, v) for i, c, t, s, e, v in note_tags(text)]
    return _write(folder, _utf8(i2b2_xml(text, tags)))


def crlf_offsets(folder: Path) -> Path:
    """CRLF line ends in the file, offsets counted on the CRLF text (XML normalises to LF)."""
    text = "Header line\r\nSecond line\r\n" + NOTE_TEXT
    tags = note_tags(text)
    return _write(folder, _utf8(i2b2_xml(text, tags)))


def deeply_nested(folder: Path) -> Path:
    depth = 100_000
    nest = "<a>" * depth + "</a>" * depth
    return _write(folder, _utf8(i2b2_xml(extra_root_children=nest)))


def long_attribute(folder: Path) -> Path:
    """A 12 MB comment attribute quoting note text (over libxml2's 10 MB default)."""
    tags = note_tags()
    data = i2b2_xml(tags=tags).replace('comment=""', f'comment="{MARKER * 1_500_000}"', 1)
    return _write(folder, _utf8(data))


def brat_ann(folder: Path) -> Path:
    data = f"T1\tNAME 8 22\t{_PATIENT}\nT2\tDATE 36 46\t{_DATE}\n#1\tAnnotatorNotes T1\t{MARKER}\n"
    return _write(folder, _utf8(data))


def folder_named_xml(folder: Path) -> Path:
    path = folder / HOSTILE_NAME
    path.mkdir()
    return path


def symlink_loop(folder: Path) -> Path:
    first = folder / HOSTILE_NAME
    second = folder / "900-02.xml"
    first.symlink_to(second.name)
    second.symlink_to(first.name)
    return first


@dataclass(frozen=True)
class ZooEntry:
    name: str
    kind: Kind
    write: Callable[[Path], Path]
    # A fragment the one-line error should contain (case-insensitive), when we know it.
    expect: str = ""


ZOO: dict[str, ZooEntry] = {
    entry.name: entry
    for entry in (
        ZooEntry("malformed", "bad", malformed),
        ZooEntry("truncated", "bad", truncated),
        ZooEntry("empty", "bad", empty, "empty"),
        ZooEntry("binary", "bad", binary, "binary"),
        ZooEntry("latin1_undeclared", "bad", latin1_undeclared, "encoding"),
        ZooEntry("latin1_declared", "ok", latin1_declared),
        ZooEntry("declares_utf16_is_utf8", "bad", declares_utf16_is_utf8, "encoding"),
        ZooEntry("utf16_with_bom", "ok", utf16_with_bom),
        ZooEntry("utf16_without_bom", "bad", utf16_without_bom, "utf-16 text without a byte-order mark"),
        ZooEntry("utf8_with_bom", "ok", utf8_with_bom),
        ZooEntry("unsupported_encoding", "bad", unsupported_encoding, "encoding"),
        ZooEntry("whitespace_only", "bad", whitespace_only, "empty"),
        ZooEntry("control_character", "bad", control_character),
        ZooEntry("undefined_entity", "bad", undefined_entity, "entit"),
        ZooEntry("billion_laughs", "bad", billion_laughs, "entit"),
        ZooEntry("external_entity_file", "bad", external_entity_file, "entit"),
        ZooEntry("external_entity_http", "bad", external_entity_http, "entit"),
        ZooEntry("parameter_entity", "bad", parameter_entity, "entit"),
        ZooEntry("xinclude", "bad", xinclude),
        ZooEntry("xinclude_sibling", "ok", xinclude_sibling),
        ZooEntry("doctype_internal_subset", "bad", doctype_internal_subset),
        ZooEntry("doctype_external_dtd", "ok", doctype_external_dtd),
        ZooEntry("missing_text", "bad", missing_text, "TEXT"),
        ZooEntry("missing_tags", "flagged", missing_tags, "TAGS"),
        ZooEntry("offset_negative", "bad", offset_negative),
        ZooEntry("offset_beyond", "bad", offset_beyond),
        ZooEntry("offset_start_after_end", "bad", offset_start_after_end),
        ZooEntry("offset_not_integer", "bad", offset_not_integer),
        ZooEntry("offset_float", "bad", offset_float),
        ZooEntry("text_mismatch", "flagged", text_mismatch),
        ZooEntry("duplicate_ids", "bad", duplicate_ids, "P0"),
        ZooEntry("unknown_type", "flagged", unknown_type),
        ZooEntry("unknown_category", "flagged", unknown_category),
        ZooEntry("huge_file", "bad", huge_file, "limit"),
        ZooEntry("cdata_terminator", "ok", cdata_terminator),
        ZooEntry("utf16_offsets", "flagged", utf16_offsets),
        ZooEntry("crlf_offsets", "flagged", crlf_offsets),
        ZooEntry("deeply_nested", "bad", deeply_nested),
        ZooEntry("long_attribute", "bad", long_attribute),
        ZooEntry("brat_ann", "bad", brat_ann),
        ZooEntry("folder_named_xml", "skip", folder_named_xml),
        ZooEntry("symlink_loop", "bad", symlink_loop, "symbolic link to nothing"),
    )
}


def write_entry(name: str, folder: Path) -> Path:
    """Write zoo entry ``name`` into ``folder`` (created if needed); returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / HOSTILE_NAME).unlink(missing_ok=True)
    return ZOO[name].write(folder)


def write_clean(folder: Path) -> Path:
    """The well-formed version of the zoo note, to pair with a hostile one in another folder."""
    folder.mkdir(parents=True, exist_ok=True)
    return _write(folder, _utf8(i2b2_xml()))


# -- hostile tagger model files (for ``preannotate MODEL``) -------------------------------------


def write_hostile_model(name: str, good_model: Path, folder: Path) -> Path:
    """A broken variant ``name`` of the model file ``good_model``, written into ``folder``."""
    import json
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.model"
    with zipfile.ZipFile(good_model) as archive:
        metadata = json.loads(archive.read("metadata.json"))
        crf = archive.read("model.crfsuite")

    def archive_of(members: dict[str, bytes]) -> Path:
        with zipfile.ZipFile(path, "w") as out:
            for member, data in members.items():
                out.writestr(member, data)
        return path

    if name == "fifo":
        os.mkfifo(path)
    elif name == "dev_zero":
        path.symlink_to("/dev/zero")
    elif name == "huge_sparse":
        # 3 GiB that take no disk space: a reader without a size cap runs out of memory.
        with path.open("wb") as stream:
            stream.seek(3 * 1024**3)
            stream.write(b"\0")
    elif name == "empty":
        path.write_bytes(b"")
    elif name == "not_a_zip":
        path.write_bytes(_utf8(i2b2_xml()))
    elif name == "folder":
        path.mkdir()
    elif name == "no_metadata":
        archive_of({"model.crfsuite": crf})
    elif name == "metadata_not_json":
        archive_of({"metadata.json": b'{"format": ', "model.crfsuite": crf})
    elif name == "metadata_bad_params":
        metadata["params"] = {"max_iterations": "many", "c1": "x"}
        archive_of({"metadata.json": _utf8(json.dumps(metadata)), "model.crfsuite": crf})
    elif name == "crf_garbage":
        archive_of({"metadata.json": _utf8(json.dumps(metadata)), "model.crfsuite": bytes(range(256)) * 20})
    elif name == "crf_truncated":
        archive_of({"metadata.json": _utf8(json.dumps(metadata)), "model.crfsuite": crf[: len(crf) // 2]})
    else:
        raise KeyError(name)
    return path


MODEL_ZOO = (
    "fifo",
    "dev_zero",
    "huge_sparse",
    "empty",
    "not_a_zip",
    "folder",
    "no_metadata",
    "metadata_not_json",
    "metadata_bad_params",
    "crf_garbage",
    "crf_truncated",
)


# -- hostile files in the other input formats (for ``convert --from``) ---------------------------

_MAE_XXE = f"""<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE PHI [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<PHI>
<TEXT><![CDATA[Patient {MARKER} Alice Smith &xxe;]]></TEXT>
<TAGS>
<NAME id="N0" spans="{len("Patient " + MARKER + " ")}~{len("Patient " + MARKER + " Alice Smith")}" text="Alice Smith" TYPE="PATIENT" />
</TAGS>
</PHI>
"""
_INLINE_BOMB = (
    '<?xml version="1.0"?>\n<!DOCTYPE ROOT [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n'
    f'<ROOT><TEXT>{MARKER} &b; <PHI TYPE="PATIENT">Alice</PHI></TEXT></ROOT>\n'
)
_ALICE = len(f"{MARKER} ")

# name -> (format, {file name: bytes})
OTHER_FORMAT_ZOO: dict[str, tuple[str, dict[str, bytes]]] = {
    "mae_external_entity": ("mae", {"900-01.xml": _utf8(_MAE_XXE)}),
    "inline2006_entities": ("inline2006", {"900-01.xml": _utf8(_INLINE_BOMB)}),
    "jsonl_broken_line": (
        "jsonl",
        {
            "900.jsonl": _utf8(
                f'{{"text": "{MARKER} Alice", "spans": [{{"start": {_ALICE}, "end": {_ALICE + 5}, '
                f'"label": "PATIENT"}}]}}\n{{"text": "{MARKER} broken\n'
            )
        },
    ),
    "jsonl_offsets_beyond": (
        "jsonl",
        {
            "900.jsonl": _utf8(
                f'{{"text": "{MARKER} Alice", "spans": [{{"start": {_ALICE}, "end": 99, "label": "PATIENT"}}]}}\n'
            )
        },
    ),
    "jsonl_not_objects": ("jsonl", {"900.jsonl": b"[1, 2]\n42\n"}),
    "brat_offsets_beyond": (
        "brat",
        {"900-01.txt": _utf8(f"{MARKER} Alice\n"), "900-01.ann": _utf8(f"T1\tPATIENT {_ALICE} 99\tAlice\n")},
    ),
    "brat_duplicate_ids": (
        "brat",
        {
            "900-01.txt": _utf8(f"{MARKER} Alice\n"),
            "900-01.ann": _utf8(
                f"T1\tPATIENT {_ALICE} {_ALICE + 5}\tAlice\nT1\tPATIENT {_ALICE} {_ALICE + 5}\tAlice\n"
            ),
        },
    ),
    "brat_latin1_text": (
        "brat",
        {
            "900-01.txt": f"{MARKER} Alic\u00e9\n".encode("latin-1"),
            "900-01.ann": f"T1\tPATIENT {_ALICE} {_ALICE + 5}\tAlic\u00e9\n".encode("latin-1"),
        },
    ),
    "brat_ann_without_txt": ("brat", {"900-01.ann": _utf8(f"T1\tPATIENT 0 5\t{MARKER}\n")}),
}


def write_other_format(name: str, folder: Path) -> str:
    """Write entry ``name`` of :data:`OTHER_FORMAT_ZOO` into ``folder``; returns its format."""
    folder.mkdir(parents=True, exist_ok=True)
    format_name, files = OTHER_FORMAT_ZOO[name]
    for file_name, data in files.items():
        (folder / file_name).write_bytes(data)
    return format_name


def many_attributes(folder: Path, count: int = 200_000) -> Path:
    """One tag with ``count`` extra attributes (2.3 MB for 200,000): must not take quadratic time."""
    extra = " ".join(f'x{i}="{MARKER}"' for i in range(count))
    return _write(folder, _utf8(i2b2_xml().replace('comment=""', f'comment="" {extra}', 1)))


def stacked_tags(folder: Path, count: int = 5_000) -> Path:
    """``count`` extra tags on one and the same span (every pair overlaps)."""
    start = NOTE_TEXT.index(_PATIENT)
    extra: list[Tag] = [
        (f"S{i}", "NAME", "PATIENT", start, start + len(_PATIENT), _PATIENT) for i in range(count)
    ]
    return _write(folder, _utf8(i2b2_xml(tags=note_tags() + extra)))
