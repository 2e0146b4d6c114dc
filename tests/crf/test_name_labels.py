"""Names after their labels: where they stop (a line, an article) and what labels name no person."""

from __future__ import annotations

import pytest

from annotator.crf.name_labels import name_spans


def found(text: str) -> list[tuple[str, str]]:
    return [(kind, text[start:end]) for kind, start, end in name_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seen by Dr. J. Smith today", [("DOCTOR", "J. Smith")]),
        ("Patient Name:  Sigma Jones", [("PATIENT", "Sigma Jones")]),
        ("DR K. MADDEN AWARE", [("DOCTOR", "K. MADDEN")]),
    ],
)
def test_a_name_after_its_label(text: str, expected: list[tuple[str, str]]) -> None:
    assert set(found(text)) == set(expected)


@pytest.mark.parametrize(
    "text",
    [
        # An initial does not take the next line's heading as the surname.
        "will be dictated by Dr. X.\nTOURNIQUET TIME: , 76 minutes.",
        "seen by Dr. X\nPLAN: home",
        # Nor the next sentence's article and what follows it.
        "carried out by Dr. X. The McIvor mouth gag was inserted",
        # A thing's name is no person's.
        "Pulse Generator Model Name:  Sigma, model #:  12345",
        "Drug name: Keppra",
        "Device name: Medtronic",
    ],
)
def test_no_name_across_a_line_an_article_or_after_a_things_name_label(text: str) -> None:
    assert found(text) == []
