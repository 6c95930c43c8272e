"""The public bot of ``dropout = bot`` (SPEC §9.13.7), with in-memory tables: after the
recovery of a silent seat the match goes on to its end with every participant computing the
bot's moves; the bot's hand is open to all, later decks are keyed and dealt without it, and the
transcript verifies with the bot named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from attacks import Driver, decode, identity_of, resign, write_transcript

from p2pcards import cli
from p2pcards.cards import HIDDEN
from p2pcards.cli.verify import dropout_line
from p2pcards.faces.view import SeatPresenter
from p2pcards.table import ActionPlayed, MatchEnded, Table, Violation
from p2pcards.verify import verify_transcript

KINDS = ("key", "shuffle", "tokens", "action", "reveal", "result")


def drop(driver: Driver, dropper: int, by: int, kind: str, skip: int = 0) -> None:
    """Run until ``dropper``'s ``kind`` message is due (after ``skip`` earlier ones), make it
    silent there and let ``by`` begin its recovery."""
    if kind == "action":
        seen = 0

        def due(d: Driver) -> bool:
            nonlocal seen
            if d.expected() != (dropper, "action"):
                return False
            seen += 1
            return seen > skip
        driver.run_until(due)
    else:
        seen = 0
        while True:
            if driver.queue and driver.queue[0][0] == dropper and decode(
                    driver.queue[0][1], driver.genesis)[1].kind == kind:
                seen += 1
                if seen > skip:
                    break
            assert driver.step(), f"seat {dropper} never owed a {kind!r} message"
        driver.queue.popleft()  # it never arrives
    driver.detach(dropper)
    driver.silent.add(dropper)
    driver.recover(by, dropper)


def finish_and_check(tmp_path: Path, driver: Driver, dropper: int, kind: str) -> Any:
    """Play out; every remaining table ends the match with the same chain and scores, the
    dropped seat signed nothing after the recovery, and the transcript verifies."""
    driver.run_out()
    assert not driver.violations, driver.violations
    others = [driver.tables[s] for s in range(len(driver.tables)) if s != dropper]
    for table in others:
        assert table.finished and table.forfeit is None and table.bot_seat == dropper
    assert len({tuple(t.frames) for t in others}) == 1
    assert len({tuple(t.engine.match_scores) for t in others}) == 1
    frames = others[0].frames
    assert others[0].recovery is not None
    start = others[0].recovery.index
    signers = [decode(f, driver.genesis)[1].seat for f in frames[start:]]
    assert dropper not in signers
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis, frames))
    assert report.status == "valid", report.violation
    d = report.dropout
    assert d is not None
    assert (d.seat, d.kind, d.bot, d.forfeit, d.audited) == (dropper, kind, True, False, False)
    assert d.rebuilt == (kind in ("tokens", "action", "reveal"))
    assert f"the public bot played seat {dropper}" in dropout_line(report)
    assert report.to_dict()["dropout"]["bot"] is True
    # the verifier's own observer of the chain (a valid report is a finished match) ends with
    # the players' scores: a second observer replay of the same frames would check no more
    assert report.scores == tuple(others[0].engine.match_scores)
    return report


@pytest.mark.parametrize("kind", KINDS)
def test_scopa_goes_on_with_the_bot_whatever_message_was_due(tmp_path: Path, kind: str) -> None:
    driver = Driver.new("scopa", "classic", 3, seed=7, dropout="bot")
    drop(driver, 2, 0, kind)
    finish_and_check(tmp_path, driver, 2, kind)


def test_the_bots_hand_is_open_and_later_decks_are_dealt_without_its_seat(
        tmp_path: Path) -> None:
    """Briscola in pairs: once the bot plays seat 1, its partner (seat 3) and its opponents
    all hold its hand in their live engines; the next deck is keyed and shuffled by seats 0,
    2 and 3 only, without key sharing, and the recovery's messages carried the tokens that
    opened the hand."""
    driver = Driver.new("briscola", "classic", 4, seed=3, dropout="bot")
    drop(driver, 1, 0, "action", skip=1)
    driver.step()  # seat 0's recover reaches the others
    driver.run_until(lambda d: all(t.bot_seat == 1 for s, t in enumerate(d.tables) if s != 1))
    for seat in (0, 2, 3):
        hand = driver.tables[seat].engine._hands[1]  # type: ignore[attr-defined]
        assert hand and None not in hand, (seat, hand)
    recovers = [decode(f, driver.genesis)[1] for f in driver.tables[0].frames
                if decode(f, driver.genesis)[1].kind == "recover"]
    assert [p.seat for p in recovers] == [0, 2, 3]
    for payload in recovers:
        assert set(payload.body) == {"seat", "share", "secret", "tokens"}
        assert payload.body["secret"] is None and payload.body["share"] is not None
    driver.run_out()
    frames = driver.tables[0].frames
    start = driver.tables[0].recovery.index  # type: ignore[union-attr]
    later = [decode(f, driver.genesis)[1] for f in frames[start:]]
    keys = [p for p in later if p.kind == "key"]
    assert keys, "the match should deal another deck after the recovery"
    assert {p.seat for p in keys} == {0, 2, 3}
    assert all(set(p.body) == {"share"} for p in keys)  # no inbox: no more key sharing
    shuffles = [p for p in later if p.kind == "shuffle"]
    assert all("keyshares" not in p.body for p in shuffles)
    assert {p.seat for p in later if p.kind in ("reveal", "result")} == {0, 2, 3}
    finish_and_check(tmp_path, driver, 1, "action")


def test_a_card_passed_to_the_bots_seat_is_passed_in_the_clear(tmp_path: Path) -> None:
    """Calabrasella: a card given to the bot's seat carries its tokens in the clear, so every
    seat learns it; the other seats' live engines then agree on the bot's whole hand."""
    driver = Driver.new("calabrasella", "classic", 3, seed=1, dropout="bot")
    drop(driver, 2, 0, "action")
    driver.run_out()
    frames = driver.tables[1].frames
    opened = 0
    for data in frames:
        payload = decode(data, driver.genesis)[1]
        if payload.kind == "action" and payload.body["action"]["kind"] in ("give", "return"):
            to_bot = payload.body["action"]["kind"] == "give" and payload.seat != 2
            for _, items in payload.body.get("uses", []):
                if to_bot and items and all(len(i) == 2 and isinstance(i[1], list)
                                            for i in items):
                    opened += 1
    assert opened, "no card was passed to the bot's seat in this match"
    finish_and_check(tmp_path, driver, 2, "action")


def test_the_dropped_seat_itself_watches_the_bot_play_for_it() -> None:
    """A seat that was only slow follows the recovery of itself: its table never asks it for
    a move again, computes the bot's moves like the others and ends with them."""
    driver = Driver.new("scopa", "classic", 3, seed=4, dropout="bot")
    driver.run_until(lambda d: d.tables[2].needs_decision)
    driver.recover(0, 2)
    slow = driver.tables[2]
    while driver.step():
        assert not slow.needs_decision
    driver.run_out()
    assert not driver.violations
    assert slow.finished and slow.bot_seat == 2 and slow.forfeit is None
    assert slow.frames == driver.tables[0].frames


