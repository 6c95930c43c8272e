"""Build the conformance corpus of ``protocol/vectors/conformance/`` from fixed seeds.

Every case is one transcript (or, for ``equivocation-two-files``, two transcripts of one table)
and a JSON file of the verdict that any conforming verifier must reach on it::

    {"case": ..., "files": [...], "status": "valid" | "invalid" | "incomplete",
     "rule": ..., "seat": ..., "index": ..., "detected_at": ..., "source": ...,
     "verified": ..., "truncated_at": ..., "evidence": [...], "about": ...}

``rule``, ``seat``, ``index``, ``detected_at`` and ``source`` are ``null`` unless the status is
``invalid``; ``verified`` (envelopes verified) and ``truncated_at`` (byte offset of a cut frame)
are ``null`` unless it is ``incomplete``; ``evidence`` lists the verdict of each evidence
record of the file(s) (SPEC §9.9: ``proven``, ``other``, ``not-proven``, ``unverifiable``,
``malformed``). :func:`verdict_of` extracts the same fields from
``p2pcards verify --json`` output.

The honest material is one Briscola match of 2 seats (preset ``italian``: two hands) made with
:func:`p2pcards.offline.memory.make_tables` and seed 1, one Tressette hand of 3 seats (seed 1) for
the revoke found at the audit, a short table of every game (:data:`GAMES`: the whole match where a
preset or flag keeps it short, else its first hand), a Tute table of 4 seats with each dropout
policy (a seat falls silent and the hub recovers it), and a Rumino match of 3 seats (seed 5)
with a claim. The broken cases are honest prefixes with one crafted envelope, signed with the
seat's own key by the helpers of ``tests/attacks.py``. Everything is deterministic (seeded
randomness, deterministic Ed25519), so the files are the same bytes on every run:
``tests/test_conformance.py`` checks the committed files against :func:`build`.

Run ``python3 tests/conformance.py`` (with the package on ``PYTHONPATH``) to rewrite the corpus.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attacks import Driver, craft, cycle_of, decode, forged_recover, identity_of, play_body, resign

from p2pcards import crypto
from p2pcards.bots import make_bot
from p2pcards.crypto import DeterministicRandomness, ProofContext, Scalar
from p2pcards.crypto.inbox import InboxKey
from p2pcards.games.base import Action
from p2pcards.games.rumino_melds import is_rumino
from p2pcards.offline.memory import MatchRun, make_tables, run_in_memory
from p2pcards.records.evidence import Evidence
from p2pcards.records.transcript import TranscriptWriter
from p2pcards.seating.genesis import Genesis
from p2pcards.table import Table
from p2pcards.wire import Envelope

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "protocol" / "vectors" / "conformance"
Files = dict[str, bytes]


def verdict_of(report: dict[str, Any]) -> dict[str, Any]:
    """The verdict fields of one ``p2pcards verify --json`` report (one file or several)."""
    if "transcripts" in report:  # several files: the first equivocation, else the first invalid
        records = [e["verdict"] for t in report["transcripts"] for e in t["evidence"]]
        if report["equivocations"]:
            eq = report["equivocations"][0]
            return {"status": report["status"], "rule": "equivocation", "seat": eq["seat"],
                    "index": eq["seq"], "detected_at": None, "source": "transcripts",
                    "verified": None, "truncated_at": None, "evidence": records}
        return {**verdict_of(report["transcripts"][0]), "status": report["status"],
                "evidence": records}
    v, stop = report.get("violation"), report.get("stop")
    return {
        "status": report["status"],
        "rule": v["rule"] if v else None,
        "seat": v["seat"] if v else None,
        "index": v["index"] if v else None,
        "detected_at": v["detected_at"] if v else None,
        "source": v["source"] if v else None,
        "verified": stop["verified"] if stop and report["status"] == "incomplete" else None,
        "truncated_at": stop["truncated_at"] if stop and report["status"] == "incomplete"
        else None,
        "evidence": [e["verdict"] for e in report["evidence"]],
    }


def transcript(genesis: Genesis, frames: list[bytes], records: tuple[Evidence, ...] = (),
               cut: int = 0) -> bytes:
    """The bytes of a transcript file: ``frames``, then evidence ``records``, then ``cut`` bytes
    removed from the end."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.p2pt"
        with TranscriptWriter.create(path, genesis.encode(), fsync=False) as writer:
            for frame in frames:
                writer.append(frame)
            for record in records:
                writer.append_evidence(record.encode())
        data = path.read_bytes()
    return data[:len(data) - cut] if cut else data


@functools.cache
def briscola(bot_seed: int = 10) -> MatchRun:
    genesis, tables = make_tables("briscola", "italian", 2, seed=1)
    bots = [make_bot("briscola", "smart", bot_seed + i) for i in range(2)]
    return run_in_memory(genesis, tables, bots)


def _payload(run: MatchRun, k: int) -> Any:
    return decode(run.frames[k], run.genesis)[1]


def _first(run: MatchRun, kind: str, seat: int) -> int:
    return next(i for i in range(len(run.frames))
                if (p := _payload(run, i)).kind == kind and p.seat == seat)


def _resign(run: MatchRun, k: int, **changes: Any) -> bytes:
    seat = _payload(run, k).seat
    return resign(run.frames[k], run.genesis, identity_of(run.tables[seat]), **changes)


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# ------------------------------------------------------------------ the cases
# Each returns (files, about); its verdict is computed by the reference verifier and must agree
# with the expectation written next to it in CASES.

Case = Callable[[], tuple[Files, str]]


def honest() -> tuple[Files, str]:
    run = briscola()
    return {"": transcript(run.genesis, run.frames)}, "a whole Briscola match, 2 seats, 2 hands"


