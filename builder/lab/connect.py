"""The executor a command's flags choose (``--cluster``, ``--workers``): kept apart from
:mod:`.executor`, which :mod:`.cluster` builds on, so that neither imports the other's
importer."""

from __future__ import annotations

from .executor import Executor, LocalPool


def connect(cluster: str | None = None, workers: int | None = None) -> Executor:
    """The executor a command's flags choose: the Dask scheduler at ``cluster`` (its
    address, such as ``tcp://10.0.0.5:8786``), else the local pool of ``workers``."""
    if cluster:
        from .cluster import DaskCluster

        return DaskCluster(cluster)
    return LocalPool(workers)
