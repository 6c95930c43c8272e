"""Out-of-turn claims (SPEC §9.2): while a seat is due to act, the engine's claimants may send a
claim instead; the first of the competing envelopes in the chain wins, the other is a harmless
``lost-race``. Tested with the test-only ``toy-claim`` engine, in memory."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from attacks import Driver, craft, decode, identity_of, play_body, write_transcript
from rich.console import Console
from toy_games import CLAIM, registered

from p2pcards.bots import RandomBot
from p2pcards.faces.terminal import LineSource, PersonUI
from p2pcards.games.base import Action
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.table import ProposalDropped, Table, Violation
from p2pcards.verify import verify_transcript


@pytest.fixture(autouse=True)
def _toys() -> Iterator[None]:
    with registered(CLAIM):
        yield


def new_driver(players: int = 3, seed: int = 1, hands: int = 1) -> Driver:
    return Driver.new("toy-claim", "classic", players, seed, flags={"hands": hands},
                      bot="random")


def window_open(driver: Driver) -> bool:
    return any(t.needs_decision for t in driver.tables) and any(
        t.claim_actions() for t in driver.tables)


def at_window(driver: Driver) -> tuple[int, int]:
    """Run (bots never claiming) to a moment where the expected seat must act and some other
    seat may snap; (expected seat, claimant)."""
    for bot in driver.bots:
        bot.claim = lambda observation, claims: None  # type: ignore[attr-defined]
    driver.run_until(window_open)
    actor = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    claimant = next(i for i, t in enumerate(driver.tables) if t.claim_actions())
    return actor, claimant


@pytest.mark.parametrize(("players", "seed", "hands"), [
    (3, 1, 1), pytest.param(5, 2, 1, marks=pytest.mark.slow),
    pytest.param(6, 3, 2, marks=pytest.mark.slow)])
def test_whole_match_with_claims_verifies(tmp_path: Path, players: int, seed: int,
                                          hands: int) -> None:
    genesis, tables = make_tables("toy-claim", "classic", players, seed=seed,
                                  flags={"hands": hands})
    run = run_in_memory(genesis, tables, [RandomBot(seed * 10 + i) for i in range(players)])
    assert all(t.frames == run.frames for t in run.tables)
    assert len({t.engine.match_scores for t in run.tables}) == 1
    claims = [decode(f, genesis)[1] for f in run.frames]
    snaps = [p for p in claims if p.kind == "action" and p.body["action"]["kind"] == "snap"]
    assert snaps, "the bots made at least one claim"
    assert run.tables[0].windows, "claim windows were recorded"
    report = verify_transcript(write_transcript(tmp_path / "m.p2pt", genesis, run.frames))
    assert report.status == "valid", report.violation
    assert report.scores == run.match_scores


@pytest.mark.parametrize("claim_first", [True, False])
def test_the_first_in_the_chain_wins(claim_first: bool) -> None:
    driver = new_driver(3, 4)
    actor, claimant = at_window(driver)
    k = driver.position
    assert driver.tables[actor].speakers == frozenset({actor}) | driver.tables[actor].claimants
    assert claimant in driver.tables[actor].claimants
    snap = driver.tables[claimant].claim_actions()[0]
    claim_step = driver.tables[claimant].claim(snap)
    move_step = driver.tables[actor].decide(driver.tables[actor].legal_actions()[0])
    (claim_env,), (move_env,) = claim_step.outgoing, move_step.outgoing
    # neither is in its sender's chain yet: both are proposals
    assert driver.tables[claimant].proposal == claim_env
    assert driver.tables[actor].proposal == move_env
    assert len(driver.tables[claimant].frames) == len(driver.tables[actor].frames) == k
    assert not driver.tables[actor].needs_decision and not driver.tables[claimant].claim_actions()
    first, second = ((claimant, claim_env), (actor, move_env)) if claim_first else (
        (actor, move_env), (claimant, claim_env))
    loser = second[0]
    driver.queue.extend([first, second])
    driver.step()
    driver.step()
    assert driver.lost == [second]
    assert driver.log[k] == first[1]
    assert all(t.frames[k] == first[1] for t in driver.tables)
    assert driver.tables[loser].proposal is None
    # a lost race arriving late, after more of the chain, is still recognised and harmless
    driver.run_until(lambda d: d.position >= k + 2)
    for t in driver.tables:
        if t.seat == second[0]:
            continue
        with pytest.raises(Violation) as caught:
            t.receive(second[1])
        assert (caught.value.rule, caught.value.seat, caught.value.index) == (
            "lost-race", second[0], k)
        assert t.is_lost_race(second[1])
    driver.run_out()
    assert not driver.violations


def test_a_dropped_proposal_is_reported() -> None:
    driver = new_driver(3, 5)
    actor, claimant = at_window(driver)
    snap = driver.tables[claimant].claim_actions()[0]
    (claim_env,) = driver.tables[claimant].claim(snap).outgoing
    driver.tables[actor].decide(driver.tables[actor].legal_actions()[0])
    step = driver.tables[actor].receive(claim_env)
    assert [e for e in step.events if isinstance(e, ProposalDropped)]
    assert driver.tables[actor].proposal is None


def test_claim_out_of_its_window(tmp_path: Path) -> None:
    driver = new_driver(3, 6)
    # the first play of a hand: nothing was played yet, so nobody may claim
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables))
    actor = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    assert not driver.tables[actor].claimants
    cheat = (actor + 1) % 3
    k = driver.position
    table = driver.tables[cheat]
    card = [c for c in table.engine._hands[cheat] if c is not None][0]  # type: ignore
    forged = craft(identity_of(table), table_id=driver.table_id, seq=k, prev=driver.head,
                   seat=cheat, kind="action", body=play_body(table, Action("snap", card)))
    results = driver.offer(forged, sender=cheat)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("out-of-turn", cheat, k), peer
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis,
                                                driver.log + [forged]))
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        "out-of-turn", cheat, k)


def test_false_claim_is_caught_at_the_audit(tmp_path: Path) -> None:
    driver = new_driver(3, 7)

    def lying_window(d: Driver) -> bool:
        if not window_open(d):
            return False
        for t in d.tables:
            if t.claim_actions() is not None and t.seat in t.claimants:
                suits = {c.suit for c in t.engine._hands[t.seat] if c}  # type: ignore
                if suits != {"D", "C", "S", "B"}:
                    return True
        return False

    for bot in driver.bots:
        bot.claim = lambda observation, claims: None  # type: ignore[attr-defined]
    driver.run_until(lying_window)
    cheat = next(t.seat for t in driver.tables if t.seat in t.claimants and {
        c.suit for c in t.engine._hands[t.seat] if c} != {"D", "C", "S", "B"})  # type: ignore
    assert cheat is not None
    held = {c.suit for c in driver.tables[cheat].engine._hands[cheat] if c}  # type: ignore
    lie = next(s for s in "DCSB" if s not in held)
    k = driver.position
    driver.detach(cheat)
    results = driver.send_as(cheat, "action", {"action": {"kind": "bluff", "value": lie}})
    assert results and all(v is None for v in results.values()), results
    driver.run_out()
    honest = [i for i in range(3) if i != cheat]
    assert sorted(driver.violations) == honest
    for v in driver.violations.values():
        assert (v.rule, v.seat, v.index) == ("false-bluff", cheat, k), v
    frames = driver.longest_frames()
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis, frames))
    assert report.status == "invalid" and report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        "false-bluff", cheat, k)


def test_observer_replays_a_claim_match() -> None:
    genesis, tables = make_tables("toy-claim", "classic", 3, seed=8, flags={"hands": 1})
    run = run_in_memory(genesis, tables, [RandomBot(80 + i) for i in range(3)])
    observer = Table(genesis, seat=None)
    observer.start()
    for data in run.frames:
        observer.receive(data)
    assert observer.finished
    assert observer.windows.keys() == run.tables[0].windows.keys()


class Script(LineSource):
    """Typed lines for a person's terminal, then end of input."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    async def readline(self) -> str | None:
        return self.lines.pop(0) if self.lines else None


async def test_a_person_is_offered_claims_in_the_terminal() -> None:
    driver = new_driver(3, 4)
    _, claimant = at_window(driver)
    table = driver.tables[claimant]
    claims = table.claim_actions()
    out = io.StringIO()
    ui = PersonUI(driver.genesis, claimant, Script("9", "1"), Console(file=out, width=100))
    assert await ui.claim(table) == claims[0]
    text = out.getvalue()
    assert "you may claim out of turn:" in text and f"1. {claims[0]}" in text
    assert "9 is not a move number" in text
    passing = PersonUI(driver.genesis, claimant, Script(""), Console(file=io.StringIO()))
    assert await passing.claim(table) is None
    assert PersonUI(driver.genesis, claimant, Script()).player().claim is not None
