"""The sans-IO table state machine (SPEC §6, §9, §11.7): one participant's view of one match.

:class:`Table` lives in :mod:`.machine`; this package re-exports the names callers use, so that
``from p2pcards.table import Table`` keeps working whatever module of the package holds a name.
"""

from __future__ import annotations

from .errors import ResumeError, Violation
from .events import (
    ActionPlayed,
    BotSeated,
    CardsRevealed,
    Complaint,
    Event,
    HandScored,
    HandStarted,
    KeyRebuilt,
    MatchEnded,
    ProposalDropped,
    Recovery,
    SeatAccepted,
    SeatDropped,
    Step,
)
from .machine import (
    Table,
    bare_inboxes,
    deck_of,
    replay_frames,
    revealed_cards,
)
from .rounds import HUB_SEAT, KINDS

__all__ = [
    "Table",
    "Step",
    "Event",
    "Violation",
    "SeatAccepted",
    "HandStarted",
    "CardsRevealed",
    "ActionPlayed",
    "HandScored",
    "MatchEnded",
    "ProposalDropped",
    "SeatDropped",
    "KeyRebuilt",
    "BotSeated",
    "Recovery",
    "Complaint",
    "ResumeError",
    "HUB_SEAT",
    "KINDS",
    "replay_frames",
    "bare_inboxes",
    "revealed_cards",
    "deck_of",
]
