"""A wrong share of a dealt hand key (SPEC §9.13.4), with in-memory tables: the holder's
``complain`` enters the chain, every seat names the dealer at once, the verifier names it from
the transcript alone, nothing opens any other share or hand, nobody forfeits and nobody is
recovered; a complaint that proves nothing names the complainant; inbox keys carry a proof of
possession and are pairwise distinct."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from attacks import (
    Driver,
    craft,
    cycle_of,
    decode,
    identity_of,
    resign,
    voice_of,
    write_transcript,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import make_bot
from p2pcards.crypto import DeterministicRandomness, G, ProofContext, Scalar
from p2pcards.crypto.inbox import BoxOpening, InboxKey, PublishedInbox
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.records.secret_store import PROPOSAL, MemoryKeeper
from p2pcards.seating.genesis import Genesis
from p2pcards.table import Table, Violation, bare_inboxes, replay_frames
from p2pcards.verify import verify_transcript
from p2pcards.wire import Envelope, envelope_hash


def deal_bad_box(table: Table, holder: int) -> None:
    """Make ``table``'s seat deal a wrong box to ``holder`` in its next ``shuffle`` (a patched
    dealer: its own table does not check its own boxes, so it sends it as its own)."""
    original = table._automatic_body

    def body() -> dict[str, Any]:
        out = original()
        if table._round.kind == "shuffle" and "keyshares" in out:
            r, commitments, boxes = out["keyshares"]
            boxes = list(boxes)
            assert table.seat is not None
            i = holder if holder < table.seat else holder - 1
            boxes[i] = (Scalar.from_bytes(boxes[i]) + Scalar(7)).to_bytes()
            out["keyshares"] = [r, commitments, boxes]
        return out

    table._automatic_body = body  # type: ignore[method-assign]


def kinds(driver: Driver) -> list[str]:
    return [decode(f, driver.genesis)[1].kind for f in driver.log]


def step_until(driver: Driver, predicate: Callable[[Driver], bool]) -> None:
    """Deliver one envelope (or decision) at a time until ``predicate`` holds."""
    for _ in range(10_000):
        if predicate(driver):
            return
        assert driver.step(), "the match stopped before the awaited moment"
    raise AssertionError("step limit reached")


def queued(driver: Driver, seat: int, kind: str) -> bool:
    """Whether the next delivery is ``seat``'s ``kind`` envelope."""
    return bool(driver.queue) and driver.queue[0][0] == seat and decode(
        driver.queue[0][1], driver.genesis)[1].kind == kind


@pytest.mark.parametrize(("players", "holder", "policy"), [
    (3, 0, "forfeit"), (3, 1, "bot"), (4, 0, "bot"), (4, 2, "forfeit"), (4, 1, "forfeit")])
def test_the_last_shuffler_dealing_a_wrong_box_is_named_by_every_seat_and_the_verifier(
        tmp_path: Path, players: int, holder: int, policy: str) -> None:
    driver = Driver.new("scopa", "classic", players, seed=6 + holder, dropout=policy)
    dealer = players - 1
    deal_bad_box(driver.tables[dealer], holder)
    driver.run_out()
    seen = kinds(driver)
    # the complaint is the last envelope: no card of anyone's hand was opened, no key revealed,
    # no recovery, no hand played
    assert seen[-1] == "complain"
    assert not {"recover", "reveal", "action", "result"} & set(seen)
    shuffle_at = max(i for i, k in enumerate(seen) if k == "shuffle")
    complain_at = len(seen) - 1
    # the holder said nothing between the dealing and its complaint, which came in its turn
    assert all(decode(f, driver.genesis)[1].seat != holder
               for f in driver.log[shuffle_at + 1:complain_at])
    expected = replay_frames(driver.genesis, driver.log[:complain_at]).expected
    assert expected is not None and expected[0] == holder and not driver.lost
    for seat, table in enumerate(driver.tables):
        violation = driver.violations[seat]
        assert (violation.rule, violation.seat, violation.index) == (
            "bad-key-share", dealer, shuffle_at), seat
        assert table.complaint is not None
        assert (table.complaint.holder, table.complaint.dealer) == (holder, dealer)
        assert table.complaint.index == complain_at
        assert table.finished and table.recovery is None and table.forfeit is None
        assert table.bot_seat is None and table.frames == driver.log
    # the complaint holds the one shared point, never the inbox secret
    _, payload = decode(driver.log[-1], driver.genesis)
    cycle = cycle_of(driver.tables[holder])
    assert cycle.my_inbox is not None
    assert cycle.my_inbox.to_bytes() not in driver.log[-1]
    assert set(payload.body) == {"dealer", "open"} and payload.body["dealer"] == dealer
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis, driver.log))
    assert report.status == "invalid" and report.violation is not None
    assert (report.violation.rule, report.violation.seat) == ("bad-key-share", dealer)
    assert (report.violation.index, report.violation.detected_at) == (shuffle_at, complain_at)
    assert report.violation.source == "chain" and report.dropout is None


