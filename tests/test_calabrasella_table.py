"""Calabrasella over the table protocol: in-memory peers with full mental poker (the called card
and the card given back pass privately, the discards go face down, the widow is turned late),
cheating peers caught with the culprit named, and the demo between processes over loopback TCP.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from attacks import Driver, decode, write_transcript
from test_net_processes import Peer

from p2pcards import cli
from p2pcards.bots import make_bot
from p2pcards.cards import HIDDEN
from p2pcards.cli.demo import START_ENV
from p2pcards.cli.verify import _breakdown
from p2pcards.games.base import Action
from p2pcards.games.calabrasella import CalabrasellaMatch, Stage
from p2pcards.net.seats import bot_seed
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.records.transcript import read_transcript
from p2pcards.table import ActionPlayed, Table
from p2pcards.verify import verify_transcript

ONE_HAND = {"hands": 1}


def _engine(table: Table) -> CalabrasellaMatch:
    engine = table.engine
    assert isinstance(engine, CalabrasellaMatch)
    return engine


def _one_hand(seed: int) -> tuple[object, list[Table], list[list[object]], list[bytes]]:
    genesis, tables = make_tables("calabrasella", "classic", 3, seed=seed, flags=ONE_HAND)
    bots = [make_bot("calabrasella", "smart", seed * 10 + i) for i in range(3)]
    run = run_in_memory(genesis, tables, bots)
    return genesis, tables, run.events, run.frames


def test_one_hand_between_peers_hides_the_exchange_and_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    genesis, tables, events, frames = _one_hand(seed=4)
    assert all(t.finished for t in tables)
    final = _engine(tables[0])
    assert final.match_over and sum(final.match_scores) == 300
    seen = [[e.action for e in evs if isinstance(e, ActionPlayed)] for evs in events]
    kinds = [a.kind for a in seen[0]]
    assert "give" in kinds and "return" in kinds and "discard" in kinds, kinds
    # the declarer and the holder are the seats that see the passed cards
    give_at = kinds.index("give")
    return_at = kinds.index("return")
    discard_at = kinds.index("discard")
    declarer = next(s for s in range(3) if seen[s][discard_at].cards[0] != HIDDEN)
    holder = next(s for s in range(3) if s != declarer and seen[s][give_at].card != HIDDEN)
    third = 3 - declarer - holder
    assert seen[declarer][give_at].card == seen[holder][give_at].card != HIDDEN
    assert seen[declarer][return_at].card == seen[holder][return_at].card != HIDDEN
    assert seen[third][give_at].card == HIDDEN and seen[third][return_at].card == HIDDEN
    assert all(c == HIDDEN for s in (holder, third) for c in seen[s][discard_at].cards)
    # the transcript verifies; one flipped bit in the envelope of the private pass is caught
    path = write_transcript(tmp_path / "hand.p2pt", genesis, frames)  # type: ignore[arg-type]
    assert verify_transcript(path).status == "valid"
    # show tells the hidden cards once the keys are revealed; verify shows each side's totals
    passed = seen[declarer][give_at].card
    assert passed is not None
    assert cli.main(["show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert f"give {passed.code}  (shown as give ?? until the key reveal)" in shown
    assert "discard [??" not in shown.replace("shown as discard [??", "")
    assert cli.main(["verify", str(path)]) == 0
    assert "VALID" in capsys.readouterr().out
    assert _breakdown("hand total", (9, 26, 26), (0, 0, 0)) == "hand total (9/26/26)"
    assert _breakdown("chips", (-34, 17, 17), (-34, 17, 17)) == "chips -34/17/17"
    index = next(i for i, e in enumerate(events[third])
                 if isinstance(e, ActionPlayed) and e.action.kind == "give")
    position = events[third][index].index  # type: ignore[attr-defined]
    data = bytearray(path.read_bytes())
    data[read_transcript(path).offsets[position] + 40] ^= 1
    tampered = tmp_path / "tampered.p2pt"
    tampered.write_bytes(bytes(data))
    report = verify_transcript(tampered)
    assert report.status != "valid" and report.violation is not None
    assert report.violation.index == position


class _HandsBackTheCalledCard:
    """The smart bot, except that as declarer it returns the called card itself."""

    name = "hands-back"

    def __init__(self, seed: int) -> None:
        self._smart = make_bot("calabrasella", "smart", seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        called = observation.get("called")
        back = [a for a in legal if a.kind == "return" and a.card is not None
                and a.card.code == called]
        return back[0] if back else self._smart.choose(observation, legal)


def test_the_called_card_handed_back_travels_with_an_empty_uses_entry_and_verifies(
        tmp_path: Path) -> None:
    # SPEC §9.4: its only missing share is the recipient's own, so its entry is [position, []]
    for seed in range(1, 40):
        genesis, tables = make_tables("calabrasella", "classic", 3, seed=seed, flags=ONE_HAND)
        run = run_in_memory(genesis, tables, [_HandsBackTheCalledCard(seed * 10 + i)
                                              for i in range(3)])
        returns = [e for e in run.events[0]
                   if isinstance(e, ActionPlayed) and e.action.kind == "return"]
        if returns:
            break
    else:
        pytest.fail("no seed led to a given called card")
    payload = decode(run.frames[returns[0].index], genesis)[1]
    assert isinstance(payload.body, Mapping)
    assert [shares for _, shares in payload.body["uses"]] == [[]]
    path = write_transcript(tmp_path / "back.p2pt", genesis, run.frames)  # type: ignore[arg-type]
    assert verify_transcript(path).status == "valid"


def _cheat_driver(seed: int) -> tuple[Driver, int, int]:
    """A one-hand match driven up to the holder's answer; returns it, the holder, the declarer."""
    driver = Driver.new("calabrasella", "classic", 3, seed, flags=ONE_HAND)

    def holder_must_answer(d: Driver) -> bool:
        for seat, table in enumerate(d.tables):
            engine = _engine(table)
            if (table.needs_decision and engine.stage is Stage.ANSWER
                    and engine.called in engine.hand(seat)):
                return True
        return False

    driver.run_until(holder_must_answer)
    holder = next(s for s, t in enumerate(driver.tables) if t.needs_decision)
    declarer = _engine(driver.tables[holder]).declarer
    assert declarer is not None
    return driver, holder, declarer


