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

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, config, njit, types
from numba.core import cgutils, itanium_mangler
from numba.extending import intrinsic
from numba.np import arrayobj

if config.DISABLE_JIT:

    def unmanaged(values: np.ndarray) -> np.ndarray:
        return values

    def unmanaged_rows(values: np.ndarray, width: int) -> np.ndarray:
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

    @intrinsic
    def _with_row_width(typingctx, values, width):  # type: ignore[no-untyped-def]
        if not isinstance(width, types.IntegerLiteral) or values.ndim != 2:
            return None
        columns = width.literal_value

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            array_type = signature.args[0]
            ary = context.make_array(array_type)(context, builder, args[0])
            out = context.make_array(array_type)(context, builder)
            rows = cgutils.unpack_tuple(builder, ary.shape)[0]
            item = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
            intp = context.get_value_type(types.intp)
            arrayobj.populate_array(
                out,
                data=ary.data,
                shape=cgutils.pack_array(builder, [rows, ir.Constant(intp, columns)]),
                strides=cgutils.pack_array(
                    builder, [ir.Constant(intp, columns * item), ir.Constant(intp, item)]
                ),
                itemsize=ary.itemsize,
                meminfo=None,
            )
            return out._getvalue()

        return values(values, width), codegen

    @njit(cache=True, inline="always")
    def unmanaged_rows(values: np.ndarray, width: int) -> np.ndarray:
        """:func:`unmanaged` for a C-contiguous 2-D array whose rows hold ``width`` items
        (a constant): inlined where ``width`` is a literal or a global, the compiled indexing
        multiplies by the constant rather than by a row length read from memory."""
        return _with_row_width(values, width)


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


def no_runtime(function: Callable[..., Any] | None = None, *, wraparound: bool = True) -> Any:
    """``function`` compiled (and cached) without numba's runtime: no reference counting,
    no allocation. Plain Python under ``NUMBA_DISABLE_JIT=1``.

    ``wraparound=False`` also compiles its array indexing, and that of everything inlined
    into it, without negative indices counting from the end (see below): for code whose
    every index is a position, 0 or more, as it must then be in Python too, so compiled
    and interpreted runs stay identical. ``@no_runtime`` or ``@no_runtime(wraparound=False)``.
    """

    def compile_it(f: Callable[..., Any]) -> Any:
        if not wraparound:
            _NO_WRAPAROUND.add(_mangled_prefix(f))
        return njit(cache=True, _nrt=False)(f)

    return compile_it if function is None else compile_it(function)


def with_runtime(function: Callable[..., Any]) -> Any:
    """``function`` compiled with numba's runtime, also when a :func:`no_runtime` function
    calls it: for the little that allocates."""
    return njit(cache=True, _nrt=True)(function)


# --- indexing without negative-index wraparound -------------------------------------------
#
# numba gives every array index of a signed integer Python's meaning: ``a[-1]`` is the last
# item, so each index costs a compare, an add and a select on the array's length (and keeps
# the length live). In the Yummell race the indices are all positions (players, squares,
# cards, columns) and never negative, yet those checks were about a fifth of a race (perf:
# sign-extensions and reloaded lengths all through the movement loop; measured +24 % races
# per second for the standard workload, +30 % for movement without them). numba has no
# option for it, so its index fix-up is wrapped: for the functions registered by
# ``no_runtime(wraparound=False)``, recognised by the name of the compiled function the
# index is emitted in (an inlined helper is emitted in its caller), an index is used as it
# is; everything else, the exact solver and other games included, compiles as before. With
# boundscheck off (numba's default) a negative index would read outside the array: those
# functions must not use one (the tests compare their races with plain Python's).

_NO_WRAPAROUND: set[str] = set()


def _mangled_prefix(function: Callable[..., Any]) -> str:
    """The start of the symbol numba gives a compilation of ``function``
    (``_ZN8trackkit5games...9play_race`` then its ABI tags and argument types)."""
    name = f"{function.__module__}.{function.__qualname__}"
    return itanium_mangler.PREFIX + itanium_mangler.mangle_identifier(name)[:-1]


def _install_index_fix() -> None:
    original = arrayobj.fix_integer_index
    if getattr(original, "_trackkit", False):
        return

    def fix_integer_index(context, builder, idxty, idx, size):  # type: ignore[no-untyped-def]
        if idxty.signed and builder.function.name.startswith(tuple(_NO_WRAPAROUND)):
            return context.cast(builder, idx, idxty, types.intp)
        return original(context, builder, idxty, idx, size)

    fix_integer_index._trackkit = True  # type: ignore[attr-defined]
    arrayobj.fix_integer_index = fix_integer_index


