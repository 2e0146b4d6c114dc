"""Keeping Python's cycle collector out of the way of typing.

A long record brings tens of thousands of Python objects (tags, their index, Qt wrappers).
A full collection walks every one of them: ~50 ms, long enough to be seen, and it used to
fall in the middle of opening a record or, later, of a keystroke. While a record opens the
collector waits; once it is open, everything alive is frozen out of the collector's
generations (``gc.freeze``), so later collections only walk what the edits create.
Reference counting still frees everything at once as before; only garbage in reference
cycles among frozen objects waits, and that is small (a closed record's wrappers).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from annotator.core.collector import collector_paused


@contextmanager
def opening_a_record() -> Iterator[None]:
    """No cycle collection while a record opens; what it built is frozen afterwards."""
    try:
        with collector_paused():
            yield
    finally:
        gc.freeze()
