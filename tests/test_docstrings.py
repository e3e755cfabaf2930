"""The ``>>>`` examples in the package's docstrings run, and hold.

(``pytest --doctest-modules`` would collect the three ``conftest.py`` files of ``tests/``
as modules of one name; running the examples module by module here avoids that.)
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import trackkit

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(trackkit.__path__, "trackkit.")
    if not info.name.startswith("trackkit.app")  # pages run Streamlit code when imported
)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_modules_docstrings_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {name}"


def test_the_examples_are_found() -> None:
    """A change that stopped the examples from being found would leave nothing checked."""
    attempted = sum(
        doctest.testmod(importlib.import_module(name), verbose=False).attempted for name in MODULES
    )
    assert attempted >= 30
