"""The side panel: each annotator's version of the current unit, with their comments."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QTextBrowser, QWidget

from annotator.adjudication.decisions import AdjudicationSession, DecisionKind
from annotator.adjudication.units import Unit, UnitKind
from annotator.core.annotation import Annotation

KIND_TITLES = {
    UnitKind.AGREEMENT: "Agreement",
    UnitKind.TYPE_CONFLICT: "Type conflict",
    UnitKind.BOUNDARY_CONFLICT: "Boundary conflict",
    UnitKind.PARTIAL: "Only in some versions",
    UnitKind.MISSED_CANDIDATE: "Possible missed PHI",
}
KEY_HELP = (
    "<b>J</b>/<b>N</b> next · <b>K</b>/<b>P</b> previous unresolved · <b>1</b>–<b>{n}</b> take version · "
    "<b>B</b> both/all · <b>X</b> neither/dismiss · <b>A</b> accept candidate · <b>E</b> edit · "
    "<b>U</b>/Ctrl+Z undo · <b>F</b> finalise · <b>V</b> versions side by side · Ctrl+S save · "
    "Alt+↓/↑ next/previous document"
)


def key_help(session: AdjudicationSession) -> str:
    """The keys, with as many version numbers as there are versions."""
    return KEY_HELP.format(n=min(max(session.key_numbers, default=1), 9))


@dataclass(frozen=True)
class PanelColours:
    """The panel's colours, taken from the theme's palette: fixed colours (a pale grey box,
    grey help) made the tagged text white on near-white and the help unreadable when dark."""

    chip: str  # background of a version's tagged text
    chip_text: str
    dim: str  # the key help: text blended 70 % into the page, readable in either theme

    @classmethod
    def from_palette(cls, palette: QPalette) -> PanelColours:
        role = QPalette.ColorRole
        text, base = palette.color(role.Text), palette.color(role.Base)
        dim = QColor.fromRgbF(
            0.7 * text.redF() + 0.3 * base.redF(),
            0.7 * text.greenF() + 0.3 * base.greenF(),
            0.7 * text.blueF() + 0.3 * base.blueF(),
        )
        return cls(palette.color(role.Button).name(), palette.color(role.ButtonText).name(), dim.name())


def _tag_line(annotation: Annotation, colours: PanelColours) -> str:
    line = (
        f"<b>{escape(annotation.tag)}/{escape(annotation.type)}</b> {annotation.start}–{annotation.end} "
        f"<span style='background:{colours.chip}; color:{colours.chip_text}'>{escape(annotation.text)}</span>"
    )
    if annotation.comment:
        line += f"<br><i>comment: {escape(annotation.comment)}</i>"
    return line


def unit_html(session: AdjudicationSession, unit: Unit | None, colours: PanelColours) -> str:
    """HTML describing a unit: kind, versions (numbered as their keys), decision."""
    if unit is None:
        done, total = session.progress()
        state = "finalised" if session.finalised else f"{done}/{total} units decided"
        return f"<h3>{escape(session.doc_id)}</h3><p>No unresolved unit left ({state}).</p><p>{key_help(session)}</p>"
    parts = [f"<h3>{KIND_TITLES[unit.kind]}</h3><p>{escape(session.doc_id)} · {unit.start}–{unit.end}</p>"]
    if unit.kind is UnitKind.MISSED_CANDIDATE and unit.suggestion is not None:
        parts.append(
            f"<p>Untagged in every version. Suggested: {_tag_line(unit.suggestion, colours)}</p><ul>"
        )
        for evidence in unit.evidence[:8]:
            origin = "model suggestion" if evidence.origin == "model" else "annotated"
            parts.append(
                f"<li>{origin} as {escape(evidence.type)} in {escape(evidence.doc_id)} "
                f"{evidence.start}–{evidence.end}</li>"
            )
        parts.append("</ul>")
    else:
        parts.append("<table cellpadding='3'>")
        # Numbered by their keys: the folders' places, also when an annotator lacks the document.
        for number, name, annotations in zip(session.key_numbers, session.names, unit.versions, strict=True):
            body = "<br>".join(_tag_line(a, colours) for a in annotations) or "<i>nothing</i>"
            parts.append(
                f"<tr><td valign='top'><b>{number}</b></td><td valign='top'>{escape(name)}</td><td>{body}</td></tr>"
            )
        parts.append("</table>")
    resolution = session.resolutions.get(unit.id)
    if resolution is None:
        parts.append("<p><b>Undecided.</b></p>")
    else:
        decision = resolution.decision
        what = decision.kind.value
        if decision.kind is DecisionKind.TAKE and decision.version is not None:
            what = f"take {session.names[decision.version]}"
        who = " (auto-accepted)" if decision.auto else ""
        tags = [session.gold.get(i) for i in resolution.gold_ids if i in session.gold]
        gold = "<br>".join(_tag_line(a, colours) for a in tags) or "<i>nothing</i>"
        parts.append(f"<p><b>Decided: {escape(what)}{who}</b><br>gold: {gold}</p>")
    parts.append(f"<p style='color:{colours.dim}'>{key_help(session)}</p>")
    return "".join(parts)


class UnitPanel(QTextBrowser):
    """Read-only view of the current unit."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setMinimumWidth(320)

    def show_unit(self, session: AdjudicationSession, unit: Unit | None) -> None:
        self.setHtml(unit_html(session, unit, PanelColours.from_palette(self.palette())))