def test_a_peer_denying_the_called_card_is_named_when_it_plays_it() -> None:
    driver, holder, declarer = _cheat_driver(seed=4)
    table = driver.tables[holder]
    engine = _engine(table)
    called = engine.called
    assert called is not None
    # the cheating peer's software hides the card from its own engine to send "deny"
    hand = engine._hands[holder]
    hand.remove(called)
    driver.queue.extend((holder, d) for d in table.decide(Action("deny")).outgoing)
    hand.append(called)
    engine._answers = [(s, k) for s, k in engine._answers if s != holder]
    driver.run_out()
    honest = [s for s in range(3) if s != holder]
    for seat in honest:
        violation = driver.violations[seat]
        assert (violation.rule, violation.seat) == ("false-denial", holder)
        assert f"seat {holder} denied holding {called.code}" in str(violation)


def _revoke_chance(driver: Driver) -> int | None:
    """A seat to act in a trick holding two cards of the suit led and one of another suit."""
    for seat, table in enumerate(driver.tables):
        engine = _engine(table)
        if not (table.needs_decision and engine.stage is Stage.TRICKS and engine.trick):
            continue
        led = engine.trick[0][1].suit
        hand = [c for c in engine.hand(seat) if c is not None]
        if sum(c.suit == led for c in hand) >= 2 and any(c.suit != led for c in hand):
            return seat
    return None


