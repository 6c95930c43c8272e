"""What a table reports, and what one call of it produces (SPEC §9, §9.13).

:class:`Step` is the sans-IO contract of every :class:`~p2pcards.table.Table` call: the
envelopes to send and the :class:`Event` values a user interface shows. :class:`Recovery` and
:class:`Complaint` are the table's records of a dropout (SPEC §9.13) and of a proven complaint
(SPEC §9.13.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..games.base import Action, ChanceStep, HandResult


@dataclass(frozen=True)
class Event:
    """Base class of what the table reports to a user interface."""


@dataclass(frozen=True)
class SeatAccepted(Event):
    seat: int


@dataclass(frozen=True)
class HandStarted(Event):
    hand: int
    cycle: int


@dataclass(frozen=True)
class CardsRevealed(Event):
    """Cards this participant learned from a chance step (own hand, table, trump, a show)."""

    steps: tuple[ChanceStep, ...]
    cards: tuple[Card | None, ...]


@dataclass(frozen=True)
class ActionPlayed(Event):
    seat: int
    action: Action
    index: int


@dataclass(frozen=True)
class HandScored(Event):
    hand: int
    result: HandResult
    match_scores: tuple[int, ...]


@dataclass(frozen=True)
class MatchEnded(Event):
    """The match is over. ``forfeit`` names the seat that dropped out and forfeited (SPEC
    §9.13); the scores are then those of the hands completed before."""

    match_scores: tuple[int, ...]
    winner: int | None
    forfeit: int | None = None


@dataclass(frozen=True)
class SeatDropped(Event):
    """Seat ``seat`` stopped answering when its ``kind`` message was due and seat ``by`` began
    the recovery (SPEC §9.13): the others publish their shares of its hand key."""

    seat: int
    kind: str
    by: int


@dataclass(frozen=True)
class KeyRebuilt(Event):
    """The dropped ``seat``'s hand key of the current deck was rebuilt from the others' shares;
    ``audited`` tells whether the deck was then audited and replayed (cards had been dealt)."""

    seat: int
    audited: bool


@dataclass(frozen=True)
class BotSeated(Event):
    """From now on the public bot plays the dropped ``seat`` (``dropout`` = ``bot``, SPEC
    §9.13.7): every participant computes its moves, and its cards are open to every seat."""

    seat: int


@dataclass(frozen=True)
class ProposalDropped(Event):
    """The local seat's claim-window message (its action or its claim) lost the race: another
    seat's message was placed in the chain first, so it was not sent into the chain."""

    envelope: bytes


@dataclass
class Step:
    """What one call produced: envelopes to send (encoded, in order) and events to show."""

    outgoing: list[bytes] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def extend(self, other: Step) -> None:
        self.outgoing.extend(other.outgoing)
        self.events.extend(other.events)


@dataclass
class Recovery:
    """A dropout (SPEC §9.13): ``seat`` did not send its ``kind`` message, seat ``by`` began the
    recovery with envelope ``index``; ``rebuilt``: the seat's hand key of the current deck was
    rebuilt from the others' shares; ``audited``: that deck was then audited and replayed;
    ``bot``: the match went on with the public bot in the seat (SPEC §9.13.7)."""

    seat: int
    kind: str
    by: int
    index: int
    rebuilt: bool = False
    audited: bool = False
    bot: bool = False


@dataclass(frozen=True)
class Complaint:
    """A proven complaint (SPEC §9.13.4): seat ``holder`` showed in envelope ``index`` that its
    share of seat ``dealer``'s hand key, dealt in envelope ``dealt_at``, is wrong. The match
    ends there with ``dealer`` at fault."""

    holder: int
    dealer: int
    index: int
    dealt_at: int