def run_to_first_decision(players: int, seed: int) -> Driver:
    driver = Driver.new("scopa", "classic", players, seed=seed, dropout="forfeit")
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables))
    return driver


def complaint_at_head(driver: Driver, holder: int, dealer: int, opening: list[bytes]) -> bytes:
    """``holder``'s ``complain`` about ``dealer`` with this opening, at the chain head."""
    return craft(identity_of(driver.tables[holder]), table_id=driver.table_id,
                 seq=driver.position, prev=driver.head, seat=holder, kind="complain",
                 body={"dealer": dealer, "open": opening})


def genuine_opening(driver: Driver, holder: int, dealer: int) -> BoxOpening:
    """The holder's correct opening of its (good) box from ``dealer``."""
    table = driver.tables[holder]
    cycle = cycle_of(table)
    assert cycle.my_inbox is not None
    dealt = cycle.dealt[dealer]
    i = holder if holder < dealer else holder - 1
    ctx = ProofContext(driver.table_id, cycle.number, holder, f"open-{dealer}")
    return InboxKey(cycle.my_inbox).open_box(dealt.ephemeral, dealt.boxes[i], ctx)


def test_a_complaint_about_a_good_share_names_the_complainant() -> None:
    """Seat 1 has signed nothing since seat 2's shuffle (3 seats, seat 0 speaks first in the
    deal): it may complain, but its honest opening shows a share that fits the commitments."""
    driver = Driver.new("scopa", "classic", 3, seed=9, dropout="forfeit")
    step_until(driver, lambda d: kinds(d).count("shuffle") == 3)
    holder, dealer = 0, 2
    assert kinds(driver)[-1] == "shuffle"
    forged = complaint_at_head(driver, holder, dealer,
                               genuine_opening(driver, holder, dealer).to_wire())
    for seat in (1, 2):
        with pytest.raises(Violation) as info:
            driver.tables[seat].receive(forged)
        assert (info.value.rule, info.value.seat) == ("bad-complaint", holder)
        assert "matches its commitments" in str(info.value)
        assert driver.tables[seat].complaint is None and not driver.tables[seat].finished


def test_a_complaint_whose_proof_fails_names_the_complainant() -> None:
    """A wrong box, but the complaint's shared point is not the one its proof is about (or the
    proof is altered): refused as ``bad-complaint`` of the complainant, the dealer unblamed."""
    driver = Driver.new("scopa", "classic", 3, seed=10, dropout="forfeit")
    holder, dealer = 0, 2
    deal_bad_box(driver.tables[dealer], holder)
    step_until(driver, lambda d: queued(d, holder, "complain"))
    assert "complain" not in kinds(driver)
    honest = driver.queue[0][1]
    _, payload = decode(honest, driver.genesis)
    shared, c, s = payload.body["open"]
    other_point = (Scalar(3) * G).to_bytes()
    altered_s = (Scalar.from_bytes(s) + Scalar(1)).to_bytes()
    for opening in ([other_point, c, s], [shared, c, altered_s], [shared, c]):
        forged = resign(honest, driver.genesis, identity_of(driver.tables[holder]),
                        body={"dealer": dealer, "open": opening})
        for seat in (1, 2):
            with pytest.raises(Violation) as info:
                driver.tables[seat].receive(forged)
            assert (info.value.rule, info.value.seat) == ("bad-complaint", holder)
    # the honest one, delivered, proves the dealer at fault
    driver.run_out()
    assert driver.violations[1].seat == dealer and driver.violations[1].rule == "bad-key-share"


