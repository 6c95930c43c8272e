"""Card use in actions (SPEC §9.6): cards passed privately, moved face down, shown and kept,
several shown at once, forwarded shares, and public cards in hidden hands, with the test-only
``toy-pass`` engine. Whole matches verify and every seat agrees; each cheat is caught naming the
seat, the envelope and the rule, live where the rules allow and otherwise in the full replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from attacks import Driver, craft, cycle_of, decode, identity_of, play_body, write_transcript
from hypothesis import given, settings
from hypothesis import strategies as st
from toy_games import PASS, SMALL, registered

from p2pcards import crypto
from p2pcards.cards import HIDDEN, Card
from p2pcards.games.base import Action, CardUse, GameError
from p2pcards.table import ActionPlayed, Table, Violation
from p2pcards.table.card_use import fill, mask
from p2pcards.verify import verify_transcript


@pytest.fixture(autouse=True)
def _toys() -> Iterator[None]:
    with registered(PASS):
        yield


def new_driver(players: int = 3, seed: int = 1, hands: int = 1) -> Driver:
    return Driver.new("toy-pass", "classic", players, seed, flags={"hands": hands},
                      bot="random")


def stage_of(driver: Driver) -> str:
    return str(driver.tables[driver.live[0]].engine._stage)  # type: ignore[attr-defined]


def at_stage(driver: Driver, stage: str) -> int:
    """Run to the decision of ``stage``; the deciding seat."""
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables) and stage_of(d) == stage)
    return next(i for i, t in enumerate(driver.tables) if t.needs_decision)


def hand_of(table: Table) -> list[Card]:
    assert table.seat is not None
    return [c for c in table.engine._hands[table.seat] if c is not None]  # type: ignore


def call_a_card_of_seat_0(driver: Driver) -> Card:
    """Seat 1 calls a card seat 0 holds privately, so that seat 0 must pass it."""
    assert at_stage(driver, "call") == 1
    called = hand_of(driver.tables[0])[0]
    driver._queue(1, driver.tables[1].decide(Action("call", value=called.code)).outgoing)
    return called


def assert_invalid(tmp_path: Path, driver: Driver, frames: list[bytes], *, seat: int,
                   index: int, rule: str) -> None:
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis, frames))
    assert report.status == "invalid"
    v = report.violation
    assert v is not None
    assert (v.rule, v.seat, v.index) == (rule, seat, index), v


# ------------------------------------------------------------------ whole matches


@pytest.mark.parametrize(("players", "seed", "hands"), [
    (3, 1, 1), (2, 3, 1), pytest.param(3, 2, 2, marks=pytest.mark.slow),
    pytest.param(4, 4, 2, marks=pytest.mark.slow)])
def test_whole_match_verifies_and_peers_agree(tmp_path: Path, players: int, seed: int,
                                              hands: int) -> None:
    driver = new_driver(players, seed, hands=hands)
    driver.run_out()
    assert not driver.violations
    tables = driver.tables
    assert all(t.finished for t in tables)
    assert all(t.frames == tables[0].frames for t in tables)
    assert len({t.engine.match_scores for t in tables}) == 1
    report = verify_transcript(write_transcript(tmp_path / "m.p2pt", driver.genesis,
                                                tables[0].frames))
    assert report.status == "valid", report.violation
    assert report.scores == tables[0].engine.match_scores


def test_private_pass_end_to_end(tmp_path: Path) -> None:
    """A called card passed to seat 1 and a card passed back: only the recipient learns it;
    the card given back is later played with the giver's forwarded share."""
    driver = new_driver(3, 5)
    called = call_a_card_of_seat_0(driver)
    k = driver.position
    assert at_stage(driver, "give") == 0
    step = driver.tables[0].decide(Action("give", called))
    (envelope,) = step.outgoing
    body = decode(envelope, driver.genesis)[1].body
    # the wire action hides the card; the entry carries the position and seat 0's sealed share
    assert body["action"] == {"kind": "give", "card": "??"}
    ((position, boxes),) = body["uses"]
    assert [seat for seat, _ in boxes] == [0]
    assert len(boxes[0][1]) == crypto.SEALED_TOKEN_SIZE
    driver._queue(0, step.outgoing)
    driver.step()
    seen = {i: cycle_of(driver.tables[i]).actions[-1] for i in range(3)}
    assert all(m.index == k + 1 and m.secret == (position,) for m in seen.values())
    # seat 1's live engine holds the real card, seat 2's an unknown one
    assert called in hand_of(driver.tables[1])
    assert called not in driver.tables[2].engine._hands[1]  # type: ignore[attr-defined]
    assert None in driver.tables[2].engine._hands[1]  # type: ignore[attr-defined]
    assert cycle_of(driver.tables[1]).known[position] == called
    assert position not in cycle_of(driver.tables[2]).known
    # seat 1 gives back a card of its own: seat 0 then holds seat 1's pass token
    assert at_stage(driver, "giveback") == 1
    back = next(c for c in hand_of(driver.tables[1]) if c != called)
    driver._queue(1, driver.tables[1].decide(Action("giveback", back)).outgoing)
    driver.step()
    cycle0 = cycle_of(driver.tables[0])
    back_position = next(p for p, c in cycle0.known.items() if c == back)
    assert 1 in cycle0.held[back_position]
    assert back_position in cycle0.hand_positions[0]
    driver.run_out()
    assert not driver.violations
    frames = driver.tables[0].frames
    plays = [decode(f, driver.genesis)[1] for f in frames]
    shown_back = [p for p in plays if p.kind == "action" and p.seat == 0
                  and back.code in str(p.body["action"])]
    assert shown_back, "seat 0 showed the card it was given back"
    report = verify_transcript(write_transcript(tmp_path / "m.p2pt", driver.genesis, frames))
    assert report.status == "valid", report.violation


