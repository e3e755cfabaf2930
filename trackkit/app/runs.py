"""Running races for a page: a progress bar, the finished runs kept, errors shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trackkit.errors import TrackkitError
from trackkit.sim.montecarlo import SimulationResult, simulate


def cached_run(
    cache: dict[Any, tuple[SimulationResult, Any]],
    key: Any,
    keep: int,
    track: Any,
    options: Any,
    races: int,
    seed: int,
    record: Callable[..., Any],
    text: str = "Racing…",
) -> tuple[SimulationResult, Any] | None:
    """The run kept under ``key``, or a new one: ``races`` races with a progress bar, and
    race 0 recorded by ``record(track, options, seed=seed)``, kept in ``cache`` (the oldest
    of ``keep`` runs goes first). None, with the reason shown, when the races cannot run."""
    if key not in cache:
        while len(cache) >= keep:
            cache.pop(next(iter(cache)))
        bar = st.progress(0.0, text=text)
        try:
            result = simulate(
                track,
                options,
                races=races,
                seed=seed,
                progress=lambda done, total: bar.progress(
                    done / total, text=f"{done:,} of {total:,} races"
                ),
            )
            recorded = record(track, options, seed=seed)
        except TrackkitError as error:
            st.error(str(error))
            return None
        bar.empty()
        cache[key] = (result, recorded)
    return cache[key]
