"""Arrays a compiled engine does not reference-count, and functions compiled without
numba's runtime, for every game's engine.

numba counts references to every array it touches, with an atomic add on each access from
a tuple; in an engine's inner loops those atomics cost more than the rules themselves
(measured on the Yummell engine: about half the time of a turn). While a batch of races
runs, the caller holds every state array, so an engine can work on views that carry no
reference count (numba.carray over the same memory): same arrays, same types, no atomics.
Interpreted (``NUMBA_DISABLE_JIT=1``) the arrays are used as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import carray, config, njit, types
from numba.extending import intrinsic

if config.DISABLE_JIT:

    def unmanaged(values: np.ndarray) -> np.ndarray:
        return values

else:

    @intrinsic
    def _as_int64_pointer(typingctx, address):  # type: ignore[no-untyped-def]
        pointer = types.CPointer(types.int64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.inttoptr(args[0], context.get_value_type(pointer))

        return pointer(address), codegen

    @njit(cache=True, inline="always")
    def unmanaged(values: np.ndarray) -> np.ndarray:
        """A view of an int64 C-contiguous array without a reference count."""
        return carray(_as_int64_pointer(values.ctypes.data), values.shape)


# --- compiled without numba's runtime ----------------------------------------------------
#
# Even over views whose reference counts are no-ops, numba still emits an out-of-line call
# to its runtime for every array of every tuple a function binds or reads (about 36 arrays
# in the Yummell state): measured with perf, three quarters of a race went to those calls.
# A function compiled without the runtime emits none: the same code, 8 to 9 times faster.
# It may not allocate (a slice copy, ``.max()`` of an array, ``rng.integers(size=...)``,
# ``np.empty``): numba then refuses to compile it, loudly. What must allocate is compiled
# apart :func:`with_runtime` (a callee takes the runtime setting of its caller unless it
# says otherwise). ``_nrt`` is numba's own private option (numba/core/options.py, up to
# 0.68 at least: pyproject.toml pins the numba it was measured with).


def no_runtime(function: Callable[..., Any]) -> Any:
    """``function`` compiled (and cached) without numba's runtime: no reference counting,
    no allocation. Plain Python under ``NUMBA_DISABLE_JIT=1``."""
    return njit(cache=True, _nrt=False)(function)


def with_runtime(function: Callable[..., Any]) -> Any:
    """``function`` compiled with numba's runtime, also when a :func:`no_runtime` function
    calls it: for the little that allocates."""
    return njit(cache=True, _nrt=True)(function)
