"""The sans-IO seating handshake: both machines wired to each other in memory, no network.

Covers the checks of each side, the rules a seat signs (issue 19, point 1: the invite's rules
digest, the genesis against the announced rules, refusing house rules unless accepted), the
seating that no silent connection can hold up (point 4, with a fake time passed in) and tables
of 6 and 8 seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards import games
from p2pcards.games.base import GameSpec, UnknownFlag, VariantConfig, flags_of
from p2pcards.seating.errors import HandshakeError
from p2pcards.seating.genesis import Genesis
from p2pcards.seating.handshake import (
    CLAIM_SECONDS,
    Close,
    Freed,
    HostSeating,
    Joined,
    JoinerSeating,
    Review,
    Seated,
    SeatOffered,
    Send,
    Started,
    review_refusal,
)
from p2pcards.seating.invite import Invite
from p2pcards.seating.rules import TableRules, parse_setting, parse_settings
from p2pcards.seating.secrets import SeatSecrets, new_seat
from p2pcards.wire.identity import IdentityKey

NONCE = bytes(range(16))
CLASSIC = TableRules.choose("scopa", "classic", 2)


def invite_for(key: IdentityKey, rules: TableRules | None, nonce: bytes = NONCE) -> Invite:
    return Invite("127.0.0.1", 7000, nonce, key.public.fingerprint,
                  rules=None if rules is None else rules.digest())


def sent(outputs: list[Any], conn: object) -> list[dict[str, Any]]:
    return [o.message for o in outputs if isinstance(o, Send) and o.conn == conn]


def only(outputs: list[Any], conn: object) -> dict[str, Any]:
    messages = sent(outputs, conn)
    assert len(messages) == 1, outputs
    return messages[0]


@dataclass
class Guest:
    """One joiner machine and its connection name at the host."""

    conn: str
    machine: JoinerSeating
    secrets: SeatSecrets = field(default_factory=new_seat)


def arrive(host: HostSeating, guest: Guest, now: float = 0.0) -> Review:
    """Connect and say hello; the joiner checks the challenge."""
    assert host.connected(guest.conn, now) == []
    challenge = only(host.receive(guest.conn, guest.machine.hello(), now), guest.conn)
    review = guest.machine.receive(challenge)
    assert isinstance(review, Review)
    return review


def ready(host: HostSeating, guest: Guest, now: float = 0.0) -> list[Any]:
    return host.receive(guest.conn, guest.machine.accept(), now)


def claim(host: HostSeating, guest: Guest, offer: dict[str, Any], now: float = 0.0
          ) -> list[Any]:
    offered = guest.machine.receive(offer)
    assert isinstance(offered, SeatOffered)
    return host.receive(guest.conn, guest.machine.claim(guest.secrets, guest.conn), now)


def seat_everyone(host: HostSeating, guests: list[Guest]) -> None:
    for guest in guests:
        arrive(host, guest)
    offers = {g.conn: only(ready(host, g), g.conn) for g in guests}
    for guest in reversed(guests):  # claims arrive in another order than the seats were given
        out = claim(host, guest, offers[guest.conn])
        seated = guest.machine.receive(sent(out, guest.conn)[0])
        assert isinstance(seated, Seated)


def genesis_of(host: HostSeating, host_secrets: SeatSecrets, rules: TableRules) -> Genesis:
    """What the hub builds once the table is full."""
    infos = [host_secrets.info("host")] + [j.info for _, j in host.seated()]
    return Genesis(rules.game, rules.preset, dict(rules.config), tuple(infos),
                   dict(rules.timeouts))


def table(rules: TableRules = CLASSIC) -> tuple[HostSeating, SeatSecrets]:
    secrets = new_seat()
    return HostSeating(rules, NONCE, secrets.identity, rules.players - 1), secrets


def guest(host: HostSeating, name: str, rules: TableRules | None = CLASSIC, *,
          nonce: bytes = NONCE, key: IdentityKey | None = None) -> Guest:
    return Guest(name, JoinerSeating(invite_for(key or host.key, rules, nonce), bot=True))


# ----------------------------------------------------------------------------- both sides


def test_a_whole_seating_both_sides_prove_their_keys_and_agree() -> None:
    host, host_secrets = table()
    ann = guest(host, "ann")
    review = arrive(host, ann)
    assert review == Review(CLASSIC, committed=True)
    assert review_refusal(review.rules, review.committed) is None  # exactly the preset
    offer = only(ready(host, ann), "ann")
    assert offer == {"type": "seat", "seat": 1}
    out = claim(host, ann, offer)
    assert only(out, "ann") == {"type": "seated", "seat": 1, "missing": 0}
    assert any(isinstance(o, Joined) and o.joiner.seat == 1 for o in out)
    assert host.full and [j.seat for _, j in host.seated()] == [1]
    assert ann.machine.receive(only(out, "ann")) == Seated(1, 0)
    genesis = genesis_of(host, host_secrets, CLASSIC)
    started = ann.machine.receive({"type": "genesis", "genesis": genesis.encode(), "bots": []})
    assert started == Started(genesis, frozenset())
    assert genesis.seats[1] == ann.secrets.info("ann")


def test_a_wrong_or_stale_nonce_is_refused_with_the_reason() -> None:
    host, _ = table()
    stale = guest(host, "old", nonce=bytes(16))
    host.connected("old", 0.0)
    out = host.receive("old", stale.machine.hello(), 0.0)
    refusal = only(out, "old")
    assert refusal["type"] == "refused" and "wrong or stale" in refusal["reason"]
    assert any(isinstance(o, Close) for o in out)
    with pytest.raises(HandshakeError, match="the host refused: this host is not hosting"):
        stale.machine.receive(refusal)


def test_a_host_without_the_invite_key_is_not_trusted() -> None:
    host, _ = table()
    fooled = guest(host, "ann", key=IdentityKey.generate())
    host.connected("ann", 0.0)
    challenge = only(host.receive("ann", fooled.machine.hello(), 0.0), "ann")
    with pytest.raises(HandshakeError, match="this is not the host who sent the invite"):
        fooled.machine.receive(challenge)


def test_a_forged_host_proof_is_detected() -> None:
    host, _ = table()
    ann = guest(host, "ann")
    host.connected("ann", 0.0)
    challenge = only(host.receive("ann", ann.machine.hello(), 0.0), "ann")
    with pytest.raises(HandshakeError, match="did not prove it holds the key"):
        ann.machine.receive({**challenge, "proof": bytes(64)})


def test_a_forged_joiner_proof_and_a_key_already_seated_are_refused() -> None:
    host, _ = table(TableRules.choose("scopa", "classic", 3))
    rules = host.rules
    eve = guest(host, "eve", rules)
    arrive(host, eve)
    offer = only(ready(host, eve), "eve")
    eve.machine.receive(offer)
    join = eve.machine.claim(eve.secrets, "eve")
    refusal = only(host.receive("eve", {**join, "proof": bytes(64)}, 0.0), "eve")
    assert "proof of the identity key" in refusal["reason"]

    ann = guest(host, "ann", rules)
    twin = Guest("twin", JoinerSeating(invite_for(host.key, rules), bot=True), ann.secrets)
    seat_everyone(host, [ann])
    arrive(host, twin)
    out = claim(host, twin, only(ready(host, twin), "twin"))
    assert "already has a seat at this table" in only(out, "twin")["reason"]


# ----------------------------------------------------------------------------- point 1


ALTERED = {"target": 21, "napola": True, "ties": "none"}
SLOW = {"step": 86400, "action": 86400}


def altered_genesis(host: HostSeating, host_secrets: SeatSecrets) -> Genesis:
    """The attack of issue 19: keep the preset name, change the flags and the timeouts."""
    config = {**host.rules.config, **ALTERED}
    infos = [host_secrets.info("host")] + [j.info for _, j in host.seated()]
    return Genesis("scopa", "classic", config, tuple(infos), SLOW)


def test_a_genesis_that_alters_the_rules_behind_the_preset_name_is_refused() -> None:
    host, host_secrets = table()
    ann = guest(host, "ann")
    seat_everyone(host, [ann])
    genesis = altered_genesis(host, host_secrets)
    with pytest.raises(HandshakeError) as error:
        ann.machine.receive({"type": "genesis", "genesis": genesis.encode(), "bots": []})
    text = str(error.value)
    assert text.startswith("the host sent a genesis we refuse to sign: ")
    for phrase in ("it sets napola=on where the announced rules say off",
                   "it sets target=21 where the announced rules say 11",
                   "it sets ties=none where the announced rules say each",
                   "its action timeout is 86400 s, not the 600 s announced",
                   "its step timeout is 86400 s, not the 60 s announced"):
        assert phrase in text


def test_rules_other_than_the_invite_commits_to_are_refused_before_signing() -> None:
    house = TableRules.choose("scopa", "classic", 2, ALTERED, SLOW)
    host = HostSeating(house, NONCE, IdentityKey.generate(), 1)
    ann = guest(host, "ann", CLASSIC)  # invited to the plain preset
    host.connected("ann", 0.0)
    challenge = only(host.receive("ann", ann.machine.hello(), 0.0), "ann")
    with pytest.raises(HandshakeError, match="announces rules other than those its invite "
                                             "commits to"):
        ann.machine.receive(challenge)


def test_an_old_invite_is_understood_and_house_rules_are_refused_unless_accepted() -> None:
    house = TableRules.choose("scopa", "classic", 2, ALTERED, SLOW)
    host = HostSeating(house, NONCE, IdentityKey.generate(), 1)
    old = guest(host, "old", None)  # an invite without a rules digest
    review = arrive(host, old)
    assert review == Review(house, committed=False)
    assert review_refusal(review.rules, review.committed) == (
        "the host announces house rules that differ from the preset classic of scopa "
        "(ties = none (the preset says each); napola = on (the preset says off); "
        "target = 21 (the preset says 11); step timeout 86400 s; action timeout 86400 s); "
        "join with --accept to sit at such a table")
    committed = guest(host, "new", house)
    review = arrive(host, committed)
    refusal = review_refusal(review.rules, review.committed)
    assert refusal is not None and refusal.startswith("the invite commits to house rules")
    out = host.receive("new", committed.machine.decline(refusal), 0.0)
    assert out == [Close("new", f"it declined the table: {refusal}")]


def test_a_person_is_shown_every_difference_and_every_timeout() -> None:
    house = TableRules.choose("scopa", "napola", 2, {"target": 21, "ties": "each"},
                              {"step": 30, "action": 600})
    assert house.describe() == [
        "table rules: Scopa, preset napola, 2 players",
        "  house rules (differences from the preset napola):",
        "    ties = each (the preset says none)",
        "    target = 21 (the preset says 11)",
        "  timeouts: 30 s (the default is 60 s) for automatic steps, 600 s for a person's move",
    ]
    assert house.summary() == "scopa (napola), 2 players, ties=each, target=21"
    assert CLASSIC.describe()[1] == ("  no house rules: exactly the preset classic "
                                     "(p2pcards rules scopa lists it)")


SCOPA = games.get_game("scopa")
CHOICES = {f.name: f.choices or ((True, False) if isinstance(f.default, bool) else ())
           for f in SCOPA.flags}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([name for name, values in CHOICES.items() if values]), st.data())
def test_changing_any_flag_changes_the_digest_and_is_the_only_difference(
        name: str, data: st.DataObject) -> None:
    value = data.draw(st.sampled_from([v for v in CHOICES[name] if v != CLASSIC.config[name]]))
    changed = TableRules.choose("scopa", "classic", 2, {name: value})
    assert changed.digest() != CLASSIC.digest()
    assert [d.flag for d in changed.differences()] == [name]
    assert TableRules.from_wire(changed.to_wire()) == changed


def test_the_rules_digest_is_the_documented_construction() -> None:
    import hashlib

    from p2pcards.wire import codec
    data = codec.pack(["p2pcards/rules/v1", "scopa", "classic", dict(CLASSIC.config),
                       {"step": 60, "action": 600}])
    assert CLASSIC.digest() == hashlib.sha256(data).digest()[:16]


@pytest.mark.parametrize(("game", "text", "expected"), [
    ("scopa", "target=21", ("target", 21)),
    ("scopa", "ties=each", ("ties", "each")),
    ("scopa", "napola=on", ("napola", True)),
    ("scopa", "rebello = off", ("rebello", False)),
    ("briscola", "removed_two=2d", ("removed_two", "2D")),
    ("tressette", "signals=on", ("signals", True)),
    ("tressette", "declarations=None", ("declarations", "none")),
])
def test_house_rule_settings_are_typed(game: str, text: str, expected: tuple[str, object]
                                       ) -> None:
    assert parse_setting(game, text) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("target=20", "--set 'target=20': flag 'target' of scopa takes one of 11, 21, 31, not 20"),
    ("target=many", "--set 'target=many': flag 'target' of scopa takes a whole number, not "
                    "'many'"),
    ("napola=maybe", "--set 'napola=maybe': flag 'napola' of scopa takes on or off, not 'maybe'"),
    ("colour=red", "--set 'colour=red': scopa has no flag 'colour' (flags: denari_needs_six, "),
    ("target", "--set 'target' must be NAME=VALUE, for example ties=each"),
])
def test_bad_house_rules_are_one_sentence(text: str, message: str) -> None:
    with pytest.raises(UnknownFlag) as error:
        parse_setting("scopa", text)
    assert str(error.value).startswith(message)
    with pytest.raises(UnknownFlag, match="--set target is given twice"):
        parse_settings("scopa", ["target=21", "target=31"])


# ----------------------------------------------------------------------------- point 4


def test_a_connection_that_says_hello_and_falls_silent_holds_nothing() -> None:
    host, _ = table()
    silent, ann = guest(host, "silent"), guest(host, "ann")
    arrive(host, silent)  # hello, then nothing: it never says ready
    arrive(host, ann, now=5.0)
    out = ready(host, ann, now=5.0)
    assert only(out, "ann") == {"type": "seat", "seat": 1}
    out = claim(host, ann, only(out, "ann"), now=5.1)
    assert host.full
    assert only(out, "silent") == {"type": "refused", "reason": "the table is full"}


def test_a_seat_given_and_not_claimed_goes_to_the_next_joiner_within_a_second() -> None:
    host, _ = table()
    holder, ann = guest(host, "holder"), guest(host, "ann")
    arrive(host, holder)
    assert only(ready(host, holder, now=0.0), "holder") == {"type": "seat", "seat": 1}
    assert host.next_deadline() == 30.0  # alone, the holder may take its time
    arrive(host, ann, now=0.3)
    assert ready(host, ann, now=0.3) == []  # no free seat: ann waits ...
    assert host.next_deadline() == CLAIM_SECONDS  # ... at most until the holder's claim is due
    assert host.tick(0.9) == []
    out = host.tick(host.next_deadline())
    refusal = only(out, "holder")
    assert refusal["reason"] == ("seat 1 was not claimed within 1 s while another joiner "
                                 "waited; it went to that joiner")
    offer = only(out, "ann")
    assert offer == {"type": "seat", "seat": 1}
    claim(host, ann, offer, now=1.0)
    assert host.full and [j.info.name for _, j in host.seated()] == ["ann"]
    with pytest.raises(HandshakeError, match="the host refused: seat 1 was not claimed"):
        holder.machine.receive(refusal)


def test_silent_handshakes_expire_and_a_seated_joiner_who_leaves_frees_its_seat() -> None:
    host, _ = table(TableRules.choose("scopa", "classic", 4))
    rules = host.rules
    host.connected("mute", 0.0)
    out = host.tick(30.0)
    assert only(out, "mute")["reason"] == "no 'hello' message within 30 seconds"
    a, b, c = (guest(host, name, rules) for name in "abc")
    seat_everyone(host, [a, b])
    out = host.closed("a", "it closed the connection", 2.0)
    assert [type(o) for o in out] == [Freed] and out[0].joiner.seat == 1 and out[0].missing == 2
    seat_everyone(host, [c])
    assert {j.info.name: j.seat for _, j in host.seated()} == {"b": 2, "c": 1}


# ----------------------------------------------------------------------------- up to 8 seats


@dataclass(frozen=True)
class OctetConfig(VariantConfig):
    players: int = 8
    pot: int = field(default=10, metadata={"doc": "chips each seat starts with"})


OCTET = GameSpec(name="octet", title="Octet (test only)", rules_source="none",
                 player_counts=tuple(range(2, 9)), config_class=OctetConfig,
                 presets={"plain": {}}, preset_docs={"plain": "test only"}, factory=None,
                 flags=flags_of(OctetConfig), default_preset="plain")


@pytest.mark.parametrize("players", [6, 8])
def test_tables_of_six_and_eight_seats_are_seated(monkeypatch: pytest.MonkeyPatch,
                                                  players: int) -> None:
    monkeypatch.setitem(games._registry(), "octet", OCTET)
    rules = TableRules.choose("octet", "plain", players, {"pot": 20})
    host_secrets = new_seat()
    host = HostSeating(rules, NONCE, host_secrets.identity, players - 1)
    guests = [guest(host, f"g{i}", rules) for i in range(players - 1)]
    seat_everyone(host, guests)
    assert host.full
    assert sorted(g.machine.seat or 0 for g in guests) == list(range(1, players))
    genesis = genesis_of(host, host_secrets, rules)
    assert len(genesis.seats) == players
    for g in guests:
        started = g.machine.receive({"type": "genesis", "genesis": genesis.encode(),
                                     "bots": []})
        assert isinstance(started, Started) and started.genesis == genesis
    assert only(host.connected("late", 0.0), "late")["reason"] == "the table is full"


# ----------------------------------------------------------------------------- robustness

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.binary(max_size=40),
                   st.text(max_size=8), st.lists(st.integers(0, 9), max_size=3))
KINDS = st.sampled_from(["hello", "ready", "join", "seat", "seated", "challenge", "genesis",
                         "refused", "envelope", "x"])
FIELDS = st.sampled_from(["version", "nonce", "challenge", "bot", "identity", "x25519", "name",
                          "proof", "seat", "missing", "rules", "genesis", "bots", "reason"])
MESSAGES = st.builds(lambda kind, body: {**body, "type": kind}, KINDS,
                     st.dictionaries(FIELDS, VALUES, max_size=6))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), MESSAGES), max_size=8))
def test_the_host_answers_any_message_with_outputs_never_an_exception(
        script: list[tuple[str, dict[str, Any]]]) -> None:
    host, _ = table(TableRules.choose("scopa", "classic", 3))
    a = guest(host, "a", host.rules)
    arrive(host, a)
    ready(host, a)  # "a" holds seat 1 and owes its join: random messages hit every state
    host.connected("b", 0.0)
    for now, (conn, message) in enumerate(script):
        for out in host.receive(conn, message, float(now)):
            assert isinstance(out, Send | Close | Joined | Freed)
    assert not host.full


@settings(max_examples=150, deadline=None)
@given(st.lists(MESSAGES, max_size=4))
def test_the_joiner_checks_any_message_or_raises_handshake_error(
        script: list[dict[str, Any]]) -> None:
    machine = JoinerSeating(invite_for(IdentityKey.generate(), CLASSIC), bot=True)
    machine.hello()
    for message in script:
        try:
            machine.receive(message)
        except HandshakeError:
            return
