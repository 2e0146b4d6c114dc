"""--mode i2b2: the official script's numbers and quirks, on hand-made files.

The main set and the expected figures are those of the worked example in
/work/shared/reference/i2b2-2014-scorer.md (sections 4.7 and 6.3-6.4), which were checked
against a run of the original script.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from annotator.errors import InputError, TextMismatchError
from annotator.evaluation.official import (
    TABLE_LABELS,
    OfficialRun,
    evaluate_official_folders,
    format_runs,
    format_table,
    hipaa_match,
    official_ids,
    relaxed_counts,
)
from tests.evaluation.helpers import at, write_doc

T1 = "\n\nRecord date: 2069-04-07\nPatient John Smith's MRN 1234567, seen at Boston General Hospital.\nDr. Amy Lee, age 45, phone (617) 555-1234.\n"
T2 = "\nNo identifiers in this note.\n"
T3 = "\nSeen on 01/02/2070 in Springfield.\n"
T4 = "\nCall Mary at 555-0000.\n"


def _main_set(tmp_path: Path) -> tuple[Path, Path]:
    gold, system = tmp_path / "gold", tmp_path / "system"
    date = at(T1, "2069-04-07")
    gold_tags = [
        ("DATE", *date, "DATE"),
        ("NAME", *at(T1, "John Smith"), "PATIENT"),
        ("ID", *at(T1, "1234567"), "MEDICALRECORD"),
        ("LOCATION", *at(T1, "Boston General Hospital"), "HOSPITAL"),
        ("NAME", *at(T1, "Amy Lee"), "DOCTOR"),
        ("AGE", *at(T1, "45"), "AGE"),
        ("CONTACT", *at(T1, "(617) 555-1234"), "PHONE"),
    ]
    system_tags = [
        ("DATE", *date, "DATE"),
        ("DATE", *date, "DATE"),  # exact duplicate: counts once
        ("NAME", *at(T1, "John Smith's"), "PATIENT"),  # end + 2: relaxed match
        ("ID", *at(T1, "1234567"), "IDNUM"),  # wrong type, and IDNUM is never HIPAA
        ("LOCATION", *at(T1, "Boston General"), "HOSPITAL"),
        ("NAME", *at(T1, "Amy Lee"), "DOCTOR"),
        ("CONTACT", *at(T1, "617) 555-1234"), "PHONE"),  # start + 1: same tokens
        ("NAME", *at(T1, "Record"), "PATIENT"),  # spurious
    ]
    write_doc(gold, "100-01.xml", T1, gold_tags)
    write_doc(system, "100-01.xml", T1, system_tags)
    write_doc(gold, "100-02.xml", T2, [])
    write_doc(system, "100-02.xml", T2, [])
    both = [("DATE", *at(T3, "01/02/2070"), "DATE"), ("LOCATION", *at(T3, "Springfield"), "CITY")]
    write_doc(gold, "100-03.xml", T3, both)
    write_doc(system, "100-03.xml", T3, both)
    # gold only: skipped, not counted as misses
    write_doc(
        gold,
        "101-01.xml",
        T4,
        [("NAME", *at(T4, "Mary"), "PATIENT"), ("CONTACT", *at(T4, "555-0000"), "PHONE")],
    )
    return gold, system


def _printed(run: OfficialRun, label: str) -> list[str]:
    """[macro P (SD), micro P, macro R (SD), micro R, macro F1, micro F1] as printed."""
    lines = format_table(run.table(label)).splitlines()
    out = []
    for line in lines[2:5]:
        out += [line[40:55].strip(), line[55:].strip()]
    return out


@pytest.fixture
def main_run(tmp_path: Path) -> OfficialRun:
    gold, system = _main_set(tmp_path)
    runs = evaluate_official_folders(gold, system)
    assert len(runs) == 1
    return runs[0]


def test_prints_42_tables_in_the_script_order(main_run: OfficialRun) -> None:
    labels = [t.label for t in main_run.tables]
    assert len(labels) == 42
    assert labels[:10] == list(TABLE_LABELS[:10])
    assert labels[10:14] == [
        "CONTACT Token",
        "CONTACT Strict",
        "CONTACT HIPPA Token",
        "CONTACT Binary HIPAA Strict",
    ]
    assert labels[-1] == "LOCATION Binary HIPAA Strict"


def test_first_lines_are_byte_identical(main_run: OfficialRun) -> None:
    out = format_runs([main_run])
    expected = (
        "Token (3)                Measure        Macro (SD)     Micro (Primary)     \n"
        + "-" * 75
        + "\n"
        + "Total                    Precision      0.6 (0.43)     0.8421              \n"
        + "                         Recall         0.6 (0.43)     0.8421              \n"
        + "                         F1             0.6            0.8421              \n"
        + "\n\n"
        + "Strict (3)               Measure        Macro (SD)     Micro (Primary)     \n"
    )
    assert out.startswith(expected)


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Token", ["0.6 (0.43)", "0.8421", "0.6 (0.43)", "0.8421", "0.6", "0.8421"]),
        ("Strict", ["0.4286 (0.42)", "0.4444", "0.4286 (0.42)", "0.4444", "0.4286", "0.4444"]),
        ("Relaxed", ["0.4762 (0.41)", "0.5556", "0.4762 (0.41)", "0.5556", "0.4762", "0.5556"]),
        ("HIPPA Token", ["0.6 (0.43)", "0.8571", "0.6 (0.43)", "0.8571", "0.6", "0.8571"]),
        ("HIPAA Strict", ["0.4167 (0.42)", "0.5", "0.4 (0.43)", "0.4286", "0.4082", "0.4615"]),
        ("HIPAA Relaxed", ["0.5 (0.41)", "0.6667", "0.4667 (0.41)", "0.5714", "0.4828", "0.6154"]),
        ("Binary Token", ["0.6222 (0.44)", "0.8947", "0.6222 (0.44)", "0.8947", "0.6222", "0.8947"]),
        ("Binary Strict", ["0.4762 (0.41)", "0.5556", "0.4762 (0.41)", "0.5556", "0.4762", "0.5556"]),
        ("NAME Strict", ["0.1111 (0.16)", "0.3333", "0.1667 (0.24)", "0.5", "0.1333", "0.4"]),
        ("CONTACT Strict", ["0.0 (0.0)", "0.0", "0.0 (0.0)", "0.0", "nan", "0.0"]),
        ("LOCATION Token", ["0.6667 (0.47)", "1.0", "0.5556 (0.42)", "0.75", "0.6061", "0.8571"]),
    ],
)
def test_tables_equal_the_official_figures(main_run: OfficialRun, label: str, expected: list[str]) -> None:
    assert _printed(main_run, label) == expected


def test_binary_hipaa_tables_equal_hipaa_tables_here(main_run: OfficialRun) -> None:
    assert _printed(main_run, "Binary HIPPA Token") == _printed(main_run, "HIPPA Token")
    assert _printed(main_run, "Binary HIPAA Strict") == _printed(main_run, "HIPAA Strict")


def test_counts_are_set_counts_and_missing_documents_are_skipped(main_run: OfficialRun) -> None:
    strict = main_run.table("Strict")
    assert strict.doc_ids == ["100-01", "100-02", "100-03"]  # 101-01 has no system file
    # 100-01: 7 gold, 8 system tags of which one is an exact duplicate -> [7(2)7]
    assert (strict.tp[0], strict.fp[0], strict.fn[0]) == (2, 5, 5)
    token = main_run.table("Token")
    assert (token.tp[0], token.fp[0], token.fn[0]) == (12, 3, 3)


def _probe(
    tmp_path: Path,
    text: str,
    gold: Sequence[tuple[str, object, object, str]],
    system: Sequence[tuple[str, object, object, str]],
) -> OfficialRun:
    write_doc(tmp_path / "g", "200-01.xml", text, gold)
    write_doc(tmp_path / "s", "200-01.xml", text, system)
    return evaluate_official_folders(tmp_path / "g", tmp_path / "s")[0]


def _doc_counts(run: OfficialRun, label: str) -> tuple[int, int, int]:
    table = run.table(label)
    return table.tp[0], table.fp[0], table.fn[0]


def test_relaxed_set_semantics_are_not_one_to_one(tmp_path: Path) -> None:
    text = " John Smithson is here"
    a, b = at(text, "John Smith")
    gold = [("NAME", a, b, "PATIENT"), ("NAME", a, b + 3, "PATIENT")]  # ends 3 apart: both kept
    system = [("NAME", a, b + 2, "PATIENT"), ("NAME", a, b + 1, "PATIENT")]  # 1 apart: collapse to the first
    run = _probe(tmp_path, text, gold, system)
    assert _doc_counts(run, "Strict") == (0, 2, 2)
    assert _doc_counts(run, "Relaxed") == (1, 0, 0)  # printed [1(1)1]
    assert _doc_counts(run, "Token") == (1, 2, 2)  # [3(1)3]: "Smithson" vs "Smith" / "Smiths"...


def test_relaxed_counts_iterate_over_the_smaller_set() -> None:
    key = ("NAME", "1", "PATIENT")
    # gold {10, 14}, system {12}: the system item partners both gold items
    assert relaxed_counts([(key, 10), (key, 14)], [(key, 12)]) == (1, 0, 0)
    # equal sizes: counted over the system set
    assert relaxed_counts([(key, 10), (key, 20)], [(key, 12), (key, 30)]) == (1, 1, 1)


def test_offsets_are_strings_in_strict_and_ints_in_tokens_and_type_case(tmp_path: Path) -> None:
    text = "\nSeen 2069 by Amy Lee and Bob Ray; id 99887\n"
    d, n, m, i = at(text, "2069"), at(text, "Amy Lee"), at(text, "Bob Ray"), at(text, "99887")
    gold = [("DATE", *d, "DATE"), ("NAME", *n, "PATIENT"), ("NAME", *m, "DOCTOR"), ("ID", *i, "IDNUM")]
    system = [
        ("DATE", "0" + str(d[0]), d[1], "DATE"),  # start="06": not strict-equal to "6"
        ("NAME", *n, "patient"),  # strict ignores TYPE case, tokens and HIPAA do not
        ("NAME", *m, "DOCTOR"),
        ("ID", *i, "IDNUM"),
    ]
    run = _probe(tmp_path, text, gold, system)
    assert _doc_counts(run, "Strict") == (3, 1, 1)
    assert _doc_counts(run, "Relaxed") == (3, 1, 1)
    assert _doc_counts(run, "Token") == (4, 2, 2)  # the date token matches, "patient" tokens do not
    # HIPAA keeps DATE and NAME/PATIENT on gold; only the (string-different) DATE on the system side
    assert _doc_counts(run, "HIPAA Strict") == (0, 1, 2)
    assert _doc_counts(run, "HIPPA Token") == (1, 0, 2)


def test_hipaa_filter_is_prefix_case_sensitive_and_skips_idnum() -> None:
    assert hipaa_match("NAME", "PATIENT")
    assert not hipaa_match("NAME", "patient")
    assert not hipaa_match("NAME", "DOCTOR")
    assert not hipaa_match("ID", "IDNUM")
    assert hipaa_match("ID", "MEDICALRECORD")
    assert hipaa_match("DATE", "")
    assert hipaa_match("LOCATION", "CITYWIDE")  # prefix match


def test_punctuation_only_tag_is_one_empty_token_and_tokens_are_ascii(tmp_path: Path) -> None:
    text = "\nJosé - Müller\n"
    dash = at(text, "-")
    name = at(text, "José")
    gold = [("OTHER", *dash, "OTHER"), ("NAME", *name, "PATIENT")]
    system = [("OTHER", dash[1], dash[1], "OTHER"), ("NAME", name[0], name[0] + 3, "PATIENT")]
    run = _probe(tmp_path, text, gold, system)
    # "-" gives one empty token at its end, equal to the empty system tag there;
    # "José" tokenises as "Jos" (ASCII only), so "Jos" matches too
    assert _doc_counts(run, "Token") == (2, 0, 0)


def test_empty_documents_score_zero_in_macro_and_nan_f1(tmp_path: Path) -> None:
    run = _probe(tmp_path, "\nnothing here\n", [], [])
    assert _printed(run, "Strict") == ["0.0 (0.0)", "0.0", "0.0 (0.0)", "0.0", "nan", "0.0"]


def test_no_common_documents_prints_zero_documents(tmp_path: Path) -> None:
    write_doc(tmp_path / "g", "300-01.xml", "\nx\n", [])
    write_doc(tmp_path / "s", "300-02.xml", "\nx\n", [])
    run = evaluate_official_folders(tmp_path / "g", tmp_path / "s")[0]
    assert _printed(run, "Strict") == ["nan (nan)", "0.0", "nan (nan)", "0.0", "nan", "0.0"]
    assert format_table(run.table("Strict")).startswith("Strict (0) ")


def test_system_suffixes_are_separate_runs(tmp_path: Path) -> None:
    text = "\nSeen 2069\n"
    write_doc(tmp_path / "g", "300-01.xml", text, [("DATE", *at(text, "2069"), "DATE")])
    write_doc(tmp_path / "s", "300-01runA.xml", text, [("DATE", *at(text, "2069"), "DATE")])
    write_doc(tmp_path / "s", "300-01runB.xml", text, [])
    runs = evaluate_official_folders(tmp_path / "g", tmp_path / "s")
    assert [run.sys_id for run in runs] == ["runA", "runB"]
    assert runs[0].tables[1].label == "runA Strict"
    assert math.isclose(runs[0].table("runA Strict").scores()["micro_f1"], 1.0)


def test_ids_come_from_the_file_name() -> None:
    assert official_ids("/x/110-01.xml") == ("110-01", "")
    assert official_ids("300-01runA.xml") == ("300-01", "runA")
    assert official_ids("notes.xml") == ("notes-", "")


def test_text_mismatch_aborts_with_the_document_named(tmp_path: Path) -> None:
    write_doc(tmp_path / "g", "300-01.xml", "\nabc\n", [])
    write_doc(tmp_path / "s", "300-01.xml", "\nabd\n", [])
    with pytest.raises(TextMismatchError, match="300-01"):
        evaluate_official_folders(tmp_path / "g", tmp_path / "s")


def test_non_integer_offset_is_a_one_line_error(tmp_path: Path) -> None:
    write_doc(tmp_path / "g", "300-01.xml", "\nabc\n", [("DATE", "x", "2", "DATE")])
    write_doc(tmp_path / "s", "300-01.xml", "\nabc\n", [])
    with pytest.raises(InputError, match="300-01"):
        evaluate_official_folders(tmp_path / "g", tmp_path / "s")


def test_relaxed_survivors_depend_on_parse_order(tmp_path: Path) -> None:
    text = "\nJohn Smithsonian was here\n"
    a, _ = at(text, "John")
    gold = [("NAME", a, a + 12, "PATIENT"), ("NAME", a, a + 16, "PATIENT")]
    # ends 12, 10, 14 in file order: 12 is kept first and swallows both others
    first = _probe(tmp_path / "one", text, gold, [("NAME", a, a + e, "PATIENT") for e in (12, 10, 14)])
    assert _doc_counts(first, "Relaxed") == (1, 0, 1)
    # ends 10, 14, 12: 10 and 14 are 4 apart, both kept (12 collapses) and together cover both gold ends
    second = _probe(tmp_path / "two", text, gold, [("NAME", a, a + e, "PATIENT") for e in (10, 14, 12)])
    assert _doc_counts(second, "Relaxed") == (2, 0, 0)


def test_hipaa_key_passes_when_any_item_with_that_key_passes(tmp_path: Path) -> None:
    text = "\nJohn Smith\n"
    span = at(text, "John Smith")
    gold = [("NAME", *span, "PATIENT")]
    # "patient" and "PATIENT" share one strict key; only the upper-case one passes HIPAA
    system = [("NAME", *span, "patient"), ("NAME", *span, "PATIENT")]
    run = _probe(tmp_path, text, gold, system)
    assert _doc_counts(run, "Strict") == (1, 0, 0)
    assert _doc_counts(run, "HIPAA Strict") == (1, 0, 0)
    assert _doc_counts(run, "Token") == (2, 2, 0)  # the token key keeps TYPE as written