def incomplete() -> tuple[Files, str]:
    run = briscola()
    return ({"": transcript(run.genesis, run.frames[:4])},
            "the first 4 envelopes of the honest match (accepts and keys): a valid prefix")


def truncated() -> tuple[Files, str]:
    run = briscola()
    cut = len(run.frames[3]) - 40
    return ({"": transcript(run.genesis, run.frames[:4], cut=cut)},
            "envelope 3 cut after 40 of its bytes: the 3 before it are verified")


def bad_envelope() -> tuple[Files, str]:
    run = briscola()
    return ({"": transcript(run.genesis, run.frames[:2] + [b"\x92\xc4\x01x\xc4\x01y"])},
            "envelope 2 is a frame whose content is no envelope")


def bad_signature() -> tuple[Files, str]:
    run = briscola()
    env = Envelope.decode(run.frames[2])
    sig = bytes([env.signature[0] ^ 1]) + env.signature[1:]
    forged = dataclasses.replace(env, signature=sig).encode()
    return ({"": transcript(run.genesis, run.frames[:2] + [forged] + run.frames[3:4])},
            "one bit of envelope 2's signature flipped")


def genesis_mismatch() -> tuple[Files, str]:
    run = briscola()
    seats = list(run.genesis.seats)
    seats[1] = dataclasses.replace(seats[1], name=seats[1].name + "x")
    altered = dataclasses.replace(run.genesis, seats=tuple(seats))
    return ({"": transcript(altered, run.frames[:4])},
            "seat 1's display name changed in the genesis record")


def wrong_table() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, table_id=_h(b"another table"))
    return ({"": transcript(run.genesis, run.frames[:2] + [forged])},
            "envelope 2 re-signed by its seat for another table id")


def wrong_sequence() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, seq=3)
    return ({"": transcript(run.genesis, run.frames[:2] + [forged])},
            "envelope 2 re-signed by its seat with seq 3")


def fork() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, prev=_h(b"not the head"))
    return ({"": transcript(run.genesis, run.frames[:2] + [forged])},
            "envelope 2 re-signed by seat 0 with a prev that is not envelope 1 (seat 1's)")


def _same_seat_pair(run: MatchRun) -> int:
    return next(k for k in range(1, len(run.frames))
                if _payload(run, k).seat == _payload(run, k - 1).seat)


def wrong_previous() -> tuple[Files, str]:
    run = briscola()
    k = _same_seat_pair(run)
    forged = _resign(run, k, prev=_h(b"not the head"))
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            f"envelope {k} re-signed with a false prev; its seat also signed envelope {k - 1}")


def replay() -> tuple[Files, str]:
    run = briscola()
    return ({"": transcript(run.genesis, run.frames[:3] + [run.frames[2]])},
            "envelope 2 written twice")


def equivocation() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "key", 0)
    key = crypto.HandKey.generate(DeterministicRandomness(b"another key"))
    share = key.share(ProofContext(run.genesis.table_id, 0, 0, "key"))
    forged = _resign(run, k, body={"share": share.to_wire()})
    return ({"": transcript(run.genesis, run.frames[:k + 3] + [forged])},
            f"after envelope {k + 2}, a second valid key envelope of seat 0 for seq {k}")


def equivocation_two_files() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "key", 0)
    key = crypto.HandKey.generate(DeterministicRandomness(b"another key"))
    share = key.share(ProofContext(run.genesis.table_id, 0, 0, "key"))
    forged = _resign(run, k, body={"share": share.to_wire()})
    return ({"a": transcript(run.genesis, run.frames[:k + 1]),
             "b": transcript(run.genesis, run.frames[:k] + [forged])},
            f"two valid prefixes of one table whose envelope {k} (seat 0's key) differ: each "
            "file alone is incomplete, together they prove the equivocation")


def out_of_turn() -> tuple[Files, str]:
    run = briscola()
    k = 2
    seat = 1 - _payload(run, k).seat
    forged = craft(identity_of(run.tables[seat]), table_id=run.genesis.table_id, seq=k,
                   prev=_h(run.frames[k - 1]), seat=seat, kind="key",
                   body=_payload(run, 3).body)
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            f"seat {seat} signs envelope {k}, which is seat {1 - seat}'s to send")


def wrong_kind() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, kind="shuffle")
    return ({"": transcript(run.genesis, run.frames[:2] + [forged])},
            "envelope 2 (a key) re-signed as a shuffle")


def bad_body() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, body={**_payload(run, 2).body, "extra": 1})
    return ({"": transcript(run.genesis, run.frames[:2] + [forged])},
            "envelope 2 (a key) with an unknown body field")


def bad_key() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "key", 0)
    key = crypto.HandKey.generate(DeterministicRandomness(b"another key"))
    share = key.share(ProofContext(run.genesis.table_id, 1, 0, "key"))  # made for seat 1
    forged = _resign(run, k, body={"share": share.to_wire()})
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "seat 0's key share with a proof made for another seat's context")


def bad_shuffle() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "shuffle", 0)
    forged = _bad_shuffle_envelope(run, k)
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "seat 0's shuffle with two output ciphertexts swapped")


def bad_token() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "tokens", 0)
    body = dict(_payload(run, k).body)
    public = [list(e) for e in body["public"]]
    public[0][1], public[1][1] = public[1][1], public[0][1]
    forged = _resign(run, k, body={**body, "public": public})
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "seat 0's first tokens with the tokens of two positions swapped")


def card_mismatch() -> tuple[Files, str]:
    run = briscola()
    body = dict(_payload(run, 8).body)
    played = body["action"]["card"]
    other = "AD" if played != "AD" else "2D"
    forged = _resign(run, 8, body={**body, "action": {**body["action"], "card": other}})
    return ({"": transcript(run.genesis, run.frames[:8] + [forged])},
            f"envelope 8 names {other} for the position that holds {played}")


