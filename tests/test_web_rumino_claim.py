"""Rumino's out-of-turn claim clicked in a real headless Chromium: an in-memory Rumino match
with real mental poker (:class:`attacks.Driver`) is steered to a real claim window of seat 0
(:mod:`rumino_steering`), seat 0's page is served by the real page server, Chromium clicks the
claim, and every table applies it: the rumino wins the match and the transcript verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio
from attacks import Driver, write_transcript
from browser import chromium, screenshot_dir
from rumino_steering import Plan, Steer

from p2pcards.faces.web.hub import SeatPage
from p2pcards.faces.web.server import start_web_server
from p2pcards.verify import verify_transcript

PATIENCE = 120.0
"""Seconds a wait for the page may last before the test fails as hung (never a timing check)."""

CLAIM_BUTTONS = "#moves button.move[data-kind='claim']"


def click_the_claim(url: str, shot: Path) -> list[str]:
    """In Chromium: open ``url``, wait for the claim buttons, click the first, and wait until
    the page no longer offers a claim; the buttons' texts."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with chromium() as driver:
        driver.get(url)
        buttons: Any = WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, CLAIM_BUTTONS))
        texts = [b.text for b in buttons]
        assert driver.find_element(By.ID, "let-pass").is_displayed()
        assert "a claim is open to you" in driver.find_element(By.ID, "turn").text
        driver.save_screenshot(str(shot))
        buttons[0].click()
        WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
            lambda d: not d.find_elements(By.CSS_SELECTOR, CLAIM_BUTTONS))
        return texts


@pytest.mark.browser
async def test_a_rumino_claim_is_clicked_and_wins_the_match(tmp_path: Path) -> None:
    plan = Plan()
    driver = Driver.new("rumino", "classic", 3, 1, bot="random")
    driver.bots = [Steer(seat, plan) for seat in range(3)]
    driver.run_until(lambda d: bool(d.tables[0].claim_actions()))
    table = driver.tables[0]
    claims = table.claim_actions()
    page = SeatPage()
    player = page.attach(driver.genesis, 0)
    assert player.claim is not None
    player.show(table, [])
    async with trio.open_nursery() as nursery:
        server = await start_web_server(nursery, page)
        clicked: list[str] = []

        async def browse() -> None:
            clicked.extend(await trio.to_thread.run_sync(
                click_the_claim, server.url, screenshot_dir() / "web-rumino-claim.png"))

        async with trio.open_nursery() as both:
            both.start_soon(browse)
            choice = await player.claim(table)
        server.stop()
    assert choice == claims[0] and clicked[0].startswith("claim ")
    driver._queue(0, table.claim(choice).outgoing)
    driver.run_out()
    assert all(t.finished for t in driver.tables) and not driver.violations
    rumino = driver.tables[1].observation()["rumino"]
    assert rumino["seat"] == 0 and rumino["claimed"]
    path = write_transcript(tmp_path / "claim.p2pt", driver.genesis, driver.log)
    report = verify_transcript(path)
    assert report.status == "valid" and report.winner_side == 0
