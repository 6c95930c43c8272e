"""A seat's page gets only what the seat may see: over whole in-memory matches, whose seat 0 is
played through its page (the page is told every event and clicks the move the bot picks), no
text the page pushes names a card that another seat holds at that moment, unless the engine has
shown that card to seat 0 during the current deal (the trump, the table, a card taken from the
discards...). Log lines of earlier deals are left out of the check: the cards they name were
public then, and a new deal may put them in another hand."""

from __future__ import annotations

import json
import re
from typing import Any

import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import make_bot
from p2pcards.bots.base import choose_claim
from p2pcards.faces.web.hub import SeatPage
from p2pcards.offline.memory import make_tables
from p2pcards.table import Table, Violation

DEALS = 2
"""Each match is followed through its first two deals (a new deal reuses the cards)."""

GAMES = [("scopa", "classic", 2), ("briscola", "italian", 2), ("sette-e-mezzo", "classic", 3),
         ("tressette", "classic", 4)]


def _named(code: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])", text) is not None


def this_deal(text: str) -> str:
    """A pushed text without the log lines of the deals before the current one (the cards
    named there were public then and may now lie in another hand, dealt again)."""
    message = json.loads(text)
    if message.get("type") == "view":
        log = message["view"]["log"]
        starts = [i for i, line in enumerate(log) if line.startswith("— ")]
        message["view"]["log"] = log[starts[-1]:] if starts else log
    return json.dumps(message)


class Checked:
    """Checks each new text of the page against the hands of the other seats right now."""

    def __init__(self, page: SeatPage, tables: list[Table]) -> None:
        self.page = page
        self.tables = tables
        self.shown_to_me: set[str] = set()
        self.hand = 0
        self.checked = 0
        self.texts = 0

    def __call__(self) -> None:
        hand = self.tables[0].engine.hand_number
        if hand != self.hand:  # a new deal: what was shown before is no longer known
            self.hand, self.shown_to_me = hand, set()
        mine = json.dumps(self.tables[0].observation(), default=str)
        hidden = set()
        for table in self.tables[1:]:
            hidden.update(str(c) for c in table.observation().get("hand", []))
        self.shown_to_me.update(c for c in hidden if _named(c, mine))
        secret = hidden - self.shown_to_me
        for text in map(this_deal, self.page.pushed[self.texts:]):
            for code in secret:
                assert not _named(code, text), (code, text[:400])
            self.checked += 1
        self.texts = len(self.page.pushed)


async def play(game: str, preset: str, players: int, seed: int) -> Checked:
    genesis, tables = make_tables(game, preset, players, seed=seed)
    bots = [make_bot(game, "smart", seed * 10 + i) for i in range(players)]
    page = SeatPage()
    page.record = True
    player = page.attach(genesis, 0)
    check = Checked(page, tables)
    queue: list[tuple[int, bytes]] = []

    def absorb(i: int, step: Any) -> None:
        queue.extend((i, out) for out in step.outgoing)
        if i == 0:
            assert player.show is not None
            player.show(tables[0], step.events)
            check()

    for i, table in enumerate(tables):
        absorb(i, table.start())
    offered: set[tuple[int, int]] = set()
    while not all(t.finished for t in tables) and tables[0].engine.hand_number < DEALS:
        if queue:
            sender, data = queue.pop(0)
            for i, table in enumerate(tables):
                if i != sender or (table.proposal is not None and table.proposal == data):
                    try:
                        absorb(i, table.receive(data))
                    except Violation as exc:
                        if exc.rule != "lost-race":
                            raise
            continue
        claimed = False
        for i, table in enumerate(tables):
            claims = table.claim_actions()
            if claims and (i, table.chain.next_seq) not in offered:
                offered.add((i, table.chain.next_seq))
                choice = choose_claim(bots[i], table.observation(), claims)
                if choice is not None:
                    absorb(i, table.claim(choice))
                    claimed = True
        deciding = [i for i, t in enumerate(tables) if t.needs_decision]
        if not deciding:
            assert claimed, "stuck"
            continue
        i = deciding[0]
        table = tables[i]
        legal = table.legal_actions()
        action = bots[i].choose(table.observation(), legal)
        if i == 0:  # through the page: the prompt is pushed, the click comes back
            chosen: list[Any] = []

            async def decide(table: Table = table, chosen: list[Any] = chosen) -> None:
                chosen.append(await player.decide(table))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(decide)
                await trio.testing.wait_all_tasks_blocked()
                check()
                answer = page.handle(json.dumps({"type": "move",
                                                 "index": legal.index(action)}))
                assert answer is None
            assert chosen == [action]
        absorb(i, table.decide(action))
    check()
    return check


@settings(max_examples=6, deadline=None)
@given(case=st.sampled_from(GAMES), seed=st.integers(1, 5_000))
async def test_no_pushed_text_names_a_card_of_another_hand(
        case: tuple[str, str, int], seed: int) -> None:
    checked = await play(*case, seed)
    assert checked.checked > 10
    assert any('"prompt":{"kind":"move"' in text for text in checked.page.pushed)