def test_third_seat_events_show_only_hidden() -> None:
    driver = new_driver(3, 6)
    called = call_a_card_of_seat_0(driver)
    at_stage(driver, "give")
    step = driver.tables[0].decide(Action("give", called))
    driver._queue(0, step.outgoing)
    _, envelope = driver.queue.popleft()
    events = {i: driver.tables[i].receive(envelope).events for i in (1, 2)}
    driver.log.append(envelope)
    played = {i: [e for e in ev if isinstance(e, ActionPlayed)][0].action for i, ev in
              events.items()}
    assert played[1] == Action("give", called)
    assert played[2] == Action("give", HIDDEN)
    observer = Table(driver.genesis, seat=None)
    observer.start()
    for data in driver.log:
        observer.receive(data)
    assert cycle_of(observer).actions[-1].action == Action("give", HIDDEN)


def test_discard_face_down_and_audit_substitutes(tmp_path: Path) -> None:
    driver = new_driver(3, 7)
    seat = at_stage(driver, "discard")
    table = driver.tables[seat]
    a, b = hand_of(table)[:2]
    step = table.decide(Action("discard", cards=(a, b)))
    body = decode(step.outgoing[0], driver.genesis)[1].body
    assert body["action"] == {"kind": "discard", "cards": ["??", "??"]}
    positions = [p for p, shares in body["uses"]]
    assert all(shares == [] for _, shares in body["uses"])
    cycle = cycle_of(table)
    assert [cycle.known[p] for p in positions] == [a, b]
    driver._queue(seat, step.outgoing)
    driver.run_out()
    assert not driver.violations
    report = verify_transcript(write_transcript(tmp_path / "m.p2pt", driver.genesis,
                                                driver.tables[0].frames))
    assert report.status == "valid"


