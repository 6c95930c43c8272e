"""Another match at the same table: the rematch exchange (SPEC §11.8).

When a match is over, the same connections carry, outside any chain::

    each peer -> hub  again {seat, entry: the seat's next genesis entry, or nil to decline,
                             proof: the seat's genesis key's signature of
                                    [AGAIN_CONTEXT, finished table id, seat, entry or nil]}
    hub -> joiners    again {...} of a seat that declined (the hub's own, or a joiner's), or
    hub -> joiners    genesis {genesis, bots}     (everyone said yes)

An entry keeps the seat's identity key and name and brings a fresh X25519 key and a fresh seat
nonce, so the next genesis has a new table id and its chain starts from nothing; its rules are
those of the finished match. Every joiner checks the next genesis (:func:`next_genesis_problems`)
before it signs it with its ``accept``, as at seating. A decline is signed, so each peer names
who declined from that seat's own key, not the hub's word.

A joiner that declines waits, after its signed ``nil``, for the hub to end the connection
(:func:`send_decline`), so the decline is read before its connection closes; and the hub reads
a joiner's connection that ends before that joiner's answer as that seat's decline
(:func:`collect_answers`), so a closed connection is never taken for a lost one. Until the next
genesis is sent, a joiner that said yes may still take it back with a signed ``nil``.

The functions here make and check the messages, :func:`next_again` reads the next one, and
:func:`collect_answers` reads the joiners' answers for the hub.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from ..i18n import pgettext
from ..seating.genesis import Genesis, GenesisError, SeatInfo
from ..wire import codec
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import NetError
from .framed import FrameChannel
from .notices import SeriesFacts, TypedNotice

__all__ = ["AGAIN_CONTEXT", "again_message", "check_again", "next_genesis_problems",
           "Series", "declined_sentence", "closed_sentence", "side_names", "next_again",
           "Answers", "collect_answers", "send_decline", "take_back", "DECLINE_WAIT"]

AGAIN_CONTEXT = "p2pcards/rematch/v1"
DECLINE_WAIT = 10.0
"""Seconds a seat that declined waits for the hub to end the connection before closing it."""


def _statement(previous: Genesis, seat: int, entry: dict[str, Any] | None) -> bytes:
    return codec.pack([AGAIN_CONTEXT, previous.table_id, seat, entry])


def again_message(previous: Genesis, seat: int, key: IdentityKey, entry: SeatInfo | None
                  ) -> dict[str, Any]:
    """The seat's answer after ``previous``: its next entry (yes) or ``None`` (no), signed."""
    if key.public.to_bytes() != previous.seats[seat].identity:
        raise ValueError(f"this key is not the genesis key of seat {seat}")
    wire = None if entry is None else entry.to_wire()
    return {"type": "again", "seat": seat, "entry": wire,
            "proof": key.sign(_statement(previous, seat, wire))}


def check_again(previous: Genesis, message: dict[str, Any], allowed: Collection[int]
                ) -> tuple[int, SeatInfo | None] | None:
    """The seat and entry (``None``: it declines) of a well-formed ``again`` from one of
    ``allowed``, signed by that seat's key in ``previous``, whose entry keeps the seat's key and
    name; ``None`` for anything else."""
    seat, wire, proof = message.get("seat"), message.get("entry"), message.get("proof")
    if (set(message) != {"type", "seat", "entry", "proof"} or type(seat) is not int
            or seat not in allowed or not 0 <= seat < len(previous.seats)
            or not isinstance(proof, bytes) or not (wire is None or isinstance(wire, dict))):
        return None
    old = previous.seats[seat]
    if not PublicIdentity.from_bytes(old.identity).verify(proof,
                                                          _statement(previous, seat, wire)):
        return None
    if wire is None:
        return seat, None
    try:
        entry = SeatInfo.from_wire(wire, seat)
    except GenesisError:
        return None
    if (entry.identity, entry.name) != (old.identity, old.name) or entry.nonce == old.nonce:
        return None
    return seat, entry