def _play_as(card: str, about: str) -> tuple[Files, str]:
    run = briscola()
    body = dict(_payload(run, 8).body)
    forged = _resign(run, 8, body={**body, "action": {**body["action"], "card": card}})
    return {"": transcript(run.genesis, run.frames[:8] + [forged])}, about


def bad_action() -> tuple[Files, str]:
    return _play_as("1D", "envelope 8 names the card '1D', which the card-code grammar refuses "
                          "(the ace is 'A')")


def card_not_in_deck() -> tuple[Files, str]:
    return _play_as("AH1", "envelope 8 names 'AH1', a well-formed code of another deck")


def not_in_hand() -> tuple[Files, str]:
    run = briscola()
    body = dict(_payload(run, 8).body)
    other = _payload(run, 9).body["position"]
    forged = _resign(run, 8, body={**body, "position": other})
    return ({"": transcript(run.genesis, run.frames[:8] + [forged])},
            f"seat 0 plays position {other}, a card of seat 1's hand")


def bad_reveal() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "reveal", 0)
    forged = _resign(run, k, body=_payload(run, k + 1).body)
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "seat 0 reveals seat 1's hand key as its own")


def result_mismatch() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "result", 0)
    body = dict(_payload(run, k).body)
    scores = list(body["scores"])
    scores[0] += 1
    forged = _resign(run, k, body={**body, "scores": scores})
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "seat 0 signs a first-hand result with its score raised by one")


def after_match_end() -> tuple[Files, str]:
    run = briscola()
    n = len(run.frames)
    forged = craft(identity_of(run.tables[0]), table_id=run.genesis.table_id, seq=n,
                   prev=_h(run.frames[-1]), seat=0, kind="action", body=_payload(run, 8).body)
    return ({"": transcript(run.genesis, run.frames + [forged])},
            "seat 0 signs one more envelope after the last result")


def evidence_proven() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "shuffle", 0)
    forged = _bad_shuffle_envelope(run, k)
    record = Evidence("bad-shuffle", 0, k, (forged,), "refused live")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            "an honest prefix, then an evidence record holding seat 0's bad shuffle")


def evidence_not_proven() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "shuffle", 0)
    record = Evidence("bad-shuffle", 0, k, (run.frames[k],), "a false claim")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            "an evidence record claiming a bad shuffle over the genuine one: proves nothing")


def evidence_replay() -> tuple[Files, str]:
    run = briscola()
    signer = _payload(run, 5).seat
    record = Evidence("replay", signer, 100, (run.frames[5],), f"seat {signer} replayed it")
    return ({"": transcript(run.genesis, run.frames, (record,))},
            f"the whole honest match, then an appended record {{rule: replay, seat: {signer}, "
            f"position: 100, envelopes: [envelope 5]}} (seat {signer} signed envelope 5): "
            "records are not signed, so it proves nothing and the match stays valid")


def evidence_lost_race() -> tuple[Files, str]:
    run = briscola()
    record = Evidence("lost-race", 0, 2, (run.frames[2],), "a claim that lost")
    return ({"": transcript(run.genesis, run.frames[:4], (record,))},
            "an honest prefix of 4 envelopes and a record claiming seat 0 lost a race with "
            "envelope 2: harmless, proven by no record")


def evidence_fork() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, prev=_h(b"not the head"))
    record = Evidence("fork", None, 2, (run.frames[1], forged), "the chain has forked")
    return ({"": transcript(run.genesis, run.frames[:2], (record,))},
            "a record holding envelope 1 (seat 1's) and seat 0's envelope 2 linking to "
            "another one: a fork needs the other branch, so no record proves it")


def evidence_wrong_sequence() -> tuple[Files, str]:
    run = briscola()
    record = Evidence("wrong-sequence", None, 2, (run.frames[3],), "envelope 2 withheld")
    return ({"": transcript(run.genesis, run.frames[:2], (record,))},
            "an honest prefix of 2 envelopes cut by anyone, and a record of the honest envelope "
            "3 as a wrong sequence: proven by no record")


def evidence_equivocation() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "key", 0)
    record = Evidence("equivocation", 0, k + 1, (run.frames[k], _other_key(run, k)),
                      "two keys")
    return ({"": transcript(run.genesis, run.frames[:k + 1], (record,))},
            f"a record holding two different valid key envelopes of seat 0 for seq {k}: the "
            "two signatures prove it")


def evidence_equivocation_framed() -> tuple[Files, str]:
    run = briscola()
    record = Evidence("equivocation", 0, 4, (run.frames[2], run.frames[3]), "two keys")
    return ({"": transcript(run.genesis, run.frames[:4], (record,))},
            "a record calling envelopes 2 and 3 (the keys of seat 0 and seat 1) an "
            "equivocation: two seats' envelopes prove nothing")


def evidence_out_of_turn() -> tuple[Files, str]:
    run = briscola()
    k = 2
    seat = 1 - _payload(run, k).seat
    forged = craft(identity_of(run.tables[seat]), table_id=run.genesis.table_id, seq=k,
                   prev=_h(run.frames[k - 1]), seat=seat, kind="key",
                   body=_payload(run, 3).body)
    record = Evidence("out-of-turn", seat, k, (forged,), "not its turn")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            f"a record holding seat {seat}'s envelope {k}, linked to envelope {k - 1}, when it "
            f"was seat {1 - seat}'s turn: its signature over the chain proves it")


def evidence_moved() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, kind="shuffle")
    record = Evidence("wrong-kind", 0, 3, (forged,), "a shuffle for a key")
    return ({"": transcript(run.genesis, run.frames[:3], (record,))},
            "seat 0's envelope 2 re-signed as a shuffle, recorded at chain position 3 where "
            "it does not link: proves nothing there")


