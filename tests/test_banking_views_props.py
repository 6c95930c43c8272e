"""The banking games' faster observations, chance checks and bet runs give exactly what the
straightforward forms give, over random plays of Sette e mezzo and Ziginette at every player
count: every seat's observation at every decision equals the reference view below (a plain
rebuild from the state's fields, nothing kept between calls), and Ziginette's running totals of
the bets on the board equal fresh sums, also on copies that play on apart, and in every seat's
live view (which holds ``None`` for the cards it has not seen), where the legal actions also
equal the reference enumeration's; Sette e mezzo's kept facts of each hand (over 7½, two-card
7½) equal fresh ones there too; ``hand_card`` reads each card of every seat's observed hand;
the remembered bet runs and chance steps equal freshly made ones; and a chance batch that
repeats a card is refused however the repeated card was made."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legal_reference import sette_e_mezzo_legal_actions, ziginette_legal_actions

from p2pcards.cards import Card, card
from p2pcards.games import get_game
from p2pcards.games.banking import amount_actions, amount_list, hand_step, show_step, table_step
from p2pcards.games.base import ALL_SEATS, Action, BadChance, ChanceStep, MatchState, Phase, Zone
from p2pcards.games.sette_e_mezzo import TARGET, best_total, min_total, two_card_seven
from p2pcards.offline.simulate import fulfil_chance

GAMES = ("sette-e-mezzo", "ziginette")
RANK_NAMES = {1: "A", 8: "J", 9: "Q", 10: "K"}


def reference_common(state: Any, seat: int) -> dict[str, Any]:
    """The keys every banking view shares, rebuilt from the state's fields."""
    limits = state.limits
    balances = state.ledger.balances
    banker = state.banker
    return {
        "game": state.GAME,
        "seat": seat,
        "side": seat,
        "players": state.config.players,
        "phase": state.phase.value,
        "hand_number": state.hand_number,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "banker": banker,
        "bank": "—" if banker is None else ("you" if banker == seat else f"seat {banker}"),
        "limits": None if limits is None else list(limits),
        "limits_text": "not announced" if limits is None else f"{limits[0]} to {limits[1]}",
        "balances": list(balances),
        "chips": "  ".join(f"[{s}] {v}" for s, v in enumerate(balances)),
        "drawn": [c.code for c in state.drawn],
        "match_scores": list(balances),
        "hands": state.config.hands,
        "start_chips": state.config.chips,
        "winner": state.winner,
    }


def reference_sette(state: Any, seat: int) -> dict[str, Any]:
    """Seven and a Half's view of ``seat``, rebuilt from the state's fields."""
    view = reference_common(state, seat)
    players = state.config.players
    bets = state.bets
    table: list[list[str]] = []
    texts = []
    for s in range(players):
        hand = state.hand(s)
        shown = s == seat or s in state._shown
        table.append([c.code if c is not None and (shown or i > 0) else "??"
                      for i, c in enumerate(hand)])
        if s in state._cards:
            label = "bank" if s == state.banker else f"bet {bets.get(s, 0)}"
            texts.append(f"[{s}] {' '.join(table[s])} ({label}, {state.status(s)})")
    own_hand = state.hand(seat)
    own = None if None in own_hand else list(own_hand)
    view.update({
        "bets": [bets.get(s, 0) for s in range(players)],
        "bets_text": "  ".join(f"[{s}] {v}" for s, v in sorted(bets.items())) or "—",
        "cards": table,
        "table_text": "   ".join(texts) or "—",
        "status": {str(s): state.status(s) for s in range(players) if state.status(s)},
        "hand": [c.code for c in own_hand if c is not None],
        "total": None if not own else best_total(own),
        "cards_left": state.cards_left,
    })
    return view


