"""Pausing Python's cycle collector around bursts of short-lived allocations."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block; the collector's state is restored after.

    Reference counting still frees everything not in a cycle at once; only the walk over
    every young object, which a burst of allocations triggers again and again, waits.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
