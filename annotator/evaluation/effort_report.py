"""The effort report's tables, for the terminal, the dashboard tab and a self-contained HTML page.

All three faces show the same rows, built here from the report dict of
:func:`annotator.workflows.effort.effort_report`: one summary row per annotator, the fate of
the suggestions per PHI type, agreement by origin, and documents with against without
suggestions (means with 95% bootstrap intervals by document).
"""

from __future__ import annotations

import html
from typing import Any

from annotator.evaluation.report import REPORT_CSS, html_table

SUMMARY_HEADERS = [
    "annotator",
    "documents",
    "with suggestions",
    "tags",
    "active time",
    "s / document",
    "s / 1,000 chars",
    "s / tag",
]
FATE_HEADERS = [
    "annotator",
    "type",
    "shown",
    "accepted",
    "changed",
    "boundary",
    "type changed",
    "rejected",
    "unreviewed",
    "by hand",
    "missed by model",
]
AGREEMENT_HEADERS = ["annotator", "compared with", "kept suggestions", "hand-made tags"]
COMPARISON_HEADERS = ["annotator", "measure", "with suggestions", "without suggestions", "difference"]
NO_TEXT = "No note text is in this report: documents are named by id, tags by type and counts."


def _number(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{rest:02d}"


def _everyone(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = list(report["annotators"])
    if report.get("all_annotators") and len(rows) > 1:
        rows.append(report["all_annotators"])
    return rows


def summary_rows(report: dict[str, Any]) -> list[list[str]]:
    return [
        [
            a["annotator"],
            str(a["documents"]),
            str(a["documents_with_suggestions"]),
            str(a["tags"]),
            _duration(a["seconds"]),
            _number(a["seconds_per_document"]),
            _number(a["seconds_per_1000_characters"]),
            _number(a["seconds_per_tag"]),
        ]
        for a in _everyone(report)
    ]


def fate_rows(report: dict[str, Any]) -> list[list[str]]:
    rows = []
    for a in _everyone(report):
        s = a["suggestions"]
        rows.append(
            [
                a["annotator"],
                "all types",
                *(
                    str(v)
                    for v in (
                        s["shown"],
                        s["accepted"],
                        s["changed"],
                        s["changed_boundary"],
                        s["changed_type"],
                        s["rejected"],
                        s["unreviewed"],
                        a["hand_made"],
                        a["missed_by_model"],
                    )
                ),
            ]
        )
        for t in a["by_type"]:
            rows.append(
                [
                    "",
                    t["type"],
                    *(
                        str(t[k])
                        for k in (
                            "shown",
                            "accepted",
                            "changed",
                            "changed_boundary",
                            "changed_type",
                            "rejected",
                            "unreviewed",
                            "hand_made",
                            "missed_by_model",
                        )
                    ),
                ]
            )
    return rows


def _share(entry: dict[str, Any]) -> str:
    if not entry["total"]:
        return "–"
    return f"{100 * entry['rate']:.1f}% ({entry['matched']}/{entry['total']})"


def agreement_rows(report: dict[str, Any]) -> list[list[str]]:
    rows = []
    for a in _everyone(report):
        for reference, label in (("gold", "gold"), ("other_annotators", "other annotators")):
            entry = a["agreement"][reference]
            rows.append([a["annotator"], label, _share(entry["suggestion"]), _share(entry["hand"])])
    return rows


def _mean(group: dict[str, Any], digits: int) -> str:
    if group.get("mean") is None:
        return "–"
    text = _number(group["mean"], digits)
    interval = group.get("interval")
    return f"{text} [{_number(interval[0], digits)}, {_number(interval[1], digits)}]" if interval else text


def comparison_rows(report: dict[str, Any]) -> list[list[str]]:
    rows = []
    for a in _everyone(report):
        for measure, label, digits in (
            ("seconds_per_1000_characters", "s / 1,000 chars", 1),
            ("gold_f1", "F1 against gold", 3),
        ):
            entry = a["with_and_without_suggestions"][measure]
            with_, without = entry["with_suggestions"], entry["without_suggestions"]
            rows.append(
                [
                    a["annotator"],
                    label,
                    f"{_mean(with_, digits)} (n={with_['documents']})",
                    f"{_mean(without, digits)} (n={without['documents']})",
                    _mean(entry["difference"], digits),
                ]
            )
    return rows


def effort_tables(report: dict[str, Any]) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """``(name, title, headers, rows)`` of the four tables, in the order every face shows them."""
    return [
        ("time", "Active time", SUMMARY_HEADERS, summary_rows(report)),
        ("fates", "What became of the suggestions, per PHI type", FATE_HEADERS, fate_rows(report)),
        (
            "agreement",
            "Agreement by origin (share found in the other version)",
            AGREEMENT_HEADERS,
            agreement_rows(report),
        ),
        (
            "comparison",
            "Documents with and without suggestions (mean [95% bootstrap interval])",
            COMPARISON_HEADERS,
            comparison_rows(report),
        ),
    ]


def render_effort_html(report: dict[str, Any]) -> str:
    """A self-contained page: the four tables, what they count, and how the intervals were drawn."""
    title = f"What pre-annotation did — {report['project']}"
    boot = report["bootstrap"]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{REPORT_CSS}</style></head><body>",
        f"<p class='note'>{html.escape(NO_TEXT)}</p>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Generated {html.escape(report['generated'])} from the kept edit histories "
        f"(.annotator/history/) and the active time the window counted.</p>",
    ]
    if not report["annotators"]:
        parts.append("<p>No edit histories yet: they are kept from the first edit made in the window.</p>")
    else:
        parts += [
            "<h2>Time</h2>",
            html_table(SUMMARY_HEADERS, summary_rows(report)),
            "<h2>What became of the suggestions</h2>",
            "<p><i>Changed</i> counts a suggestion kept with other offsets (<i>boundary</i>) or another "
            "type; <i>by hand</i> counts tags the annotator made, <i>missed by model</i> those of them "
            "no suggestion overlapped, in documents where suggestions were shown.</p>",
            html_table(FATE_HEADERS, fate_rows(report)),
            "<h2>Agreement by origin</h2>",
            "<p>The share of an annotator's tags found with the same type and offsets in the other "
            "version.</p>",
            html_table(AGREEMENT_HEADERS, agreement_rows(report)),
            "<h2>Documents with and without suggestions</h2>",
            f"<p>Means over documents with 95% percentile bootstrap intervals ({boot['resamples']} "
            f"resamples of documents, seed {boot['seed']}); the difference is with minus without.</p>",
            html_table(COMPARISON_HEADERS, comparison_rows(report)),
        ]
    if report.get("unreadable_histories"):
        left_out = "; ".join(report["unreadable_histories"])
        parts.append(f"<p class='warning'>Left out, unreadable histories: {html.escape(left_out)}</p>")
    parts.append("</body></html>\n")
    return "".join(parts)
