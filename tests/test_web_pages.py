"""The generic layout and the replay in a real headless Chromium: Seven and a Half and Rumino
(games with no layout of their own) reached to the seat's first decision through
``p2pcards host --web`` with a bot joining, the decision made by clicking; and
``p2pcards show TRANSCRIPT --web`` stepped hand by hand."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from attacks import recorded_match, write_transcript
from browser import chromium, screenshot_dir
from web_support import Follower, Peer, deals_to_seats

PATIENCE = 90.0
"""Seconds a wait for the page may last before the test fails as hung (never a timing check)."""


def _wait(driver: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    found: list[Any] = WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, css))
    return found


def _log(driver: Any) -> list[str]:
    lines: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#log li')].map((e) => e.textContent);")
    return lines


@pytest.mark.browser
@pytest.mark.parametrize("game", ["sette-e-mezzo", "rumino"])
def test_a_game_without_its_own_layout_is_played_by_clicking_its_moves(
        tmp_path: Path, game: str) -> None:
    from selenium.webdriver.common.by import By

    host = Peer(["host", "--game", game, "--players", "2", "--seed", "21",
                 "--insecure-public-keys", "--listen", "127.0.0.1:0", "--web", "--no-browser",
                 "--transcript", str(tmp_path / "host.p2pt")], tmp_path / "host-home")
    bot = None
    try:
        url = host.wait_for(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)").group(1)
        invite = host.wait_for(r"^p2pcards join (\S+)$").group(1)
        bot = Peer(["join", invite, "--bot", "--seed", "22", "--insecure-public-keys",
                    "--accept", "--transcript",
                    str(tmp_path / "bot.p2pt")], tmp_path / "bot-home")
        with chromium() as driver:
            driver.get(url)
            _wait(driver, "#moves .move")
            assert driver.execute_script("return document.body.dataset.layout") == "generic"
            truth = Follower(tmp_path / "host.p2pt").observation()
            shown = [e.get_attribute("data-code")
                     for e in driver.find_elements(By.CSS_SELECTOR, "#hand > .cards .card")]
            if game == "rumino":  # seven cards each, the upcard face up, drawn as a card
                assert len(shown) == truth["hand_sizes"][0] == 7
                assert [e.get_attribute("data-code") for e in driver.find_elements(
                    By.CSS_SELECTOR, "#zone-upcard .card")] == [truth["upcard"]]
                buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
                assert {b.text for b in buttons} == {"draw stock", "draw upcard"}
                driver.save_screenshot(str(screenshot_dir() / "web-rumino-first.png"))
                next(b for b in buttons if b.text == "draw upcard").click()
                expected = "you: draw upcard"
            else:  # the banker announces the limits: a run of amounts is one picker
                assert not shown
                assert driver.find_elements(By.CSS_SELECTOR, "#chips tr")
                picker = driver.find_element(By.CSS_SELECTOR, ".amount input")
                low, high = int(picker.get_attribute("min")), int(picker.get_attribute("max"))
                assert low == 1 and high > low
                picker.clear()
                picker.send_keys(str(low + 2))
                driver.save_screenshot(str(screenshot_dir() / "web-sette-e-mezzo-first.png"))
                driver.find_element(By.CSS_SELECTOR, ".amount button").click()
                expected = f"you: minimum {low + 2}"
            from selenium.webdriver.support.ui import WebDriverWait

            WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(
                lambda d: any(line.endswith(expected) for line in _log(d)))
    finally:
        for peer in (host, bot):
            if peer is not None and peer.process.poll() is None:
                peer.process.kill()


@pytest.mark.browser
def test_show_web_steps_through_a_recorded_match_hand_by_hand(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    run = recorded_match("briscola", "italian", 2, 4)
    path = write_transcript(tmp_path / "match.p2pt", run.genesis, run.frames)
    show = Peer(["show", str(path), "--web", "--no-browser"], tmp_path / "home")
    try:
        steps = int(show.wait_for(r"(\d+) steps; verified: the transcript is valid").group(1))
        url = show.wait_for(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)").group(1)
        with chromium() as driver:
            driver.get(url)
            position = _wait(driver, "#replay-position")[0]
            assert position.text == f"step 1 of {steps}"
            assert "valid" in driver.find_element(By.CSS_SELECTOR, "#end .verdict").text
            driver.find_element(By.ID, "replay-next").click()
            driver.find_element(By.ID, "replay-next").click()
            assert driver.find_element(By.ID, "replay-position").text == f"step 3 of {steps}"
            # after the deal both hands are revealed (the audit showed every card)
            hands = {e.get_attribute("data-seat"): [c.get_attribute("data-code") for c in
                                                     e.find_elements(By.CSS_SELECTOR, ".card")]
                     for e in driver.find_elements(By.CSS_SELECTOR, "#hand .revealed")}
            assert set(hands) == {"0", "1"} and 4 <= sum(map(len, hands.values())) <= 6
            dealt = deals_to_seats(path, [0, 1])
            for seat, cards in hands.items():
                assert set(cards) <= dealt[int(seat)][1], (seat, cards)
            driver.save_screenshot(str(screenshot_dir() / "web-show-step.png"))
            driver.find_element(By.ID, "replay-next-hand").click()
            title = driver.find_element(By.ID, "title").text
            assert title.endswith("hand 2"), title
            driver.find_element(By.ID, "replay-last").click()
            assert driver.find_element(By.ID, "replay-position").text == \
                f"step {steps} of {steps}"
            scores = [int(e.text) for e in driver.find_elements(
                By.CSS_SELECTOR, "#scores table.scores td.points")]
            assert scores == list(run.match_scores)
            driver.find_element(By.ID, "replay-prev-hand").click()
            assert driver.find_element(By.ID, "title").text.endswith("hand 2")
            driver.get("about:blank")
        assert show.finish() == 0, show.output()
    finally:
        if show.process.poll() is None:
            show.process.kill()


def test_show_web_refuses_json_and_a_missing_file(tmp_path: Path) -> None:
    import subprocess

    missing = subprocess.run([sys.executable, "-m", "p2pcards", "show",
                              str(tmp_path / "none.p2pt"), "--web"],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    run = recorded_match("scopa", "classic", 2, 2)
    path = write_transcript(tmp_path / "m.p2pt", run.genesis, run.frames)
    both = subprocess.run([sys.executable, "-m", "p2pcards", "show", str(path), "--web",
                           "--json"], capture_output=True, text=True)
    assert both.returncode == 2
    assert re.fullmatch(r"p2pcards: [^\n]+\n", both.stderr), both.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["host", "--web", "--bot"], "--web is for a person at the seat"),
    (["join", "p2pcards://127.0.0.1:9/00#AAAA", "--web", "--bot"],
     "--web is for a person at the seat"),
    (["host", "--no-browser"], "--no-browser goes with --web"),
])
def test_web_flags_that_cannot_work_are_refused_in_one_sentence(
        tmp_path: Path, args: list[str], says: str) -> None:
    import os
    import subprocess

    env = dict(os.environ, P2PCARDS_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "p2pcards", *args], capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert re.fullmatch(r"p2pcards: [^\n]+\n", done.stderr), done.stderr
    assert says in done.stderr
