"""Shared pytest configuration: the ``slow`` marker.

Tests marked ``@pytest.mark.slow`` (whole matches of every preset and player count) run by
default; ``pytest -m "not slow"`` skips them for a fast run.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: long whole-match tests; deselect with -m 'not slow'")