def test_declare_keeps_a_public_card_then_plays_it_without_token() -> None:
    driver = new_driver(3, 8)
    assert at_stage(driver, "declare") == 1
    table = driver.tables[1]
    kept = hand_of(table)[0]
    step = table.decide(Action("declare", kept))
    body = decode(step.outgoing[0], driver.genesis)[1].body
    ((position, shares),) = body["uses"]
    assert [s for s, _ in shares] == [1]
    driver._queue(1, step.outgoing)
    driver.step()
    for t in driver.tables:
        cycle = cycle_of(t)
        assert position in cycle.hand_positions[1] and cycle.public[position] == {0, 1, 2}
        assert kept in t.engine._hands[1]  # type: ignore[attr-defined]
    # later seat 1 plays it: the single-card form, no token
    driver.run_until(lambda d: d.tables[1].needs_decision and stage_of(d) == "play")
    while kept in hand_of(driver.tables[1]):
        if driver.tables[1].needs_decision:
            step = driver.tables[1].decide(Action("play", kept))
            body = decode(step.outgoing[0], driver.genesis)[1].body
            assert body == {"action": {"kind": "play", "card": kept.code}, "position": position}
            driver._queue(1, step.outgoing)
        driver.step()
    driver.run_out()
    assert not driver.violations


def test_meld_shows_several_cards_and_the_taken_upcard() -> None:
    driver = new_driver(3, 9)
    assert at_stage(driver, "take") == 0
    up = driver.tables[0].engine._upcard  # type: ignore[attr-defined]
    assert up is not None
    driver._queue(0, driver.tables[0].decide(Action("take")).outgoing)
    assert at_stage(driver, "meld") == 0
    table = driver.tables[0]
    meld = next(a for a in table.legal_actions() if up in a.cards)
    step = table.decide(meld)
    body = decode(step.outgoing[0], driver.genesis)[1].body
    entries = body["uses"]
    if meld.cards[1] == up:
        entries = entries[::-1]
    (up_position, up_shares), (other_position, other_shares) = entries
    assert up_shares == []  # a public card in a hidden hand: every share is already public
    assert up_position not in cycle_of(table).hand_positions[0]
    assert [s for s, _ in other_shares] == cycle_of(table).missing(other_position)
    driver._queue(0, step.outgoing)
    driver.run_out()
    assert not driver.violations


def test_face_up_card_dealt_into_a_hand_stays_public() -> None:
    driver = new_driver(3, 10)
    at_stage(driver, "call")
    for t in driver.tables:
        cycle = cycle_of(t)
        face_up = cycle.hand_positions[0][-1]
        assert cycle.public[face_up] == {0, 1, 2}
        assert cycle.known[face_up] in t.engine._hands[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [8, pytest.param(6, marks=pytest.mark.slow)])
def test_many_seats(tmp_path: Path, players: int) -> None:
    driver = new_driver(players, 11)
    driver.run_out()
    assert not driver.violations
    assert all(t.finished for t in driver.tables)
    assert all(t.frames == driver.tables[0].frames for t in driver.tables)
    report = verify_transcript(write_transcript(tmp_path / "m.p2pt", driver.genesis,
                                                driver.tables[0].frames))
    assert report.status == "valid", report.violation
    assert len(report.seats) == players


# ------------------------------------------------------------------ attacks


def forge(driver: Driver, seat: int, body: dict[str, object]) -> bytes:
    return craft(identity_of(driver.tables[seat]), table_id=driver.table_id, seq=driver.position,
                 prev=driver.head, seat=seat, kind="action", body=body)


def test_wrong_card_passed_is_caught_by_the_receiver_at_once() -> None:
    driver = new_driver(3, 12)
    called = call_a_card_of_seat_0(driver)
    at_stage(driver, "give")
    k = driver.position
    cheat = driver.tables[0]
    wrong = next(c for c in hand_of(cheat) if c != called
                 and c not in driver.tables[1].engine._seen)  # type: ignore[attr-defined]
    forged = forge(driver, 0, play_body(cheat, Action("give", wrong)))
    results = driver.offer(forged, sender=0)
    assert results[1] is not None
    assert (results[1].rule, results[1].seat, results[1].index) == ("must-give-called", 0, k)
    assert results[2] is None  # seat 2 cannot see the card (the full replay would)


