"""The audit of a deck once its keys are known, and the hand results (SPEC §9.7, §9.8,
§9.13.6).

When every holder's hand key of a deck is known (revealed in ``reveal``, or rebuilt from the
other seats' shares after a dropout), every participant decrypts the whole deck, checks each
played card and replays the deck's play with full information (:func:`audit_cycle`). The
``result`` message of a hand is then computed by every participant from that replay
(:func:`result_body`) and must match byte for byte (:func:`check_result`); once every seat's
is in, :func:`close_hand` scores the hand.
"""

from __future__ import annotations

from typing import Any

from .. import crypto
from ..cards import Card, Deck
from ..crypto import CryptoError
from ..games.base import HandResult, MatchState, Phase
from ..wire import codec
from .cycle import DeckCycle
from .errors import Violation
from .events import Event, HandScored, MatchEnded
from .replay import replay_cycle


def deck_cards(cycle: DeckCycle, deck: Deck) -> list[Card] | None:
    """Every card of ``cycle`` (a deck of the game's ``deck``), by position, once the hand key
    of each of its holders is known (revealed, or rebuilt after a dropout); else ``None``.
    :class:`CryptoError` if a position decrypts to no card.

    A position this participant decrypted during the hand (:attr:`DeckCycle.known`) is not
    decrypted again: it was decrypted as ``b - Σ T_i`` from one share of each holder, each
    share a verified token (its proof shows ``T_i = x_i·a``), this participant's own ``x·a`` or
    the bot's from its rebuilt key, so with the revealed secrets checked against the same
    public keys ``b - (Σ x_i)·a`` is the same card (CRYPTO.md §10, §14)."""
    if cycle.deck is None or not cycle.holders or any(
            s not in cycle.secrets for s in cycle.holders):
        return None
    total = cycle.secrets[cycle.holders[0]]
    for s in cycle.holders[1:]:
        total = total + cycle.secrets[s]
    known = cycle.known
    return [known[p] if p in known else crypto.decrypt_card(deck, ct, [total * ct.a])
            for p, ct in enumerate(cycle.deck)]


def audit_cycle(start: MatchState, cycle: DeckCycle, deck: Deck, *, partial: bool,
                end_phase: Phase, index: int) -> MatchState:
    """Decrypt the whole of ``cycle`` with the sum of its holders' secrets, check every played
    card and replay the deck's play from ``start`` with full information; the engine after the
    replay. ``partial``: the deck stopped early (a dropout); the replay ends where the recorded
    chance batches and actions end. A violation is blamed at chain index ``index``."""
    # Every token was checked against its seat's public key by its DLEQ proof when it
    # arrived, and every revealed secret against the same public key: decrypting with the
    # sum of the secrets the positions not decrypted during the hand is therefore the whole
    # audit of the deck.
    try:
        cards = deck_cards(cycle, deck)
    except CryptoError as exc:
        raise Violation("audit-failed", str(exc), seat=None, index=index) from None
    assert cards is not None
    for position, played in cycle.played.items():
        if cards[position] != played:
            raise Violation("card-mismatch", f"card at position {position} was misplayed",
                            seat=None, index=index)
    return replay_cycle(start, cycle, cards.__getitem__, partial=partial, index=index,
                        end_phase=end_phase)


def result_body(full: MatchState) -> dict[str, Any]:
    """The body of the ``result`` message of the hand ``full`` (the audited engine) ended."""
    result = full.hand_result()
    after = full.copy()
    after.next_hand()
    return {
        "hand": full.hand_number,
        "result": result.to_wire(),
        "scores": list(after.match_scores),
        "over": after.match_over,
        "winner": after.winner,
    }


def check_result(body: dict[str, Any], full: MatchState, seat: int, index: int) -> None:
    """``result-mismatch`` unless ``seat``'s ``result`` body is exactly the computed one."""
    mine = result_body(full)
    if codec.pack(body) != codec.pack(mine):  # exact wire equality: 1 is not true
        raise Violation("result-mismatch",
                        f"hand result {body!r} differs from the computed {mine!r}",
                        seat=seat, index=index)


def forfeit_winner(full: MatchState, dropped: int) -> int | None:
    """The winner when ``dropped`` forfeits: the other side with two sides, else the side with
    the highest match score among the others (none on a tie)."""
    scores = tuple(full.match_scores)
    lost = full.side_of(dropped)
    others = [side for side in range(full.num_sides) if side != lost]
    best = max(scores[side] for side in others)
    leaders = [side for side in others if scores[side] == best]
    return leaders[0] if len(leaders) == 1 else None


def close_hand(full: MatchState) -> tuple[HandResult, list[Event]]:
    """Score the hand the full engine ``full`` has finished and move it to the next hand: the
    hand's result and the events that say so (:class:`MatchEnded` too when the match is
    over)."""
    result = full.hand_result()
    hand = full.hand_number
    full.next_hand()
    events: list[Event] = [HandScored(hand, result, tuple(full.match_scores))]
    if full.match_over:
        events.append(MatchEnded(tuple(full.match_scores), full.winner))
    return result, events
