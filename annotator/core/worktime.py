"""Active working time: time spent on a document, idle pauses not counted.

Pure logic with the clock passed in (``time.monotonic()`` in the GUI, numbers in tests).

API
---
``WorkTimer(idle_after=120.0)``
    ``activity(now)`` on every keystroke, click or edit: the time since the previous activity
    is counted, but at most ``idle_after`` seconds of it (a longer gap means the annotator
    was away; only the first ``idle_after`` seconds, while they were presumably reading,
    count). ``stop(now)`` ends a session (document closed, window hidden): the time since the
    last activity counts the same way and the next ``activity`` starts a new session.
    ``seconds`` is the counted time so far; ``current(now)`` includes the running gap (for
    a live display); ``take()`` returns ``seconds`` and resets it to zero (to persist it).
"""

from __future__ import annotations


class WorkTimer:
    """Counts active seconds between activity events.

    Parameters
    ----------
    idle_after:
        A gap between two activities counts up to this many seconds.
    """

    def __init__(self, idle_after: float = 120.0) -> None:
        if idle_after < 0:
            raise ValueError("idle_after must not be negative")
        self.idle_after = idle_after
        self._seconds = 0.0
        self._last: float | None = None

    @property
    def running(self) -> bool:
        """True between the first activity of a session and :meth:`stop`."""
        return self._last is not None

    @property
    def seconds(self) -> float:
        """Active seconds counted up to the last activity or stop."""
        return self._seconds

    def _gap(self, now: float) -> float:
        if self._last is None:
            return 0.0
        # A clock that went backwards (or events out of order) adds nothing.
        return min(max(0.0, now - self._last), self.idle_after)

    def activity(self, now: float) -> None:
        """The annotator did something at ``now``."""
        self._seconds += self._gap(now)
        self._last = now if self._last is None else max(self._last, now)

    def stop(self, now: float) -> None:
        """End the session at ``now`` (counts the gap since the last activity)."""
        self._seconds += self._gap(now)
        self._last = None

    def current(self, now: float) -> float:
        """Counted seconds including the running gap, without changing anything."""
        return self._seconds + self._gap(now)

    def take(self) -> float:
        """The counted seconds, which are then reset to zero (the session keeps running)."""
        seconds, self._seconds = self._seconds, 0.0
        return seconds