def evidence_unlinked() -> tuple[Files, str]:
    run = briscola()
    forged = _resign(run, 2, kind="shuffle", prev=_h(b"another chain"))
    record = Evidence("wrong-kind", 0, 2, (forged,), "a shuffle for a key")
    return ({"": transcript(run.genesis, run.frames[:2], (record,))},
            "seat 0's envelope 2 re-signed as a shuffle over another chain (its prev is not "
            "envelope 1): its signer never signed over this chain, so it proves nothing")


def evidence_sealed_token() -> tuple[Files, str]:
    run = briscola()
    k = _first(run, "tokens", 0)
    record = Evidence("bad-sealed-token", 0, k, (run.frames[k],), "my box did not open")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            "a record claiming seat 0's first tokens hold a sealed token that does not open: "
            "only its recipient can tell (unverifiable)")


def _other_key(run: MatchRun, k: int) -> bytes:
    """Seat 0's key envelope ``k`` re-signed with another valid hand key."""
    key = crypto.HandKey.generate(DeterministicRandomness(b"another key"))
    share = key.share(ProofContext(run.genesis.table_id, 0, 0, "key"))
    return _resign(run, k, body={"share": share.to_wire()})


def _bad_shuffle_envelope(run: MatchRun, k: int) -> bytes:
    """Seat 0's shuffle at ``k`` with two output ciphertexts swapped, re-signed."""
    body = dict(_payload(run, k).body)
    deck = list(body["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    return _resign(run, k, body={**body, "deck": deck})


def revoke_at_audit() -> tuple[Files, str]:
    driver = Driver.new("tressette", "classic", 3, seed=1)

    def ready(d: Driver) -> bool:
        for s, t in enumerate(d.tables):
            trick = t.engine._trick  # type: ignore[attr-defined]
            if t.needs_decision and trick:
                led = trick[0].card.suit
                hand = t.engine._hands[s]  # type: ignore[attr-defined]
                if any(c.suit == led for c in hand) and any(c.suit != led for c in hand):
                    return True
        return False

    driver.run_until(ready)
    cheat = next(s for s, t in enumerate(driver.tables) if t.needs_decision)
    table = driver.tables[cheat]
    led = table.engine._trick[0].card.suit  # type: ignore[attr-defined]
    off = next(c for c in table.engine._hands[cheat] if c.suit != led)  # type: ignore[attr-defined]
    body = play_body(table, Action("play", off))
    driver.detach(cheat)
    driver.send_as(cheat, "action", body)
    driver.run_out()
    frames = driver.longest_frames()
    return ({"": transcript(driver.genesis, frames)},
            f"Tressette, 3 seats: seat {cheat} does not follow suit; found when the hand's "
            "keys are revealed")


# ------------------------------------------------------------------ every game
# One short table of each game (seed 1, bots of seeds 10, 11, ...): its honest material is the
# whole match where a preset or flag keeps it short, else its first hand up to the results.

Flags = tuple[tuple[str, object], ...]
GAMES: dict[str, tuple[str, str, int, Flags, bool]] = {
    # case prefix: game, preset, seats, flags, whole match (else the first hand)
    "scopa": ("scopa", "classic", 2, (), False),
    "briscola-3": ("briscola", "classic", 3, (), False),
    "tressette": ("tressette", "three-games", 3, (), False),
    "tresette": ("tresette", "classic", 4, (), False),
    "calabrasella": ("calabrasella", "classic", 3, (("hands", 1),), True),
    "tute": ("tute", "single", 4, (), True),
    "burraco": ("burraco", "quick", 4, (), True),
    "rumino": ("rumino", "classic", 2, (), False),
    "sette-e-mezzo": ("sette-e-mezzo", "classic", 2, (("hands", 1),), True),
    "ziginette": ("ziginette", "classic", 2, (("hands", 1),), True),
}


def _first_hand(driver: Driver) -> None:
    """Step ``driver`` until the first hand's results are all in the chain (the next envelope
    queued, if any, is no result)."""
    def kind(data: bytes) -> str:
        return decode(data, driver.genesis)[1].kind

    while not (driver.log and kind(driver.log[-1]) == "result"
               and not (driver.queue and kind(driver.queue[0][1]) == "result")):
        assert driver.step(), "the match stopped before the first hand's results"


@functools.cache
def game_run(prefix: str) -> MatchRun:
    """The honest material of one game of :data:`GAMES` (a :class:`MatchRun` whose frames are
    the whole match or its first hand)."""
    game, preset, players, flags, whole = GAMES[prefix]
    driver = Driver.new(game, preset, players, seed=1, flags=dict(flags) or None)
    if whole:
        driver.run_out()
    else:
        _first_hand(driver)
    assert not driver.violations, driver.violations
    return MatchRun(driver.genesis, driver.tables, list(driver.log))


def _describe(prefix: str) -> str:
    game, preset, players, flags, whole = GAMES[prefix]
    options = "".join(f", {k} = {v}" for k, v in flags)
    span = "the whole match" if whole else "its first hand, up to the hand's results"
    return f"{game}, {players} seats, preset {preset}{options}: {span}"


def game_honest(prefix: str) -> Case:
    def make() -> tuple[Files, str]:
        run = game_run(prefix)
        return {"": transcript(run.genesis, run.frames)}, _describe(prefix)
    return make


def game_result_mismatch(prefix: str) -> Case:
    def make() -> tuple[Files, str]:
        run = game_run(prefix)
        k = next(i for i in range(len(run.frames)) if _payload(run, i).kind == "result")
        body = dict(_payload(run, k).body)
        scores = list(body["scores"])
        scores[0] += 1
        forged = _resign(run, k, body={**body, "scores": scores})
        seat = _payload(run, k).seat
        return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
                f"{_describe(prefix)}; seat {seat} signs the first result with seat 0's match "
                "score raised by one")
    return make


def _card_actions(run: MatchRun) -> list[int]:
    """Chain positions of the actions that name one card at a deck position."""
    return [i for i in range(len(run.frames))
            if (p := _payload(run, i)).kind == "action" and "position" in p.body
            and "card" in p.body["action"]]


def game_card_mismatch(prefix: str) -> Case:
    def make() -> tuple[Files, str]:
        run = game_run(prefix)
        played = _card_actions(run)
        k = played[0]
        body = dict(_payload(run, k).body)
        card = body["action"]["card"]
        other = next(c for i in played
                     if (c := _payload(run, i).body["action"]["card"]) != card)
        forged = _resign(run, k, body={**body, "action": {**body["action"], "card": other}})
        return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
                f"{_describe(prefix)}; envelope {k} names {other} for the position that holds "
                f"{card}")
    return make


