"""Reports of an :class:`EvaluationResult`: rows for tables, CSV, JSON and a self-contained HTML page.

PHI text is left out unless ``include_text`` is set; then every report says so at the top.
The HTML page has inline CSS and its charts (per-type F1 bars, confusion heatmap) embedded
as base64 PNG made with matplotlib (Agg backend, imported only when a page is written).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path

from annotator.core.atomic import atomic_write_text
from annotator.errors import printable_json
from annotator.evaluation.counts import Counts, score_text
from annotator.evaluation.engine import NONE_LABEL, DocumentResult, EvaluationResult
from annotator.io.csv_cells import inert_cell

TEXT_WARNING = (
    "This report CONTAINS PHI TEXT (--include-text was given). Handle it like the notes themselves."
)
NO_TEXT_NOTE = "PHI text is left out of this report: items are given by category, type and offsets only."
SCORE_HEADERS = ("tp", "fp", "fn", "precision", "recall", "f1")


def counts_row(name: str, counts: Counts, beta: float = 1.0) -> list[str]:
    row = [name, str(counts.tp), str(counts.fp), str(counts.fn)]
    row += [score_text(counts.precision), score_text(counts.recall), score_text(counts.f1)]
    if beta != 1.0:
        row.append(score_text(counts.f_beta(beta)))
    return row


def score_headers(beta: float = 1.0) -> list[str]:
    headers = list(SCORE_HEADERS)
    if beta != 1.0:
        # "f1e+200" would read as F1: a beta in exponent form is spelt out.
        headers.append(f"f{beta:g}" if "e" not in f"{beta:g}" else f"f(beta={beta:g})")
    return headers


def summary_rows(result: EvaluationResult) -> list[list[str]]:
    """Rows (scope, name, tp, fp, fn, P, R, F1[, Fb]) for micro, macro, categories and types."""
    beta = result.options.beta
    rows = [["micro", *counts_row("all", result.micro, beta)]]
    macro = result.macro()
    macro_row = [
        "macro",
        "all",
        "",
        "",
        "",
        score_text(macro["precision"]),
        score_text(macro["recall"]),
        score_text(macro["f1"]),
    ]
    if beta != 1.0:
        macro_row.append(score_text(macro["f_beta"]))
    rows.append(macro_row)
    rows += [["category", *counts_row(name, c, beta)] for name, c in result.per_category.items()]
    rows += [["type", *counts_row(name, c, beta)] for name, c in result.per_type.items()]
    return rows


def worst_first(result: EvaluationResult) -> list[DocumentResult]:
    """Documents by F1, lowest first (undefined F1 last: nothing there to get wrong), then by
    their number of errors, so the documents that need a look head every report."""

    def key(document: DocumentResult) -> tuple[bool, float, int, str]:
        counts = document.counts
        f1 = counts.f1
        return (math.isnan(f1), 0.0 if math.isnan(f1) else f1, -(counts.fp + counts.fn), document.doc_id)

    return sorted(result.documents, key=key)


def document_rows(result: EvaluationResult) -> list[list[str]]:
    """One row per document, worst first (see :func:`worst_first`)."""
    beta = result.options.beta
    rows = []
    for document in worst_first(result):
        note = ""
        if not document.predicted_present:
            note = "no predicted file"
        elif not document.reference_present:
            note = "no reference file"
        rows.append([*counts_row(document.doc_id, document.counts, beta), note])
    return rows


def write_json(result: EvaluationResult, path: str | Path | None, include_text: bool = False) -> str:
    data = result.to_dict(include_text=include_text)
    if include_text:
        data = {"warning": TEXT_WARNING, **data}
    text = printable_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    if path is not None:
        atomic_write_text(path, text)
    return text


def write_csv(result: EvaluationResult, path: str | Path | None, include_text: bool = False) -> str:
    """One CSV with a ``scope`` column: micro, macro, category, type and document rows.

    It holds scores only, never an item or its text, so ``include_text`` changes nothing: a
    warning that it holds PHI text would be false (and teach readers to ignore the warning).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["scope", "name", *score_headers(result.options.beta)])
    for scope, name, *scores in summary_rows(result):
        writer.writerow([scope, inert_cell(name), *scores])  # a label is the files' TYPE text
    for name, *scores in document_rows(result):
        writer.writerow(["document", inert_cell(name), *scores[:-1]])
    text = buffer.getvalue()
    if path is not None:
        atomic_write_text(path, text)
    return text


