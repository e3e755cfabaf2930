"""Functions compiled without numba's runtime, and without negative-index wraparound."""

from __future__ import annotations

from pathlib import Path

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


@njit(inline="always")
def _clamped_sum(values: np.ndarray, low: int) -> int:
    total = 0
    for v in values:  # several blocks: the loop, the branch
        if v > low:
            total += v
        else:
            total += low
    return total


@njit
def _inlines_twice(values: np.ndarray) -> int:
    return _clamped_sum(values, 2) - _clamped_sum(values, 4)


@pytest.mark.skipif(config.DISABLE_JIT, reason="numba's inliner only")
def test_the_inliner_copies_a_callees_scope_once_and_inlines_the_same_code() -> None:
    from numba.core import inline_closurecall
    from numba.core.compiler import run_frontend

    from trackkit.games.unmanaged import _OneMemoCopy

    assert getattr(inline_closurecall.InlineWorker.inline_ir, "_trackkit", False)
    blocks = list(run_frontend(_clamped_sum.py_func).blocks.values())
    assert len(blocks) > 2 and len({id(b.scope) for b in blocks}) == 1
    shared = _OneMemoCopy()
    copies = [shared.deepcopy(b) for b in blocks]
    assert len({id(b.scope) for b in copies}) == 1  # one scope, as in the original
    assert copies[0].scope is not blocks[0].scope  # a copy all the same
    assert copies[0].scope.localvars._con.keys() == blocks[0].scope.localvars._con.keys()
    values = np.arange(7, dtype=np.int64)
    expected = sum(max(v, 2) for v in range(7)) - sum(max(v, 4) for v in range(7))
    assert _inlines_twice(values) == _inlines_twice.py_func(values) == expected


def test_a_compiled_engine_older_than_any_of_its_sources_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba checks only the file of the function it cached: a change to a rule inlined
    from another module would leave the old engine running. fresh_cache drops it."""
    from trackkit.games.unmanaged import fresh_cache

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    engine = tmp_path / "core"
    (engine / "sub").mkdir(parents=True)
    (engine / "engine.py").write_text("X = 1\n")
    (engine / "sub" / "rules.py").write_text("Y = 1\n")
    compiled = [
        engine / "__pycache__" / "engine.play-1.nbc",
        engine / "sub" / "__pycache__" / "rules.r-1.nbi",
    ]

    def compile_all() -> None:
        for path in compiled:
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(b"compiled")

    compile_all()
    assert fresh_cache(engine)  # no stamp yet: whatever was compiled is dropped
    assert not any(path.exists() for path in compiled)
    compile_all()
    assert not fresh_cache(engine)  # the sources as stamped: the engine is kept
    assert all(path.exists() for path in compiled)
    (engine / "sub" / "rules.py").write_text("Y = 2\n")  # a rule another module inlines
    assert fresh_cache(engine)
    assert not any(path.exists() for path in compiled)


def test_a_cache_elsewhere_is_kept_fresh_as_well(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    from trackkit.games.unmanaged import fresh_cache

    engine = tmp_path / "core"
    engine.mkdir()
    (engine / "engine.py").write_text("X = 1\n")
    root = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root))
    folder = engine.resolve()
    where = root / f"core_{hashlib.sha1(str(folder).encode()).hexdigest()}"  # numba's place
    where.mkdir(parents=True)
    (where / "engine.play-1.nbc").write_bytes(b"compiled")
    fresh_cache(engine)
    (where / "engine.play-1.nbc").write_bytes(b"compiled")
    assert not fresh_cache(engine)
    (engine / "engine.py").write_text("X = 2\n")
    assert fresh_cache(engine) and not (where / "engine.play-1.nbc").exists()
