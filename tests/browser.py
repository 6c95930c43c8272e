"""A real headless Chromium for the browser tests, driven by Selenium.

``.ci/run`` installs Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and the ``selenium`` package; :func:`chromium` starts the browser
with the flags a closed sandbox needs (no sandbox as root, no GPU, no background traffic, a
fresh profile directory) and quits it afterwards. :func:`screenshot_dir` is where tests save
their screenshots (``P2PCARDS_SCREENSHOTS``, else ``tests/screenshots/`` under the repository,
which git ignores).
"""

from __future__ import annotations

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


def require_chromium() -> None:
    """Fail (not skip) with one sentence when the browser is missing: ``.ci/run`` installs it,
    so a missing browser is a broken install, not a reason to pass."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if shutil.which(path) is None:
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver "
                        "(apt-get install -y chromium chromium-driver), as .ci/run does")


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