def reference_ziginette(state: Any, seat: int) -> dict[str, Any]:
    """Ziginette's view of ``seat``, rebuilt from the state's fields."""
    view = reference_common(state, seat)
    players = state.config.players
    board = state.board
    dead = sorted(state._dead)
    view.update({
        "board": [{"card": c.code, "bets": {str(s): a for s, a in
                                            sorted(state.bets_on(c).items())}} for c in board],
        "board_text": "   ".join(
            f"{c.code}: " + (" ".join(f"[{s}] {a}" for s, a in sorted(state.bets_on(c).items()))
                             or "no bets") for c in board) or "—",
        "banker_card": None if state.banker_card is None else state.banker_card.code,
        "dead": dead,
        "dead_text": " ".join(RANK_NAMES.get(r, str(r)) for r in dead) or "—",
        "matched": [c.code for c in sorted(state._matched)],
        "turned": [c.code for c in state._turned],
        "stakes": [state._staked.get(s, 0) for s in range(players)],
        "playettes": state.playettes,
        "event": state._last_event or "—",
        "hand": [c.code for c in board if seat in state.bets_on(c)],
        "cards_left": state.cards_left,
    })
    return view


REFERENCE = {"sette-e-mezzo": reference_sette, "ziginette": reference_ziginette}


def _spoil(value: Any) -> None:
    """Empty every list and map inside a handed-out view, as a careless caller might."""
    if isinstance(value, list):
        for item in value:
            _spoil(item)
        value.clear()
    elif isinstance(value, dict):
        for item in value.values():
            _spoil(item)
        value.clear()


def _check_views(game: str, state: Any) -> None:
    reference = REFERENCE[game]
    for seat in range(state.config.players):
        view = state.observation(seat)
        expected = reference(state, seat)
        assert view == expected
        assert repr(view) == repr(expected)  # the same types and the same order of keys
        _check_hand_cards(state, seat, expected["hand"])
        _spoil(view)
        assert repr(state.observation(seat)) == repr(expected)  # nothing kept was handed out
    if game == "sette-e-mezzo":  # the kept facts of each hand
        for seat in range(state.config.players):
            cards = state._known(seat)
            fresh = None if cards is None else (min_total(cards) > TARGET, two_card_seven(cards))
            assert state._hand_facts(seat) == fresh
    if game == "ziginette":  # the running totals of the bets on the board
        on_board = [state.bets_on(c) for c in state.board]
        assert state._live_total() == sum(sum(bets.values()) for bets in on_board)
        for seat in range(state.config.players):
            assert state._committed(seat) == sum(bets.get(seat, 0) for bets in on_board)


def _check_hand_cards(state: Any, seat: int, hand: list[str]) -> None:
    """``hand_card`` reads every card of ``seat``'s observed ``hand`` (the card a shown card's
    chance step takes), and nothing past its end."""
    for position, code in enumerate(hand):
        assert state.hand_card(seat, position) == card(code)
    with pytest.raises(IndexError):
        state.hand_card(seat, len(hand))


def _play(game: str, state: MatchState, rng: random.Random, steps: int,
          shuffled: list[Card]) -> list[Card]:
    """Play ``steps`` random steps (chance included), checking every view after each."""
    for _ in range(steps):
        phase = state.phase
        if phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)
        elif phase is Phase.ACTION:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        elif phase is Phase.HAND_OVER:
            state.hand_result()
            state.next_hand()
        else:
            break
        _check_views(game, state)
    return shuffled


@settings(max_examples=40)
@given(game=st.sampled_from(GAMES), players=st.integers(2, 8), seed=st.integers(0, 2**32),
       variant=st.sampled_from(("classic", "long")))
def test_every_view_equals_a_fresh_rebuild_also_on_copies(game: str, players: int, seed: int,
                                                          variant: str) -> None:
    spec = get_game(game)
    state = spec.new_match(spec.preset(variant, players=players))
    rng = random.Random(seed)
    shuffled = _play(game, state, rng, 150, [])
    twin = state.copy()
    _check_views(game, twin)
    twin_rng = random.Random(seed + 1)
    _play(game, twin, twin_rng, 150, list(shuffled))
    _play(game, state, rng, 150, shuffled)


LEGAL_REFERENCE = {"sette-e-mezzo": sette_e_mezzo_legal_actions,
                   "ziginette": ziginette_legal_actions}


