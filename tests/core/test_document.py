"""Document: annotations by id, file order, fresh ids, signals, pristine state."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.annotation import Annotation
from annotator.core.document import Document, document_id_of, split_record_name
from annotator.core.relations import Argument, DocumentTag, Relation, RelationKind
from annotator.errors import AnnotatorError, InputError

TEXT = "Ora Smith, 64, seen 2067-05-03 by Dr Lee."


def _document() -> Document:
    document = Document("110-02", TEXT)
    document.add(document.make_annotation("NAME", "PATIENT", 0, len("Ora Smith")))
    start = TEXT.index("2067")
    document.add(document.make_annotation("DATE", "DATE", start, start + 10))
    return document


@pytest.mark.parametrize(
    ("stem", "expected"),
    [("110-02", ("110", 2)), ("a-b-07", ("a-b", 7)), ("note", ("note", 0)), ("x-y", ("x-y", 0))],
)
def test_record_names(stem: str, expected: tuple[str, int]) -> None:
    assert split_record_name(stem) == expected


def test_patient_and_record_come_from_the_id() -> None:
    document = _document()
    assert (document.patient_id, document.record) == ("110", 2)


def test_make_annotation_slices_the_text_and_numbers_ids() -> None:
    document = _document()
    assert [(a.id, a.text) for a in document] == [("P0", "Ora Smith"), ("P1", "2067-05-03")]


def test_make_annotation_refuses_offsets_outside_the_text() -> None:
    with pytest.raises(AnnotatorError, match=f"outside the text \\(length {len(TEXT)}\\)"):
        _document().make_annotation("NAME", "DOCTOR", 0, len(TEXT) + 1)


def test_duplicate_ids_are_refused() -> None:
    document = _document()
    with pytest.raises(AnnotatorError, match="duplicate annotation id 'P0'"):
        document.add(Annotation("P0", "AGE", "AGE", 11, 13, "64"))


def test_new_ids_never_reuse_a_removed_id() -> None:
    document = _document()
    document.remove("P1")
    assert document.new_id() == "P2"


def test_ids_from_files_move_the_counter_past_them() -> None:
    document = Document("1", TEXT, [Annotation("T17", "AGE", "AGE", 11, 13, "64")])
    assert document.new_id() == "P18"


def test_replace_keeps_file_order_when_the_id_changes() -> None:
    document = _document()
    first = document.get("P0")
    document.replace("P0", first.replace(id="P7"))
    assert [a.id for a in document] == ["P7", "P1"]
    assert document.new_id() == "P8"


def test_replace_to_a_used_id_is_refused() -> None:
    document = _document()
    with pytest.raises(AnnotatorError, match="duplicate"):
        document.replace("P0", document.get("P0").replace(id="P1"))


def test_signals_fire_on_each_edit() -> None:
    document = _document()
    seen: list[str] = []
    document.annotation_added.connect(lambda a: seen.append(f"add {a.id}"))
    document.annotation_removed.connect(lambda a: seen.append(f"remove {a.id}"))
    document.annotation_replaced.connect(lambda old, new: seen.append(f"replace {old.id}>{new.id}"))
    extra = document.add(document.make_annotation("AGE", "AGE", 11, 13))
    document.replace(extra.id, extra.replace(comment="x"))
    document.remove(extra.id)
    assert seen == ["add P2", "replace P2>P2", "remove P2"]


def test_queries() -> None:
    document = _document()
    assert [a.id for a in document.at(3)] == ["P0"]
    assert document.at(len("Ora Smith")) == []
    assert [a.id for a in document.overlapping(5, TEXT.index("2067") + 1)] == ["P0", "P1"]
    assert [a.id for a in document.sorted_annotations()] == ["P0", "P1"]
    assert "P1" in document and len(document) == 2


def test_pristine_until_changed() -> None:
    document = _document()
    assert not document.is_pristine()
    document.mark_pristine()
    assert document.is_pristine()
    document.remove("P0")
    assert not document.is_pristine()


def test_copy_is_independent() -> None:
    document = _document()
    twin = document.copy("110-03")
    twin.remove("P0")
    assert (len(document), len(twin), twin.record) == (2, 1, 3)


def test_document_id_of_a_file_name_that_is_not_utf8_is_refused() -> None:
    assert document_id_of(Path("gold/100-01.xml")) == "100-01"
    undecodable = Path(b"gold/100-01\xff.xml".decode("utf-8", "surrogateescape"))
    with pytest.raises(InputError, match="not valid UTF-8"):
        document_id_of(undecodable)


def test_ids_of_thousands_of_digits_are_names_not_numbers() -> None:
    """Python refuses int() of over 4,300 digits: such a hostile id must read as a plain name."""
    huge = "9" * 5000
    assert split_record_name(f"100-{huge}") == (f"100-{huge}", 0)
    document = Document("100-01", "Seen by Dr. Mary Jones.")
    document.add(Annotation(f"P{huge}", "NAME", "DOCTOR", 12, 22, "Mary Jones"))
    assert document.get(f"P{huge}") is not None


def _guessed_prefixes(document: Document, tags: tuple[str, ...]) -> dict[str, str]:
    return {tag: document.id_prefix(tag) for tag in tags}


def test_the_guessed_id_prefix_follows_every_edit_as_a_fresh_reading_would() -> None:
    # The prefixes are counted once and then followed edit by edit: after each edit they
    # must be what a document read afresh from the same items guesses.
    tags = ("NAME", "DATE", "AGE", "LINK", "PYREXIA")
    document = Document(
        "1",
        TEXT,
        [
            Annotation("T1", "NAME", "PATIENT", 0, 3, "Ora"),
            Annotation("T2", "NAME", "PATIENT", 4, 9, "Smith"),
        ],
        relations=[Relation("R1", "LINK", RelationKind.LINK, (Argument("a", "T1"), Argument("b", "T2")))],
    )

    def check() -> None:
        fresh = Document(
            "1",
            TEXT,
            document.annotations,
            relations=document.relations,
            document_tags=document.document_tags,
        )
        assert _guessed_prefixes(document, tags) == _guessed_prefixes(fresh, tags)

    assert _guessed_prefixes(document, tags) == {
        "NAME": "T",
        "DATE": "P",
        "AGE": "P",
        "LINK": "R",
        "PYREXIA": "P",
    }
    document.add(Annotation("D5", "DATE", "DATE", 20, 30, TEXT[20:30]))
    check()
    assert document.id_prefix("DATE") == "D"
    document.add(document.make_annotation("NAME", "DOCTOR", 37, 40))
    check()
    assert document.get("T6").text == "Lee"  # the tag's own prefix, T
    document.replace("T6", document.get("T6").replace(id="X9"))
    check()
    assert document.id_prefix("NAME") == "P"  # T and X: no one prefix
    document.remove("X9")
    check()
    assert document.id_prefix("NAME") == "T"
    document.replace("T1", document.get("T1").replace(tag="AGE", type="AGE"))
    check()
    document.remove("D5")
    check()
    assert document.id_prefix("DATE") == "P"  # no DATE left, and the ids share no prefix
    document.add_document_tag(DocumentTag("F1", "PYREXIA"))
    check()
    document.replace_relation("R1", document.get_relation("R1").replace(type="OTHER"))
    check()
    assert document.id_prefix("LINK") == "P"
    document.remove_relation("R1")
    document.remove_document_tag("F1")
    check()
