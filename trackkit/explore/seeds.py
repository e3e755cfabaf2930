"""One seed per track of a sweep or a search, from the run's seed and the track's rank, so
a track's figures do not depend on how the work was split, on which worker, or in which
order.

>>> track_seed(0, 5) == track_seed(0, 5) != track_seed(1, 5)
True
"""

from __future__ import annotations

import numpy as np

SEED_BITS = 63  # a simulation seed is a non-negative 64-bit number; 63 bits keep it an int64


def track_seed(seed: int, rank: int, draw: int = 0) -> int:
    """The seed of the track of ``rank`` in a run seeded ``seed``; ``draw`` numbers further
    profiles of the same track (a search profiles its best tracks again)."""
    entropy = [seed, rank] if draw == 0 else [seed, rank, draw]
    state = np.random.SeedSequence(entropy).generate_state(1, dtype=np.uint64)
    return int(state[0]) & ((1 << SEED_BITS) - 1)
