"""Shared pytest configuration: the ``slow`` marker and the ``--slow`` option.

Tests marked ``@pytest.mark.slow`` (whole matches of the non-default presets, about a minute on
two cores) are skipped by a plain ``pytest`` run; ``pytest --slow`` (or ``-m slow``) runs them.
``pytest -m "not slow"`` is the same fast selection as the default.

The suite runs on two pytest-xdist workers (``-n 2 --dist loadfile`` in ``pyproject.toml``: a
test file stays on one worker, so its module fixtures are built once); ``pytest -n 0`` runs it
in one process. Tests therefore never share a port, a file outside ``tmp_path`` or a
``P2PCARDS_HOME``.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: long whole-match tests, skipped unless --slow or -m selects them")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with pytest --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