def _deal_live(state: Any, views: list[Any], deck: list[Card]) -> None:
    """Fulfil the full state's chance steps from ``deck`` and give each seat's live view only
    the cards that seat sees (``None`` for the others)."""
    steps = state.pending_chance()
    full: list[Card | None] = []
    for step in steps:
        if step.zone is Zone.SHOW:
            full.append(card(state.observation(step.seat)["hand"][step.position]))
        else:
            full.append(deck[step.position])
    state.complete_chance(full)
    for s, view in enumerate(views):
        view.complete_chance([c if step.visible(s) else None
                              for step, c in zip(steps, full, strict=True)])


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(GAMES), players=st.integers(2, 8), seed=st.integers(0, 2**32),
       variant=st.sampled_from(("classic", "long")))
def test_live_views_equal_a_fresh_rebuild(game: str, players: int, seed: int,
                                          variant: str) -> None:
    """Every seat's live view, asked for any seat's observation, answers what a rebuild from
    its own fields gives (hidden hole cards included), and the acting seat's live view lists
    the legal actions of the full state and of the reference enumeration."""
    spec = get_game(game)
    state = spec.new_match(spec.preset(variant, players=players))
    views = [state.copy() for _ in range(players)]
    rng = random.Random(seed)
    deck: list[Card] = []
    for _ in range(200):
        phase = state.phase
        if phase is Phase.MATCH_OVER:
            break
        if phase is Phase.SHUFFLE:
            deck = list(state.deck.cards)
            rng.shuffle(deck)
            for v in [state, *views]:
                v.begin_hand()
        elif phase is Phase.CHANCE:
            _deal_live(state, views, deck)
        elif phase is Phase.ACTION:
            seat = state.to_act
            legal = state.legal_actions()
            assert views[seat].legal_actions() == legal == LEGAL_REFERENCE[game](views[seat])
            action = legal[rng.randrange(len(legal))]
            for v in [state, *views]:
                v.apply(action)
        else:
            for v in [state, *views]:
                v.next_hand()
        for view in views:
            _check_views(game, view)


@given(kind=st.sampled_from(("bet", "minimum", "maximum")),
       value=st.sampled_from(("", "7D", "KB")),
       low=st.integers(-3, 300), span=st.integers(-5, 300))
def test_bet_runs_equal_freshly_made_ones(kind: str, value: str, low: int, span: int) -> None:
    high = low + span
    fresh = tuple(Action(kind, value=value, amount=a) for a in range(low, high + 1))
    assert amount_actions(kind, low, high, value) == fresh
    listed = amount_list(kind, low, high, value)
    assert listed == list(fresh)
    listed.clear()  # a caller's list: the kept run stays whole
    assert amount_list(kind, low, high, value) == list(fresh)


@given(position=st.integers(0, 39), seat=st.integers(0, 7), public=st.booleans())
def test_kept_chance_steps_equal_freshly_made_ones(position: int, seat: int,
                                                   public: bool) -> None:
    own = ALL_SEATS if public else frozenset({seat})
    assert hand_step(position, seat, public) == ChanceStep(position, Zone.HAND, seat, own)
    assert table_step(position, seat) == ChanceStep(position, Zone.TABLE, seat, ALL_SEATS)
    assert table_step(position, None) == ChanceStep(position, Zone.TABLE, None, ALL_SEATS)
    assert show_step(seat) == ChanceStep(0, Zone.SHOW, seat, ALL_SEATS)


@pytest.mark.parametrize("game", GAMES)
def test_a_repeated_card_is_refused_however_it_was_made(game: str) -> None:
    """A card named twice in one batch is refused, also when the second one is made anew from
    its rank and suit (cards are interned, so it is the same object)."""
    spec = get_game(game)
    state = spec.new_match(spec.preset(players=3))
    state.begin_hand()  # the draw for the bank: three public cards
    top = state.deck.cards[0]
    twin = Card(top.rank, top.suit)
    assert twin == top
    with pytest.raises(BadChance, match="already dealt"):
        state.complete_chance([top, twin, state.deck.cards[1]])
    with pytest.raises(BadChance, match="not a card of the italian40 deck"):
        state.complete_chance([Card(1, "H", 1), top, twin])
    state.complete_chance([twin, state.deck.cards[1], state.deck.cards[2]])
    assert state.drawn == (top, state.deck.cards[1], state.deck.cards[2])
