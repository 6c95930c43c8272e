"""Whole 2-player matches clicked through in a real headless Chromium: ``p2pcards host --web``
is a real process, a bot joins it as another real process, and the test plays the host's seat
by clicking the page. At every decision what the page shows is checked against the engine (an
observer table following the host's transcript: the table, the trick, the opponent's card count,
the scores); after the match, every hand the page showed against the cards the audited
transcript says were dealt to the seat, and the final scores and verdict against the verifier.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser import chromium, screenshot_dir
from web_support import Follower, Peer, deals_to_seat

from p2pcards.verify import verify_transcript

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PATIENCE = 90.0
"""Seconds a wait for the page may last before the test fails as hung (never a timing check)."""


def start_table(tmp_path: Path, game: str, variant: str, seed: int,
                *bot_args: str) -> tuple[Peer, Peer, str]:
    """A host with ``--web --no-browser`` and a bot joining it (with ``bot_args`` too); the
    page's address."""
    host = Peer(["host", "--game", game, "--variant", variant, "--players", "2", "--seed",
                 str(seed), "--insecure-public-keys", "--listen", "127.0.0.1:0", "--name",
                 "Alice", "--web", "--no-browser", "--transcript", str(tmp_path / "host.p2pt")],
                tmp_path / "host-home")
    url = host.wait_for(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)").group(1)
    invite = host.wait_for(r"^p2pcards join (\S+)$").group(1)
    bot = Peer(["join", invite, "--bot", "--seed", str(seed + 1), "--insecure-public-keys",
                "--accept", "--name", "Bot",
                "--transcript", str(tmp_path / "bot.p2pt"), *bot_args], tmp_path / "bot-home")
    return host, bot, url


def codes(driver: Any, css: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.get_attribute("data-code") for e in driver.find_elements(By.CSS_SELECTOR, css)]


def page_state(driver: Any) -> dict[str, Any]:
    """What the page shows, read in one go by the browser (no stale elements)."""
    script = """
      const cards = (css) => [...document.querySelectorAll(css)].map((e) => e.dataset.code);
      const scores = [...document.querySelectorAll('#scores table.scores:not(#chips) tr')]
        .map((r) => Number(r.querySelector('td.points').textContent));
      const seats = {};
      for (const s of document.querySelectorAll('#seats .seat')) {
        seats[s.dataset.seat] = s.querySelectorAll('.backs .card').length;
      }
      return {title: document.getElementById('title').textContent,
              hand: cards('#hand > .cards .card'), table: cards('#zone-table .card'),
              trick: cards('#zone-trick .card'), trump: cards('#zone-trump_card .card'),
              playable: cards('#hand .card.playable'), seats: seats, scores: scores,
              moves: [...document.querySelectorAll('#moves button.move')].length,
              end: document.querySelector('#end') !== null};
    """
    state: dict[str, Any] = driver.execute_script(script)
    return state


def wait_turn(driver: Any) -> dict[str, Any]:
    """The page's state once it asks for a move or shows the end."""
    from selenium.webdriver.support.ui import WebDriverWait

    found: list[dict[str, Any]] = []

    def ready(d: Any) -> bool:
        state = page_state(d)
        if state["end"] or state["playable"] or state["moves"]:
            found.append(state)
            return True
        return False

    WebDriverWait(driver, PATIENCE, poll_frequency=0.02).until(ready)
    return found[-1]


def click_move(driver: Any, rng: random.Random, state: dict[str, Any]) -> None:
    """Click a playable card of the hand (and, when it has several captures, one of them)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    code = rng.choice(state["playable"])
    driver.find_element(By.CSS_SELECTOR, f'#hand .card.playable[data-code="{code}"]').click()
    choices = driver.find_elements(By.CSS_SELECTOR, "#moves button.move[data-index]")
    if choices:  # the capture chooser: each choice shows the table cards it takes
        choice = rng.choice(choices)
        taken = [e.get_attribute("data-code")
                 for e in choice.find_elements(By.CSS_SELECTOR, ".mini .card")]
        assert taken and set(taken) <= set(state["table"])
        shot = screenshot_dir() / "web-scopa-choice.png"
        if not shot.exists():
            ActionChains(driver).move_to_element(choice).perform()  # lifts the cards it takes
            driver.save_screenshot(str(shot))
        choice.click()


def play_match(tmp_path: Path, game: str, variant: str, seed: int,
               check: Callable[[dict[str, Any], dict[str, Any]], None]) -> None:
    host, bot, url = start_table(tmp_path, game, variant, seed)
    rng = random.Random(seed)
    follower = Follower(tmp_path / "host.p2pt")
    seen_hands: list[tuple[int, list[str]]] = []
    shots = screenshot_dir()
    try:
        with chromium() as driver:
            driver.get(url)
            decisions = 0
            while True:
                state = wait_turn(driver)
                if state["end"]:
                    break
                truth = follower.observation()
                hand_number = int(state["title"].rpartition(" ")[2])
                assert hand_number == truth["hand_number"] + 1
                assert len(state["hand"]) == truth["hand_sizes"][0]
                assert state["seats"]["1"] == truth["hand_sizes"][1]
                assert state["scores"] == list(truth["match_scores"])
                assert set(state["playable"]) <= set(state["hand"])
                check(state, truth)
                seen_hands.append((hand_number, state["hand"]))
                if decisions == 3:
                    driver.save_screenshot(str(shots / f"web-{game}-play.png"))
                click_move(driver, rng, state)
                decisions += 1
            from selenium.webdriver.common.by import By
            from selenium.webdriver.support.ui import WebDriverWait

            WebDriverWait(driver, PATIENCE).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "#end .verdict"))
            verdict = driver.find_element(By.CSS_SELECTOR, "#end .verdict").text
            path = driver.find_element(By.CSS_SELECTOR, "#end .path code").text
            final = page_state(driver)
            driver.save_screenshot(str(shots / f"web-{game}-end.png"))
            driver.get("about:blank")  # the page is closed: the host may end
        assert host.finish() == 0, host.output()
        assert bot.finish() == 0, bot.output()
    finally:
        for peer in (host, bot):
            if peer.process.poll() is None:
                peer.process.kill()
    report = verify_transcript(tmp_path / "host.p2pt")
    assert report.status == "valid"
    assert "valid" in verdict and Path(path) == (tmp_path / "host.p2pt").absolute()
    assert final["scores"] == list(report.scores)
    assert decisions >= 10
    dealt = deals_to_seat(tmp_path / "host.p2pt", 0)
    for number, hand in seen_hands:
        assert set(hand) <= dealt[number], (number, hand)
    assert "your table's page" in host.output() and "transcript (complete)" in host.output()
    assert "— hand 1 begins" in host.output()  # the terminal keeps printing the log


@pytest.mark.browser
def test_a_whole_scopa_match_clicked_in_chromium(tmp_path: Path) -> None:
    def check(state: dict[str, Any], truth: dict[str, Any]) -> None:
        assert sorted(state["table"]) == sorted(truth["table"])

    play_match(tmp_path, "scopa", "classic", 11, check)


@pytest.mark.browser
def test_a_whole_briscola_match_clicked_in_chromium(tmp_path: Path) -> None:
    def check(state: dict[str, Any], truth: dict[str, Any]) -> None:
        assert state["trick"] == [card for _, card in truth["trick"]]
        if truth["trump_card"] is not None:
            assert state["trump"] == [truth["trump_card"]]

    play_match(tmp_path, "briscola", "italian", 5, check)
