"""Rumino at the table (full mental poker among in-memory peers) and over processes: cheats
caught live or in the full replay with the culprit named; ``p2pcards demo --game rumino`` plays
whole matches between processes over loopback TCP and the transcripts verify."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from attacks import Driver, craft, decode, identity_of, play_body, write_transcript
from test_net_processes import Peer

from p2pcards.bots import make_bot
from p2pcards.cli.demo import START_ENV
from p2pcards.games.base import Action
from p2pcards.games.rumino import RuminoMatch
from p2pcards.games.rumino_melds import deadwood, is_rumino
from p2pcards.net.seats import bot_seed
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.records.transcript import read_transcript
from p2pcards.seating.genesis import Genesis
from p2pcards.verify import verify_transcript


def _at_first_decision(seed: int) -> Driver:
    driver = Driver.new("rumino", "classic", 2, seed)
    driver.run_until(driver.decision_of(0))
    return driver


def _engine(driver: Driver, seat: int) -> RuminoMatch:
    engine = driver.tables[seat].engine
    assert isinstance(engine, RuminoMatch)
    return engine


def test_a_false_knock_is_accepted_live_and_caught_in_the_replay_naming_the_knocker() -> None:
    driver = _at_first_decision(seed=2)
    own = _engine(driver, 0)
    held = [c for c in own.hand(0) if c is not None]
    assert deadwood(held) > 7, "seed 2 deals seat 0 a hand it may not knock with"
    driver.detach(0)
    results = driver.send_as(0, "action", {"action": {"kind": "knock"}})
    assert results == {1: None}                     # seat 1 cannot see seat 0's hand
    driver.run_out()
    violation = driver.violations[1]
    assert (violation.rule, violation.seat) == ("knock-over-limit", 0)
    assert f"{deadwood(held)} deadwood" in str(violation)


def test_a_buried_discard_and_a_false_rumino_are_refused_live() -> None:
    driver = _at_first_decision(seed=2)
    # seat 0 draws from the stock and discards; then seat 1 does the same
    for seat in (0, 1):
        table = driver.tables[seat]
        driver._queue(seat, table.decide(Action("draw", value="stock")).outgoing)
        driver.run_until(driver.decision_of(seat))
        card = min(a for a in table.legal_actions() if a.kind == "discard").card
        driver._queue(seat, table.decide(Action("discard", card)).outgoing)
        driver.run_until(driver.decision_of(1 - seat))
    buried = _engine(driver, 0).discards[-2]     # seat 0's own discard, now under seat 1's
    table = driver.tables[0]
    driver._queue(0, table.decide(Action("draw", value="stock")).outgoing)
    driver.run_until(driver.decision_of(0))
    body = play_body(table, Action("discard", buried))   # public: the table finds its position
    held = tuple(sorted(c for c in _engine(driver, 0).hand(0) if c is not None))[:7]
    assert not is_rumino(held)
    shown = play_body(table, Action("rumino", cards=held))   # seven cards, proven shown
    driver.detach(0)
    results = driver.send_as(0, "action", body)
    assert results[1] is not None
    assert (results[1].rule, results[1].seat) == ("card-not-in-hand", 0)
    results = driver.send_as(0, "action", shown)
    assert results[1] is not None
    assert (results[1].rule, results[1].seat) == ("not-a-rumino", 0)


def _at_claim_window(seed: int) -> tuple[Driver, int, int]:
    """Three seats: run to the first discard; (driver, next player, the claimant)."""
    driver = Driver.new("rumino", "classic", 3, seed)
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables)
                     and bool(d.tables[0].claimants))
    actor = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    (claimant,) = driver.tables[0].claimants
    return driver, actor, claimant


def test_claim_window_a_false_claim_refused_live_then_the_next_draw_closes_it(
        tmp_path: Path) -> None:
    driver, actor, claimant = _at_claim_window(seed=3)
    discarder = ({0, 1, 2} - {actor, claimant}).pop()
    assert actor == (discarder + 1) % 3
    for t in driver.tables:
        assert t.claimants == frozenset({claimant})
        assert t.speakers == frozenset({actor, claimant})
    assert driver.tables[claimant].claim_actions() == []        # no six to a rumino here
    # the claimant cheats: six of its cards that the discard does not complete
    table = driver.tables[claimant]
    engine = _engine(driver, claimant)
    top = engine.upcard
    assert top is not None
    six = tuple(sorted(c for c in engine.hand(claimant) if c is not None)[:6])
    false = Action("claim", top, six)
    assert not is_rumino((*six, top))
    body = play_body(table, false)          # the six cards proven shown, as a claim must
    k = driver.position
    forged = craft(identity_of(table), table_id=driver.table_id, seq=k, prev=driver.head,
                   seat=claimant, kind="action", body=body)
    results = driver.offer(forged, sender=claimant)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("not-a-rumino", claimant, k), peer
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis,
                                                driver.log + [forged]))
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        "not-a-rumino", claimant, k)
    # refused, it changed nothing: the next player's draw closes the window
    driver._queue(actor, driver.tables[actor].decide(Action("draw", value="stock")).outgoing)
    driver.run_until(lambda d: d.position > k)
    assert driver.log[k] != forged and not driver.violations
    assert all(not t.claimants for t in driver.tables)
    assert k in driver.tables[0].windows


def _claims(genesis: object, frames: list[bytes]) -> list[tuple[int, int, Action]]:
    """(chain index, seat, action) of every claim in a chain."""
    out = []
    for data in frames:
        _, payload = decode(data, genesis)  # type: ignore[arg-type]
        if payload.kind == "action" and payload.body["action"]["kind"] == "claim":
            out.append((payload.seq, payload.seat, Action.from_wire(payload.body["action"])))
    return out


def test_a_real_claim_wins_a_three_seat_match_and_everyone_agrees(tmp_path: Path) -> None:
    # seed 5 (the seeded demo's match): seat 0 holds 2C 4C 6C 7C and two jokers, seat 1
    # discards the 8 of clubs, and seat 0 claims it before seat 2 draws: 2 to 8 of clubs
    genesis, tables = make_tables("rumino", "classic", 3, seed=5)
    bots = [make_bot("rumino", "smart", bot_seed(i, 5)) for i in range(3)]
    run = run_in_memory(genesis, tables, bots)
    ((index, seat, claim),) = _claims(genesis, run.frames)
    assert claim.card is not None and is_rumino((*claim.cards, claim.card))
    assert seat == 0 and all(t.frames == run.frames for t in run.tables)
    assert index in run.tables[1].windows
    assert max(run.match_scores) < 100                       # won outright, not on points
    engine = run.tables[2].engine
    assert engine.winner == 0 and all(t.engine.winner == 0 for t in run.tables)
    report = verify_transcript(write_transcript(tmp_path / "claim.p2pt", genesis, run.frames))
    assert report.status == "valid", report.violation
    assert report.winner_side == 0 and report.hands[-1].lines[0][0] == "rumino"


@pytest.mark.slow
def test_demo_through_a_relay_with_a_claim_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(START_ENV, raising=False)
    demo = Peer(tmp_path, "demo", "--game", "rumino", "--players", "3", "--relay",
                "--seed", "5")
    demo.process.wait(1800)
    assert demo.finish() == 0, demo.stderr
    assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    report = verify_transcript(path)
    assert report.status == "valid", report.violation
    found = read_transcript(path)
    genesis = Genesis.decode(found.genesis)
    for _, seat, claim in _claims(genesis, list(found.envelopes)):   # when it won its race
        assert claim.card is not None and is_rumino((*claim.cards, claim.card))
        assert report.winner_side == seat


@pytest.mark.slow
@pytest.mark.parametrize(("players", "preset"), [(2, "classic"), (6, "stakes")])
def test_demo_plays_a_whole_rumino_match_between_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, preset: str) -> None:
    monkeypatch.delenv(START_ENV, raising=False)
    demo = Peer(tmp_path, "demo", "--game", "rumino", "--players", str(players),
                "--variant", preset, "--seed", "4")
    demo.process.wait(1800)     # a whole match of many hands; finish() then collects output
    assert demo.finish() == 0, demo.stderr
    joined = re.findall(r"^seat (\d) \(\S+\) joined", demo.stdout, re.M)
    assert sorted(joined) == [str(s) for s in range(1, players)]
    assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    assert re.search(r"^final scores: .*; winner: ", demo.stdout, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    report = verify_transcript(path)
    assert report.status == "valid", report.violation
    assert report.game == "rumino" and len(report.seats) == players
    assert report.envelopes == report.verified == len(read_transcript(path).envelopes)
    assert report.hands and report.scores == report.hands[-1].match_scores
    shown = re.search(r"^final scores: (.*); winner: ", demo.stdout, re.M)
    assert shown is not None
    assert [int(x) for x in re.findall(r"\] (-?\d+)", shown[1])] == list(report.scores)