def game_bet_over_limit(prefix: str) -> Case:
    def make() -> tuple[Files, str]:
        run = game_run(prefix)
        actions = [(i, _payload(run, i).body["action"]) for i in range(len(run.frames))
                   if _payload(run, i).kind == "action"]
        maximum = next(a["amount"] for _, a in actions if a["kind"] == "maximum")
        k, bet = next((i, a) for i, a in actions if a["kind"] == "bet")
        forged = _resign(run, k, body={"action": {**bet, "amount": maximum + 1}})
        return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
                f"{_describe(prefix)}; envelope {k} bets {maximum + 1}, one above the bank's "
                f"maximum of {maximum}")
    return make


BANKING = ("sette-e-mezzo", "ziginette")


def game_cases() -> dict[str, Case]:
    """An honest case and two broken ones for every game of :data:`GAMES`: a result with a
    score raised, and a card named for a position that holds another (the banking games: a
    bet over the bank's maximum)."""
    cases: dict[str, Case] = {}
    for prefix in GAMES:
        cases[f"{prefix}-honest"] = game_honest(prefix)
        cases[f"{prefix}-result-mismatch"] = game_result_mismatch(prefix)
        if prefix in BANKING:
            cases[f"{prefix}-bet-over-limit"] = game_bet_over_limit(prefix)
        else:
            cases[f"{prefix}-card-mismatch"] = game_card_mismatch(prefix)
    return cases



# ------------------------------------------------------------------ dropout tables
# Tables with a dropout policy (SPEC §9.13): every shuffle deals key shares to the other seats'
# inboxes, a silent seat is recovered by the hub's ``recover``, and a bad key share is
# complained about by its holder.


def _kind_of(driver: Driver, data: bytes) -> str:
    return decode(data, driver.genesis)[1].kind


def _drop_at_action(driver: Driver, dropper: int, by: int) -> None:
    """Run until ``dropper``'s first action is due, make it silent and let ``by`` (the hub)
    begin its recovery."""
    driver.run_until(lambda d: d.expected() == (dropper, "action"))
    driver.detach(dropper)
    driver.silent.add(dropper)
    driver.recover(by, dropper)


@functools.cache
def dropout_run(policy: str) -> MatchRun:
    """Tute, 4 seats, preset ``single``, dropout ``policy``: seat 2 falls silent when its first
    card is due, seat 0 recovers it, the match is played to its end."""
    driver = Driver.new("tute", "single", 4, seed=1, dropout=policy)
    _drop_at_action(driver, 2, 0)
    driver.run_out()
    assert not driver.violations, driver.violations
    return MatchRun(driver.genesis, driver.tables, list(driver.tables[0].frames))


def _first_kind(run: MatchRun, kind: str) -> int:
    return next(i for i in range(len(run.frames)) if _payload(run, i).kind == kind)


def dropout_forfeit() -> tuple[Files, str]:
    run = dropout_run("forfeit")
    return ({"": transcript(run.genesis, run.frames)},
            "Tute, 4 seats, preset single, dropout forfeit: seat 2 falls silent when its first "
            "card is due and seat 0 (the hub) recovers it with the key shares (keyshares) dealt "
            "to the inboxes; the match ends with seat 2 forfeiting")


def dropout_bot() -> tuple[Files, str]:
    run = dropout_run("bot")
    return ({"": transcript(run.genesis, run.frames)},
            "Tute, 4 seats, preset single, dropout bot: seat 2 falls silent when its first "
            "card is due, seat 0 (the hub) recovers it and the public bot plays seat 2's moves "
            "to the end of the match")


def dropout_recover_bad_share() -> tuple[Files, str]:
    run = dropout_run("bot")
    k = _first_kind(run, "recover") + 1
    body = dict(_payload(run, k).body)
    share = (Scalar.from_bytes(body["share"]) + Scalar(1)).to_bytes()
    forged = _resign(run, k, body={**body, "share": share})
    seat = _payload(run, k).seat
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            f"the dropout-bot match with seat {seat}'s recover (envelope {k}) re-signed with "
            "its share of seat 2's hand key plus one: it fails seat 2's commitments")


def dropout_forged_recover() -> tuple[Files, str]:
    driver = Driver.new("tute", "single", 4, seed=1, dropout="forfeit")
    driver.run_until(lambda d: d.expected() == (2, "action"))
    forged = forged_recover(driver.tables[1], 2)
    return ({"": transcript(driver.genesis, list(driver.log) + [forged])},
            "the dropout-forfeit table when seat 2's first card is due: seat 1, a joiner, "
            "begins a recovery of seat 2 itself (only the hub begins one)")


