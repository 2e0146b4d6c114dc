"""Surrogate dates keep every interval within a patient, year-less dates included."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.document import Document
from annotator.deid.dates import parse_date, reference_date
from annotator.deid.export import deidentify_documents
from annotator.deid.surrogates import DeidOptions


def _anchor(text: str, near: dt.date) -> dt.date:
    """A date string as a day: a year-less one in the year that puts it nearest ``near``."""
    parsed = parse_date(text)
    assert parsed is not None and parsed.month is not None and parsed.day is not None
    if parsed.year is not None:
        full = reference_date(parsed)
        assert full is not None
        return full
    candidates = []
    for year in (near.year - 1, near.year, near.year + 1):
        try:
            candidates.append(dt.date(year, parsed.month, parsed.day))
        except ValueError:
            continue
    return min(candidates, key=lambda day: abs((day - near).days))


def _note(doc_id: str, full: dt.date, offset: int) -> tuple[Document, str, str]:
    other = full + dt.timedelta(days=offset)
    full_text = f"{full.month:02d}/{full.day:02d}/{full.year}"
    short_text = f"{other.month}/{other.day}"
    text = f"Admitted {full_text}. Follow-up on {short_text} in clinic.\n"
    document = Document(doc_id, text)
    for piece, after in ((full_text, "Admitted"), (short_text, "Follow-up on")):
        start = text.index(piece, text.index(after))
        document.add(document.make_annotation("DATE", "DATE", start, start + len(piece)))
    return document, full_text, short_text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.dates(dt.date(2050, 1, 1), dt.date(2099, 12, 31)), st.integers(-150, 150)),
        min_size=1,
        max_size=3,
    ),
    st.integers(0, 10_000),
)
def test_every_interval_of_a_patient_is_kept(notes: list[tuple[dt.date, int]], seed: int) -> None:
    documents = [_note(f"500-{n + 1:02d}", full, offset)[0] for n, (full, offset) in enumerate(notes)]
    result = deidentify_documents(documents, DeidOptions(seed=seed))
    before: list[dt.date] = []
    after: list[dt.date] = []
    for original, new in zip(documents, result.documents, strict=True):
        pairs = sorted(zip(original.annotations, new.annotations, strict=True), key=lambda p: p[0].start)
        (full_old, full_new), (short_old, short_new) = pairs
        anchor_old = _anchor(full_old.text, dt.date(2000, 1, 1))
        anchor_new = _anchor(full_new.text, dt.date(2000, 1, 1))
        before += [anchor_old, _anchor(short_old.text, anchor_old)]
        after += [anchor_new, _anchor(short_new.text, anchor_new)]
    for i in range(len(before)):
        for j in range(len(before)):
            assert (before[j] - before[i]).days == (after[j] - after[i]).days


def test_the_issue_example_keeps_seven_days() -> None:
    document, _, _ = _note("600-01", dt.date(2093, 12, 1), -7)
    new = deidentify_documents([document], DeidOptions(seed=1)).documents[0]
    full, short = sorted(new.annotations, key=lambda a: a.start)
    anchor = _anchor(full.text, dt.date(2000, 1, 1))
    assert (anchor - _anchor(short.text, anchor)).days == 7
