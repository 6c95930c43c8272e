"""Reference enumerations of legal actions for the property tests: the straightforward code the
engines used before their enumeration was made faster, kept verbatim where it was the clearest
statement of the rules (Burraco's three-card melds and one-card additions, Rumino's rumino
subsets and best split, the banking games' runs of bet amounts).
``tests/test_legal_actions_props.py`` checks that the engines list exactly these actions, in
this order, over random reachable states."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from p2pcards.cards import JOKER_SUIT, Card
from p2pcards.games.base import Action, Phase, UnknownHand
from p2pcards.games.burraco_melds import (
    Meld,
    MeldError,
    arrangements,
    check_extension,
    is_wild_card,
    read_run,
    read_set,
)
from p2pcards.games.burraco_turns import without
from p2pcards.games.rumino import KNOCK_LIMIT, rebuy_price
from p2pcards.games.rumino_melds import (
    MELD_SIZES,
    RUMINO_SIZE,
    Split,
    card_value,
    is_joker,
    is_meld,
    is_rumino,
)
from p2pcards.games.sette_e_mezzo import TARGET as SETTE_TARGET
from p2pcards.games.sette_e_mezzo import min_total, two_card_seven

# ---------------------------------------------------------------- Burraco

def three_card_melds(hand: Sequence[Card]) -> list[Meld]:
    """Every valid meld of exactly three cards of ``hand`` (cards distinct by identity; melds
    that differ only in which copy of a card they use are all listed)."""
    out: dict[tuple[Card, ...], Meld] = {}
    wilds = [c for c in hand if is_wild_card(c)]
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in hand:
        if not is_wild_card(c):
            by_rank.setdefault(c.rank, []).append(c)
        if c.suit != JOKER_SUIT:
            by_suit.setdefault(c.suit, []).append(c)
    for group in by_rank.values():
        for trio in combinations(group, 3):
            meld = read_set(trio)
            out.setdefault(meld.cards, meld)
        for pair in combinations(group, 2):
            for w in wilds:
                meld = read_set((*pair, w))
                out.setdefault(meld.cards, meld)
    for suited in by_suit.values():
        for low in range(1, 13):
            for seq in _run_windows(suited, wilds, low):
                try:
                    meld = read_run(seq)
                except MeldError:
                    continue
                if meld.rank == low:
                    out.setdefault(meld.cards, meld)
    return list(out.values())


def _run_windows(suited: list[Card], wilds: list[Card], low: int) -> Iterable[tuple[Card, ...]]:
    """Candidate three-card runs of one suit at positions ``low .. low + 2``: naturals, or two
    naturals and one wild card."""
    options: list[list[Card]] = []
    for pos in range(low, low + 3):
        rank = 1 if pos == 14 else pos
        options.append([c for c in suited if c.rank == rank])
    for a in options[0]:
        for b in options[1]:
            for c in options[2]:
                if len({a, b, c}) == 3:
                    yield (a, b, c)
    for hole in range(3):
        others = [options[i] for i in range(3) if i != hole]
        for x in others[0]:
            for y in others[1]:
                for w in wilds:
                    if len({x, y, w}) < 3:
                        continue
                    seq = [x, y]
                    seq.insert(hole, w)
                    yield tuple(seq)


def burraco_legal_actions(state: Any) -> list[Action]:
    """The legal actions of a Burraco state, enumerated as the engine did before."""
    if state._phase is not Phase.ACTION:
        return []
    seat = state._to_act
    if state._stage == "draw":
        out = [Action("draw")]
        if state._discard:
            out.append(Action("take"))
        return sorted(out)
    hand = state._hands[seat]
    if None in hand:
        raise UnknownHand(f"seat {seat}'s hand is not known in this view, so no legal "
                          "actions")
    known = [c for c in hand if c is not None]
    side = seat % 2
    actions: set[Action] = set()
    set_ranks = {m.rank for m in state._melds[side] if m.kind == "set"}
    for meld in three_card_melds(known):
        if meld.kind == "set" and meld.rank in set_ranks:
            continue
        if state._rest_ok(seat, without(known, meld.cards), meld):
            actions.add(Action("meld", cards=meld.cards))
    for index, old in enumerate(state._melds[side]):
        for c in set(known):
            if not (is_wild_card(c) or (old.kind == "set" and c.rank == old.rank)
                    or (old.kind == "run" and c.suit == old.suit)):
                continue
            rest = without(known, (c,))
            for grown in arrangements((*old.cards, c)):
                try:
                    new = check_extension(old, grown.cards)
                except MeldError:
                    continue
                if state._rest_ok(seat, rest, new):
                    actions.add(Action("add", cards=new.cards, amount=index + 1))
    for c in known:
        if state._discard_error(seat, c, len(known)) is None:
            actions.add(Action("discard", c))
    return sorted(actions)



# ---------------------------------------------------------------- Rumino

def _may_hold_rumino(cards: Sequence[Card]) -> bool:
    """A quick necessary condition: the jokers plus the largest group of naturals sharing a rank
    or a suit make at least seven cards."""
    naturals = [c for c in cards if not is_joker(c)]
    jokers = len(cards) - len(naturals)
    if not naturals:
        return jokers >= RUMINO_SIZE
    ranks = Counter(c.rank for c in naturals).most_common(1)[0][1]
    suits = Counter(c.suit for c in naturals).most_common(1)[0][1]
    return jokers + max(ranks, suits) >= RUMINO_SIZE


def rumino_subsets(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every 7-card subset of ``hand`` that is a rumino, sorted, each sorted."""
    if not _may_hold_rumino(hand):
        return []
    out = {tuple(sorted(sub)) for sub in combinations(hand, RUMINO_SIZE) if is_rumino(sub)}
    return sorted(out)