def _deal_bad_box(table: Table, holder: int) -> None:
    """Make ``table``'s seat deal a wrong key-share box to ``holder`` in its next shuffle."""
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


def complain_bad_key_share() -> tuple[Files, str]:
    driver = Driver.new("tute", "single", 4, seed=1, dropout="bot")
    _deal_bad_box(driver.tables[3], 1)
    driver.run_out()
    return ({"": transcript(driver.genesis, list(driver.log))},
            "Tute, 4 seats, dropout bot: seat 3 deals seat 1 a key share that does not fit its "
            "commitments; seat 1's complain, in its turn, opens that one box and names seat 3")


def complain_good_share() -> tuple[Files, str]:
    driver = Driver.new("tute", "single", 4, seed=1, dropout="forfeit")
    while [_kind_of(driver, f) for f in driver.log].count("shuffle") < 4:
        assert driver.step()
    holder, dealer = 0, 3
    table = driver.tables[holder]
    cycle = cycle_of(table)
    assert cycle.my_inbox is not None
    dealt = cycle.dealt[dealer]
    ctx = ProofContext(driver.table_id, cycle.number, holder, f"open-{dealer}")
    opening = InboxKey(cycle.my_inbox).open_box(dealt.ephemeral, dealt.boxes[holder], ctx)
    forged = craft(identity_of(table), table_id=driver.table_id, seq=driver.position,
                   prev=driver.head, seat=holder, kind="complain",
                   body={"dealer": dealer, "open": opening.to_wire()})
    return ({"": transcript(driver.genesis, list(driver.log) + [forged])},
            "Tute, 4 seats, dropout forfeit: after the last shuffle seat 0 complains about "
            "seat 3's key share with the honest opening of a good box: it names seat 0")


def _keyshares_forged(change: Callable[[list[Any]], list[Any]]) -> tuple[bytes, int]:
    """The dropout-forfeit table's first shuffle with its ``keyshares`` changed, re-signed."""
    run = dropout_run("forfeit")
    k = _first_kind(run, "shuffle")
    body = dict(_payload(run, k).body)
    return _resign(run, k, body={**body, "keyshares": change(list(body["keyshares"]))}), k


def keyshares_undecodable() -> tuple[Files, str]:
    run = dropout_run("forfeit")

    def cut_box(keyshares: list[Any]) -> list[Any]:
        r, commitments, boxes = keyshares
        return [r, commitments, [boxes[0][:31], *boxes[1:]]]

    forged, k = _keyshares_forged(cut_box)
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "the dropout-forfeit table with seat 0's first shuffle re-signed with a key-share "
            "box of 31 bytes: every receiver refuses it")


def keyshares_swapped_commitments() -> tuple[Files, str]:
    run = dropout_run("forfeit")

    def swap(keyshares: list[Any]) -> list[Any]:
        r, commitments, boxes = keyshares
        return [r, [commitments[1], commitments[0]], boxes]

    forged, k = _keyshares_forged(swap)
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            "the dropout-forfeit table with seat 0's first shuffle re-signed with its two "
            "key-share commitments swapped: decodable, so only a holder's complain or a "
            "recovery can check shares against them, and the prefix stays a valid one")


def dropout_bot_calabrasella() -> tuple[Files, str]:
    driver = Driver.new("calabrasella", "classic", 3, seed=1, flags={"hands": 1}, dropout="bot")
    _drop_at_action(driver, 2, 0)
    driver.run_out()
    assert not driver.violations, driver.violations
    return ({"": transcript(driver.genesis, list(driver.tables[0].frames))},
            "Calabrasella, 3 seats, hands = 1, dropout bot: seat 2 falls silent when its first "
            "action is due, seat 0 recovers it and the public bot makes seat 2's moves to the "
            "end of the match")


def dropout_cases() -> dict[str, Case]:
    return {
        "dropout-forfeit": dropout_forfeit,
        "dropout-bot": dropout_bot,
        "dropout-bot-calabrasella": dropout_bot_calabrasella,
        "dropout-recover-bad-share": dropout_recover_bad_share,
        "dropout-forged-recover": dropout_forged_recover,
        "complain-bad-key-share": complain_bad_key_share,
        "complain-good-share": complain_good_share,
        "keyshares-undecodable": keyshares_undecodable,
        "keyshares-swapped-commitments": keyshares_swapped_commitments,
    }



# ------------------------------------------------------------------ claim windows (Rumino)


@functools.cache
def rumino_claim_driver() -> Driver:
    """Rumino, 3 seats, seed 5 (bots of seeds 5000, 5001, 5002), stopped when the claim window
    of the match's one claim is open: seat 0 may claim the discard before seat 2 draws."""
    genesis, tables = make_tables("rumino", "classic", 3, seed=5)
    bots = [make_bot("rumino", "smart", 5000 + i) for i in range(3)]
    driver = Driver(genesis, tables, bots)
    for i, table in enumerate(tables):
        driver._queue(i, table.start().outgoing)
    driver.run_until(lambda d: bool(d.tables[2].needs_decision and d.tables[0].claim_actions()))
    return driver


def _rumino_race() -> tuple[Driver, bytes, bytes]:
    """The claim window's two competing messages, both signed at the chain head: seat 0's claim
    and seat 2's draw from the stock."""
    driver = rumino_claim_driver()
    claimer, drawer = driver.tables[0], driver.tables[2]
    claim = claimer.claim_actions()[0]
    head = {"table_id": driver.table_id, "seq": driver.position, "prev": driver.head}
    claim_env = craft(identity_of(claimer), seat=0, kind="action",
                      body=play_body(claimer, claim), **head)
    draw_env = craft(identity_of(drawer), seat=2, kind="action",
                     body=play_body(drawer, Action("draw", value="stock")), **head)
    return driver, claim_env, draw_env


