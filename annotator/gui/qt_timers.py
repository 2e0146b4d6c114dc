"""The Qt face of annotator.session.timers: sessions' timers run on the Qt event loop."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from annotator.session.timers import Timer


class QtTimer:
    def __init__(
        self, interval: float, single_shot: bool, callback: Callable[[], None], parent: QObject | None
    ) -> None:
        self._timer = QTimer(parent)
        self._timer.setInterval(round(interval * 1000))
        self._timer.setSingleShot(single_shot)
        self._timer.timeout.connect(callback)

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    @property
    def active(self) -> bool:
        return self._timer.isActive()


def qt_timers(parent: QObject | None = None) -> Callable[[float, bool, Callable[[], None]], Timer]:
    """A timer factory whose timers live as long as ``parent`` (deleted with it)."""

    def make(interval: float, single_shot: bool, callback: Callable[[], None]) -> Timer:
        return QtTimer(interval, single_shot, callback, parent)

    return make