def rumino_completions(hand: Sequence[Card], extra: Card) -> list[tuple[Card, ...]]:
    """Every 6-card subset of ``hand`` that ``extra`` completes to a rumino, sorted."""
    if not _may_hold_rumino((*hand, extra)):
        return []
    out = {
        tuple(sorted(six))
        for six in combinations(hand, RUMINO_SIZE - 1)
        if is_rumino((*six, extra))
    }
    return sorted(out)


def best_split(hand: Iterable[Card]) -> Split:
    """The split of ``hand`` with the least deadwood (any hand size; Rumino uses 7 or 8).

    Search: with the hand sorted, the first card still unplaced is either deadwood or belongs to
    one of the melds (3 or 4 cards, all still unplaced) containing it; memoized over the set of
    unplaced cards. Exact: every partition into melds and deadwood is reachable.
    """
    cards = tuple(sorted(hand))
    return _best(cards)


@lru_cache(maxsize=8192)
def _best(cards: tuple[Card, ...]) -> Split:
    n = len(cards)
    full = (1 << n) - 1
    melds_with: list[list[int]] = [[] for _ in range(n)]
    for combo in _meld_candidates(cards):
        mask = 0
        for i in combo:
            mask |= 1 << i
        melds_with[combo[0]].append(mask)
    memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(mask: int) -> tuple[int, tuple[int, ...]]:
        found = memo.get(mask)
        if found is not None:
            return found
        low = (mask & -mask).bit_length() - 1
        rest_value, rest_melds = solve(mask & ~(1 << low))
        best = (card_value(cards[low]) + rest_value, rest_melds)
        for meld in melds_with[low]:
            if meld & mask == meld:
                value, chosen = solve(mask & ~meld)
                if value < best[0]:
                    best = (value, (meld, *chosen))
        memo[mask] = best
        return best

    value, chosen = solve(full)
    used = 0
    for meld in chosen:
        used |= meld
    melds = tuple(tuple(cards[i] for i in range(n) if meld >> i & 1) for meld in chosen)
    loose = tuple(cards[i] for i in range(n) if not used >> i & 1)
    return Split(melds, loose, value)


