"""What an interchange audit against MedTator, MAE and brat's own files found lost, kept now.

Every file here is a small one written for the test, in the shape of the tools' own
(MedTator's document-level task, its ``<META>`` labels, MAE's ``#REQUIRED`` attributes).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from annotator.core.schema import load_schema
from annotator.core.task import parse_dtd, read_task, task_from_dict, task_to_dtd
from annotator.errors import InputError
from annotator.io.brat import read_brat
from annotator.io.capacity import Kind
from annotator.io.formats import read_documents
from annotator.io.validate import validate_file
from annotator.session.workspace import Workspace
from annotator.workflows.convert import ConvertRequest, LossError, convert

DOCUMENT_TASK = """<!ENTITY name "VAX_SYMPTOM">
<!ELEMENT PYREXIA ( #PCDATA ) >
<!ATTLIST PYREXIA spans #IMPLIED >
<!ATTLIST PYREXIA comment CDATA #IMPLIED >
<!ELEMENT PAIN ( #PCDATA ) >
<!ATTLIST PAIN spans #IMPLIED >
"""

# MedTator's document-level task: tags on no span of the text.
DOCUMENT_LEVEL = """<?xml version="1.0" encoding="UTF-8" ?>
<VAX_SYMPTOM>
<TEXT><![CDATA[Fever since Monday.]]></TEXT>
<TAGS>
<PYREXIA id="P0" spans="-1~-1" text="" comment="from the note"/>
</TAGS>
<META/>
</VAX_SYMPTOM>
"""


def _task_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "VAX" / "ann_xml"
    folder.mkdir(parents=True)
    (tmp_path / "VAX" / "VAX_SYMPTOM.dtd").write_text(DOCUMENT_TASK, encoding="utf-8")
    (folder / "doc_01.txt.xml").write_text(DOCUMENT_LEVEL, encoding="utf-8")
    return folder


def test_a_project_keeps_the_tags_of_a_document_without_spans(tmp_path: Path) -> None:
    # Before: only documents with span tags got a gold file; MedTator's document-level
    # tags went nowhere, with exit code 0.
    convert(ConvertRequest(_task_folder(tmp_path), tmp_path / "project", "project"))
    gold = tmp_path / "project" / "gold" / "doc_01.txt.xml"
    assert gold.is_file()
    back = tmp_path / "back"
    convert(ConvertRequest(gold.parent, back, "mae", schema=str(tmp_path / "project" / "VAX_SYMPTOM.dtd")))
    assert '<PYREXIA id="P0"' in (back / "doc_01.txt.xml").read_text(encoding="utf-8")


def test_a_project_made_from_a_task_keeps_the_task_file_and_opens(tmp_path: Path) -> None:
    # Before: project.toml said schema = "VAX_SYMPTOM", the task's name, which names no file:
    # the project did not open ("unknown schema").
    convert(ConvertRequest(_task_folder(tmp_path), tmp_path / "project", "project"))
    project = tmp_path / "project"
    settings = tomllib.loads((project / "project.toml").read_text(encoding="utf-8"))
    assert settings["schema"] == "VAX_SYMPTOM.dtd"
    assert (project / "VAX_SYMPTOM.dtd").read_text(encoding="utf-8") == DOCUMENT_TASK
    workspace = Workspace.open(project, "ann", looking_only=True)
    assert workspace.schema.task is not None and workspace.schema.task.name == "VAX_SYMPTOM"


def test_a_project_made_from_brat_keeps_its_annotation_conf(tmp_path: Path) -> None:
    folder = tmp_path / "brat"
    folder.mkdir()
    conf = "[entities]\nPerson\nPlace\n\n[relations]\n\n[events]\n\n[attributes]\n"
    (folder / "annotation.conf").write_text(conf, encoding="utf-8")
    (folder / "a.txt").write_text("Ann went to Oslo.", encoding="utf-8")
    (folder / "a.ann").write_text("T1\tPerson 0 3\tAnn\n", encoding="utf-8")
    convert(ConvertRequest(folder, tmp_path / "project", "project"))
    project = tmp_path / "project"
    assert (
        tomllib.loads((project / "project.toml").read_text(encoding="utf-8"))["schema"] == "annotation.conf"
    )
    assert (project / "annotation.conf").read_text(encoding="utf-8") == conf
    workspace = Workspace.open(project, "ann", looking_only=True)
    assert [c.name for c in workspace.schema.categories] == ["Person", "Place"]


LABELLED = """<?xml version="1.0" encoding="UTF-8" ?>
<VAX_SYMPTOM>
<TEXT><![CDATA[Fever since Monday.]]></TEXT>
<TAGS>
<PAIN id="PA0" spans="0~5" text="Fever"/>
</TAGS>
<META>
<label color="yellow"/>
</META>
</VAX_SYMPTOM>
"""


def _labelled(tmp_path: Path, meta: str | None = None) -> Path:
    """The task folder with one labelled file (``meta`` in place of its <META>)."""
    folder = _task_folder(tmp_path)
    text = LABELLED if meta is None else LABELLED.split("<META>")[0] + meta + "\n</VAX_SYMPTOM>\n"
    (folder / "doc_01.txt.xml").write_text(text, encoding="utf-8")
    return folder


def test_medtator_labels_cross_i2b2_and_a_project_and_come_back(tmp_path: Path) -> None:
    # Before: <META> (MedTator's file labels) was dropped on the way to i2b2, silently.
    folder = _labelled(tmp_path)
    task = str(tmp_path / "VAX" / "VAX_SYMPTOM.dtd")
    convert(ConvertRequest(folder, tmp_path / "i2b2", "i2b2"))
    assert '<label color="yellow"/>' in (tmp_path / "i2b2" / "doc_01.txt.xml").read_text(encoding="utf-8")
    convert(ConvertRequest(tmp_path / "i2b2", tmp_path / "back", "mae", schema=task))
    written = (tmp_path / "back" / "doc_01.txt.xml").read_text(encoding="utf-8")
    assert '</TAGS>\n<META>\n<label color="yellow"/>\n</META>\n</VAX_SYMPTOM>' in written
    convert(ConvertRequest(folder, tmp_path / "project", "project"))
    gold = (tmp_path / "project" / "gold" / "doc_01.txt.xml").read_text(encoding="utf-8")
    assert '<label color="yellow"/>' in gold


@pytest.mark.parametrize("to", ["brat", "jsonl", "inline2006", "conll"])
def test_a_format_without_a_place_for_medtator_labels_refuses_them_by_name(tmp_path: Path, to: str) -> None:
    folder = _labelled(tmp_path)
    with pytest.raises(LossError) as refused:
        convert(ConvertRequest(folder, tmp_path / "out", to))
    assert refused.value.lost == {"elements": 1}
    assert f"{to} cannot hold elements: 1" in refused.value.one_line()
    assert not (tmp_path / "out").exists()
    result = convert(ConvertRequest(folder, tmp_path / "out", to, drop=frozenset({Kind.ELEMENTS})))
    assert result.dropped == {"elements": 1}


def test_medtators_empty_meta_holds_nothing_to_lose(tmp_path: Path) -> None:
    folder = _labelled(tmp_path, "<META/>")
    convert(ConvertRequest(folder, tmp_path / "out", "brat"))
    assert (tmp_path / "out" / "doc_01.txt.ann").read_text(encoding="utf-8").startswith("T1\tPAIN 0 5\tFever")


REQUIRED_TASK = """<!ENTITY name "NounVerbTask">
<!ELEMENT NAMED_ENTITY ( #PCDATA ) >
<!ATTLIST NAMED_ENTITY type ( person | place | other ) #REQUIRED "other" >
<!ELEMENT DESCRIPTION EMPTY >
<!ATTLIST DESCRIPTION arg0 IDREF prefix="agent" #REQUIRED>
<!ATTLIST DESCRIPTION note CDATA #IMPLIED >
"""


def test_required_attributes_stay_required_in_the_task_written(tmp_path: Path) -> None:
    # Before: every attribute of the TASK.dtd written beside MAE files was #IMPLIED.
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "task.dtd").write_text(REQUIRED_TASK, encoding="utf-8")
    (folder / "a.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<NounVerbTask>\n<TEXT><![CDATA[Mrs Miller]]></TEXT>\n'
        '<TAGS>\n<NAMED_ENTITY id="N0" spans="0~10" text="Mrs Miller" type="person" />\n</TAGS>\n'
        "</NounVerbTask>\n",
        encoding="utf-8",
    )
    convert(ConvertRequest(folder, tmp_path / "out", "mae"))
    written = (tmp_path / "out" / "NounVerbTask.dtd").read_text(encoding="utf-8")
    assert '<!ATTLIST NAMED_ENTITY type ( person | place | other ) #REQUIRED "other" >' in written
    assert '<!ATTLIST DESCRIPTION arg0 IDREF prefix="agent" #REQUIRED >' in written
    assert "<!ATTLIST DESCRIPTION note CDATA #IMPLIED >" in written
    task = read_task(tmp_path / "out" / "NounVerbTask.dtd")
    assert [a.required for t in task.tags for a in t.attributes] == [True, True, False]


def test_a_medtator_schema_says_required_as_require() -> None:
    task = task_from_dict(
        {"name": "T", "etags": [{"name": "AE", "attrs": [{"name": "certainty", "require": "REQUIRED"}]}]}
    )
    assert task.tags[0].attributes[0].required


NEWS_CONF = """# brat's tutorial, cut down
[entities]
Person
Organization
GPE

[relations]
Family\tArg1:Person, Arg2:Person

[events]
!Life
\tMarry\tPerson-Arg{2}:Person, Place-Arg?:GPE

[attributes]
Mention\tArg:<ENTITY>, Value:Name|Nominal|Other
"""


def _brat_folder(tmp_path: Path, ann: str) -> Path:
    folder = tmp_path / "news"
    folder.mkdir()
    (folder / "annotation.conf").write_text(NEWS_CONF, encoding="utf-8")
    (folder / "a.txt").write_text("Ann married Bob in Oslo.", encoding="utf-8")
    (folder / "a.ann").write_text(ann, encoding="utf-8")
    return folder


def test_brat_files_written_back_keep_the_annotation_conf_they_came_with(tmp_path: Path) -> None:
    # Before: the annotation.conf written declared only what the files use: Organization, the
    # Place-Arg role, the Mention values nobody used and the comment were gone from brat's menus.
    ann = "T1\tPerson 0 3\tAnn\nT2\tPerson 12 15\tBob\nR1\tFamily Arg1:T1 Arg2:T2\nA1\tMention T1 Name\n"
    folder = _brat_folder(tmp_path, ann)
    conf = str(folder / "annotation.conf")
    convert(ConvertRequest(folder, tmp_path / "i2b2", "i2b2", schema=conf))
    convert(ConvertRequest(tmp_path / "i2b2", tmp_path / "back", "brat", schema=conf))
    assert (tmp_path / "back" / "annotation.conf").read_text(encoding="utf-8") == NEWS_CONF


def test_an_annotation_conf_that_lacks_what_the_files_use_is_written_anew(tmp_path: Path) -> None:
    folder = _brat_folder(tmp_path, "T1\tPerson 0 3\tAnn\nA1\tMention T1 Pet-name\n")
    conf = str(folder / "annotation.conf")
    convert(ConvertRequest(folder, tmp_path / "i2b2", "i2b2", schema=conf))
    convert(ConvertRequest(tmp_path / "i2b2", tmp_path / "back", "brat", schema=conf))
    written = (tmp_path / "back" / "annotation.conf").read_text(encoding="utf-8")
    assert "Mention\tArg:Person, Value:Pet-name" in written


PHI_TASK = Path(__file__).resolve().parent.parent / "data" / "mae" / "PHI.dtd"


def test_mae_written_with_a_task_keeps_the_comment_and_a_type_named_like_its_tag(tmp_path: Path) -> None:
    # Before: the i2b2 task's DATE declares no comment and its TYPE value is DATE: a DATE's
    # comment was not written at all and its TYPE="DATE" was written TYPE="" (MedTator then
    # showed no type).
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "1.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[Seen 2067-05-03]]></TEXT>\n'
        '<TAGS>\n<DATE id="P0" start="5" end="15" text="2067-05-03" TYPE="DATE" comment="year &amp; month" />\n'
        "</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    convert(ConvertRequest(folder, tmp_path / "out", "mae", schema=str(PHI_TASK)))
    written = (tmp_path / "out" / "1.xml").read_text(encoding="utf-8")
    assert '<DATE id="P0" spans="5~15" text="2067-05-03" TYPE="DATE" comment="year &amp; month" />' in written
    convert(ConvertRequest(tmp_path / "out", tmp_path / "back", "i2b2", schema=str(PHI_TASK)))
    back = (tmp_path / "back" / "1.xml").read_text(encoding="utf-8")
    assert 'TYPE="DATE" comment="year &amp; month"' in back


def test_a_comment_of_several_lines_written_to_brat_is_said_once_per_file(tmp_path: Path) -> None:
    # Before: the line break became a space without a word.
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "1.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[Seen 2067-05-03]]></TEXT>\n'
        '<TAGS>\n<DATE id="P0" start="5" end="15" text="2067-05-03" TYPE="DATE" comment="two&#10;lines" />\n'
        "</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    result = convert(ConvertRequest(folder, tmp_path / "out", "brat"))
    (warning,) = [note.message() for note in result.notes]
    assert warning.startswith(f"{folder / '1.xml'}: 1 comment(s) or attribute value(s) of several lines")
    assert "#1\tAnnotatorNotes T1\ttwo lines\n" in (tmp_path / "out" / "1.ann").read_text(encoding="utf-8")


def _brat_note(tmp_path: Path, ann: str) -> Path:
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "a.txt").write_text("Ann married Bob in Oslo.", encoding="utf-8")
    (folder / "a.ann").write_text(ann, encoding="utf-8")
    return folder / "a.ann"


def test_brat_ids_with_a_suffix_are_read_as_brat_reads_them(tmp_path: Path) -> None:
    # brat takes T1a (letters, a number, anything); we refused it as a malformed line.
    document = read_brat(_brat_note(tmp_path, "T1a\tPerson 0 3\tAnn\nA1\tMention T1a Name\n"))
    (annotation,) = document.annotations
    assert (annotation.id, annotation.type, annotation.extra) == ("T1a", "Person", (("Mention", "Name"),))


def test_bionlp_2013_normalizations_are_read_as_brat_reads_them(tmp_path: Path) -> None:
    # Before: refused, "N1 names Annotation:T1, which is not in the file".
    ann = "T1\tPerson 0 3\tAnn\nN1\tReference Annotation:T1 Referent:Wikipedia:534366\n"
    (normalization,) = read_brat(_brat_note(tmp_path, ann)).relations
    assert normalization.targets == ["T1"]
    assert dict(normalization.attributes)["resource"] == "Wikipedia"
    assert dict(normalization.attributes)["entry"] == "534366"


def test_free_text_after_a_relation_is_named_when_it_cannot_follow(tmp_path: Path) -> None:
    ann = "T1\tPerson 0 3\tAnn\nT2\tPerson 12 15\tBob\nR1\tFamily Arg1:T1 Arg2:T2\tsiblings?\n"
    path = _brat_note(tmp_path, ann)
    warnings: list[str] = []
    read_brat(path, warnings=warnings)
    assert warnings == [
        f"{path}: the free text after the data of line(s) 3 (a relation, event, attribute or "
        "equivalence) is not kept in other formats"
    ]


NOUN_TASK = """<!ENTITY name "NounVerbTask">
<!ELEMENT NOUN ( #PCDATA ) >
<!ATTLIST NOUN type ( person | place | thing | other ) #IMPLIED "other" >
<!ATTLIST NOUN comment CDATA "default value" >
<!ATTLIST NOUN certainty ( sure | unsure ) #IMPLIED "sure" >
"""
# MAE's own test sample: a NOUN that states none of its attributes.
NOUN_FILE = """<?xml version="1.0" encoding="UTF-8" ?>
<NounVerbTask>
<TEXT><![CDATA[
Mrs Miller wants the entire house repainted.
]]></TEXT>
<TAGS>
<NOUN id="N1" spans="29~34" text="house"  />
</TAGS>
</NounVerbTask>
"""


@pytest.mark.parametrize("via", ["i2b2", "mae"])
def test_an_attribute_a_mae_tag_leaves_out_has_the_tasks_default(tmp_path: Path, via: str) -> None:
    # MAE and MedTator read the NOUN above as type "other", comment "default value". Before,
    # it was read as a NOUN of no type and no comment, and written back type="" comment="":
    # MedTator then showed both empty.
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "task.dtd").write_text(NOUN_TASK, encoding="utf-8")
    (folder / "doc1_a1.xml").write_text(NOUN_FILE, encoding="utf-8")
    (document,) = read_documents(folder / "doc1_a1.xml", "mae", load_schema(str(folder / "task.dtd")))
    (noun,) = document.annotations
    assert (noun.type, noun.comment, noun.extra) == ("other", "default value", (("certainty", "sure"),))
    assert document.is_pristine()
    convert(ConvertRequest(folder, tmp_path / "via", via))
    convert(ConvertRequest(tmp_path / "via", tmp_path / "back", "mae", schema=str(folder / "task.dtd")))
    written = (tmp_path / "back" / "doc1_a1.xml").read_text(encoding="utf-8")
    assert (
        'type="other"' in written and 'comment="default value"' in written and 'certainty="sure"' in written
    )


def test_two_mae_tags_with_one_id_are_refused_naming_the_file(tmp_path: Path) -> None:
    # Before: "duplicate annotation id 'A0' in document dup", with no file named.
    path = tmp_path / "dup.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<COVID_VAX_AE>\n<TEXT><![CDATA[mild pain]]></TEXT>\n<TAGS>\n'
        '<AE spans="5~9" text="pain" id="A0"/>\n<SVRT spans="0~4" text="mild" id="A0"/>\n</TAGS>\n</COVID_VAX_AE>\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as refused:
        read_documents(path, "mae")
    assert refused.value.one_line() == f"{path}: two tags share the id 'A0' (give one another id)"
    assert [p.code for p in validate_file(path)] == ["duplicate-id"]  # was "bad-offset"


def test_medtators_text_of_a_tag_in_pieces_agrees_with_its_spans(tmp_path: Path) -> None:
    # MedTator states a tag in pieces as "pain...fever" (MAE as "pain ... fever"); it drew
    # the warning "text attribute disagrees with its spans".
    path = tmp_path / "x.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<COVID_VAX_AE>\n<TEXT><![CDATA[mild pain and fever]]></TEXT>\n'
        '<TAGS>\n<AE spans="5~9,14~19" text="pain...fever" id="A0" certainty="positive"/>\n</TAGS>\n'
        "</COVID_VAX_AE>\n",
        encoding="utf-8",
    )
    assert validate_file(path) == []


def test_a_byte_order_mark_before_the_first_brat_id_is_no_part_of_it(tmp_path: Path) -> None:
    # Before: "line 1: malformed \ufeff annotation".
    path = _brat_note(tmp_path, "\ufeffT1\tPerson 0 3\tAnn\n")
    (annotation,) = read_brat(path).annotations
    assert (annotation.id, annotation.type, annotation.start, annotation.end) == ("T1", "Person", 0, 3)


def test_the_task_written_declares_no_prefix_mae_would_refuse() -> None:
    # MAE's DTDLoader gives each tag its prefix on its ELEMENT line, then refuses an id prefix
    # any tag already has, the tag's own included: a task saying NAME's ids start with N (as
    # our i2b2 PHI task does) was written back as one MAE would not load.
    task = parse_dtd(
        '<!ENTITY name "PHI">\n<!ELEMENT NAME ( #PCDATA ) >\n<!ATTLIST NAME id ID prefix="N" >\n'
        '<!ELEMENT NOUN ( #PCDATA ) >\n<!ELEMENT NAMED_ENTITY ( #PCDATA ) >\n<!ATTLIST NAMED_ENTITY id ID prefix="NE" >\n'
    )
    written = task_to_dtd(task)
    assert 'NAME id ID prefix="N"' not in written
    assert '<!ATTLIST NAMED_ENTITY id ID prefix="NE" >' in written
    assert (
        parse_dtd(written).id_prefixes()
        == task.id_prefixes()
        == {"NAME": "N", "NOUN": "NO", "NAMED_ENTITY": "NE"}
    )
