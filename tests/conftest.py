"""Shared pytest configuration: the ``slow`` and ``browser`` markers and the ``--slow`` option.

Tests marked ``@pytest.mark.slow`` (whole matches of the non-default presets, about a minute on
two cores) are skipped by a plain ``pytest`` run; ``pytest --slow`` (or ``-m slow``) runs them.
``pytest -m "not slow"`` is the same fast selection as the default. The slow cases of the
network lab (``LAB_FILES``) are the exception where the lab is required
(``P2PCARDS_REQUIRE_NETLAB=1``, which ``.ci/run`` sets): there they always run, so every case
of direct play across routers is checked by CI.

The suite runs on three pytest-xdist workers (``-n 3 --dist loadfile --no-loadscope-reorder`` in
``pyproject.toml``: a test file stays on one worker, so its module fixtures are built once, and
the files are handed out in the order :func:`longest_first` gives them). Three on a 2-core
machine, because many process tests spend seconds waiting for a timer (a liveness limit, a
code's expiry, a reconnect) during which a third worker uses the idle core; ``pytest -n 0`` runs
it in one process. Tests therefore never share a port, a file outside ``tmp_path`` or a
``P2PCARDS_HOME``.

The ``p2pcards`` processes the tests start (``Peer`` of ``test_net_processes.py`` and
``web_support.py``, ``RelayProcess``) are forked by ``tests/starter.py`` from two interpreters
per test process that have already imported the package, and run as ``python -m p2pcards``
runs; ``P2PCARDS_TEST_START=spawn`` starts each as ``python -m p2pcards`` instead.

Tests marked ``@pytest.mark.browser`` drive a headless Chromium (``tests/browser.py``). Where no
browser is installed they are skipped, and the run ends with one sentence that says so and how
to install it; with ``P2PCARDS_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) they run anyway and
fail with that sentence, so CI never skips them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from browser import SKIP_PREFIX, browser_required, missing_browser
from hypothesis import HealthCheck, settings
from netlab import REQUIRE_ENV as NETLAB_REQUIRED


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    _keep_compiled_bytecode_outside_the_tree()
    config.addinivalue_line(
        "markers", "slow: long whole-match tests, skipped unless --slow or -m selects them")
    config.addinivalue_line(
        "markers", "browser: drives a headless Chromium; skipped where none is installed, "
        "unless P2PCARDS_REQUIRE_BROWSER=1")


_BYTECODE_DIRECTORY: list[str] = []
"""The directory :func:`_keep_compiled_bytecode_outside_the_tree` made, removed at the end."""


def _keep_compiled_bytecode_outside_the_tree() -> None:
    """Where the environment forbids writing bytecode (``PYTHONDONTWRITEBYTECODE``), every
    ``python -m p2pcards`` a test starts would compile each module it imports afresh (about
    half a second of CPU a process, hundreds of processes a run). For this run the tests and
    the processes they start (which inherit the environment, the xdist workers too) keep
    their bytecode in one fresh directory outside the source tree instead
    (``PYTHONPYCACHEPREFIX``), removed when the run ends; the tree stays as clean as the
    setting wants it. Nothing a process does depends on where its bytecode comes from."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    directory = tempfile.mkdtemp(prefix="p2pcards-tests-bytecode-")
    _BYTECODE_DIRECTORY.append(directory)
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = directory
    sys.pycache_prefix = directory
    sys.dont_write_bytecode = False


def pytest_unconfigure(config: pytest.Config) -> None:
    for directory in _BYTECODE_DIRECTORY:
        shutil.rmtree(directory, ignore_errors=True)


LONGEST_FILES = (
    "test_conformance.py", "test_resume_table.py", "test_dropout_bot.py", "test_demo.py",
    "test_languages.py", "test_direct_lab.py", "test_relay_play.py",
    "test_resume_seats_processes.py", "test_rematch_processes.py", "test_leave_processes.py",
    "test_relay_caps_processes.py",
    "test_resume_processes.py", "test_recover_processes.py", "test_dropout_processes.py",
    "test_liveness.py", "test_dropout_bot_property.py", "test_web_match.py",
    "test_net_processes.py", "test_reentry_processes.py", "test_web_pages.py",
    "test_shared_home_processes.py", "test_net_matches.py", "test_codes.py",
    "test_resume_guard_processes.py", "test_portmap_lab.py", "test_complaint_processes.py",
    "test_web_resume.py", "test_web_burraco.py", "test_web_rumino_claim.py", "test_web_hub.py",
    "test_partner_processes.py", "test_relay_gone_processes.py", "test_candidates.py",
    "test_netlab.py",
)
"""The test files that run real processes or whole matches (between processes or in memory),
longest first as measured file by file (their CPU time in one process, children included, for
the files measured; the others keep their earlier places): collected first, so that ``--dist
loadfile`` (with ``--no-loadscope-reorder``, which keeps this order instead of sorting files by
their number of tests) starts them early, instead of leaving a long file of few tests to run
alone at the end while the other worker idles."""


settings.register_profile("loaded", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("loaded")
"""Property tests run on loaded machines (other workers, process tests beside them): no
example is failed for its time, and data generation that a busy machine makes slow is not a
failure either. What each property checks is unchanged."""


LAB_FILES = frozenset({"test_direct_lab.py", "test_portmap_lab.py"})
"""The files of whole matches in the network lab of namespaces: their slow cases run whenever
the lab is required, with or without ``--slow``."""


def longest_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` in place: the files of :data:`LONGEST_FILES` first, in that order,
    then every other file in collection order (a stable sort, the same in every worker)."""
    rank = {name: position for position, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_collection(session: pytest.Session) -> None:
    """In an xdist worker, import the test files from this worker's share of the list onward
    first (worker ``i`` of ``n`` starts ``i/n`` of the way in), then let the collection import
    the rest in its order. pytest rewrites the asserts of every test file it imports (several
    seconds of CPU over the whole suite) and keeps the result beside the bytecode; the workers
    start together, so in the same order each would rewrite every file itself, and this way
    each rewrites about its own share and finds the others' already kept. What is collected,
    and in which order, is the same in every worker."""
    share = _worker_share()
    if share is None:
        return
    files = sorted(Path(__file__).parent.glob("test_*.py"))
    for path in files[len(files) * share[0] // share[1]:]:
        with contextlib.suppress(Exception):  # the collection reports the failure itself
            importlib.import_module(path.stem)


def _worker_share() -> tuple[int, int] | None:
    """This xdist worker's number and the number of workers (``None`` outside a worker)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if not worker.startswith("gw") or not worker[2:].isdigit() or not count.isdigit():
        return None
    return int(worker[2:]), int(count)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    longest_first(items)
    _skip_browser_tests_without_a_browser(items)
    if config.getoption("--slow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with pytest --slow")
    lab_required = os.environ.get(NETLAB_REQUIRED) == "1"
    for item in items:
        if "slow" in item.keywords and not (lab_required and item.path.name in LAB_FILES):
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
