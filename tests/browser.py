"""A real headless Chromium for the browser tests, driven by Selenium.

``.ci/run`` installs Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and the ``selenium`` package. On a machine without them the browser
tests are skipped, and the run ends with one sentence saying so (``tests/conftest.py``); with
``P2PCARDS_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser fails them instead, so CI
never skips them. :func:`chromium` starts the browser
with the flags a closed sandbox needs (no sandbox as root, no GPU, no background traffic, a
fresh profile directory) and quits it afterwards. :func:`screenshot_dir` is where tests save
their screenshots (``P2PCARDS_SCREENSHOTS``, else ``tests/screenshots/`` under the repository,
which git ignores).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("P2PCARDS_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("P2PCARDS_CHROMEDRIVER", "/usr/bin/chromedriver")

FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1280,900",
)


REQUIRE_ENV = "P2PCARDS_REQUIRE_BROWSER"
"""Set to ``1`` (as ``.ci/run`` does) to fail, not skip, the browser tests without a browser."""

SKIP_PREFIX = "no browser for the browser tests"


def browser_required() -> bool:
    """Whether a missing browser fails the browser tests (:data:`REQUIRE_ENV` is set and not
    ``0``)."""
    return os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0")


def missing_browser() -> str | None:
    """One sentence naming what is missing (the browser, its driver or Selenium) and how to
    install it, or ``None`` when everything is there."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]
    if importlib.util.find_spec("selenium") is None:
        missing.append("the selenium package")
    if not missing:
        return None
    return (f"{SKIP_PREFIX}: {' and '.join(missing)} not found; install Chromium and its "
            "driver (Debian/Ubuntu: apt-get install chromium chromium-driver) to run them")


def require_chromium() -> None:
    """Skip the calling test with :func:`missing_browser`'s sentence when the browser is
    missing, or fail with it when :func:`browser_required`."""
    missing = missing_browser()
    if missing is None:
        return
    if browser_required():
        pytest.fail(f"{missing} ({REQUIRE_ENV} is set, so they may not be skipped)")
    pytest.skip(missing)


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium under Selenium (``selenium.webdriver.Chrome``), quit on exit."""
    require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="p2pcards-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_dir() -> Path:
    """The directory for screenshots, created if needed."""
    root = os.environ.get("P2PCARDS_SCREENSHOTS")
    path = Path(root) if root else Path(__file__).resolve().parent / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
