"""Arrays a compiled engine does not reference-count, for every game's engine.

numba counts references to every array it touches, with an atomic add on each access from
a tuple; in an engine's inner loops those atomics cost more than the rules themselves
(measured on the Yummell engine: about half the time of a turn). While a batch of races
runs, the caller holds every state array, so an engine can work on views that carry no
reference count (numba.carray over the same memory): same arrays, same types, no atomics.
Interpreted (``NUMBA_DISABLE_JIT=1``) the arrays are used as they are.
"""

from __future__ import annotations

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