# -- HTML -----------------------------------------------------------------------------------
REPORT_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2em;color:#222;max-width:70em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
.scroll{max-width:100%;overflow-x:auto;margin:.5em 0}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f0f0f0}
.warning{background:#fde0dc;border:2px solid #d55e00;padding:.8em;font-weight:bold}
.note{background:#eef5fb;border:1px solid #56b4e9;padding:.6em}
img{max-width:100%;height:auto}
"""


def html_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    # Each table scrolls inside its own box: a 32-column confusion table never widens the page.
    return f"<div class='scroll'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def _png(figure: object) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")  # type: ignore[attr-defined]
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _charts(result: EvaluationResult) -> tuple[str | None, str | None]:
    # A bare Figure renders through Agg without touching pyplot's global backend, so this
    # is safe inside the Qt application too.
    from matplotlib.figure import Figure

    bars = None
    per = result.per_type or result.per_category or result.per_label
    if per:
        names = list(per)
        values = [0.0 if math.isnan(c.f1) else c.f1 for c in per.values()]
        figure = Figure(figsize=(7, max(2.0, 0.28 * len(names) + 0.8)))
        axes = figure.subplots()
        axes.barh(names[::-1], values[::-1], color="#0072B2")
        axes.set_xlim(0, 1)
        axes.set_xlabel("F1")
        axes.set_title(f"F1 per {'type' if result.per_type else 'category'} ({result.options.match})")
        bars = _png(figure)
    heat = None
    labels = result.confusion.rows()
    if len(labels) > 1:
        import numpy as np

        matrix = np.array([[result.confusion.count(r, c) for c in labels] for r in labels], dtype=float)
        size = max(4.0, 0.4 * len(labels) + 2)
        figure = Figure(figsize=(size, size))
        axes = figure.subplots()
        image = axes.imshow(np.log1p(matrix), cmap="viridis")
        axes.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
        axes.set_yticks(range(len(labels)), labels, fontsize=7)
        axes.set_xlabel("predicted")
        axes.set_ylabel("reference")
        axes.set_title("Type confusion (overlapping items; colour = log(1 + count))")
        figure.colorbar(image, ax=axes, shrink=0.7)
        heat = _png(figure)
    return bars, heat


def provenance_html(compared: Sequence[tuple[str, str]], generated: str) -> str:
    """``<p>Compared: reference gold/ ...; generated 2026-03-01 09:30 UTC</p>`` (empty without either)."""
    parts = []
    if compared:
        parts.append(
            "Compared: "
            + "; ".join(f"{html.escape(role)} <b>{html.escape(what)}</b>" for role, what in compared)
        )
    if generated:
        parts.append(f"generated {html.escape(generated)}")
    return f"<p class='note'>{'. '.join(parts)}.</p>" if parts else ""


def render_html(
    result: EvaluationResult,
    title: str = "PHI evaluation report",
    include_text: bool = False,
    max_disagreements: int = 2000,
    compared: Sequence[tuple[str, str]] = (),
    generated: str = "",
) -> str:
    """A self-contained HTML page (inline CSS, charts as base64 PNG).

    ``compared`` names what was compared (``("reference", "gold/")`` ...) and ``generated``
    when, both shown under the title so a figure can be traced to its files.
    """
    beta = result.options.beta
    options = result.options
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{REPORT_CSS}</style></head><body>",
    ]
    if include_text:
        parts.append(f"<p class='warning'>{html.escape(TEXT_WARNING)}</p>")
    else:
        parts.append(f"<p class='note'>{html.escape(NO_TEXT_NOTE)}</p>")
    parts.append(f"<h1>{html.escape(title)}</h1>")
    parts.append(provenance_html(compared, generated))
    parts.append(
        f"<p>Match: <b>{options.match}</b>, level: <b>{options.level}</b>, documents: <b>{len(result.documents)}</b>"
        + (f", F-beta with beta = {beta:g}" if beta != 1.0 else "")
        + "</p>"
    )
    if result.skipped:
        parts.append("<p>Skipped: " + html.escape("; ".join(result.skipped)) + "</p>")
    parts.append("<h2>Summary</h2>")
    parts.append(html_table(["scope", "name", *score_headers(beta)], summary_rows(result)))
    kappa = result.kappa_labelled.kappa
    blind = result.kappa_tagblind.kappa
    parts.append(
        f"<p>Cohen's kappa on {result.kappa_labelled.tokens} tokens (non-PHI tokens included): "
        f"labelled {score_text(kappa)}, tag-blind {score_text(blind)}. F1 is the primary measure for span annotation.</p>"
    )
    bars, heat = _charts(result)
    if bars:
        parts.append(f"<h2>F1 per label</h2><img alt='F1 per label' src='data:image/png;base64,{bars}'>")
    if heat:
        parts.append(
            f"<h2>Type confusion</h2><img alt='confusion heatmap' src='data:image/png;base64,{heat}'>"
        )
        labels = result.confusion.rows()
        rows = [[r, *[result.confusion.count(r, c) for c in labels]] for r in labels]
        parts.append(html_table(["reference \\ predicted", *labels], rows))
    parts.append("<h2>Per document</h2>")
    parts.append(html_table(["document", *score_headers(beta), "note"], document_rows(result)))
    parts.append("<h2>Disagreements</h2>")
    shown = result.disagreements[:max_disagreements]
    if len(result.disagreements) > len(shown):
        parts.append(f"<p>First {len(shown)} of {len(result.disagreements)}.</p>")
    headers = ["document", "kind", "reference", "predicted"]
    rows = []
    for d in shown:
        cells = []
        for item in (d.reference, d.predicted):
            if item is None:
                cells.append("")
            else:
                text = f" \u201c{item.text}\u201d" if include_text else ""
                cells.append(f"{item.category}/{item.type} {item.start}-{item.end}{text}")
        rows.append([d.doc_id, d.kind, *cells])
    parts.append(html_table(headers, rows))
    parts.append("</body></html>\n")
    return "".join(parts)


def write_html(
    result: EvaluationResult,
    path: str | Path,
    title: str = "PHI evaluation report",
    include_text: bool = False,
) -> None:
    atomic_write_text(path, render_html(result, title, include_text))


__all__ = [
    "NONE_LABEL",
    "TEXT_WARNING",
    "document_rows",
    "render_html",
    "summary_rows",
    "write_csv",
    "write_html",
    "write_json",
]