def test_a_seat_that_spoke_after_the_dealing_cannot_complain_about_it() -> None:
    """Seat 0 sent its tokens after seat 2's shuffle: a complaint of seat 0 about seat 2's
    sharing is no longer one (the table waits for someone else: out of turn)."""
    driver = run_to_first_decision(3, seed=11)
    seen = kinds(driver)
    shuffle_at = max(i for i, k in enumerate(seen) if k == "shuffle")
    spoke = {decode(f, driver.genesis)[1].seat for f in driver.log[shuffle_at + 1:]}
    expected = driver.tables[2].expected
    assert expected is not None
    holder = next(s for s in (0, 1) if s in spoke and s != expected[0])
    forged = complaint_at_head(driver, holder, 2, genuine_opening(driver, holder, 2).to_wire())
    with pytest.raises(Violation) as info:
        driver.tables[2].receive(forged)
    assert info.value.seat == holder and info.value.rule != "bad-key-share"


def test_a_complaint_about_oneself_or_a_seat_that_dealt_nothing_is_refused() -> None:
    driver = Driver.new("scopa", "classic", 3, seed=12, dropout="forfeit")
    step_until(driver, lambda d: kinds(d).count("shuffle") == 1)
    opening = genuine_opening(driver, 1, 0).to_wire()
    for holder, dealer in ((1, 1), (1, 2)):  # itself; a dealer whose shuffle is not in yet
        forged = complaint_at_head(driver, holder, dealer, opening)
        with pytest.raises(Violation) as info:
            driver.tables[0].receive(forged)
        assert info.value.seat == holder and info.value.rule in ("out-of-turn", "wrong-kind")


def key_envelope(driver: Driver, seat: int, inbox: list[bytes]) -> bytes:
    """``seat``'s genuine ``key`` envelope (queued, not yet delivered) with another inbox."""
    step_until(driver, lambda d: queued(d, seat, "key"))
    data = driver.queue[0][1]
    _, payload = decode(data, driver.genesis)
    return resign(data, driver.genesis, identity_of(driver.tables[seat]),
                  body={**payload.body, "inbox": inbox})


def test_an_inbox_key_without_its_proof_of_possession_is_refused() -> None:
    driver = Driver.new("scopa", "classic", 3, seed=13, dropout="forfeit")
    step_until(driver, lambda d: queued(d, 1, "key"))
    first = cycle_of(driver.tables[0])
    copied = PublishedInbox(first.inboxes[0], InboxKey(Scalar(5)).publish(
        ProofContext(driver.table_id, 0, 1, "inbox")).proof)
    bare = first.inboxes[0].to_bytes()
    for inbox in (copied.to_wire(), bare):  # seat 0's inbox with a proof it cannot make
        forged = key_envelope(driver, 1, inbox)  # type: ignore[arg-type]
        with pytest.raises(Violation) as info:
            driver.tables[2].receive(forged)
        assert (info.value.rule, info.value.seat) == ("bad-key", 1)


def test_a_repeated_inbox_key_is_a_violation_of_the_later_seat() -> None:
    """Seats 0 and 1 collude and share an inbox secret: seat 1's proof of possession is
    valid, but its inbox repeats seat 0's."""
    driver = Driver.new("scopa", "classic", 3, seed=14, dropout="forfeit")
    step_until(driver, lambda d: queued(d, 1, "key"))
    secret = cycle_of(driver.tables[0]).my_inbox
    assert secret is not None
    twin = InboxKey(secret).publish(ProofContext(driver.table_id, 0, 1, "inbox"))
    forged = key_envelope(driver, 1, twin.to_wire())
    with pytest.raises(Violation) as info:
        driver.tables[2].receive(forged)
    assert (info.value.rule, info.value.seat) == ("bad-key", 1)
    assert "repeats the one of seat 0" in str(info.value)


def rerecorded_with_bare_inboxes(genesis: Genesis, tables: list[Table],
                                 frames: list[bytes]) -> list[bytes]:
    """``frames`` as the earlier rule recorded them: every ``key`` carries its inbox key as a
    bare point, and every envelope is signed again by its seat over the new links."""
    out: list[bytes] = []
    for data in frames:
        _, payload = decode(data, genesis)
        body = dict(payload.body)
        if payload.kind == "key" and "inbox" in body:
            body["inbox"] = body["inbox"][0]
        prev = envelope_hash(Envelope.decode(out[-1])) if out else payload.prev
        out.append(craft(identity_of(tables[payload.seat]), table_id=payload.table_id,
                         seq=payload.seq, prev=prev, seat=payload.seat, kind=payload.kind,
                         body=body))
    return out


