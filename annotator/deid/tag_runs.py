"""Tags side by side: real notes tag one date, name or place in parts (``21`` ``Apr`` ``21``,
``Good`` ``Sam``, ``grace`` ``dudak``); the surrogates read such runs as one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from annotator.core.annotation import Annotation

Span = tuple[int, int]


def core_span(annotation: Annotation) -> Span:
    """A tag's offsets without the blanks at its ends."""
    text = annotation.text
    lead = len(text) - len(text.lstrip())
    start = annotation.start + lead
    return start, start + len(text.strip())


def adjacent_runs(
    text: str,
    tags: Iterable[Annotation],
    gap: re.Pattern[str],
    longest: int = 4,
    joins: Callable[[str, str], bool] | None = None,
) -> list[list[Span]]:
    """The tags' core spans in runs: one run while the text between two tags is a ``gap``
    (matched whole, at most ``longest`` characters, never a line break) and ``joins`` (given
    the earlier tag's text and the gap) does not say otherwise."""
    spans = sorted({core_span(a) for a in tags if a.text.strip()})
    runs: list[list[Span]] = []
    for span in spans:
        if runs:
            previous = runs[-1][-1]
            between = text[previous[1] : span[0]]
            if (
                span[0] >= previous[1]
                and len(between) <= longest
                and gap.fullmatch(between)
                and (joins is None or joins(text[previous[0] : previous[1]], between))
            ):
                runs[-1].append(span)
                continue
        runs.append([span])
    return runs


def cut_into_tags(text: str, run: list[Span], replaced: list[tuple[int, int, str]]) -> dict[Span, str]:
    """Each tag of a run with the replacements inside it (``replaced`` offsets are relative to
    the run's start; a replacement across two tags is impossible, tokens lie inside tags)."""
    start = run[0][0]
    out: dict[Span, str] = {}
    for tag_start, tag_end in run:
        new = text[tag_start:tag_end]
        offset = tag_start - start
        for r_start, r_end, token in sorted(replaced, reverse=True):
            if offset <= r_start and r_end <= tag_end - start:
                new = new[: r_start - offset] + token + new[r_end - offset :]
        out[(tag_start, tag_end)] = new
    return out


def line_before(text: str, start: int, width: int) -> str:
    """Up to ``width`` characters before ``start`` on its line."""
    return text[max(text.rfind("\n", 0, start) + 1, start - width) : start]


def line_after(text: str, end: int, width: int) -> str:
    """Up to ``width`` characters after ``end`` on its line."""
    stop = text.find("\n", end)
    return text[end : min(end + width, stop if stop >= 0 else len(text))]