def test_hidden_position_not_in_the_hand(tmp_path: Path) -> None:
    driver = new_driver(3, 13)
    seat = at_stage(driver, "discard")
    k = driver.position
    table = driver.tables[seat]
    body = play_body(table, Action("discard", cards=tuple(hand_of(table)[:2])))
    elsewhere = cycle_of(driver.tables[0]).hand_positions[0][0]
    body["uses"][1][0] = elsewhere  # type: ignore[index]
    forged = forge(driver, seat, body)
    results = driver.offer(forged, sender=seat)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("not-in-hand", seat, k), peer
    assert_invalid(tmp_path, driver, driver.log + [forged], seat=seat, index=k,
                   rule="not-in-hand")


def test_bad_sealed_token_is_caught_by_the_recipient() -> None:
    driver = new_driver(3, 14)
    called = call_a_card_of_seat_0(driver)
    at_stage(driver, "give")
    k = driver.position
    cheat = driver.tables[0]
    body = play_body(cheat, Action("give", called))
    position = body["uses"][0][0]  # type: ignore[index]
    cycle = cycle_of(cheat)
    assert cycle.deck is not None
    wrong = crypto.token(crypto.HandKey.generate(crypto.DeterministicRandomness(b"x")),
                         cycle.deck[position], cycle_of(cheat).ctx(0, f"pass-{position}"))
    box = crypto.seal_token(wrong, driver.genesis.seats[1].x25519,
                            cycle_of(cheat).ctx(0, f"pass-{position}-1-0"),
                            crypto.DeterministicRandomness(b"y"))
    body["uses"][0][1][0][1] = box  # type: ignore[index]
    results = driver.offer(forge(driver, 0, body), sender=0)
    assert results[1] is not None
    assert (results[1].rule, results[1].seat, results[1].index) == ("bad-sealed-token", 0, k)
    assert results[2] is None  # only the recipient can open it (SPEC §10.4)


def test_forged_forwarded_token(tmp_path: Path) -> None:
    driver = new_driver(3, 15)
    called = call_a_card_of_seat_0(driver)
    at_stage(driver, "give")
    driver._queue(0, driver.tables[0].decide(Action("give", called)).outgoing)
    # seat 1 keeps the called card and gives back another, then declares the called card
    assert at_stage(driver, "giveback") == 1
    back = next(c for c in hand_of(driver.tables[1]) if c != called)
    driver._queue(1, driver.tables[1].decide(Action("giveback", back)).outgoing)
    assert at_stage(driver, "declare") == 1
    k = driver.position
    table = driver.tables[1]
    body = play_body(table, Action("declare", called))
    ((position, shares),) = body["uses"]  # type: ignore[misc]
    assert [s for s, _ in shares] == [0]
    cycle = cycle_of(table)
    assert cycle.deck is not None
    forged_token = crypto.token(crypto.HandKey.generate(crypto.DeterministicRandomness(b"z")),
                                cycle.deck[position], cycle_of(table).ctx(0, f"pass-{position}"))
    shares[0][1] = forged_token.to_wire()
    forged = forge(driver, 1, body)
    results = driver.offer(forged, sender=1)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("bad-forwarded-token", 1, k), peer
    assert_invalid(tmp_path, driver, driver.log + [forged], seat=1, index=k,
                   rule="bad-forwarded-token")


def test_false_denial_is_caught_by_the_full_replay(tmp_path: Path) -> None:
    driver = new_driver(3, 16)
    called = call_a_card_of_seat_0(driver)
    at_stage(driver, "give")
    k = driver.position
    cheat = driver.tables[0]
    # the cheater's software believes another card was called, so it denies holding one
    cheat.engine._called = next(  # type: ignore[attr-defined]
        c for c in driver.genesis.spec.new_match(driver.genesis.game_config()).deck.cards
        if c not in hand_of(cheat) and c != called)
    assert cheat.legal_actions() == [Action("none")]
    driver._queue(0, cheat.decide(Action("none")).outgoing)
    driver.run_out()
    honest = [1, 2]
    assert sorted(i for i in driver.violations if i in honest) == honest
    for i in honest:
        v = driver.violations[i]
        assert (v.rule, v.seat, v.index) == ("false-denial", 0, k), v
    frames = driver.tables[1].frames
    assert_invalid(tmp_path, driver, frames, seat=0, index=k, rule="false-denial")


