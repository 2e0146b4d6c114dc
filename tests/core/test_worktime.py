"""Active working time: gaps count up to the idle limit."""

from __future__ import annotations

import pytest

from annotator.core.worktime import WorkTimer


@pytest.mark.parametrize(
    ("events", "stop", "expected"),
    [
        ([], None, 0.0),
        ([10.0], None, 0.0),
        ([10.0, 20.0, 25.0], None, 15.0),
        ([0.0, 30.0, 1030.0], None, 30.0 + 120.0),  # away 1000 s: only 120 s count
        ([0.0, 50.0], 400.0, 50.0 + 120.0),
        ([0.0, 50.0], 60.0, 60.0),
        ([100.0, 90.0, 110.0], None, 10.0),  # out-of-order event adds nothing
    ],
)
def test_idle_arithmetic(events: list[float], stop: float | None, expected: float) -> None:
    timer = WorkTimer(idle_after=120.0)
    for moment in events:
        timer.activity(moment)
    if stop is not None:
        timer.stop(stop)
    assert timer.seconds == pytest.approx(expected)


def test_stop_ends_session_and_next_activity_starts_fresh() -> None:
    timer = WorkTimer(idle_after=60.0)
    timer.activity(0.0)
    timer.activity(10.0)
    timer.stop(15.0)
    assert not timer.running
    timer.activity(5000.0)  # a new session: the time while stopped never counts
    timer.activity(5020.0)
    assert timer.seconds == pytest.approx(35.0)


def test_current_and_take() -> None:
    timer = WorkTimer(idle_after=30.0)
    timer.activity(0.0)
    timer.activity(10.0)
    assert timer.current(25.0) == pytest.approx(25.0)
    assert timer.current(500.0) == pytest.approx(40.0)
    assert timer.seconds == pytest.approx(10.0)
    assert timer.take() == pytest.approx(10.0)
    assert timer.seconds == 0.0 and timer.running
    timer.activity(15.0)
    assert timer.seconds == pytest.approx(5.0)


def test_negative_idle_limit_rejected() -> None:
    with pytest.raises(ValueError):
        WorkTimer(idle_after=-1.0)