def recover_of(driver: Driver, seat: int) -> tuple[int, bytes]:
    """Run until ``seat``'s ``recover`` is next in the queue; take it out."""
    while not (driver.queue and driver.queue[0][0] == seat
               and decode(driver.queue[0][1], driver.genesis)[1].kind == "recover"):
        assert driver.step()
    return driver.queue.popleft()


def passed_into(driver: Driver, seat: int) -> bool:
    """Whether a card of ``seat``'s hand has a share that another seat has not published: a
    card passed to it (Calabrasella's ``give``)."""
    cycle = driver.tables[(seat + 1) % 3].cycle
    return cycle is not None and any((seat + 1) % 3 not in cycle.public.get(p, set())
                                     for p in cycle.hand_positions.get(seat, []))


WRONG_TOKENS = (("drop-one", "wrong-tokens"), ("extra", "wrong-tokens"),
                ("not-a-list", "bad-body"), ("bad-token", "bad-token"), ("missing", "bad-body"))
"""Each way of getting ``recover``'s ``tokens`` wrong, with the rule it breaks."""


def wrong_tokens(tokens: Any, change: str) -> Any:
    """``tokens`` (a ``recover``'s honest field) changed as ``change`` names; ``None`` to drop
    the field."""
    if change == "drop-one":
        return tokens[1:]
    if change == "extra":
        return [*tokens, [99, tokens[0][1]]]
    if change == "not-a-list":
        return {"a": 1}
    if change == "bad-token":
        parts = list(tokens[0][1])  # the token's wire parts: flip a bit of its proof
        last = bytearray(parts[-1])
        last[0] ^= 1
        parts[-1] = bytes(last)
        return [[tokens[0][0], parts], *tokens[1:]]
    return None


