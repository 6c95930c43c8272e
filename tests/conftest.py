"""Shared pytest configuration: the ``slow`` and ``browser`` markers and the ``--slow`` option.

Tests marked ``@pytest.mark.slow`` (whole matches of the non-default presets, about a minute on
two cores) are skipped by a plain ``pytest`` run; ``pytest --slow`` (or ``-m slow``) runs them.
``pytest -m "not slow"`` is the same fast selection as the default.

The suite runs on two pytest-xdist workers (``-n 2 --dist loadfile`` in ``pyproject.toml``: a
test file stays on one worker, so its module fixtures are built once); ``pytest -n 0`` runs it
in one process. Tests therefore never share a port, a file outside ``tmp_path`` or a
``P2PCARDS_HOME``.

Tests marked ``@pytest.mark.browser`` drive a headless Chromium (``tests/browser.py``). Where no
browser is installed they are skipped, and the run ends with one sentence that says so and how
to install it; with ``P2PCARDS_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) they run anyway and
fail with that sentence, so CI never skips them.
"""

from __future__ import annotations

import pytest
from browser import SKIP_PREFIX, browser_required, missing_browser


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: long whole-match tests, skipped unless --slow or -m selects them")
    config.addinivalue_line(
        "markers", "browser: drives a headless Chromium; skipped where none is installed, "
        "unless P2PCARDS_REQUIRE_BROWSER=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _skip_browser_tests_without_a_browser(items)
    if config.getoption("--slow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with pytest --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _skip_browser_tests_without_a_browser(items: list[pytest.Item]) -> None:
    """Mark the browser tests skipped, with :func:`missing_browser`'s sentence, when there is
    no browser and none is required; they then start no process at all."""
    missing = missing_browser()
    if missing is None or browser_required():
        return
    skip = pytest.mark.skip(reason=missing)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """End the run with one line when browser tests were skipped for want of a browser."""
    skipped = [report for report in terminalreporter.stats.get("skipped", [])
               if SKIP_PREFIX in str(getattr(report, "longrepr", ""))]
    if skipped:
        missing = missing_browser() or SKIP_PREFIX
        tests = "test" if len(skipped) == 1 else "tests"
        terminalreporter.write_line(f"{len(skipped)} browser {tests} skipped, {missing}.",
                                    yellow=True, bold=True)
