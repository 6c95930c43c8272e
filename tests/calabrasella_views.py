"""Test helpers for Calabrasella: one full-information engine and every seat's live view, kept in
lock-step the way the table keeps them.

A chance step a seat may not see reaches its view as ``None``; an action reaches each view masked
as the table masks it (:class:`~p2pcards.games.base.CardUse`): a card passed to another seat, or
moved face down, travels as ``??`` to every seat that may not learn it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from p2pcards.cards import HIDDEN, Card, cards
from p2pcards.games.base import Action, CardUse, IllegalMove, Phase
from p2pcards.games.calabrasella import SPEC, CalabrasellaConfig, CalabrasellaMatch

# A deal (deals=0: seat 0 bids first, seat 2 deals) where seat 0 lacks only the 3 of Bastoni
# among the top cards and seat 1 holds it; the widow holds four low spades.
SEAT0 = cards("3D 2D AD KD QD JD 3C 2C AC 3S 2S AS")
SEAT1 = cards("3B 2B AB KB QB JB 7B 6B 5B 4B KC QC")
SEAT2 = cards("7D 6D 5D 4D JC 7C 6C 5C 4C KS QS JS")
WIDOW = cards("7S 6S 5S 4S")

# The twelve tricks after seat 0 calls 3B, gets it from seat 1, gives back JD, discards QD and
# takes 7S: seat 1 leads, the declarer wins every trick (each row in playing order: seats 1, 2,
# 0 for the first trick, then seats 0, 1, 2).
SWEEP = [
    "2B 4C 3B", "3D JD 7D", "2D 4B 6D", "AD 5B 5D", "KD 6B 4D", "3C KC JC",
    "2C QC 7C", "AC 7B 6C", "3S JB KS", "2S QB QS", "AS KB JS", "7S AB 5C",
]


def mask(action: Action, use: CardUse, actor: int, viewer: int | None) -> Action:
    """The action as ``viewer`` receives it (``None``: an observer before the keys)."""
    secret: set[Card] = set(use.hidden) if viewer != actor else set()
    if use.passed and viewer not in (actor, use.to):
        secret.update(use.passed)
    if not secret:
        return action
    new_card = HIDDEN if action.card in secret else action.card
    new_cards = tuple(HIDDEN if c in secret else c for c in action.cards)
    return replace(action, card=new_card, cards=new_cards)


@dataclass
class Views:
    """The full engine plus one live view per seat and an observer's view."""

    full: CalabrasellaMatch
    deck: list[Card]
    live: list[CalabrasellaMatch] = field(default_factory=list)

    @classmethod
    def deal(cls, hands: Sequence[Sequence[Card]] = (SEAT0, SEAT1, SEAT2),
             widow: Sequence[Card] = WIDOW, config: CalabrasellaConfig | None = None,
             deals: int = 0) -> Views:
        """A match about to deal ``hands`` and ``widow``, dealt at once in every view."""
        config = config or SPEC.preset()
        full, deck = CalabrasellaMatch.from_deal(config, hands, widow, deals=deals)
        views = cls(full, deck, [full.copy() for _ in range(4)])
        views.chance()
        return views

    @property
    def seats(self) -> list[CalabrasellaMatch]:
        return self.live[:3]

    def chance(self) -> None:
        """Begin the hand if needed and complete the pending chance batch in every view."""
        if self.full.phase is Phase.SHUFFLE:
            for engine in (self.full, *self.live):
                engine.begin_hand()
        steps = self.full.pending_chance()
        real = [self.deck[s.position] for s in steps]
        self.full.complete_chance(real)
        for viewer, engine in enumerate(self.live):
            seat = viewer if viewer < 3 else -2
            engine.complete_chance([c if s.visible(seat) else None
                                    for s, c in zip(steps, real, strict=True)])

    def act(self, action: Action) -> dict[int | str, IllegalMove | None]:
        """Apply ``action`` of the seat to act in every view (masked per view).

        Returns, per view (``"full"``, 0, 1, 2, ``"observer"``), the :class:`IllegalMove` it
        raised or ``None``. Views that refused keep their state.
        """
        actor = self.full.to_act
        use = self.full.card_use(action)
        out: dict[int | str, IllegalMove | None] = {}
        out["full"] = _try(self.full, action)
        for viewer, engine in enumerate(self.live):
            masked = mask(action, use, actor, viewer if viewer < 3 else None)
            out[viewer if viewer < 3 else "observer"] = _try(engine, masked)
        if self.full.phase is Phase.CHANCE:
            self.chance()
        return out

    def honest(self, *actions: Action) -> None:
        """Apply actions every view must accept."""
        for action in actions:
            verdicts = self.act(action)
            bad = {k: v for k, v in verdicts.items() if v is not None}
            assert not bad, f"{action} refused: {bad}"

    def play_tricks(self, rows: Sequence[str]) -> None:
        """Play tricks given as rows of card codes in playing order."""
        for row in rows:
            for c in cards(row):
                self.honest(Action("play", card=c))


def _try(engine: CalabrasellaMatch, action: Action) -> IllegalMove | None:
    try:
        engine.apply(action)
    except IllegalMove as exc:
        return exc
    return None


def exchange(views: Views, called: str = "3B", back: str = "JD") -> None:
    """Seat 0 bids, calls ``called``; seat 1 gives it; seat 0 gives ``back``."""
    (c,) = cards(called)
    views.honest(Action("bid"), Action("call", cards=(c,)), Action("give", card=c),
                 Action("return", card=cards(back)[0]))