def test_a_wrong_recover_tokens_field_is_blamed_on_its_sender() -> None:
    """Calabrasella: the declarer (seat 1) drops out holding a card given to it; seat 2's
    ``recover`` must publish its token of that card, checked before anything changes. Every
    wrong field of :data:`WRONG_TOKENS` is offered in turn to the same table (one match played
    up to that moment, not one each): each is blamed on seat 2 and leaves the table as it was,
    and the genuine message then fits."""
    driver = Driver.new("calabrasella", "classic", 3, seed=1, dropout="bot")
    driver.run_until(lambda d: d.expected() == (1, "action") and passed_into(d, 1))
    driver.detach(1)
    driver.silent.add(1)
    driver.recover(0, 1)
    _, honest = recover_of(driver, 2)
    payload = decode(honest, driver.genesis)[1]
    tokens = payload.body["tokens"]
    assert tokens, "seat 2 owes its token of the card passed to the dropped seat"
    table: Table = driver.tables[0]
    before = len(table.frames)
    for change, rule in WRONG_TOKENS:
        body = dict(payload.body)
        field = wrong_tokens(tokens, change)
        if field is None:
            del body["tokens"]
        else:
            body["tokens"] = field
        forged = resign(honest, driver.genesis, identity_of(driver.tables[2]), body=body)
        with pytest.raises(Violation) as info:
            table.receive(forged)
        assert (info.value.rule, info.value.seat) == (rule, 2), (change, info.value)
        assert len(table.frames) == before and table.bot_seat is None, change
    table.receive(honest)  # the table is unchanged: the genuine message still fits
    assert table.bot_seat == 1


def test_an_observer_reports_the_dropout_then_the_bots_moves() -> None:
    driver = Driver.new("scopa", "classic", 3, seed=6, dropout="bot")
    drop(driver, 1, 0, "action")
    driver.run_out()
    observer = Table(driver.genesis, seat=None)
    observer.start()
    events: list[object] = []
    for data in driver.tables[0].frames:
        events.extend(observer.receive(data).events)
    kinds = [type(e).__name__ for e in events]
    first = kinds.index("SeatDropped")
    assert kinds[first:first + 3] == ["SeatDropped", "KeyRebuilt", "BotSeated"]
    bot_moves = [e for e in events[first:] if isinstance(e, ActionPlayed) and e.seat == 1]
    assert bot_moves and all(HIDDEN not in (e.action.card, *e.action.cards) for e in bot_moves)
    ended = events[-1]
    assert isinstance(ended, MatchEnded) and ended.forfeit is None
    assert ended.match_scores == tuple(driver.tables[0].engine.match_scores)


def test_the_bots_seat_is_never_a_claimant() -> None:
    """Rumino: a discard opens a claim window to the other seats; once the bot plays seat 2,
    the window never lists seat 2, so no envelope of that seat can enter the chain."""
    driver = Driver.new("rumino", "classic", 3, seed=2, dropout="bot")
    drop(driver, 2, 0, "action")
    table = driver.tables[0]
    windows = 0
    while driver.step():
        if table.bot_seat == 2 and 2 in table.engine.claimants():
            windows += 1
            assert 2 not in table.claimants and 2 not in table.speakers - {table.expected[0]}
    assert windows, "no claim window opened to the bot's seat"
    driver.run_out()
    assert not driver.violations and table.finished


def test_show_tells_the_dropout_and_marks_the_bots_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    driver = Driver.new("briscola", "classic", 3, seed=4, dropout="bot")
    drop(driver, 1, 0, "action", skip=2)
    driver.run_out()
    frames = driver.tables[0].frames
    path = write_transcript(tmp_path / "bot.p2pt", driver.genesis, frames)
    assert cli.main(["show", str(path)]) == 0
    text = capsys.readouterr().out
    assert cli.main(["show", "--json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    story = [item for hand in document["hands"] for item in hand["story"]]
    notes = [item["text"] for item in story if item["type"] == "note"]
    assert [n.split(" ")[:2] for n in notes] == [["seat", "1"]] * 3
    assert "is played by the public bot from here on" in notes[2]
    plays = [item for item in story if item["type"] == "play"]
    bot_plays = [p for p in plays if p["bot"]]
    start = notes and story.index(next(i for i in story if i["type"] == "note"))
    assert bot_plays and all(p["seat"] == 1 for p in bot_plays)
    assert not any(p["seat"] == 1 and not p["bot"] for p in story[start:]
                   if p["type"] == "play")
    assert text.count("[bot] seat 1 ") == len(bot_plays)
    # every deck is revealed at its end, those keyed without the bot's seat too
    assert len(document["hands"]) >= 2
    assert all("??" not in item["cards"] for item in story if item["type"] == "deal")
    assert "-- seat 1 (" in text


def test_the_seat_view_marks_the_seat_the_bot_plays() -> None:
    driver = Driver.new("scopa", "classic", 3, seed=8, dropout="bot")
    presenter = SeatPresenter(driver.genesis, 0)
    assert not any(s.public_bot for s in presenter.view(driver.tables[0]).seats)
    drop(driver, 2, 0, "action")
    driver.run_until(lambda d: d.tables[0].bot_seat == 2)
    view = presenter.view(driver.tables[0])
    assert [s.public_bot for s in view.seats] == [False, False, True]
    assert view.to_json()["seats"][2]["public_bot"] is True
