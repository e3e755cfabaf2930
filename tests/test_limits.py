"""The cost limits: the command line's values, the app's stricter ones, the operator's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trackkit import limits
from trackkit.limits import CostLimitError, Limit

LIMITS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "limits.md"

SAMPLE = Limit(
    key="sample",
    what="widgets",
    cli=1_000,
    app=100,
    env="TRACKKIT_APP_TEST_WIDGETS",
    fix="ask for fewer widgets",
)


@pytest.fixture
def app_limits():
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


def test_the_command_line_gets_its_own_value() -> None:
    assert not limits.serving_app()
    SAMPLE.check(1_000, "this")
    with pytest.raises(CostLimitError, match=r"this would need 1,001 widgets; the limit is 1,000"):
        SAMPLE.check(1_001, "this")


def test_the_app_is_stricter_and_the_operator_may_set_it(app_limits, monkeypatch) -> None:
    assert SAMPLE.value() == 100
    with pytest.raises(CostLimitError, match="ask for fewer widgets"):
        SAMPLE.check(101, "this")
    monkeypatch.setenv(SAMPLE.env, "5_000")
    assert SAMPLE.value() == 5_000
    for unusable in ("", "0", "-3", "lots", "1e9"):
        monkeypatch.setenv(SAMPLE.env, unusable)
        assert SAMPLE.value() == 100, unusable


def test_every_limit_is_stricter_in_the_app_and_listed_in_the_docs() -> None:
    text = LIMITS_PAGE.read_text("utf-8")
    found = limits.registered()
    assert found, "no limit is registered"
    for limit in found:
        assert 1 <= limit.app <= limit.cli, limit.key
        assert limit.env.startswith("TRACKKIT_APP_"), limit.key
        row = re.search(rf"^\|\s*`{limit.key}`.*$", text, re.MULTILINE)
        assert row, f"the Limits table of docs/limits.md has no row for {limit.key}"
        assert f"{limit.cli:,}" in row.group(0) and f"{limit.app:,}" in row.group(0), limit.key
        assert f"`{limit.env}`" in row.group(0), limit.key
