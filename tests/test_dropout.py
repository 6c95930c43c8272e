"""Dropouts at tables of three or four seats that share their hand keys (SPEC §9.13), with
in-memory tables: a silent seat's key is rebuilt from the others' shares, the dealt hand is
audited (a revoke followed by silence is proven), the dropper forfeits, and the transcript
verifies; wrong shares are caught and blamed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from attacks import Driver, decode, identity_of, play_body, resign, write_transcript

from p2pcards.cli.verify import dropout_line
from p2pcards.crypto import Scalar
from p2pcards.games.base import Action
from p2pcards.genesis import Genesis, GenesisError
from p2pcards.local import make_tables
from p2pcards.table import MatchEnded, SeatDropped, Table, Violation
from p2pcards.verify import verify_transcript


def follower_with_choice(driver: Driver) -> int:
    """Run to a follower's decision who holds the led suit and another: that seat."""
    def ready(d: Driver) -> bool:
        for s, t in enumerate(d.tables):
            trick = t.engine._trick  # type: ignore[attr-defined]
            if t.needs_decision and trick:
                hand = t.engine._hands[s]  # type: ignore[attr-defined]
                led = trick[0].card.suit
                if any(c.suit == led for c in hand) and any(c.suit != led for c in hand):
                    return True
        return False

    driver.run_until(ready)
    return next(s for s, t in enumerate(driver.tables) if t.needs_decision)


def revoke(driver: Driver) -> tuple[int, int]:
    """A follower plays off suit while holding the led suit (its engine would refuse it): the
    others accept it live. Returns (cheater, envelope index)."""
    cheat = follower_with_choice(driver)
    table = driver.tables[cheat]
    hand = table.engine._hands[cheat]  # type: ignore[attr-defined]
    led = table.engine._trick[0].card.suit  # type: ignore[attr-defined]
    off_suit = next(c for c in hand if c.suit != led)
    index = driver.position
    body = play_body(table, Action("play", off_suit))
    driver.detach(cheat)
    results = driver.send_as(cheat, "action", body)
    assert results and all(v is None for v in results.values()), results
    return cheat, index


def verified(tmp_path: Path, driver: Driver, name: str = "t.p2pt") -> Any:
    return verify_transcript(write_transcript(tmp_path / name, driver.genesis,
                                              driver.longest_frames()))


@pytest.mark.parametrize(("game", "players"), [("tressette", 3), ("tresette", 4)])
def test_a_revoke_then_a_withheld_reveal_is_proven(tmp_path: Path, game: str,
                                                   players: int) -> None:
    driver = Driver.new(game, "classic", players, seed=1, dropout="forfeit")
    cheat, index = revoke(driver)
    # the cheater plays on (cards its peers accept live), then withholds its key reveal
    driver.run_until(lambda d: d.expected() == (cheat, "reveal"))
    driver.silent.add(cheat)
    assert not driver.step()  # everybody waits for the cheater
    by = next(s for s in range(players) if s != cheat)
    driver.recover(by, cheat)
    driver.run_out()
    honest = [s for s in range(players) if s != cheat]
    assert sorted(driver.violations) == honest
    for violation in driver.violations.values():
        assert (violation.rule, violation.seat, violation.index) == (
            "must-follow-suit", cheat, index), violation
    report = verified(tmp_path, driver)
    assert report.status == "invalid"
    v = report.violation
    assert (v.rule, v.seat, v.index) == ("must-follow-suit", cheat, index)
    d = report.dropout
    assert (d.seat, d.kind, d.by, d.rebuilt, d.audited) == (cheat, "reveal", by, True, True)
    assert "its hand key was rebuilt" in dropout_line(report)


def test_without_key_sharing_the_same_silence_leaves_an_incomplete_transcript(
        tmp_path: Path) -> None:
    driver = Driver.new("tressette", "classic", 3, seed=1)
    cheat, _ = revoke(driver)
    driver.run_until(lambda d: d.expected() == (cheat, "reveal"))
    by = next(s for s in range(3) if s != cheat)
    assert not driver.tables[by].can_recover(cheat)
    with pytest.raises(RuntimeError, match="cannot be recovered"):
        driver.tables[by].recover(cheat)
    report = verified(tmp_path, driver)
    assert report.status == "incomplete" and report.dropout is None


