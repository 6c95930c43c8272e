"""Tute over the real table (in-memory peers, full mental poker): the hidden-rule cheats (a revoke,
a failure to head, to trump or to overtrump) are accepted live, where nobody can see the hand, and
caught by every honest peer when the hand is replayed with full information, culprit and rule
named, and the transcript then fails verification; a false marriage is caught live, because the
declared cards are proven with their owner's reveal tokens."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from attacks import Driver, cycle_of, play_body, voice_of, write_transcript

from p2pcards.cards import Card
from p2pcards.games.base import Action
from p2pcards.games.tute import TuteMatch
from p2pcards.games.tute_rules import ORDER
from p2pcards.verify import verify_transcript

Want = Callable[[TuteMatch, int, list[Card], str, str], "Card | None"]


def _moment(driver: Driver, want: Want) -> tuple[int, Card]:
    """Run to a decision where ``want(engine, seat, hand, led, trump)`` names an illegal card;
    the seat (never the dealer, whose trump card is public) and that card."""
    found: list[tuple[int, Card]] = []

    def ready(d: Driver) -> bool:
        for s, t in enumerate(d.tables):
            engine = t.engine
            if not t.needs_decision or not isinstance(engine, TuteMatch) or not engine.trick:
                continue
            if s == engine.dealer or engine.declarations:
                continue
            assert engine.trump is not None
            hand = [c for c in engine.hand(s) if c is not None]
            bad = want(engine, s, hand, engine.trick[0][1].suit, engine.trump)
            if bad is not None:
                found.append((s, bad))
                return True
        return False

    driver.run_until(ready)
    return found[-1]


def _deferred(tmp_path: Path, driver: Driver, cheat: int, bad: Card, rule: str) -> None:
    k = driver.position
    table = driver.tables[cheat]
    action = Action("play", bad)
    assert action not in table.legal_actions()
    body = play_body(table, action)
    driver.detach(cheat)
    results = driver.send_as(cheat, "action", body)
    assert results and all(v is None for v in results.values()), results
    driver.run_out()
    honest = [i for i in range(4) if i != cheat]
    assert sorted(driver.violations) == honest
    for violation in driver.violations.values():
        assert (violation.rule, violation.seat, violation.index) == (rule, cheat, k), violation
        assert "replayed" in str(violation)
    frames = driver.longest_frames()
    report = verify_transcript(write_transcript(tmp_path / "cheat.p2pt", driver.genesis, frames))
    assert report.status == "invalid"
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        rule, cheat, k)


def _revoke(e: TuteMatch, s: int, hand: list[Card], led: str, trump: str) -> Card | None:
    if any(c.suit == led for c in hand):
        return next((c for c in hand if c.suit != led), None)
    return None


def _no_head(e: TuteMatch, s: int, hand: list[Card], led: str, trump: str) -> Card | None:
    if led != trump and any(c.suit == trump for _, c in e.trick):
        return None
    best = max((c for _, c in e.trick if c.suit == led), key=lambda c: ORDER.strength(c.rank))
    mine = [c for c in hand if c.suit == led]
    if any(ORDER.beats(c, best) for c in mine):
        return next((c for c in mine if not ORDER.beats(c, best)), None)
    return None


def _no_trump(e: TuteMatch, s: int, hand: list[Card], led: str, trump: str) -> Card | None:
    if any(c.suit == led for c in hand) or not any(c.suit == trump for c in hand):
        return None
    return next((c for c in hand if c.suit != trump), None)


def _no_overtrump(e: TuteMatch, s: int, hand: list[Card], led: str, trump: str) -> Card | None:
    trumps_in = [c for _, c in e.trick if c.suit == trump]
    if led == trump or not trumps_in or any(c.suit == led for c in hand):
        return None
    best = max(trumps_in, key=lambda c: ORDER.strength(c.rank))
    mine = [c for c in hand if c.suit == trump]
    if any(ORDER.beats(c, best) for c in mine):
        return next((c for c in mine if not ORDER.beats(c, best)), None)
    return None


def test_revoke_is_caught_in_the_replay(tmp_path: Path) -> None:
    driver = Driver.new("tute", "classic", 4, seed=1)
    cheat, bad = _moment(driver, _revoke)
    _deferred(tmp_path, driver, cheat, bad, "must-follow-suit")


@pytest.mark.slow
def test_failure_to_head_is_caught_in_the_replay(tmp_path: Path) -> None:
    driver = Driver.new("tute", "classic", 4, seed=2)
    cheat, bad = _moment(driver, _no_head)
    _deferred(tmp_path, driver, cheat, bad, "must-head")


@pytest.mark.slow
def test_failure_to_trump_is_caught_in_the_replay(tmp_path: Path) -> None:
    driver = Driver.new("tute", "classic", 4, seed=3)
    cheat, bad = _moment(driver, _no_trump)
    _deferred(tmp_path, driver, cheat, bad, "must-trump")


@pytest.mark.slow
def test_failure_to_overtrump_is_caught_in_the_replay(tmp_path: Path) -> None:
    driver = Driver.new("tute", "classic", 4, seed=6)
    cheat, bad = _moment(driver, _no_overtrump)
    _deferred(tmp_path, driver, cheat, bad, "must-overtrump")


def test_false_marriage_is_caught_live_by_the_reveal_tokens() -> None:
    """The winner of a trick declares las veinte of a suit whose K it holds but not the Q: its
    body shows the K's position and another of its own positions for the Q; every honest peer
    decrypts that position at once and finds another card."""
    driver = Driver.new("tute", "classic", 4, seed=5)
    chosen: list[tuple[int, Card, Card]] = []

    def ready(d: Driver) -> bool:
        for s, t in enumerate(d.tables):
            engine = t.engine
            if not t.needs_decision or not isinstance(engine, TuteMatch):
                continue
            if engine.may_declare != s:
                continue
            hand = [c for c in engine.hand(s) if c is not None]
            for king in (c for c in hand if c.rank == 10 and c.suit != engine.trump):
                queen = Card(9, king.suit)
                other = next((c for c in hand if c not in (king, queen)), None)
                if queen not in hand and other is not None:
                    chosen.append((s, king, other))
                    return True
        return False

    driver.run_until(ready)
    cheat, king, other = chosen[-1]
    table = driver.tables[cheat]
    cycle = cycle_of(table)
    assert table.seat is not None
    k_pos, o_pos = (cycle.position_of(table.seat, card, local=table.seat,
                                      index=table.chain.next_seq) for card in (king, other))
    uses = []
    for position in (k_pos, o_pos):
        assert cycle.missing(position) == [cheat]
        token = cycle.token(cheat, position, f"play-{position}", voice_of(table).rng).to_wire()
        uses.append([position, [[cheat, token]]])
    action = Action("declare", cards=(king, Card(9, king.suit)), value="veinte")
    assert action not in table.legal_actions()
    k = driver.position
    driver.detach(cheat)
    results = driver.send_as(cheat, "action", {"action": action.to_wire(), "uses": uses})
    assert sorted(results) == [i for i in range(4) if i != cheat]
    for violation in results.values():
        assert violation is not None
        assert (violation.rule, violation.seat, violation.index) == ("card-mismatch", cheat, k)


@pytest.mark.slow
def test_an_honest_declaration_reveals_the_kept_cards_to_every_peer() -> None:
    driver = Driver.new("tute", "classic", 4, seed=5)

    def declared(d: Driver) -> bool:
        engine = d.tables[0].engine
        return isinstance(engine, TuteMatch) and bool(engine.declarations)

    driver.run_until(declared)
    first = driver.tables[0].engine
    assert isinstance(first, TuteMatch)
    d = first.declarations[0]
    for t in driver.tables:
        assert isinstance(t.engine, TuteMatch)
        assert set(d.cards) <= set(t.engine.hand(d.seat))
        shown = t.engine.observation((d.seat + 1) % 4)["shown_cards"]
        assert all([d.seat, c.code] in shown for c in d.cards)