def test_a_revoke_by_a_peer_is_named_when_it_later_shows_the_suit() -> None:
    driver, _, _ = _cheat_driver(seed=4)
    driver.run_until(lambda d: _revoke_chance(d) is not None)
    cheater = _revoke_chance(driver)
    assert cheater is not None
    table = driver.tables[cheater]
    engine = _engine(table)
    led = engine.trick[0][1].suit
    off = next(c for c in engine.hand(cheater) if c is not None and c.suit != led)
    # the cheater's software forgets the led suit for one play
    saved = list(engine._hands[cheater])
    engine._hands[cheater] = [c for c in saved if c is not None and c.suit != led]
    driver.queue.extend((cheater, d) for d in table.decide(Action("play", card=off)).outgoing)
    engine._hands[cheater] = [c for c in saved if c != off]
    engine._void[cheater].discard(led)
    driver.run_out()
    for seat in (s for s in range(3) if s != cheater):
        violation = driver.violations[seat]
        assert (violation.rule, violation.seat) == ("must-follow-suit", cheater)


@pytest.mark.slow
def test_demo_plays_a_calabrasella_match_between_processes_and_it_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(START_ENV, "fork" if hasattr(os, "fork") and sys.platform != "darwin"
                       else "spawn")
    demo = Peer(tmp_path, "demo", "--game", "calabrasella", "--players", "3", "--seed", "3")
    assert demo.finish() == 0, demo.stderr
    out = demo.stdout
    assert sorted(re.findall(r"^seat (\d) \(\S+\) joined", out, re.M)) == ["1", "2"]
    assert len(re.findall(r"^hand \d+ scored: ", out, re.M)) == 6
    assert re.search(r"^verified \d+ envelopes: ", out, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert path.name.startswith("calabrasella-")
    assert verify_transcript(path).status == "valid"
    # the same match in memory with the same seed gives the same chain
    genesis, tables = make_tables("calabrasella", "classic", 3, seed=3)
    bots = [make_bot("calabrasella", "smart", bot_seed(i, 3)) for i in range(3)]
    run = run_in_memory(genesis, tables, bots)
    found = read_transcript(path)
    assert found.genesis == genesis.encode() and found.envelopes == run.frames
    scores = "-".join(str(s) for s in run.match_scores)
    assert re.search(rf"^match over: .* \({scores}\)$", out, re.M)
    assert sum(run.match_scores) == 300
    # a single flipped bit in any envelope is rejected
    data = read_transcript(path)
    raw = path.read_bytes()
    for index in (0, len(data.offsets) // 2, len(data.offsets) - 1):
        flipped = bytearray(raw)
        flipped[data.offsets[index] + 20] ^= 1
        bad = tmp_path / f"flip-{index}.p2pt"
        bad.write_bytes(bytes(flipped))
        assert verify_transcript(bad).status != "valid"


def test_a_declarer_calling_a_card_it_holds_and_discarding_it_is_named_by_the_audit() -> None:
    driver = Driver.new("calabrasella", "classic", 3, 4, flags=ONE_HAND)

    def calling_with_a_three(d: Driver) -> bool:
        return any(t.needs_decision and _engine(t).stage is Stage.CALL
                   and any(c is not None and c.rank == 3 for c in _engine(t).hand(s))
                   for s, t in enumerate(d.tables))

    driver.run_until(calling_with_a_three)
    cheater = next(s for s, t in enumerate(driver.tables) if t.needs_decision)
    table = driver.tables[cheater]
    engine = _engine(table)
    held = next(c for c in engine.hand(cheater) if c is not None and c.rank == 3)
    hand = engine._hands[cheater]
    hand.remove(held)  # the cheating software lets it call its own 3
    driver.queue.extend((cheater, d) for d in table.decide(Action("call", cards=(held,))).outgoing)
    hand.append(held)
    driver.run_until(lambda d: d.tables[cheater].needs_decision
                     and _engine(d.tables[cheater]).stage is Stage.DISCARD)
    # nobody holds the card, so both defenders truthfully deny; the 3 is hidden in the discard
    assert [k for _, k in _engine(table)._answers] == ["deny", "deny"]
    driver.queue.extend((cheater, d) for d in
                        table.decide(Action("discard", cards=(held,))).outgoing)
    driver.run_out()
    for seat in range(3):
        violation = driver.violations[seat]
        assert (violation.rule, violation.seat) == ("called-held-card", cheater), violation
