"""Reports of an :class:`AgreementReport`: per-category rows and a self-contained HTML page.

The terminal (``annotator iaa``) and the HTML page show the same tables: pairwise micro
scores, the F1 matrix, F1 per category for every pair, and per pair its documents worst first.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from annotator.evaluation.bootstrap import RESAMPLES
from annotator.evaluation.counts import score_text
from annotator.evaluation.iaa import AgreementReport, PairAgreement
from annotator.evaluation.report import REPORT_CSS, document_rows, html_table, provenance_html, score_headers


def pair_name(item: PairAgreement) -> str:
    return f"{item.reference} vs {item.predicted}"


def report_pairs(report: AgreementReport) -> list[PairAgreement]:
    """The annotator pairs, then each annotator against gold."""
    return [*report.pairs, *report.versus_gold]


def categories(report: AgreementReport) -> list[str]:
    """Every category any pair saw, in first-seen order."""
    seen: dict[str, None] = {}
    for item in report_pairs(report):
        seen.update(dict.fromkeys(item.result.per_category))
    return list(seen)


def per_category_f1_rows(report: AgreementReport) -> tuple[list[str], list[list[str]]]:
    """Headers and rows: one row per pair, its micro F1 in each category (n/a when undefined)."""
    names = categories(report)
    rows = []
    for item in report_pairs(report):
        per = item.result.per_category
        rows.append(
            [pair_name(item), *(score_text(per[n].f1) if n in per else score_text(None) for n in names)]
        )
    return ["pair", *names], rows


def pair_headers(beta: float) -> list[str]:
    """The columns of :func:`pair_rows`'s table."""
    headers = ["reference", "predicted", "docs", "tp", "fp", "fn", "precision", "recall", "f1"]
    # The F1's 95% interval, resampling documents (evaluation.bootstrap).
    headers += ["f1 low", "f1 high", "kappa"]
    if beta != 1.0:
        # "f1e+200" would read as F1: a beta in exponent form is spelt out.
        headers.append(f"f{beta:g}" if "e" not in f"{beta:g}" else f"f(beta={beta:g})")
    return headers


def pair_rows(report: AgreementReport) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the pairwise micro scores (and token kappa)."""
    beta = report.options.beta
    headers = pair_headers(beta)
    rows = []
    for item in report_pairs(report):
        micro = item.result.micro
        row = [item.reference, item.predicted, str(len(item.result.documents)), str(micro.tp), str(micro.fp)]
        row += [str(micro.fn), score_text(micro.precision), score_text(micro.recall), score_text(micro.f1)]
        interval = item.f1_interval
        row += [score_text(interval[0]), score_text(interval[1])] if interval else [score_text(None)] * 2
        row.append(score_text(item.result.kappa_labelled.kappa))
        if beta != 1.0:
            row.append(score_text(micro.f_beta(beta)))
        rows.append(row)
    return headers, rows


INTERVAL_NOTE = (
    f"f1 low and high: the 95% interval of F1, {RESAMPLES:,} bootstrap resamples of the documents "
    "(the unit sampled, since tags within a note are not independent)."
)


def average_text(report: AgreementReport) -> str:
    """The annotators' mean scores against gold, as one line ("precision 0.9345, ...")."""
    return ", ".join(f"{key} {score_text(value)}" for key, value in report.average_versus_gold().items())


def average_rows(report: AgreementReport) -> list[list[str]]:
    """The averages as rows of :func:`pair_rows`'s table: the pairwise F1, and (with gold) the
    annotators' mean P, R, F1 against it; counts and kappa left blank."""
    width = len(pair_headers(report.options.beta))
    pairwise = ["average pairwise", "", *[""] * 6, score_text(report.average_pairwise_f1())]
    rows = [pairwise + [""] * (width - len(pairwise))]
    average = report.average_versus_gold()
    if average:
        row = ["gold", "average of annotators", "", "", "", ""]
        row += [
            score_text(average["precision"]),
            score_text(average["recall"]),
            score_text(average["f1"]),
            "",
            "",
            "",
        ]
        if "f_beta" in average:
            row.append(score_text(average["f_beta"]))
        rows.append(row)
    return rows


def render_iaa_html(
    report: AgreementReport,
    title: str = "Inter-annotator agreement",
    compared: Sequence[tuple[str, str]] = (),
    generated: str = "",
) -> str:
    """A self-contained page: no PHI text (items are never listed), tables that fit 1,280 px.

    ``compared`` names each side's folder (``("alice", "annotations/alice")``, ``("gold", ...)``)
    and ``generated`` when the page was made.
    """
    options = report.options
    names = report.annotators
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{REPORT_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        provenance_html(compared, generated),
        f"<p>Match: <b>{options.match}</b>, level: <b>{options.level}</b>, annotators: "
        f"<b>{html.escape(', '.join(names))}</b>. F1 is the primary agreement measure for spans; "
        "kappa counts every token, PHI or not.</p>",
        "<h2>Pairwise agreement</h2>",
        html_table(*pair_rows(report)),
        f"<p>{html.escape(INTERVAL_NOTE)}</p>",
        "<h2>F1 matrix (symmetric)</h2>",
        html_table(
            ["", *names],
            [[name, *(score_text(v) for v in row)] for name, row in zip(names, report.matrix(), strict=True)],
        ),
        f"<p>Average pairwise F1: {score_text(report.average_pairwise_f1())}</p>",
        *(
            [f"<p>Average of annotators vs gold: {html.escape(average_text(report))}</p>"]
            if report.versus_gold
            else []
        ),
        "<h2>F1 per category</h2>",
        html_table(*per_category_f1_rows(report)),
    ]
    for item in report_pairs(report):
        parts.append(f"<h2>Per document: {html.escape(pair_name(item))} (worst first)</h2>")
        headers = ["document", *score_headers(options.beta), "note"]
        parts.append(html_table(headers, document_rows(item.result)))
    parts.append("</body></html>\n")
    return "".join(parts)
