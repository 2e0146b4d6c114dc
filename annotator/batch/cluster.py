"""Connecting to a dask.distributed cluster, or starting a local one on this machine."""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from typing import TYPE_CHECKING

from annotator.errors import AnnotatorError, UsageError

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = "the batch commands need dask.distributed: pip install 'phi-annotator[batch]'"


def require_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(INSTALL_HINT) from None


@contextlib.contextmanager
def open_client(scheduler: str | None, workers: int, timeout: float = 30.0) -> Iterator[Client]:
    """A client of the cluster at ``scheduler`` (``tcp://HOST:PORT``), or of a local cluster of
    ``workers`` single-threaded processes listening on 127.0.0.1 only."""
    require_distributed()
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as error:
            raise AnnotatorError(f"cannot reach the dask scheduler at {scheduler}: {error}") from None
        with client:
            yield client
        return
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    # One thread per worker process: CRF tagging holds the GIL, so processes are what scale.
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None if not _has_dashboard() else "127.0.0.1:0",
        silence_logs=50,
    )
    with cluster, Client(cluster) as client:
        yield client


def _has_dashboard() -> bool:
    # Dask serves its dashboard only with bokeh installed; without it, no dashboard port opens.
    return importlib.util.find_spec("bokeh") is not None


def dashboard_link(client: Client) -> str | None:
    if not _has_dashboard():
        return None
    with contextlib.suppress(KeyError):  # the scheduler runs no dashboard service
        return str(client.dashboard_link)
    return None