# --- inlining without copying a callee's scope once per block -------------------------------
#
# Most of the first compile went to numba's inliner, not to LLVM: with the race's turn and
# its helpers inlined (``inline="always"``), numba's own pipeline timings gave 72 of the
# 115 s of compiling ``play_race`` to inlining, and cProfile put four fifths of the whole
# compile in one place, ``InlineWorker.inline_ir``'s ``copy_ir``. It deep-copies a callee's
# blocks one at a time, each with a fresh memo; every variable refers to the function's
# scope, which holds every variable, so each block's copy copies the whole scope again:
# blocks × variables, for every call inlined. Here the inliner's ``copy.deepcopy`` shares one
# memo for the length of one inlining, so the blocks of a copy share one copy of their scope,
# as the blocks they were copied from share one scope. The IR is the same otherwise, and so
# is the compiled code (the tests compare races with plain Python and the golden outputs);
# ``play_race`` compiled in 41 s instead of 115 (numba 0.68).


class _OneMemoCopy:
    """The ``copy`` module as numba's inliner sees it during one inlining: ``deepcopy``
    shares one memo, so the blocks of a callee's copy share one copy of their scope."""

    def __init__(self) -> None:
        self.memo: dict[int, Any] = {}

    def deepcopy(self, value: Any, memo: dict[int, Any] | None = None) -> Any:
        return copy.deepcopy(value, self.memo if memo is None else memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _install_inline_copy() -> None:
    from numba.core import inline_closurecall

    original = getattr(inline_closurecall.InlineWorker, "inline_ir", None)
    if original is None or getattr(original, "_trackkit", False):
        return
    if getattr(inline_closurecall, "copy", None) is not copy:
        return  # another numba: its inliner copies otherwise; leave it as it is

    def inline_ir(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        inline_closurecall.copy = _OneMemoCopy()  # numba compiles under its global lock
        try:
            return original(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = copy

    inline_ir._trackkit = True  # type: ignore[attr-defined]
    inline_closurecall.InlineWorker.inline_ir = inline_ir


if not config.DISABLE_JIT:
    _install_index_fix()
    _install_inline_copy()


# --- a compiled engine's cache kept fresh ---------------------------------------------------
#
# numba's cache (``cache=True``) checks only the file of the function it compiled: a change
# to a function inlined into it from another module (a rule, a policy, a constant of the
# state) leaves the cached engine as it was, and races go on by the old code without a word.
# So each game's engine folder carries a stamp of all its sources, and a changed stamp drops
# the folder's compiled files before numba reads them.

STAMP = "numba-sources.sha256"


def fresh_cache(folder: Path) -> bool:
    """Drop the compiled files of the engine in ``folder`` (its ``__pycache__`` folders, or
    ``NUMBA_CACHE_DIR``'s copy of them) when any of its sources changed since they were
    compiled; True when it dropped them. A folder that cannot be written is left as it is."""
    import hashlib
    import os

    sources = sorted(folder.rglob("*.py"))
    digest = hashlib.sha256(Path(__file__).read_bytes())  # this module's intrinsics too
    for path in sources:
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    stamp_text = digest.hexdigest()
    root = os.environ.get("NUMBA_CACHE_DIR")
    dirs = sorted({path.parent.resolve() for path in sources})
    if root:  # where numba puts a folder's files there (numba.core.caching)
        caches = [
            Path(root) / f"{d.name}_{hashlib.sha1(str(d).encode()).hexdigest()}" for d in dirs
        ]
    else:
        caches = [d / "__pycache__" for d in dirs]
    stamp = caches[0] / STAMP
    try:
        if stamp.is_file() and stamp.read_text("ascii").strip() == stamp_text:
            return False
        dropped = False
        for cache in {c for c in caches if c.is_dir()}:
            for compiled in [*cache.rglob("*.nbi"), *cache.rglob("*.nbc")]:
                compiled.unlink(missing_ok=True)
                dropped = True
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(stamp_text + "\n", "ascii")
        return dropped
    except OSError:  # a read-only install: its files are as it was built
        return False


def _sha1(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode()).hexdigest()
