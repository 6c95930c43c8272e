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
    record: list[Action] = field(default_factory=list)
    dropped: set[int | str] = field(default_factory=set)
    start: CalabrasellaMatch | None = None

    @classmethod
    def deal(cls, hands: Sequence[Sequence[Card]] = (SEAT0, SEAT1, SEAT2),
             widow: Sequence[Card] = WIDOW, config: CalabrasellaConfig | None = None,
             deals: int = 0) -> Views:
        """A match about to deal ``hands`` and ``widow``, dealt at once in every view."""
        config = config or SPEC.preset()
        full, deck = CalabrasellaMatch.from_deal(config, hands, widow, deals=deals)
        views = cls(full, deck, [full.copy() for _ in range(4)], start=full.copy())
        views.chance()
        return views

    @property
    def seats(self) -> list[CalabrasellaMatch]:
        return self.live[:3]

    def chance(self) -> None:
        """Begin the hand if needed and complete the pending chance batch in every view."""
        for key, engine in self._engines():
            if engine.phase is Phase.SHUFFLE:
                engine.begin_hand()
            steps = engine.pending_chance()
            seat = -2 if key == "observer" else None if key == "full" else key
            assert seat is None or isinstance(seat, int)
            engine.complete_chance([self.deck[s.position]
                                    if seat is None or s.visible(seat) else None
                                    for s in steps])

    def _engines(self) -> list[tuple[int | str, CalabrasellaMatch]]:
        keyed: list[tuple[int | str, CalabrasellaMatch]] = [("full", self.full)]
        keyed += [(v if v < 3 else "observer", e) for v, e in enumerate(self.live)]
        return [(k, e) for k, e in keyed if k not in self.dropped]

    def act(self, action: Action, *, drop: bool = False) -> dict[int | str, IllegalMove | None]:
        """Apply ``action`` of the seat to act in every view still playing (masked per view),
        and record it (real cards) for :func:`replay`.

        Returns, per view (``"full"``, 0, 1, 2, ``"observer"``), the :class:`IllegalMove` it
        raised or ``None``. Views that refused keep their state; with ``drop`` they stop playing
        (an honest peer stops at a violation), so a cheat can be followed in the other views.
        """
        engines = self._engines()
        lead = engines[0][1]
        actor = lead.to_act
        use = lead.card_use(action)
        out: dict[int | str, IllegalMove | None] = {}
        for key, engine in engines:
            viewer = None if key == "observer" else actor if key == "full" else key
            assert viewer is None or isinstance(viewer, int)
            out[key] = _try(engine, mask(action, use, actor, viewer))
        self.record.append(action)
        if drop:
            self.dropped.update(k for k, v in out.items() if v is not None)
        if any(e.phase is Phase.CHANCE for _, e in self._engines()):
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


def replay(views: Views) -> tuple[int, IllegalMove] | None:
    """The full-information replay of everything recorded, as after the key reveal: the index
    of the first refused action and the error, or ``None`` when every action is legal."""
    assert views.start is not None
    engine = views.start.copy()
    engine.begin_hand()
    for index, action in enumerate(views.record):
        if engine.phase is Phase.CHANCE:
            engine.complete_chance([views.deck[s.position] for s in engine.pending_chance()])
        error = _try(engine, action)
        if error is not None:
            return index, error
    return None


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
