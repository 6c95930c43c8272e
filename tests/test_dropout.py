"""Dropouts at tables of three or four seats that share their hand keys (SPEC §9.13), with
in-memory tables: a silent seat's key is rebuilt from the others' shares, the dealt hand is
audited (a revoke followed by silence is proven), the dropper forfeits, and the transcript
verifies; wrong shares are caught and blamed. Without a policy (two seats, or none chosen) the
verdict names the seat that withheld its key reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from attacks import Driver, decode, identity_of, play_body, recorded_match, resign, write_transcript

from p2pcards import cli
from p2pcards.cli.verify import dropout_line
from p2pcards.crypto import Scalar
from p2pcards.games.base import Action
from p2pcards.offline.memory import make_tables
from p2pcards.seating.genesis import Genesis, GenesisError
from p2pcards.table import HUB_SEAT, MatchEnded, SeatDropped, Table, Violation
from p2pcards.verify import WithheldKey, verify_transcript


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
    by = HUB_SEAT
    assert cheat != by
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


def test_without_key_sharing_a_revoke_then_a_withheld_reveal_names_the_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No dropout policy: the revoke stays unproven, the transcript is incomplete, and the
    verdict names the seat whose key reveal is missing as the reason, in text and JSON."""
    driver = Driver.new("tressette", "classic", 3, seed=1)
    cheat, _ = revoke(driver)
    driver.run_until(lambda d: d.expected() == (cheat, "reveal"))
    by = next(s for s in range(3) if s != cheat)
    assert not driver.tables[by].can_recover(cheat)
    with pytest.raises(RuntimeError, match="cannot be recovered"):
        driver.tables[by].recover(cheat)
    check_withheld(tmp_path, capsys, driver.genesis, driver.longest_frames(), cheat)


def test_at_two_seats_a_withheld_reveal_names_the_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two seats never share keys: seat 1 keeps its key of the first hand, so the honest
    seat's transcript ends where that reveal was due."""
    run = recorded_match("briscola", "italian", 2, 1)
    k = next(i for i, f in enumerate(run.frames)
             if (p := decode(f, run.genesis)[1]).kind == "reveal" and p.seat == 1)
    check_withheld(tmp_path, capsys, run.genesis, run.frames[:k], 1)


def check_withheld(tmp_path: Path, capsys: pytest.CaptureFixture[str], genesis: Genesis,
                   frames: list[bytes], seat: int) -> None:
    """The transcript of ``frames`` is incomplete and names ``seat`` as having withheld its key
    of hand 1; stopping earlier, or with a cut frame after it, names nobody."""
    path = write_transcript(tmp_path / "t.p2pt", genesis, frames)
    report = verify_transcript(path)
    assert report.status == "incomplete" and report.dropout is None
    assert report.stop is not None and report.stop.withheld == WithheldKey(seat, 1, len(frames))
    assert report.to_dict()["stop"]["withheld_key"] == {"seat": seat, "hand": 1,
                                                        "index": len(frames)}
    assert cli.main(["verify", str(path)]) == 2
    out = capsys.readouterr().out
    assert (f"the match cannot be checked: seat {seat} withheld its hand key of hand 1 (its "
            f"'reveal' was due at envelope {len(frames)})") in out
    early = verify_transcript(write_transcript(tmp_path / "early.p2pt", genesis, frames[:-3]))
    assert early.stop is not None and early.stop.withheld is None
    cut = tmp_path / "cut.p2pt"
    cut.write_bytes(path.read_bytes() + len(frames[-1]).to_bytes(4, "big") + frames[-1][:9])
    cut_report = verify_transcript(cut)
    assert cut_report.stop is not None and cut_report.stop.truncated_at is not None
    assert cut_report.stop.withheld is None


def test_with_key_sharing_a_missing_reveal_names_nobody(tmp_path: Path) -> None:
    """With a dropout policy the others rebuild a silent seat's key; a transcript that merely
    stops at a reveal (cut before the recovery) names no seat."""
    driver = Driver.new("tressette", "classic", 3, seed=1, dropout="forfeit")
    driver.run_until(driver.decision_of(2))
    driver.detach(2)
    driver.run_until(lambda d: d.expected() == (2, "reveal"))
    report = verified(tmp_path, driver)
    assert report.status == "incomplete"
    assert report.stop is not None and report.stop.withheld is None


@pytest.mark.parametrize(("game", "players", "dropper"), [("scopa", 3, 1), ("briscola", 4, 3)])
def test_a_silent_seat_mid_hand_forfeits_and_the_hand_is_audited(
        tmp_path: Path, game: str, players: int, dropper: int) -> None:
    driver = Driver.new(game, "classic", players, seed=2, dropout="forfeit")
    by = 0
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
    assert f"seat {dropper} forfeits the match" in dropout_line(report)
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
