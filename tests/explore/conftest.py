"""A local Dask cluster of two single-threaded workers, shared by a module's sweep tests
(and stopped after it: a cluster left running would add its threads' allocations to other
tests' memory measurements, and forking a process that runs them is unsafe)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client
