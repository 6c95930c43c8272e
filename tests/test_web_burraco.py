"""Burraco in a real headless Chromium, through ``p2pcards host --web`` with bots in the other
seats: after the draw, every meld button is on screen without scrolling on a 1280x800 page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import chromium, screenshot_dir
from web_support import Peer

PATIENCE = 120.0
"""Seconds a wait for the page may last before the test fails as hung (never a timing check)."""

WIDTH, HEIGHT = 1280, 800


def _wait(driver: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    found: list[Any] = WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, css))
    return found


def _host(tmp_path: Path, game: str, players: int, seed: int) -> tuple[Peer, str]:
    host = Peer(["host", "--game", game, "--players", str(players), "--bots",
                 str(players - 1), "--seed", str(seed), "--insecure-public-keys",
                 "--listen", "127.0.0.1:0", "--web",
                 "--no-browser", "--transcript", str(tmp_path / "host.p2pt")],
                tmp_path / "host-home")
    url = host.wait_for(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)").group(1)
    return host, url


MELD_BOXES = """
return [...document.querySelectorAll('#moves button.move')]
  .filter((b) => b.textContent.startsWith('meld'))
  .map((b) => { const r = b.getBoundingClientRect(); return [b.textContent, r.top, r.bottom]; });
"""


@pytest.mark.browser
def test_burraco_meld_buttons_are_on_screen_at_1280_by_800(tmp_path: Path) -> None:
    host, url = _host(tmp_path, "burraco", 4, 5)
    try:
        with chromium() as driver:
            driver.set_window_size(WIDTH, HEIGHT)
            driver.get(url)
            draw = next(b for b in _wait(driver, "#moves button.move") if b.text == "draw")
            draw.click()
            from selenium.webdriver.support.ui import WebDriverWait

            boxes = WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
                lambda d: d.execute_script(MELD_BOXES))
            driver.execute_script("window.scrollTo(0, 0)")  # the page as it opens, unscrolled
            boxes = driver.execute_script(MELD_BOXES)
            visible = driver.execute_script("return window.innerHeight")
            assert visible >= HEIGHT - 150
            driver.save_screenshot(str(screenshot_dir() / "web-burraco-melds.png"))
            assert [b for b in boxes if not 0 <= b[1] < b[2] <= visible] == [], (visible, boxes)
    finally:
        host.process.kill()
