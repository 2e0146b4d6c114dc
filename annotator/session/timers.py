"""Timers a session asks its face for, so the session itself never imports an event loop.

The window passes a factory that makes Qt timers (annotator.gui.qt_timers); tests and
headless faces use :class:`ManualTimers`, whose timers fire only when told to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A started timer calls its callback every ``interval`` seconds (once if single-shot)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    @property
    def active(self) -> bool: ...


TimerFactory = Callable[[float, bool, Callable[[], None]], Timer]
"""``factory(interval_seconds, single_shot, callback)`` -> a stopped timer."""


class ManualTimer:
    """A timer that fires when :meth:`fire` (or its factory's ``fire_all``) is called."""

    def __init__(self, interval: float, single_shot: bool, callback: Callable[[], None]) -> None:
        self.interval = interval
        self.single_shot = single_shot
        self.callback = callback
        self._active = False

    def start(self) -> None:
        self._active = True

    def stop(self) -> None:
        self._active = False

    @property
    def active(self) -> bool:
        return self._active

    def fire(self) -> None:
        if not self._active:
            return
        if self.single_shot:
            self._active = False
        self.callback()


class ManualTimers:
    """A timer factory for tests and headless use: every timer it made fires on ``fire_all``."""

    def __init__(self) -> None:
        self.timers: list[ManualTimer] = []

    def __call__(self, interval: float, single_shot: bool, callback: Callable[[], None]) -> Timer:
        timer = ManualTimer(interval, single_shot, callback)
        self.timers.append(timer)
        return timer

    def fire_all(self) -> None:
        for timer in list(self.timers):
            timer.fire()
