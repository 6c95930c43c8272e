"""Attacks on a live table: each one is caught by every honest peer at once (``receive`` raises
:class:`Violation` naming culprit, envelope and rule), or, when it needs hidden cards, by the full
replay after the keys are revealed; and a transcript containing it fails :func:`verify_transcript`
with the same culprit, envelope and rule."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from attacks import (
    Driver,
    craft,
    cycle_of,
    decode,
    identity_of,
    play_body,
    resign,
    spliced,
    write_transcript,
)

from p2pcards import crypto
from p2pcards.games.base import Action
from p2pcards.table import Violation
from p2pcards.verify import verify_transcript
from p2pcards.wire import IdentityKey, PublicIdentity


def assert_caught(results: dict[int, Violation | None], *, seat: int | None, index: int,
                  rule: str) -> None:
    """Every honest peer that was offered the envelope raised the expected violation."""
    assert results, "no honest peer was offered the envelope"
    for peer, violation in results.items():
        assert violation is not None, f"seat {peer} accepted the forged envelope"
        assert (violation.rule, violation.seat, violation.index) == (rule, seat, index), (
            f"seat {peer}: {violation}")


def assert_invalid(tmp_path: Path, driver: Driver, frames: list[bytes], *, seat: int | None,
                   index: int, rule: str, detected_at: int) -> None:
    path = write_transcript(tmp_path / "attack.p2pt", driver.genesis, frames)
    report = verify_transcript(path)
    assert report.status == "invalid"
    v = report.violation
    assert v is not None
    assert (v.rule, v.seat, v.index, v.detected_at) == (rule, seat, index, detected_at)
    if seat is None:
        assert v.fingerprint is None
    else:
        expected = PublicIdentity.from_bytes(driver.genesis.seats[seat].identity).fingerprint
        assert v.fingerprint == expected
    # the same file without the forged envelope is an honest, merely incomplete, record
    honest = [f for i, f in enumerate(frames) if i != detected_at]
    if rule not in DEFERRED:
        path2 = write_transcript(tmp_path / "honest.p2pt", driver.genesis, honest)
        assert verify_transcript(path2).status == "incomplete"


DEFERRED = {"must-follow-suit", "false-declaration", "false-signal"}


def at_first_decision(game: str = "scopa", players: int = 3, seed: int = 1) -> Driver:
    driver = Driver.new(game, "classic", players, seed)
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables))
    return driver


def finish_splice(driver: Driver, position: int, forged: bytes) -> list[bytes]:
    """Let the honest match go on a little, then put the forged envelope at ``position``."""
    driver.run_until(lambda d: d.position >= position + 3)
    return spliced(driver.longest_frames(), position, forged)


# ------------------------------------------------------------------ caught at once: the chain


def test_forged_signature(tmp_path: Path) -> None:
    driver = at_first_decision()
    cheat, k = driver.expected()[0], driver.position
    outsider = IdentityKey.from_bytes(bytes([7]) * 32)
    body = play_body(driver.tables[cheat], driver.tables[cheat].legal_actions()[0])
    forged = craft(outsider, table_id=driver.table_id, seq=k, prev=driver.head, seat=cheat,
                   kind="action", body=body)
    results = driver.offer(forged, sender=cheat)
    # the signature does not verify, so nobody can be blamed: the claimed seat is not the culprit
    assert_caught(results, seat=None, index=k, rule="bad-signature")
    assert all(f"claiming seat {cheat}" in str(v) for v in results.values())
    assert_invalid(tmp_path, driver, finish_splice(driver, k, forged), seat=None, index=k,
                   rule="bad-signature", detected_at=k)


@pytest.mark.parametrize(
    ("change", "rule"),
    [("table_id", "wrong-table"), ("seq", "wrong-sequence"), ("prev", "fork")],
)
def test_bad_chain_link(tmp_path: Path, change: str, rule: str) -> None:
    """A link that an honest seat could have signed on another branch, or for another table,
    that the hub showed it, names no seat: the receiver cannot tell the hub from the signer."""
    driver = at_first_decision()
    cheat, k = driver.expected()[0], driver.position
    table = driver.tables[cheat]
    fields = {"table_id": driver.table_id, "seq": k, "prev": driver.head}
    fields[change] = {"table_id": hashlib.sha256(b"another table").digest(), "seq": k + 1,
                      "prev": hashlib.sha256(b"not the head").digest()}[change]
    forged = craft(identity_of(table), seat=cheat, kind="action",
                   body=play_body(table, table.legal_actions()[0]), **fields)
    results = driver.offer(forged, sender=cheat)
    assert_caught(results, seat=None, index=k, rule=rule)
    for violation in results.values():
        assert violation is not None
        assert violation.suspects == ({"fork": (driver.tables[0].chain.seat_of(k - 1), cheat)}
                                      .get(rule, (cheat,) if rule == "wrong-sequence" else ()))
    assert_invalid(tmp_path, driver, finish_splice(driver, k, forged), seat=None, index=k,
                   rule=rule, detected_at=k)


def test_out_of_turn(tmp_path: Path) -> None:
    driver = at_first_decision()
    turn, k = driver.expected()[0], driver.position
    cheat = (turn + 1) % len(driver.tables)
    forged = craft(identity_of(driver.tables[cheat]), table_id=driver.table_id, seq=k,
                   prev=driver.head, seat=cheat, kind="action",
                   body={"action": {"kind": "play", "card": "7D"}})
    results = driver.offer(forged, sender=cheat)
    assert turn in results
    assert_caught(results, seat=cheat, index=k, rule="out-of-turn")
    assert_invalid(tmp_path, driver, finish_splice(driver, k, forged), seat=cheat, index=k,
                   rule="out-of-turn", detected_at=k)


def test_replayed_envelope(tmp_path: Path) -> None:
    driver = at_first_decision()
    k = driver.position
    old = driver.log[k - 1]
    signer = decode(old, driver.genesis)[1].seat
    results = driver.offer(old, sender=signer)
    assert_caught(results, seat=signer, index=k - 1, rule="replay")
    assert_invalid(tmp_path, driver, finish_splice(driver, k, old), seat=signer, index=k - 1,
                   rule="replay", detected_at=k)


def test_equivocation(tmp_path: Path) -> None:
    driver = at_first_decision()
    k = driver.position
    cheat = 1
    j = max(i for i, f in enumerate(driver.log) if decode(f, driver.genesis)[1].seat == cheat)
    first = driver.log[j]
    second = resign(first, driver.genesis, identity_of(driver.tables[cheat]),
                    body={"public": [], "sealed": []})
    results = driver.offer(second, sender=cheat)
    assert_caught(results, seat=cheat, index=j, rule="equivocation")
    for violation in results.values():
        assert violation is not None
        assert [e.encode() for e in violation.evidence] == [first, second]
    frames = finish_splice(driver, k, second)
    assert_invalid(tmp_path, driver, frames, seat=cheat, index=j, rule="equivocation",
                   detected_at=k)
    report = verify_transcript(tmp_path / "attack.p2pt")
    assert report.violation is not None
    assert report.violation.evidence == tuple(
        hashlib.sha256(f).hexdigest() for f in (first, second))


# ------------------------------------------------------------------ caught at once: the rules


def test_scopa_trail_when_a_capture_is_possible(tmp_path: Path) -> None:
    driver = at_first_decision()
    cheat, k = driver.expected()[0], driver.position
    table = driver.tables[cheat]
    legal = table.legal_actions()
    capturing = sorted({a.card for a in legal if a.card is not None}
                       - {a.card for a in legal if not a.cards})
    assert capturing, "the deal of this seed gives the first seat a card that must capture"
    trail = Action("play", capturing[0])
    assert trail not in legal
    forged = craft(identity_of(table), table_id=driver.table_id, seq=k, prev=driver.head,
                   seat=cheat, kind="action", body=play_body(table, trail))
    results = driver.offer(forged, sender=cheat)
    assert_caught(results, seat=cheat, index=k, rule="must-capture")
    assert_invalid(tmp_path, driver, finish_splice(driver, k, forged), seat=cheat, index=k,
                   rule="must-capture", detected_at=k)


def test_played_card_is_not_the_card_at_that_position(tmp_path: Path) -> None:
    driver = at_first_decision()
    cheat, k = driver.expected()[0], driver.position
    table = driver.tables[cheat]
    honest = table.legal_actions()[0]
    assert honest.card is not None
    body = play_body(table, honest)
    others = [p for p in cycle_of(table).hand_positions[cheat] if p != body["position"]]
    body["position"] = others[0]  # the token does not fit this position
    forged = craft(identity_of(table), table_id=driver.table_id, seq=k, prev=driver.head,
                   seat=cheat, kind="action", body=body)
    results = driver.offer(forged, sender=cheat)
    assert_caught(results, seat=cheat, index=k, rule="bad-token")


# ------------------------------------------------------------------ caught at once: mental poker


def tamper_first(driver: Driver, seat: int, kind: str, change: object) -> None:
    """Replace ``seat``'s first ``kind`` message by ``change(payload_body) -> body``."""
    done: list[bool] = []

    def tamper(sender: int, data: bytes) -> bytes | None:
        if done or sender != seat:
            return None
        payload = decode(data, driver.genesis)[1]
        if payload.kind != kind:
            return None
        done.append(True)
        body = change(dict(payload.body))  # type: ignore[operator]
        return resign(data, driver.genesis, identity_of(driver.tables[seat]), body=body)

    driver.tamper = tamper