def next_genesis_problems(previous: Genesis, genesis: Genesis, seat: int, mine: SeatInfo
                          ) -> list[str]:
    """Every way ``genesis`` is not the rematch of ``previous`` that seat ``seat`` agreed to
    with ``mine``, one phrase each."""
    problems: list[str] = []
    if (genesis.game, genesis.preset, dict(genesis.config), dict(genesis.timeouts),
            genesis.dropout) != (previous.game, previous.preset, dict(previous.config),
                                 dict(previous.timeouts), previous.dropout):
        problems.append("its rules are not those of the match just played")
    if len(genesis.seats) != len(previous.seats):
        return problems + ["it has another number of seats"]
    for number, (new, old) in enumerate(zip(genesis.seats, previous.seats, strict=True)):
        if (new.identity, new.name) != (old.identity, old.name):
            problems.append(f"its seat {number} is not the same player")
        elif new.nonce == old.nonce:
            problems.append(f"its seat {number} keeps its old nonce")
    if genesis.seats[seat] != mine:
        problems.append(f"its seat {seat} is not the entry this seat sent")
    return problems


def side_names(genesis: Genesis) -> list[str]:
    """The scoring sides' names, ``Alba [0] + Bruno [2]``, one per side (one per seat in a game
    without partnerships)."""
    engine = genesis.spec.new_match(genesis.game_config())
    players = range(len(genesis.seats))
    side_of = [engine.side_of(seat) for seat in players]
    return [" + ".join(f"{genesis.seats[s].name or 'seat'} [{s}]" for s in players
                       if side_of[s] == side) for side in range(max(side_of) + 1)]


async def _next_message(framed: FrameChannel) -> dict[str, Any] | None:
    """The next message on ``framed`` but keepalives; ``None`` when the connection ends or
    breaks."""
    while True:
        try:
            message = await framed.receive_message()
        except NetError:
            return None
        if message is None or message["type"] != "alive":
            return message


async def next_again(framed: FrameChannel) -> dict[str, Any] | None:
    """The next rematch message on ``framed`` (keepalives skipped): an ``again``, a
    ``genesis`` or an ``abort``; ``None`` when the connection ends, breaks or carries anything
    else."""
    message = await _next_message(framed)
    if message is None:
        return None
    return message if message["type"] in ("again", "genesis", "abort") else None


async def take_back(framed: FrameChannel, message: dict[str, Any],
                    leave: Callable[[Genesis], dict[str, Any] | None]) -> None:
    """Take this seat's yes back with its signed ``nil`` (``message``), as
    :func:`send_decline`; when the hub's next genesis crossed it, answer that genesis with
    this seat's signed ``leave`` (``leave(genesis)``, ``None`` when the genesis does not
    seat it), which ends the match it began (SPEC §11.7.6). Never raises :class:`NetError`."""
    try:
        await framed.send_message(message)
    except NetError:
        return
    with trio.move_on_after(DECLINE_WAIT):
        while (crossing := await next_again(framed)) is not None:
            if crossing["type"] != "genesis" or not isinstance(crossing.get("genesis"), bytes):
                continue
            try:
                left = leave(Genesis.decode(crossing["genesis"]))
            except GenesisError:
                left = None
            if left is not None:
                with contextlib.suppress(NetError):
                    await framed.send_message(left)
            break
        await framed.aclose_gracefully()


async def send_decline(framed: FrameChannel, message: dict[str, Any]) -> None:
    """Send this seat's signed decline (an ``again`` with ``nil``) and wait, at most
    :data:`DECLINE_WAIT` seconds, for the other side to end the connection (the hub ends it
    once it has read the answer): the decline is then read before the connection closes,
    however loaded the machines. Never raises :class:`NetError`."""
    try:
        await framed.send_message(message)
    except NetError:
        return
    with trio.move_on_after(DECLINE_WAIT):
        await framed.aclose_gracefully()


