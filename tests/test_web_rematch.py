"""Two matches in a row clicked in a real headless Chromium: ``p2pcards host --web`` is a real
process, a bot that would play three matches (``--rematch 3``) joins it as another, and the
test plays the host's seat from the page: every move, then "play again" after the first match
and "no thanks" after the second. The page shows the series tally after each match and the link's
``connection:`` line in its status bar; each match's transcript verifies."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser import chromium, screenshot_dir
from test_web_match import PATIENCE, start_table
from web_support import Peer

from p2pcards.verify import verify_transcript

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STATE = """
  const series = document.querySelector('#series');
  return {
    playable: [...document.querySelectorAll('#hand .card.playable')].map((e) => e.dataset.code),
    again: document.querySelector('#again-yes') !== null,
    end: document.querySelector('#end .verdict') !== null,
    played: series ? Number(series.dataset.played) : 0,
    wins: series ? [...series.querySelectorAll('td.wins')].map((e) => Number(e.textContent)) : [],
    links: [...document.querySelectorAll('#links .link')].map((e) => e.textContent),
  };
"""


def next_question(driver: Any) -> dict[str, Any]:
    """The page's state once it asks for a move, asks to play again, or shows the end."""
    from selenium.webdriver.support.ui import WebDriverWait

    found: list[dict[str, Any]] = []

    def ready(d: Any) -> bool:
        state: dict[str, Any] = d.execute_script(STATE)
        if state["playable"] or state["again"] or state["end"]:
            found.append(state)
            return True
        return False

    WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(ready)
    return found[-1]


def play_series(driver: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Play every move from the page; say yes after the first match and no after the second.
    The page's state at each "play again?"."""
    from selenium.webdriver.common.by import By

    asked: list[dict[str, Any]] = []
    while True:
        state = next_question(driver)
        if state["again"]:
            asked.append(state)
            if len(asked) == 1:
                driver.save_screenshot(str(screenshot_dir() / "web-rematch.png"))
            button = "#again-yes" if len(asked) == 1 else "#again-no"
            driver.find_element(By.CSS_SELECTOR, button).click()
            continue
        if state["end"]:
            return asked
        code = rng.choice(state["playable"])
        driver.find_element(By.CSS_SELECTOR, f'#hand .card.playable[data-code="{code}"]').click()


@pytest.mark.browser
def test_two_matches_in_a_row_from_the_page_with_the_series_tally(tmp_path: Path) -> None:
    host, bot, url = start_table(tmp_path, "briscola", "italian", 21, "--rematch", "3")
    try:
        with chromium() as driver:
            driver.get(url)
            asked = play_series(driver, random.Random(21))
            driver.get("about:blank")  # the page is closed: the host may end
        assert host.finish() == 0, host.output()
        assert bot.finish() == 0, bot.output()
    finally:
        for peer in (host, bot):
            if peer.process.poll() is None:
                peer.process.kill()
    assert [state["played"] for state in asked] == [1, 2]
    assert sum(asked[0]["wins"]) <= 1 and sum(asked[1]["wins"]) <= 2
    assert all(re.match(r"connection: seat 1 direct \(LAN\) from 127\.0\.0\.1:\d+$", link)
               for state in asked for link in state["links"]) and asked[0]["links"]
    paths = complete_transcripts(host)
    assert paths == [tmp_path / "host.p2pt", tmp_path / "host-2.p2pt"]
    assert all(verify_transcript(path).status == "valid" for path in paths)
    assert "you declined another match; the series ends" in host.output()


def complete_transcripts(peer: Peer) -> list[Path]:
    return [Path(p) for p in re.findall(r"^transcript \(complete\): (.+)$", peer.output(),
                                        re.MULTILINE)]