def run_tampered(tmp_path: Path, driver: Driver, cheat: int, rule: str) -> None:
    driver.run_until(lambda d: bool(d.tampered) and d.position >= d.tampered[0][0] + 3)
    position, forged, results = driver.tampered[0]
    assert_caught(results, seat=cheat, index=position, rule=rule)
    assert not driver.violations, "the genuine envelope after the forged one was accepted"
    assert_invalid(tmp_path, driver, spliced(driver.longest_frames(), position, forged),
                   seat=cheat, index=position, rule=rule, detected_at=position)


def test_tampered_shuffle(tmp_path: Path) -> None:
    driver = Driver.new("scopa", "classic", 3, seed=2)

    def swap_two(body: dict[str, object]) -> dict[str, object]:
        deck = list(body["deck"])  # type: ignore[call-overload]
        deck[0], deck[1] = deck[1], deck[0]
        return {**body, "deck": deck}

    tamper_first(driver, 1, "shuffle", swap_two)
    run_tampered(tmp_path, driver, 1, "bad-shuffle")


def test_wrong_reveal_token(tmp_path: Path) -> None:
    driver = Driver.new("scopa", "classic", 3, seed=3)
    cheat = 2
    table = driver.tables[cheat]

    def bad_token(body: dict[str, object]) -> dict[str, object]:
        public = [list(item) for item in body["public"]]  # type: ignore[attr-defined]
        position = public[0][0]
        cycle = cycle_of(table)
        assert cycle.deck is not None
        other = crypto.HandKey.generate(crypto.DeterministicRandomness(b"not my key"))
        tok = crypto.token(other, cycle.deck[position],
                           cycle_of(table).ctx(cheat, f"deal-{position}"))
        public[0][1] = tok.to_wire()
        return {**body, "public": public}

    tamper_first(driver, cheat, "tokens", bad_token)
    run_tampered(tmp_path, driver, cheat, "bad-token")