def test_a_transcript_of_the_earlier_rule_keeps_its_verdict_but_no_seat_takes_a_bare_inbox(
        tmp_path: Path) -> None:
    genesis, tables = make_tables("scopa", "classic", 3, seed=21, dropout="forfeit")
    bots = [make_bot("scopa", "smart", 210 + i) for i in range(3)]
    run = run_in_memory(genesis, tables, bots)
    assert verify_transcript(write_transcript(tmp_path / "now.p2pt", genesis,
                                              run.frames)).status == "valid"
    earlier = rerecorded_with_bare_inboxes(genesis, tables, run.frames)
    assert bare_inboxes(genesis, earlier) and not bare_inboxes(genesis, run.frames)
    report = verify_transcript(write_transcript(tmp_path / "then.p2pt", genesis, earlier))
    assert report.status == "valid" and report.scores == tuple(run.match_scores)
    # one key of the other form among them is refused, naming its seat
    first_key = next(i for i, f in enumerate(earlier) if decode(f, genesis)[1].kind == "key")
    mixed = rerecorded_with_bare_inboxes(genesis, tables, run.frames[:first_key + 1])
    mixed += [run.frames[first_key + 1]]
    _, second = decode(mixed[-1], genesis)
    mixed[-1] = craft(identity_of(tables[second.seat]), table_id=second.table_id,
                      seq=second.seq, prev=envelope_hash(Envelope.decode(mixed[-2])),
                      seat=second.seat, kind="key", body=second.body)
    bad = verify_transcript(write_transcript(tmp_path / "mixed.p2pt", genesis, mixed))
    assert bad.violation is not None
    assert (bad.violation.rule, bad.violation.seat) == ("bad-key", second.seat)
    # a seat never accepts the bare form
    _, fresh = make_tables("scopa", "classic", 3, seed=21, dropout="forfeit")
    seat = fresh[1]
    sent = seat.start().outgoing
    for data in earlier[:first_key]:
        if decode(data, genesis)[1].seat != 1:
            sent += seat.receive(data).outgoing
    assert seat.frames == earlier[:first_key] and sent == [earlier[1]]
    with pytest.raises(Violation) as info:
        seat.receive(earlier[first_key])
    assert (info.value.rule, info.value.seat) == ("bad-key", 0)
    with pytest.raises(ValueError, match="observer"):
        Table(genesis, seat=0, identity=identity_of(tables[0]), x25519_private=bytes(32),
              rng=DeterministicRandomness(b"x"), bare_inboxes=True)


def test_a_restarted_holder_takes_back_its_kept_complaint_instead_of_signing_another() -> None:
    """The complaint is kept before it is sent: a holder rebuilt from its frames and kept
    secrets holds that very envelope as its proposal, and signs nothing new for the position."""
    driver = Driver.new("scopa", "classic", 3, seed=15, dropout="forfeit")
    holder = driver.tables[1]
    holder.keeper = MemoryKeeper()
    deal_bad_box(driver.tables[2], 1)
    step_until(driver, lambda d: any(s == 1 and decode(data, d.genesis)[1].kind == "complain"
                                     for s, data in d.queue))
    sent = next(data for s, data in driver.queue if s == 1)
    assert holder.keeper.load(PROPOSAL) == sent == holder.proposal
    again = Table(driver.genesis, seat=1, identity=identity_of(holder),
                  x25519_private=voice_of(holder).x25519,
                  rng=DeterministicRandomness(b"restart"),
                  keeper=holder.keeper)
    step = again.resume(holder.frames)
    assert step.outgoing == [] and again.proposal == sent
    assert cycle_of(again).bad_box == 2


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([3, 4]), data=st.data())
def test_whoever_deals_a_wrong_box_to_whoever_is_named_and_nothing_is_opened(
        players: int, data: st.DataObject) -> None:
    """Any dealer (a first, middle or last shuffler) and any holder (one that has still to
    shuffle, too): the holder's complaint ends the match at once with the dealer named."""
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    holder = data.draw(st.sampled_from([s for s in range(players) if s != dealer]),
                       label="holder")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    driver = Driver.new("scopa", "classic", players, seed=seed, dropout="forfeit")
    deal_bad_box(driver.tables[dealer], holder)
    driver.run_out()
    seen = kinds(driver)
    assert seen[-1] == "complain" and not {"recover", "reveal", "action"} & set(seen)
    dealt_at = [i for i, k in enumerate(seen) if k == "shuffle"][dealer]
    assert all(decode(f, driver.genesis)[1].seat != holder for f in driver.log[dealt_at + 1:-1])
    for seat in range(players):
        violation = driver.violations[seat]
        assert (violation.rule, violation.seat, violation.index) == (
            "bad-key-share", dealer, dealt_at)