@dataclass
class Answers:
    """The joiners' answers after a match, as the hub read them."""

    yes: dict[int, SeatInfo] = field(default_factory=dict)
    """The next entry of each seat that said yes (and has not taken it back)."""
    declined: int | None = None
    """The first seat that declined, by a signed ``nil`` or by ending its connection."""
    signed: dict[str, Any] | None = None
    """The decliner's signed ``again`` (``None`` when its connection ended instead)."""

    def decline(self, seat: int, signed: dict[str, Any] | None) -> None:
        """Seat ``seat`` declines (the first decline counts)."""
        if self.declined is None:
            self.declined, self.signed = seat, signed
            self.yes.pop(seat, None)


async def collect_answers(previous: Genesis, channels: Mapping[int, FrameChannel],
                          limit: float, answers: Answers | None = None,
                          hold: trio.Event | None = None) -> Answers:
    """Each joiner's ``again`` after ``previous``, read until every seat said yes, one
    declined, or ``limit`` seconds passed. A connection that ends before its seat's answer,
    or after a yes, is that seat's decline; a signed ``nil`` after a yes takes the yes back;
    an answer that does not check (:func:`check_again`) is no answer, and that seat is no
    longer read. Into ``answers`` when given; with ``hold``, every yes does not end the reading
    before ``hold`` is set (the host is still asked, and a yes may still be taken back)."""
    answers = answers if answers is not None else Answers()
    with trio.move_on_after(limit):
        async with trio.open_nursery() as nursery:
            async def read(seat: int, framed: FrameChannel) -> None:
                while True:
                    message = await _next_message(framed)
                    if message is None:
                        answers.decline(seat, None)
                        break
                    checked = (check_again(previous, message, {seat})
                               if message["type"] == "again" else None)
                    if checked is None:
                        return
                    if checked[1] is None:
                        answers.decline(seat, message)
                        break
                    answers.yes.setdefault(seat, checked[1])
                    if (len(answers.yes) == len(channels) and not framed.has_buffered()
                            and (hold is None or hold.is_set())):
                        break
                nursery.cancel_scope.cancel()

            for seat, framed in channels.items():
                nursery.start_soon(read, seat, framed)
    return answers


def declined_sentence(previous: Genesis, seat: int) -> str:
    """``Bruno declined another match``."""
    name = previous.seats[seat].name or pgettext("network", "seat {seat}").format(seat=seat)
    return pgettext("network", "{name} declined another match").format(name=name)


def closed_sentence(previous: Genesis, seat: int) -> str:
    """``Bruno declined another match (the connection closed)``: a seat whose connection
    ended before it answered."""
    name = previous.seats[seat].name or pgettext("network", "seat {seat}").format(seat=seat)
    return pgettext("network", "{name} declined another match (the connection closed)").format(
        name=name)


@dataclass
class Series:
    """The running tally of the matches played in a row at one table: matches won per side
    (a drawn match counts for nobody), and each side's match score added up over the series
    (its points, in a game whose match score is points)."""

    side_names: Sequence[str]
    wins: list[int] = field(default_factory=list)
    played: int = 0
    points: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * len(self.side_names)
        if not self.points:
            self.points = [0] * len(self.side_names)

    def record(self, winner: int | None, scores: Sequence[int] = ()) -> None:
        """One more match, won by side ``winner`` (``None``: a draw), which ended with each
        side's match score ``scores``."""
        self.played += 1
        if winner is not None and 0 <= winner < len(self.wins):
            self.wins[winner] += 1
        if len(scores) == len(self.points):
            self.points = [total + score for total, score in zip(self.points, scores,
                                                                 strict=True)]

    def line(self) -> TypedNotice:
        """``series after 2 matches: Alba [0] 2 · Bruno [1] 0``, carrying the tally's facts
        (:class:`~.notices.SeriesFacts`)."""
        tally = " · ".join(f"{name} {won}" for name, won in zip(self.side_names, self.wins,
                                                                strict=True))
        if self.played == 1:
            text = pgettext("network", "series after 1 match: {tally}").format(tally=tally)
        else:
            text = pgettext("network", "series after {count} matches: {tally}").format(
                count=self.played, tally=tally)
        return TypedNotice(text, SeriesFacts(self.played, tuple(self.side_names),
                                             tuple(self.wins), tuple(self.points)))