@pytest.mark.parametrize(("game", "players", "by"), [("scopa", 3, 0), ("briscola", 4, 3)])
def test_a_silent_seat_mid_hand_forfeits_and_the_hand_is_audited(
        tmp_path: Path, game: str, players: int, by: int) -> None:
    driver = Driver.new(game, "classic", players, seed=2, dropout="forfeit")
    dropper = 1
    driver.run_until(lambda d: d.tables[dropper].needs_decision
                     and d.tables[0].chain.next_seq > 4 * players)
    driver.detach(dropper)
    driver.silent.add(dropper)
    kind_before = driver.expected()
    assert kind_before == (dropper, "action")
    events = driver.tables[by].recover(dropper).events
    assert isinstance(events[0], SeatDropped) and events[0].seat == dropper
    driver.queue.extend((by, f) for f in driver.tables[by].frames[-1:])
    driver.run_out()
    assert not driver.violations
    for s in range(players):
        if s != dropper:
            table = driver.tables[s]
            assert table.finished and table.forfeit == dropper and table.expected is None
    report = verified(tmp_path, driver)
    assert report.status == "valid"
    d = report.dropout
    assert (d.seat, d.kind, d.by, d.rebuilt, d.audited, d.forfeit) == (
        dropper, "action", by, True, True, True)
    assert "seat 1 forfeits the match" in dropout_line(report)
    if players == 4:  # two sides: the dropper's partners lose
        assert report.winner_side == 0


def test_a_dropout_before_any_card_rebuilds_nothing(tmp_path: Path) -> None:
    driver = Driver.new("scopa", "classic", 3, seed=3, dropout="forfeit")
    while not (driver.queue and driver.queue[0][0] == 2
               and decode(driver.queue[0][1], driver.genesis)[1].kind == "key"):
        assert driver.step()
    driver.queue.popleft()  # seat 2's key message never arrives
    driver.detach(2)
    driver.silent.add(2)
    driver.recover(0, 2)
    driver.run_out()
    assert not driver.violations
    report = verified(tmp_path, driver)
    assert report.status == "valid"
    d = report.dropout
    assert (d.kind, d.rebuilt, d.audited, d.forfeit) == ("key", False, False, True)
    assert report.winner_side is None  # three sides, all at 0: no winner


def test_the_dropped_seat_itself_follows_the_recovery() -> None:
    """A seat that was only slow (its link still up) accepts the recovery of itself and ends
    with the others: it never sends its late message into the chain."""
    driver = Driver.new("scopa", "classic", 3, seed=4, dropout="forfeit")
    driver.run_until(lambda d: d.tables[2].needs_decision)
    driver.recover(0, 2)
    slow = driver.tables[2]
    driver.step()
    assert slow.dropped == 2 and not slow.needs_decision
    driver.run_out()
    assert not driver.violations
    assert slow.finished and slow.forfeit == 2


def test_a_false_published_share_is_blamed_on_its_publisher(tmp_path: Path) -> None:
    driver = Driver.new("scopa", "classic", 3, seed=5, dropout="forfeit")
    driver.run_until(lambda d: d.tables[2].needs_decision)
    driver.detach(2)
    driver.silent.add(2)
    driver.recover(0, 2)
    # seat 1's honest recover message comes back through the driver: replace its share
    driver.step()  # deliver seat 0's recover; seat 1 answers
    sender, honest = driver.queue.popleft()
    assert sender == 1
    _, payload = decode(honest, driver.genesis)
    share = Scalar.from_bytes(payload.body["share"]) + Scalar(1)
    forged = resign(honest, driver.genesis, identity_of(driver.tables[1]),
                    body={**payload.body, "share": share.to_bytes()})
    with pytest.raises(Violation) as info:
        driver.tables[0].receive(forged)
    assert (info.value.rule, info.value.seat) == ("bad-recovery-share", 1)


def test_the_genesis_dropout_policy() -> None:
    genesis, _ = make_tables("scopa", "", 3, seed=1, dropout="forfeit")
    assert Genesis.decode(genesis.encode()) == genesis
    plain, _ = make_tables("scopa", "", 3, seed=1)
    assert "dropout" not in plain.to_wire() and not plain.shares_keys
    two, _ = make_tables("scopa", "", 2, seed=1)
    for bad, words in ((Genesis(two.game, two.preset, two.config, two.seats, two.timeouts,
                                dropout="forfeit"), "three or more seats"),
                       (Genesis(genesis.game, genesis.preset, genesis.config, genesis.seats,
                                genesis.timeouts, dropout="pause"), "one of forfeit, bot")):
        with pytest.raises(GenesisError, match=words):
            Genesis.decode(bad.encode())


def test_no_recovery_during_the_accept_round_or_of_oneself() -> None:
    _, tables = make_tables("scopa", "", 3, seed=1, dropout="forfeit")
    table: Table = tables[0]
    table.start()
    assert table.expected == (1, "accept") and not table.can_recover(1)
    assert not table.can_recover(0)


def test_match_ended_names_the_forfeit() -> None:
    assert MatchEnded((1, 2), None, forfeit=1).forfeit == 1