def test_wrong_key_reveal(tmp_path: Path) -> None:
    driver = Driver.new("briscola", "classic", 2, seed=4)

    def wrong_secret(body: dict[str, object]) -> dict[str, object]:
        secret = crypto.Scalar.from_bytes(body["secret"], "secret")  # type: ignore[arg-type]
        return {"secret": (secret + crypto.Scalar.from_bytes((1).to_bytes(32, "little"),
                                                             "one")).to_bytes()}

    tamper_first(driver, 0, "reveal", wrong_secret)
    run_tampered(tmp_path, driver, 0, "bad-reveal")


def test_disagreeing_hand_result(tmp_path: Path) -> None:
    driver = Driver.new("briscola", "classic", 2, seed=5)

    def inflate(body: dict[str, object]) -> dict[str, object]:
        scores = list(body["scores"])  # type: ignore[call-overload]
        scores[1] += 1
        return {**body, "scores": scores}

    tamper_first(driver, 1, "result", inflate)
    run_tampered(tmp_path, driver, 1, "result-mismatch")


# ------------------------------------------------------------------ caught after the hand


def run_deferred(tmp_path: Path, driver: Driver, cheat: int, action: Action, rule: str) -> None:
    """The cheater makes ``action`` (refused by its own engine); honest peers accept it live and
    catch it when the hand's keys are revealed; then the transcript fails verification."""
    k = driver.position
    table = driver.tables[cheat]
    assert action not in table.legal_actions()
    body = play_body(table, action)
    driver.detach(cheat)
    results = driver.send_as(cheat, "action", body)
    assert results and all(v is None for v in results.values()), results
    driver.run_out()
    honest = [i for i in range(len(driver.tables)) if i != cheat]
    assert sorted(driver.violations) == honest
    for violation in driver.violations.values():
        assert (violation.rule, violation.seat, violation.index) == (rule, cheat, k), violation
        assert "replayed" in str(violation)
    frames = driver.longest_frames()
    assert_invalid(tmp_path, driver, frames, seat=cheat, index=k, rule=rule,
                   detected_at=len(frames) - 1)


