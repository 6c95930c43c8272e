"""The public bot in a dropped seat (SPEC §9.13.7).

At a table whose genesis sets ``dropout`` = ``bot``, once a silent seat's recovery is over every
participant plays that seat with the game's public bot (:mod:`p2pcards.public_bot`): it chooses
from the public view of the hand, seeded by the table, the deck and the count of actions, so
that every participant computes the same move. Its moves enter no envelope: :func:`play` applies
one to the live engine and records it in the deck cycle as any accepted action; :func:`take_over`
hands the seat's deck and live engine over to the bot.
"""

from __future__ import annotations

from ..games.base import Action, GameError, MatchState
from ..public_bot import bot_seed, public_move
from .card_use import Plan, commit, mask
from .cycle import DeckCycle, Move
from .errors import Violation
from .replay import view


def play(cycle: DeckCycle, engine: MatchState, full: MatchState, *, game: str, table_id: bytes,
         players: int, local: int | None, index: int) -> Action:
    """The public bot's action in seat ``cycle.bot``, chosen from the public view of the hand
    (the deck replayed from ``full`` with the cards every participant can decrypt), applied to
    the live ``engine`` and recorded in ``cycle`` at chain index ``index``; ``replay-diverged``
    if the view has no move or the move does not fit the live hand."""
    seat = cycle.bot
    assert seat is not None
    public = view(full, cycle, lambda p: cycle.public_card(p, index=index), index=index)
    seed = bot_seed(table_id, cycle.number, len(cycle.actions))
    action = public_move(game, public, seat, seed)
    if action is None:
        raise Violation("replay-diverged", f"the public view of seat {seat} has no move",
                        seat=None, index=index)
    use = engine.card_use(action)
    plan = Plan()
    taken: set[int] = set()
    try:
        for kept, cards in ((False, use.shown), (True, use.kept)):
            for c in cards:
                position = cycle.position_of(seat, c, local=local, index=index, exclude=taken)
                taken.add(position)
                (plan.kept if kept else plan.shown).append((position, c))
        for moved, cards in ((plan.hidden, use.hidden), (plan.passed, use.passed)):
            for c in cards:
                position = cycle.position_of(seat, c, local=local, index=index, exclude=taken,
                                             in_hand=True)
                taken.add(position)
                moved.append(position)
                plan.cards[position] = c
        wire = mask(action, use)
        engine.apply(action)
    except GameError as exc:
        raise Violation("replay-diverged", f"the bot's move {action} does not fit the live "
                        f"hand: {exc}", seat=None, index=index) from None
    commit(cycle, seat, plan, use.to, players)
    cycle.actions.append(Move(index, seat, wire, tuple(plan.secret)))
    return action


def take_over(cycle: DeckCycle | None, full: MatchState, dropped: int,
              index: int) -> tuple[DeckCycle | None, MatchState | None]:
    """The public bot takes ``dropped``'s seat (SPEC §9.13.7) at chain ``index``: the deck
    that goes on (``None``: none, or one no card was dealt from, made again without the seat)
    and, for a deck in play, the live engine replayed from ``full`` with the seat's hand now
    open (``None``: the live engine stays as it is)."""
    if cycle is None:
        return None, None
    cycle.bot = dropped
    if not cycle.shuffled:
        return None, None
    if cycle.audited:
        return cycle, None
    engine = view(full, cycle, lambda p: cycle.known.get(p)
                  or cycle.public_card(p, index=index), index=index)
    return cycle, engine
