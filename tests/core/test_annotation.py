"""Annotation: immutable, keyed by category, type and offsets."""

from __future__ import annotations

import dataclasses

import pytest

from annotator.core.annotation import Annotation, Source
from annotator.core.span import Span

TEXT = "Seen by Dr Smith."
START = len("Seen by Dr ")
SMITH = Annotation("P0", "NAME", "DOCTOR", START, START + len("Smith"), "Smith")


def test_defaults_are_a_reviewed_human_tag() -> None:
    assert (SMITH.source, SMITH.pending, SMITH.confidence, SMITH.extra) == (Source.HUMAN, False, None, ())


def test_annotations_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SMITH.start = 0  # type: ignore[misc]


def test_replace_returns_a_changed_copy() -> None:
    moved = SMITH.replace(type="PATIENT")
    assert (moved.type, SMITH.type, moved.id) == ("PATIENT", "DOCTOR", "P0")


def test_key_ignores_id_and_provenance() -> None:
    other = SMITH.replace(id="P9", source=Source.MODEL, confidence=0.5, comment="x")
    assert other.key == SMITH.key == ("NAME", "DOCTOR", START, START + len("Smith"))
    assert other != SMITH


def test_span_and_overlap() -> None:
    assert SMITH.span == Span(START, START + 5)
    assert SMITH.overlaps(SMITH.replace(start=START + 4, end=START + 8))
    assert not SMITH.overlaps(SMITH.replace(start=START + 5, end=START + 8))


def test_source_values_are_the_file_strings() -> None:
    assert [s.value for s in Source] == ["human", "model", "propagated", "adjudicated"]