def _trick_moment(driver: Driver, want: object) -> int:
    """Run to a follower's decision satisfying ``want(engine, seat, hand, led)``; the seat."""
    def ready(d: Driver) -> bool:
        for s, t in enumerate(d.tables):
            if t.needs_decision and t.engine._trick:  # type: ignore[attr-defined]
                led = t.engine._trick[0].card.suit  # type: ignore[attr-defined]
                hand = t.engine._hands[s]  # type: ignore[attr-defined]
                if want(t.engine, s, hand, led):  # type: ignore[operator]
                    return True
        return False

    driver.run_until(ready)
    return next(s for s, t in enumerate(driver.tables) if t.needs_decision)


def test_tressette_not_following_suit(tmp_path: Path) -> None:
    driver = Driver.new("tressette", "classic", 3, seed=1)
    cheat = _trick_moment(driver, lambda e, s, hand, led: any(c.suit == led for c in hand)
                          and any(c.suit != led for c in hand))
    hand = driver.tables[cheat].engine._hands[cheat]  # type: ignore[attr-defined]
    led = driver.tables[cheat].engine._trick[0].card.suit  # type: ignore[attr-defined]
    off_suit = next(c for c in hand if c.suit != led)
    run_deferred(tmp_path, driver, cheat, Action("play", off_suit), "must-follow-suit")


def test_tressette_false_buongioco_declaration(tmp_path: Path) -> None:
    # Seed 4 deals four aces to seat 0, who leads: declaring three of them claims the fourth is
    # not held, a lie nobody can see until the hand is replayed with every card known.
    driver = Driver.new("tressette", "classic", 3, seed=4)
    driver.run_until(driver.decision_of(0))
    hand = driver.tables[0].engine._hands[0]  # type: ignore[attr-defined]
    aces = sorted(c for c in hand if c.rank == 1)
    assert len(aces) == 4, "the deal of seed 4 gives seat 0 four aces"
    run_deferred(tmp_path, driver, 0, Action("declare", cards=tuple(aces[:3]), value="aces"),
                 "false-declaration")


def test_tresette_lying_count_signal(tmp_path: Path) -> None:
    driver = Driver.new("tresette", "classic", 4, seed=1)
    cheat = _trick_moment(driver, lambda e, s, hand, led: len(hand) >= 2
                          and any(c.suit == led for c in hand))
    hand = driver.tables[cheat].engine._hands[cheat]  # type: ignore[attr-defined]
    led = driver.tables[cheat].engine._trick[0].card.suit  # type: ignore[attr-defined]
    held = sorted(c for c in hand if c.suit == led)
    lie = len(held) + 1 if len(held) + 1 <= len(hand) else len(held) - 1
    assert lie >= 1
    run_deferred(tmp_path, driver, cheat, Action("play", held[0], value="count", amount=lie),
                 "false-signal")