@functools.cache
def rumino_claim_run() -> MatchRun:
    """The whole Rumino match of seed 5: seat 0's claim comes first and wins the match."""
    genesis, tables = make_tables("rumino", "classic", 3, seed=5)
    bots = [make_bot("rumino", "smart", 5000 + i) for i in range(3)]
    return run_in_memory(genesis, tables, bots)


def rumino_claim() -> tuple[Files, str]:
    run = rumino_claim_run()
    return ({"": transcript(run.genesis, run.frames)},
            "Rumino, 3 seats, seed 5: seat 1 discards the 8 of clubs and seat 0 claims it out "
            "of turn, before seat 2 draws, with six cards that make a rumino: it wins the match")


def rumino_claim_then_draw() -> tuple[Files, str]:
    driver, claim_env, draw_env = _rumino_race()
    k = driver.position
    return ({"": transcript(driver.genesis, list(driver.log) + [claim_env, draw_env])},
            f"the Rumino claim window of seed 5: seat 0's claim is envelope {k}; seat 2's "
            f"draw, signed for the same seq {k}, lost the race but is written after it")


def rumino_false_claim() -> tuple[Files, str]:
    driver = Driver.new("rumino", "classic", 3, seed=3)
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables)
                     and bool(d.tables[0].claimants))
    (claimant,) = driver.tables[0].claimants
    table = driver.tables[claimant]
    engine = table.engine
    top = engine.upcard  # type: ignore[attr-defined]
    six = tuple(sorted(c for c in engine.hand(claimant)  # type: ignore[attr-defined]
                       if c is not None)[:6])
    assert not is_rumino((*six, top))
    forged = craft(identity_of(table), table_id=driver.table_id, seq=driver.position,
                   prev=driver.head, seat=claimant, kind="action",
                   body=play_body(table, Action("claim", top, six)))
    return ({"": transcript(driver.genesis, list(driver.log) + [forged])},
            f"Rumino, 3 seats, seed 3, the first claim window: seat {claimant} claims the "
            "discard with six cards that do not make a rumino with it")


def claim_cases() -> dict[str, Case]:
    return {
        "rumino-claim": rumino_claim,
        "rumino-claim-then-draw": rumino_claim_then_draw,
        "rumino-false-claim": rumino_false_claim,
    }



# ------------------------------------------------------------------ private passes, whole pile,
# several transcripts


def calabrasella_give_elsewhere() -> tuple[Files, str]:
    run = game_run("calabrasella")
    k = next(i for i in range(len(run.frames))
             if _payload(run, i).kind == "action"
             and _payload(run, i).body["action"]["kind"] == "give")
    body = dict(_payload(run, k).body)
    (position, tokens), = body["uses"]
    giver = _payload(run, k).seat
    other = next(i for i in _card_actions(run) if _payload(run, i).seat != giver)
    elsewhere = _payload(run, other).body["position"]
    forged = _resign(run, k, body={**body, "uses": [[elsewhere, tokens]]})
    return ({"": transcript(run.genesis, run.frames[:k] + [forged])},
            f"the Calabrasella match: seat {giver}'s private pass of the called card (envelope "
            f"{k}) names position {elsewhere}, a card of seat "
            f"{_payload(run, other).seat}'s hand, in place of position {position}")


def _relinked(run: MatchRun, frames: list[bytes], following: list[int]) -> list[bytes]:
    """``frames`` followed by the envelopes ``following`` of ``run``, each re-signed by its
    seat with ``prev`` the envelope now before it."""
    out = list(frames)
    for j in following:
        out.append(_resign(run, j, prev=_h(out[-1])))
    return out


def burraco_take_as_draw() -> tuple[Files, str]:
    run = game_run("burraco")
    k = next(i for i in range(len(run.frames))
             if _payload(run, i).kind == "action"
             and _payload(run, i).body["action"]["kind"] == "take")
    seat = _payload(run, k).seat
    forged = _resign(run, k, body={"action": {"kind": "draw"}})
    frames = _relinked(run, run.frames[:k] + [forged], [k + 1])
    return ({"": transcript(run.genesis, frames)},
            f"the Burraco match: seat {seat} takes the discard pile whole at envelope {k}; "
            f"re-signed as a draw from the stock, with envelope {k + 1} (seat "
            f"{_payload(run, k + 1).seat}'s, which followed the take) re-linked after it: a "
            "draw from the stock is not followed by what follows the pile taken whole")


def several_transcripts() -> tuple[Files, str]:
    run = dropout_run("bot")
    return ({"a": transcript(run.genesis, run.tables[0].frames),
             "b": transcript(run.genesis, run.tables[3].frames)},
            "the dropout-bot match as seat 0 and seat 3 kept it: two whole transcripts")


def several_transcripts_with_dropped() -> tuple[Files, str]:
    run = dropout_run("bot")
    dropped = run.tables[2].frames
    return ({"a": transcript(run.genesis, run.tables[0].frames),
             "b": transcript(run.genesis, run.tables[1].frames),
             "c": transcript(run.genesis, dropped)},
            "the dropout-bot match as three seats kept it: seat 0's and seat 1's whole "
            f"transcripts and the {len(dropped)} envelopes seat 2 had when it fell silent")


def evidence_key_share_proven() -> tuple[Files, str]:
    run = dropout_run("forfeit")

    def cut_box(keyshares: list[Any]) -> list[Any]:
        r, commitments, boxes = keyshares
        return [r, commitments, [boxes[0][:31], *boxes[1:]]]

    forged, k = _keyshares_forged(cut_box)
    record = Evidence("bad-key-share", 0, k, (forged,), "refused live")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            "the dropout-forfeit table up to seat 0's first shuffle, then a record holding that "
            "shuffle with a key-share box of 31 bytes: proven")


