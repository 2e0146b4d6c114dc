"""Following each suggestion of a hand-built edit history to its fate."""

from __future__ import annotations

from typing import Any

import pytest

from annotator.evaluation.effort import (
    bootstrap_difference_interval,
    bootstrap_mean_interval,
    replay_history,
)


def tag(tag_id: str, type_: str, start: int, end: int, pending: bool = False) -> dict[str, Any]:
    return {"id": tag_id, "tag": "X", "type": type_, "start": start, "end": end, "pending": pending}


def start(*tags: dict[str, Any], at: float = 100.0) -> dict[str, Any]:
    return {"op": "start", "at": at, "annotations": list(tags)}


def add(t: dict[str, Any], at: float = 0.0) -> dict[str, Any]:
    return {"op": "add", "at": at, "annotation": t}


def remove(tag_id: str, at: float = 0.0) -> dict[str, Any]:
    return {"op": "remove", "at": at, "id": tag_id}


def replace(tag_id: str, t: dict[str, Any], at: float = 0.0) -> dict[str, Any]:
    return {"op": "replace", "at": at, "id": tag_id, "annotation": t}


# Five suggestions: P1 accepted, P2 rejected, P3 widened, P4 retyped, P5 left pending.
SHOWN = (
    tag("P1", "PATIENT", 0, 4, True),
    tag("P2", "DATE", 10, 14, True),
    tag("P3", "DOCTOR", 20, 24, True),
    tag("P4", "CITY", 30, 34, True),
    tag("P5", "DATE", 40, 44, True),
)


def test_every_fate_is_counted_under_the_type_as_suggested() -> None:
    fates = replay_history(
        [
            start(*SHOWN, at=100.0),
            replace("P1", tag("P1", "PATIENT", 0, 4), at=101.0),
            remove("P2", at=102.0),
            replace("P3", tag("P3", "DOCTOR", 18, 24), at=103.0),
            replace("P4", tag("P4", "STATE", 30, 34), at=104.0),
            add(tag("H1", "PHONE", 50, 58), at=105.0),  # nothing was suggested there
            add(tag("H2", "DATE", 12, 16), at=106.0),  # overlaps the rejected P2
        ]
    )
    assert fates.shown == 5
    assert dict(fates.fates["PATIENT"]) == {"accepted": 1}
    assert dict(fates.fates["DATE"]) == {"rejected": 1, "unreviewed": 1}
    assert dict(fates.fates["DOCTOR"]) == {"changed": 1, "changed_boundary": 1, "changed_type": 0}
    assert dict(fates.fates["CITY"]) == {"changed": 1, "changed_boundary": 0, "changed_type": 1}
    assert [fates.count(f) for f in ("accepted", "changed", "rejected", "unreviewed")] == [1, 2, 1, 1]
    assert dict(fates.hand) == {"PHONE": 1, "DATE": 1}
    assert dict(fates.missed) == {"PHONE": 1}
    assert (fates.first_at, fates.last_at) == (100.0, 106.0)
    origins = {t.id: o for t, o in fates.final}
    assert origins == {
        "P1": "suggestion",
        "P3": "suggestion",
        "P4": "suggestion",
        "P5": "suggestion",
        "H1": "hand",
        "H2": "hand",
    }


def test_an_undone_rejection_is_the_same_suggestion_not_a_new_one() -> None:
    fates = replay_history(
        [
            start(SHOWN[0]),
            remove("P1"),
            add(SHOWN[0]),  # undo: back, pending again
            replace("P1", tag("P1", "PATIENT", 0, 4)),
        ]
    )
    assert fates.shown == 1
    assert dict(fates.fates["PATIENT"]) == {"accepted": 1}


def test_an_accepted_suggestion_deleted_later_counts_as_rejected() -> None:
    fates = replay_history([start(SHOWN[0]), replace("P1", tag("P1", "PATIENT", 0, 4)), remove("P1")])
    assert dict(fates.fates["PATIENT"]) == {"rejected": 1}
    assert fates.final == []


def test_a_suggestion_followed_through_a_new_id_keeps_its_origin() -> None:
    fates = replay_history([start(SHOWN[0]), replace("P1", tag("P9", "PATIENT", 0, 6))])
    assert dict(fates.fates["PATIENT"]) == {"changed": 1, "changed_boundary": 1, "changed_type": 0}
    assert [(t.id, o) for t, o in fates.final] == [("P9", "suggestion")]


def test_suggestions_added_later_and_earlier_work_are_told_apart() -> None:
    fates = replay_history(
        [
            start(tag("E1", "AGE", 60, 62)),  # reviewed before the history began
            add(tag("P7", "AGE", 70, 72, True)),  # "pre-annotate this document" later
            replace("E1", tag("E1", "AGE", 60, 63)),
        ]
    )
    assert fates.shown == 1
    assert dict(fates.fates["AGE"]) == {"unreviewed": 1}
    assert sum(fates.hand.values()) == 0
    assert {t.id: o for t, o in fates.final} == {"E1": "earlier", "P7": "suggestion"}


def test_relation_lines_change_no_fate() -> None:
    fates = replay_history([start(SHOWN[0]), {"op": "relation-set", "relation": {}}, remove("P1")])
    assert dict(fates.fates["PATIENT"]) == {"rejected": 1}


def test_bootstrap_intervals_hold_the_mean_and_need_two_documents() -> None:
    values = [10.0, 12.0, 14.0, 30.0]
    low, high = bootstrap_mean_interval(values, resamples=4000, seed=1) or (0, 0)
    assert min(values) <= low < sum(values) / 4 < high <= max(values)
    assert bootstrap_mean_interval([5.0]) is None
    assert bootstrap_mean_interval(values, seed=3) == bootstrap_mean_interval(values, seed=3)
    diff = bootstrap_difference_interval([20.0, 22.0, 21.0], [10.0, 11.0, 12.0], resamples=4000)
    assert diff is not None and 8.0 <= diff[0] < 10.0 < diff[1] <= 12.0
    assert bootstrap_difference_interval([1.0], [2.0, 3.0]) is None


def test_identical_values_give_a_zero_width_interval() -> None:
    assert bootstrap_mean_interval([7.0, 7.0, 7.0]) == pytest.approx((7.0, 7.0))
