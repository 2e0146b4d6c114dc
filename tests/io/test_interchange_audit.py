"""What an interchange audit against MedTator, MAE and brat's own files found lost, kept now.

Every file here is a small one written for the test, in the shape of the tools' own
(MedTator's document-level task, its ``<META>`` labels, MAE's ``#REQUIRED`` attributes).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from annotator.session.workspace import Workspace
from annotator.workflows.convert import ConvertRequest, convert

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