def test_single_card_form_where_the_general_one_is_due_and_conversely() -> None:
    driver = new_driver(3, 17)
    seat = at_stage(driver, "call")
    assert seat == 1
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables)
                     and stage_of(d) in ("declare", "play"))
    seat = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    table = driver.tables[seat]
    k = driver.position
    action = table.legal_actions()[0]
    body = play_body(table, action)
    c = action.card
    assert c is not None
    if "uses" in body:  # a declaration: write it in the single-card form instead
        ((position, shares),) = body["uses"]
        wrong: dict[str, object] = {"action": body["action"], "position": position}
    else:  # a plain play: write it in the general form instead
        shares = [[seat, body["token"]]] if "token" in body else []
        wrong = {"action": body["action"], "uses": [[body["position"], shares]]}
    results = driver.offer(forge(driver, seat, wrong), sender=seat)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("bad-body", seat, k), (peer, v)


def test_hidden_count_must_match_the_card_use() -> None:
    driver = new_driver(3, 18)
    seat = at_stage(driver, "discard")
    k = driver.position
    table = driver.tables[seat]
    body = play_body(table, Action("discard", cards=tuple(hand_of(table)[:2])))
    body["action"] = {"kind": "discard", "cards": ["??", hand_of(table)[1].code]}
    results = driver.offer(forge(driver, seat, body), sender=seat)
    for peer, v in results.items():
        assert v is not None and (v.rule, v.seat, v.index) == ("bad-action", seat, k), (peer, v)


CODES = list(SMALL.cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CODES), min_size=1, max_size=6, unique=True), st.data())
def test_masking_and_filling_are_inverse(cards: list[Card], data: st.DataObject) -> None:
    """``??`` slots hold the hidden then passed cards in slot order; filling them back with
    the real cards gives the actor's action again."""
    with_card = data.draw(st.booleans())
    action = (Action("x", cards[0], tuple(cards[1:])) if with_card
              else Action("x", cards=tuple(cards)))
    secret = data.draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    chosen = [c for c, s in zip(cards, secret, strict=True) if s]
    split = data.draw(st.integers(0, len(chosen)))
    use = CardUse(hidden=tuple(chosen[:split]), passed=tuple(chosen[split:]),
                  to=1 if chosen[split:] else None)
    masked = mask(action, use)
    slots = ([masked.card] if masked.card is not None else []) + list(masked.cards)
    assert slots.count(HIDDEN) == len(chosen)
    assert [c for c in slots if c != HIDDEN] == [c for c in cards if c not in chosen]
    assert fill(masked, chosen) == action
    if len(chosen) >= 2:  # listed out of slot order: refused
        swapped = CardUse(hidden=tuple(reversed(chosen)))
        with pytest.raises(GameError):
            mask(action, swapped)


_AT_MELD: list[tuple[Driver, int]] = []


def driver_at_meld() -> tuple[Driver, int]:
    if not _AT_MELD:
        with registered(PASS):
            driver = new_driver(3, 19)
            _AT_MELD.append((driver, at_stage(driver, "meld")))
    return _AT_MELD[0]


JUNK = st.recursive(
    st.none() | st.integers(-3, 60) | st.binary(max_size=150) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(JUNK, st.sampled_from(["uses", "position", "token"]))
def test_malformed_card_use_bodies_are_violations_never_crashes(junk: object,
                                                                key: str) -> None:
    driver, seat = driver_at_meld()
    table = driver.tables[seat]
    body = play_body(table, table.legal_actions()[0])
    body[key] = junk
    forged = forge(driver, seat, body)
    for peer in driver.live:
        if peer == seat:
            continue
        before = len(driver.tables[peer].frames)
        with pytest.raises(Violation) as caught:
            driver.tables[peer].receive(forged)
        assert caught.value.seat == seat
        assert len(driver.tables[peer].frames) == before
