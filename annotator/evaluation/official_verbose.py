"""The official i2b2 2014 script's ``-v`` output: one block of per-document rows per table.

The script lists the documents of a table in the order of
``list(set(system_ids) & set(gold_ids))`` under Python 2.7, that is in the slot order of
CPython 2.7's hash tables. To print the same bytes we replay those tables: Python 2's
string hash (hash randomisation is off by default in 2.7), the open-addressing probe and
the resize rule that ``dict`` and ``set`` share, the dict-then-set copies the script makes,
and ``set.__and__`` walking the smaller set. The script fills its dicts in ``os.listdir``
order, so we take the folders' listing order too; it only matters when two ids collide.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from annotator.errors import printable_path
from annotator.evaluation.official import (
    OfficialRun,
    OfficialTable,
    format_number,
    format_table,
    official_ids,
    pad_bytes,
)

_MASK64 = (1 << 64) - 1
_MIN_SIZE = 8  # PyDict_MINSIZE and PySet_MINSIZE
_PERTURB_SHIFT = 5
_RULE = "-" * 75
_ROW = "{:<25}{:<15}{:<15}{:<20}"


def py2_str_hash(data: bytes) -> int:
    """CPython 2.7's hash of a byte string, as the unsigned 64-bit value its tables probe with."""
    if not data:
        return 0
    value = data[0] << 7
    for byte in data:
        value = ((1000003 * value) ^ byte) & _MASK64
    value ^= len(data)
    if value == _MASK64:  # -1 is reserved for errors; CPython uses -2
        value = _MASK64 - 1
    return value


def _insert(slots: list[tuple[str, int] | None], key: str, hashed: int) -> None:
    mask = len(slots) - 1
    index = hashed & mask
    perturb = hashed
    while slots[index] is not None:
        index = ((index << 2) + index + perturb + 1) & mask
        perturb >>= _PERTURB_SHIFT
    slots[index] = (key, hashed)


def py2_table_order(keys: Iterable[str]) -> list[str]:
    """The iteration order of a Python 2.7 dict or set filled with ``keys`` in this order."""
    slots: list[tuple[str, int] | None] = [None] * _MIN_SIZE
    used = 0
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        _insert(slots, key, py2_str_hash(key.encode("utf-8", "surrogateescape")))
        used += 1
        # No deletions here, so "fill" (live + dummy slots) equals "used".
        if used * 3 >= len(slots) * 2:
            size = _MIN_SIZE
            while size <= used * (2 if used > 50000 else 4):
                size <<= 1
            old, slots = slots, [None] * size
            for entry in old:
                if entry is not None:
                    _insert(slots, *entry)
    return [entry[0] for entry in slots if entry is not None]


def official_document_order(gold_ids: Sequence[str], system_ids: Sequence[str]) -> list[str]:
    """``list(set(s.keys()) & set(g.keys()))`` of the script, ids given in listing order."""
    gold = py2_table_order(py2_table_order(gold_ids))
    system = py2_table_order(py2_table_order(system_ids))
    # set.__and__ walks the smaller set (the right operand, gold, on a tie).
    walked, other = (system, set(gold)) if len(gold) > len(system) else (gold, set(system))
    return py2_table_order(key for key in walked if key in other)


def _listed(folder: Path) -> list[str]:
    """The ``*xml`` names of a folder in ``os.listdir`` order, as the script reads them."""
    return [n for n in os.listdir(folder) if n.endswith("xml")]


def format_document_block(table: OfficialTable, order: Sequence[str]) -> str:
    """``Report for LABEL:`` and three rows per document, byte for byte as the script prints."""
    position = {doc_id: index for index, doc_id in enumerate(table.doc_ids)}
    # Ids and labels come from file names: escaped, so a name cannot forge a line or clear the screen.
    label = printable_path(table.label)
    lines = [f"Report for {label}:", _ROW.format("", "Measure", "", "Micro (Primary)"), _RULE]
    for doc_id in order:
        index = position[doc_id]
        tp, fp, fn = table.tp[index], table.fp[index], table.fn[index]
        precision = tp / float(tp + fp) if tp + fp else 0.0
        recall = tp / float(tp + fn) if tp + fn else 0.0
        f1 = 2 * ((precision * recall) / (precision + recall)) if precision + recall else 0.0
        lines.append(
            pad_bytes(printable_path(doc_id), 25)
            + _ROW.format("", "Precision", "", format_number(precision, 4))[25:]
        )
        lines.append(_ROW.format(f"[{tp + fn}({tp}){tp + fp}]", "Recall", "", format_number(recall, 4)))
        lines.append(_ROW.format("", "F1", "", format_number(f1, 4)))
        lines.append(_RULE)
    return "\n".join(lines) + "\n"


def verbose_orders(runs: Sequence[OfficialRun]) -> dict[str, list[str]]:
    """For each run (by ``sys_id``), its documents in the order the script's ``-v`` lists them
    (:func:`annotator.evaluation.official.score_official` keeps its tables in that order)."""
    return {run.sys_id: list(run.tables[0].doc_ids) if run.tables else [] for run in runs}


def in_script_order(system_dir: Path, runs: Sequence[OfficialRun]) -> list[OfficialRun]:
    """The runs in the order the script prints them: its dict of ``sys_id`` (filled in
    ``os.listdir`` order) iterated under Python 2.7."""
    by_id = {run.sys_id: run for run in runs}
    first_seen = [official_ids(name)[1] for name in _listed(Path(system_dir))]
    return [by_id[sys_id] for sys_id in py2_table_order(first_seen) if sys_id in by_id]


def format_runs_verbose(runs: Sequence[OfficialRun], orders: dict[str, list[str]]) -> str:
    """The script's whole ``-v`` stdout: each table's document block, then its summary."""
    return "".join(
        format_document_block(table, orders[run.sys_id]) + format_table(table) + "\n"
        for run in runs
        for table in run.tables
    )


def format_documents_only(runs: Sequence[OfficialRun], orders: dict[str, list[str]]) -> str:
    """The script's stdout when given two files: each table's document block, no summaries."""
    return "".join(format_document_block(table, orders[run.sys_id]) for run in runs for table in run.tables)