def _meld_candidates(cards: tuple[Card, ...]) -> list[tuple[int, ...]]:
    """Every meld among ``cards`` as sorted index tuples, each once.

    A meld's natural cards share a rank (a set) or a suit (a run), so it lies inside one group:
    the naturals of one rank plus the jokers, or the naturals of one suit plus the jokers. Only
    combinations inside a group are tested, which is far fewer than all 3- and 4-card subsets.
    """
    jokers = [i for i, c in enumerate(cards) if is_joker(c)]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        if not is_joker(c):
            by_rank.setdefault(c.rank, []).append(i)
            by_suit.setdefault(c.suit, []).append(i)
    groups = [sorted(g + jokers) for g in (*by_rank.values(), *by_suit.values())]
    groups.append(jokers)
    found: set[tuple[int, ...]] = set()
    for group in groups:
        for size in MELD_SIZES:
            for combo in combinations(group, size):
                if combo not in found and is_meld([cards[i] for i in combo]):
                    found.add(combo)
    return sorted(found)




def rumino_legal_actions(state: Any) -> list[Action]:
    """The legal actions of a Rumino state, enumerated as the engine did before."""
    if state._phase is not Phase.ACTION:
        return []
    seat = state._to_act
    if state._offers:
        price = rebuy_price(state.config.stake, state._rebuys[seat])
        return sorted([Action("rebuy", amount=price), Action("decline")])
    hand = state._hands[seat]
    if None in hand:
        raise UnknownHand(
            f"seat {seat}'s hand is not known in this view, so no legal actions")
    known = [c for c in hand if c is not None]
    out: list[Action] = [Action("rumino", cards=sub) for sub in rumino_subsets(known)]
    if not state._drawn:
        if state.stock_size > 0:
            out.append(Action("draw", value="stock"))
        if state.discards:
            out.append(Action("draw", value="upcard"))
        if best_split(known).deadwood <= KNOCK_LIMIT:
            out.append(Action("knock"))
    else:
        out.extend(Action("discard", c) for c in set(known) if c != state._taken)
    return sorted(out)



def rumino_claim_actions(state: Any, seat: int) -> list[Action]:
    """The claims ``seat`` could make on the discard, enumerated as the engine did before."""
    if seat not in state.claimants():
        return []
    top = state.discards[-1]
    known = [c for c in state._hands[seat] if c is not None]
    return sorted(Action("claim", top, six) for six in rumino_completions(known, top))


def one_card_extensions(old: Meld, c: Card) -> tuple[Meld, ...]:
    """Every growth of ``old`` by ``c``, as Burraco's legal actions listed them before."""
    out = []
    for grown in arrangements((*old.cards, c)):
        try:
            out.append(check_extension(old, grown.cards))
        except MeldError:
            continue
    return tuple(out)


# ---------------------------------------------------------------- the banking games


def _limit_actions(state: Any) -> list[Action]:
    cap = state._cap()
    if state._minimum is None:
        return [Action("minimum", amount=a) for a in range(1, cap + 1)]
    return [Action("maximum", amount=a) for a in range(state._minimum, cap + 1)]


def ziginette_legal_actions(state: Any) -> list[Action]:
    """The legal actions of a Ziginette state, enumerated as the engine did before."""
    state._need(Phase.ACTION, "legal_actions")
    seat = state._to_act
    if state._announcing:
        return _limit_actions(state)
    if state._stage.value == "choice":
        return [Action("deal-again"), Action("pass-bank")]
    out = [Action("done")]
    for board_card in state._board:
        if seat in state._board_bets[board_card.code]:
            continue
        low, high = state._bet_range(seat, state._committed(seat), state._bank_free())
        out.extend(Action("bet", value=board_card.code, amount=a)
                   for a in range(low, high + 1))
    return sorted(out)


def sette_e_mezzo_legal_actions(state: Any) -> list[Action]:
    """The legal actions of a Sette e mezzo state, enumerated as the engine did before."""
    state._need(Phase.ACTION, "legal_actions")
    seat = state._to_act
    if state._announcing:
        return _limit_actions(state)
    if state._stage.value == "bets":
        low, high = state._bet_range(seat, 0, state._bank_free())
        return [Action("bet", amount=a) for a in range(low, high + 1)] + [Action("pass")]
    cards = state._known(seat)
    hit = [Action("hit")] if state.cards_left > 0 else []
    if seat == state._banker:
        return sorted([*hit, Action("stand")])
    if two_card_seven(cards):
        return [Action("seven-and-a-half")]
    if min_total(cards) > SETTE_TARGET:
        return [Action("bust")]
    return sorted([*hit, Action("stand")])
