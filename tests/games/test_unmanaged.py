"""Functions compiled without numba's runtime, and without negative-index wraparound."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config

from trackkit.games.unmanaged import no_runtime


@no_runtime(wraparound=False)
def _positions_only(values: np.ndarray, i: int) -> int:
    return values[i] + values[i + 1]


@no_runtime
def _python_indices(values: np.ndarray, i: int) -> int:
    return values[i] + values[i + 1]


@pytest.mark.skipif(config.DISABLE_JIT, reason="compiled code only")
def test_wraparound_off_emits_no_index_fix_up() -> None:
    values = np.arange(6, dtype=np.int64)
    assert _positions_only(values, 2) == _python_indices(values, 2) == 5
    assert _python_indices(values, -2) == 4 + 5  # Python's meaning, kept by default

    def selects(function: object) -> int:
        return sum(ir.count(" select ") for ir in function.inspect_llvm().values())  # type: ignore[attr-defined]

    assert selects(_python_indices) >= 2  # one fix-up per index
    assert selects(_positions_only) == 0


def test_no_runtime_is_plain_python_when_jit_is_off() -> None:
    values = np.arange(4, dtype=np.int64)
    assert _positions_only(values, 1) == 3
