"""The replay of a deck's play with full information (SPEC §9.7, §9.13.6, §9.13.7).

Every participant replays the engine from the start of a deck with the cards a function gives
for each deck position: the audit with every card once the keys are known (:mod:`.audit`), and
after a dropout the live engine with the bot's hand open, or the bot's public view
(:mod:`.bot`). A rule a recorded action breaks is raised naming its actor and envelope.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import HIDDEN, Card
from ..games.base import GameError, MatchState, Phase
from .card_use import fill
from .cycle import DeckCycle
from .errors import Violation


def replay_cycle(start: MatchState, cycle: DeckCycle, card_at: Callable[[int], Card | None], *,
                 partial: bool, index: int, end_phase: Phase | None = None) -> MatchState:
    """Deck ``cycle``'s play replayed from ``start`` (the full engine at the deck's start) with
    the card ``card_at`` gives for each position (``None``: unknown, as a view that cannot see
    it). ``partial``: stop where the recorded chance batches and actions stop (a deck cut
    short, or one still in play), else they must last to the end of the deck's play;
    ``end_phase``: they must all be used and the replay must stop in this phase (the live
    engine's). A rule a recorded action breaks is raised naming its actor and envelope,
    anything else as ``replay-diverged`` at chain index ``index``."""
    replay = start.copy()
    replay.begin_hand()
    batches = iter(cycle.chance_positions)
    moves = iter(cycle.actions)
    while replay.phase in (Phase.CHANCE, Phase.ACTION):
        if replay.phase is Phase.CHANCE:
            positions = next(batches, None)
            if positions is None and partial:
                break
            if positions is None or len(positions) != len(replay.pending_chance()):
                raise Violation("replay-diverged", "the full replay asked for other cards",
                                seat=None, index=index)
            try:
                replay.complete_chance([card_at(p) for p in positions])
            except GameError as exc:
                raise Violation("replay-diverged", f"the dealt cards do not fit: {exc}",
                                seat=None, index=index) from None
            continue
        move = next(moves, None)
        if move is None and partial:
            break
        if move is None:
            raise Violation("replay-diverged", "the full replay expects more actions",
                            seat=None, index=index)
        action = fill(move.action, [card_at(p) or HIDDEN for p in move.secret])
        try:
            if move.claim:
                replay.apply_claim(move.seat, action)
            elif replay.to_act != move.seat:
                raise GameError(f"seat {replay.to_act} was to act, not seat {move.seat}")
            else:
                replay.apply(action)
        except GameError as exc:
            rule = getattr(exc, "rule", "illegal-move")
            raise Violation(rule, f"found when the hand was replayed: {exc}",
                            seat=move.seat, index=move.index) from None
    leftover = next(batches, None) is not None or next(moves, None) is not None
    if end_phase is not None and (leftover or replay.phase is not end_phase):
        raise Violation("replay-diverged",
                        "the full replay of the hand does not end where live play ended",
                        seat=None, index=index)
    return replay


def view(start: MatchState, cycle: DeckCycle, card_at: Callable[[int], Card | None], *,
         index: int) -> MatchState:
    """The deck in play replayed from ``start`` as far as the records go, with the cards
    ``card_at`` gives (the live engine with the bot's hand open, or the bot's public view)."""
    return replay_cycle(start, cycle, card_at, partial=True, index=index)