def evidence_key_share_unverifiable() -> tuple[Files, str]:
    run = dropout_run("forfeit")
    k = _first_kind(run, "shuffle")
    record = Evidence("bad-key-share", 0, k, (run.frames[k],), "my box did not open")
    return ({"": transcript(run.genesis, run.frames[:k], (record,))},
            "a record claiming seat 0's genuine first shuffle dealt a bad key share: only the "
            "holder's complain can prove that (unverifiable)")


def evidence_recovery_not_proven() -> tuple[Files, str]:
    run = dropout_run("bot")
    k = _first_kind(run, "recover") + 1
    seat = _payload(run, k).seat
    record = Evidence("bad-recovery-share", seat, k, (run.frames[k],), "a false claim")
    return ({"": transcript(run.genesis, run.frames, (record,))},
            f"the whole dropout-bot match, then a record calling seat {seat}'s genuine recover "
            "a bad recovery share: it proves nothing and the match stays valid")


def evidence_cases() -> dict[str, Case]:
    return {
        "evidence-key-share-proven": evidence_key_share_proven,
        "evidence-key-share-unverifiable": evidence_key_share_unverifiable,
        "evidence-recovery-not-proven": evidence_recovery_not_proven,
    }


def feature_cases() -> dict[str, Case]:
    return {
        "calabrasella-give-elsewhere": calabrasella_give_elsewhere,
        "burraco-take-as-draw": burraco_take_as_draw,
        "several-transcripts": several_transcripts,
        "several-transcripts-with-dropped": several_transcripts_with_dropped,
    }


CASES: dict[str, Case] = {
    "honest": honest,
    "incomplete": incomplete,
    "truncated": truncated,
    "bad-envelope": bad_envelope,
    "bad-signature": bad_signature,
    "genesis-mismatch": genesis_mismatch,
    "wrong-table": wrong_table,
    "wrong-sequence": wrong_sequence,
    "fork": fork,
    "wrong-previous": wrong_previous,
    "replay": replay,
    "equivocation": equivocation,
    "equivocation-two-files": equivocation_two_files,
    "out-of-turn": out_of_turn,
    "wrong-kind": wrong_kind,
    "bad-body": bad_body,
    "bad-key": bad_key,
    "bad-shuffle": bad_shuffle,
    "bad-token": bad_token,
    "card-mismatch": card_mismatch,
    "bad-action": bad_action,
    "card-not-in-deck": card_not_in_deck,
    "not-in-hand": not_in_hand,
    "bad-reveal": bad_reveal,
    "result-mismatch": result_mismatch,
    "after-match-end": after_match_end,
    "revoke-at-audit": revoke_at_audit,
    "evidence-proven": evidence_proven,
    "evidence-not-proven": evidence_not_proven,
    "evidence-replay": evidence_replay,
    "evidence-lost-race": evidence_lost_race,
    "evidence-fork": evidence_fork,
    "evidence-wrong-sequence": evidence_wrong_sequence,
    "evidence-equivocation": evidence_equivocation,
    "evidence-equivocation-framed": evidence_equivocation_framed,
    "evidence-out-of-turn": evidence_out_of_turn,
    "evidence-moved": evidence_moved,
    "evidence-unlinked": evidence_unlinked,
    "evidence-sealed-token": evidence_sealed_token,
    **game_cases(),
    **dropout_cases(),
    **claim_cases(),
    **feature_cases(),
    **evidence_cases(),
}


def file_names(case: str, files: Files) -> dict[str, str]:
    return {part: f"{case}.{part}.p2pt" if part else f"{case}.p2pt" for part in files}


def make_transcripts() -> tuple[dict[str, bytes], dict[str, dict[str, Any]]]:
    """Every transcript file of the corpus by name, and each case's ``case``, ``files`` and
    ``about`` fields (the verdict fields come from the verifier)."""
    transcripts: dict[str, bytes] = {}
    meta: dict[str, dict[str, Any]] = {}
    for case, make in CASES.items():
        files, about = make()
        names = file_names(case, files)
        for part, data in files.items():
            transcripts[names[part]] = data
        meta[case] = {"case": case, "files": [names[p] for p in files], "about": about}
    return transcripts, meta


def build(verify: Callable[[list[Path]], dict[str, Any]]) -> dict[str, bytes]:
    """Every corpus file by name: the transcripts and their verdict JSON (``verify`` runs the
    reference verifier over written files and returns its JSON report)."""
    transcripts, meta = make_transcripts()
    out = dict(transcripts)
    with tempfile.TemporaryDirectory() as tmp:
        for case, info in meta.items():
            paths = []
            for name in info["files"]:
                path = Path(tmp) / name
                path.write_bytes(transcripts[name])
                paths.append(path)
            verdict = {"case": case, "files": info["files"], **verdict_of(verify(paths)),
                       "about": info["about"]}
            out[f"{case}.json"] = (json.dumps(verdict, indent=2) + "\n").encode()
    return out


def reference_verify(paths: list[Path]) -> dict[str, Any]:
    """``p2pcards verify --json`` in this process: its JSON report."""
    import contextlib
    import io

    from p2pcards import cli

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        cli.main(["verify", "--json", *map(str, paths)])
    result: dict[str, Any] = json.loads(buffer.getvalue())
    return result


def main() -> int:
    files = build(reference_verify)
    for old in CORPUS.glob("*"):
        if old.suffix in (".p2pt", ".json"):
            old.unlink()
    for name, data in files.items():
        (CORPUS / name).write_bytes(data)
    print(f"wrote {len(files)} files, {sum(map(len, files.values()))} bytes, to {CORPUS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
