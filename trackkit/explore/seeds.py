"""The seeds of a sweep's and a search's profiles.

Every track of a run is raced with the same seed (common random numbers: race ``r`` is
dealt, shuffled and ordered alike on every track, so tracks are compared on the same luck,
:mod:`trackkit.explore.profile`). A search that profiles a track again draws a further
seed for each new profile, the same for every track: ``draw_seed(seed, k)``.

>>> draw_seed(7, 0)
7
>>> draw_seed(7, 1) == draw_seed(7, 1) != draw_seed(7, 2)
True
"""

from __future__ import annotations

import numpy as np

SEED_BITS = 63  # a simulation seed is a non-negative 64-bit number; 63 bits keep it an int64


def draw_seed(seed: int, draw: int) -> int:
    """The seed of the ``draw``-th profile of any track in a run seeded ``seed``: the run's
    seed itself for the first (the seed a sweep gives every track), then seeds derived from
    it."""
    if draw == 0:
        return seed
    state = np.random.SeedSequence([seed, draw]).generate_state(1, dtype=np.uint64)
    return int(state[0]) & ((1 << SEED_BITS) - 1)
