"""Functions compiled without numba's runtime, and without negative-index wraparound."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config, njit

from trackkit.games.unmanaged import no_runtime


def _pair(values: np.ndarray, i: int) -> int:
    return values[i] + values[i + 1]


def _pair_python(values: np.ndarray, i: int) -> int:
    return values[i] + values[i + 1]


positions_only = no_runtime(wraparound=False)(_pair)
python_indices = no_runtime(_pair_python)


@pytest.mark.skipif(config.DISABLE_JIT, reason="compiled code only")
def test_wraparound_off_emits_no_index_fix_up() -> None:
    values = np.arange(6, dtype=np.int64)
    assert positions_only(values, 2) == python_indices(values, 2) == 5
    assert python_indices(values, -2) == 4 + 5  # Python's meaning, kept by default

    def selects(function: object) -> int:
        # compiled afresh (no cache), so that its LLVM IR is there to read
        fresh = njit(_nrt=False)(function)
        fresh(values, 2)
        return sum(ir.count(" select ") for ir in fresh.inspect_llvm().values())

    assert selects(_pair_python) >= 2  # one fix-up per index
    assert selects(_pair) == 0  # registered by no_runtime(wraparound=False)


def test_no_runtime_is_plain_python_when_jit_is_off() -> None:
    values = np.arange(4, dtype=np.int64)
    assert positions_only(values, 1) == 3
