"""What ``?`` (or ``help``) tells a person at the table: the moves of the game and its card values.

One short text per game, written for a player who knows card games but not this one; the
moves are named as the move list writes them. Faces print :func:`help_lines` as they are (the
terminal) or as a panel (the web page). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import card, cards, deck_family
from ..games import get_game
from ..games.base import Action

__all__ = ["help_lines", "typing_lines", "EXAMPLES", "SIGNALS"]


@dataclass(frozen=True)
class Examples:
    """What a game's help shows as typed examples: ``card``, a card of the game's own deck that
    a move may be chosen by (``None`` in a game whose moves name no card of the hand), and
    ``moves``, moves of the game with cards of that deck, shown written out exactly as the move
    list writes them (so that each can be typed as shown)."""

    card: str | None
    moves: tuple[Action, ...]


def _play(code: str, *taken: str) -> Action:
    return Action("play", card(code), cards=tuple(card(c) for c in taken))


EXAMPLES: dict[str, Examples] = {
    "scopa": Examples("7D", (_play("7D", "4D", "3D"),)),
    "briscola": Examples("AB", (_play("AB"),)),
    "tressette": Examples("3C", (_play("3C"),)),
    "tresette": Examples("3C", (_play("3C"),)),
    "calabrasella": Examples("2S", (_play("2S"), Action("call", cards=(card("3D"),)))),
    "tute": Examples("KD", (_play("KD"),)),
    "burraco": Examples("QS2", (
        Action("discard", card("QS2")), Action("meld", cards=cards("7H1 8H1 9H2 TH1")),
        Action("draw"))),
    "rumino": Examples("9C1", (
        Action("discard", card("9C1")), Action("draw", value="stock"), Action("knock"))),
    "sette-e-mezzo": Examples(None, (Action("bet", amount=5), Action("hit"),
                                     Action("stand"))),
    "ziginette": Examples(None, (Action("bet", value="3C", amount=4), Action("done"))),
}
"""Each game's own examples for :func:`typing_lines` (see :class:`Examples`)."""

_ITALIAN_CARDS = (
    "Cards: rank then suit. A 2 3 4 5 6 7 J (fante) Q (cavallo) K (re); suits D denari,",
    "C coppe, S spade, B bastoni.",
)
_SPANISH_CARDS = (
    "Cards: rank then suit. A 2 3 4 5 6 7 J (sota) Q (caballo) K (rey); suits D oros,",
    "C copas, S espadas, B bastos.",
)
_FRENCH_CARDS = (
    "Cards: rank, suit, then which of the two decks (1 or 2): A 2 ... 9 T J Q K of H hearts,",
    "D diamonds, C clubs, S spades (QS2 is the queen of spades of deck 2); X1-X4 jokers.",
)
_DECK_LINES = {"italian": _ITALIAN_CARDS, "spanish": _SPANISH_CARDS, "french": _FRENCH_CARDS}

SIGNALS = (
    "Signals ride on a play; the play is the same, the signal tells your partner something:",
    "  (signal: best)    you lead and ask your partner to win the trick with their best card",
    "  (signal: count N) you follow and hold N cards of the suit led (before this card)",
    "  (signal: two / one / none)  you hold exactly two, one or no cards of some suit",
    "A signal must be true: the audit at the end of the hand checks it.",
)

_TRESSETTE_VALUES = (
    "Card strength in each suit: 3 2 A K Q J 7 6 5 4. No trumps: the highest card of the",
    "suit led wins. Card points: an ace 1, each 3, 2, K, Q, J a third of a point, the last",
    "trick 1 more.",
)

_HELP: dict[str, tuple[str, ...]] = {
    "scopa": (
        "Scopa: play one card from your hand each turn.",
        "If a table card has the same value you must take it (a single card before a sum);",
        "otherwise you may take table cards whose values add up to your card's value",
        "(play KS [4D 6S]: the K, worth 10, takes 4 and 6). Taking every card on the table is a",
        "scopa, one point. Values: A 1, 2-7 face value, J 8, Q 9, K 10.",
        "At the end of the hand: most cards 1, most denari 1, the settebello (7D) 1, the best",
        "primiera 1, and each scopa 1 (some variants add napola and rebello).",
    ),
    "briscola": (
        "Briscola: play any card, you need not follow suit. The highest trump (the suit of the",
        "card under the stock) wins the trick, else the highest card of the suit led; the",
        "winner draws first. Strength: A 3 K Q J 7 6 5 4 2. Card points: A 11, 3 10, K 4,",
        "Q 3, J 2, others 0; 120 in all: more than 60 wins the hand.",
    ),
    "tressette": (
        "Tressette: follow the suit led if you can. Before your second play you may declare",
        "a combination (three or four aces, 2s or 3s, or the napoli A-2-3 of one suit).",
        *_TRESSETTE_VALUES,
    ),
    "tresette": (
        "Tresette: four players in two partnerships (you and the seat opposite); follow the",
        "suit led if you can. Before your first play you may declare 'good play' if you hold",
        "a meld; you announce which melds when you win your first trick.",
        *_TRESSETTE_VALUES,
    ),
    "calabrasella": (
        "Calabrasella: three players. Bid to play alone against the other two, or pass. The",
        "declarer calls a card it lacks, whoever holds it gives it, then the declarer takes",
        "the widow and discards. Tricks: follow suit if you can, strength 3 2 A K Q J 7 6 5 4.",
        "Card points: an ace 3, each 3, 2, K, Q, J 1, the last trick 3 more; the declarer",
        "needs more than the two defenders together. Chips go to the winners.",
    ),
    "tute": (
        "Tute (Spanish deck): four players in two partnerships. Follow the suit led and beat",
        "the best card so far if you can; if you cannot follow, you must trump when you can.",
        "Strength: A 3 K Q J 7 6 5 4 2 (as, tres, rey, caballo, sota). Card points: A 11,",
        "3 10, K 4, Q 3, J 2. After your side wins a trick you may declare a king and horse",
        "of one suit: las cuarenta (40) in trumps, las veinte (20) in another suit.",
    ),
    "burraco": (
        "Burraco: four players in two partnerships, two French decks with jokers. Each turn:",
        "draw from the stock or take the whole discard pile, meld sets (3+ of a rank) or runs",
        "(3+ in a suit) and add to your side's melds, then discard one card. 2s and jokers",
        "are wild. A meld of 7 or more is a burraco. Empty your hand to take a pozzetto, then",
        "close with a burraco made. Card values: A 15, 8-K 10, 3-7 5, 2 20, joker 30.",
    ),
    "rumino": (
        "Rumino: draw from the stock or take the upcard, then discard. Make sets and runs;",
        "knock when your unmatched cards (deadwood) are few enough, or go gin with none. A",
        "rumino (seven of a suit in sequence, or seven of a kind) wins the game at once; with",
        "six of one you may take a discard that completes it out of turn. Deadwood counts",
        "against you (A 1, J Q K and jokers 10); at 100 points you are out.",
    ),
    "sette-e-mezzo": (
        "Seven and a Half: a banking game. Bet against the bank, then take cards (hit) or",
        "stand; over 7 1/2 you bust and lose your bet. Values: A-7 face value, J Q K a half;",
        "the king of denari (KD) is wild. The bank plays last and pays whoever beats it.",
    ),
    "ziginette": (
        "Ziginette: a banking game. The banker turns a card for itself and cards on the board;",
        "you bet on a board card. When a card matching the banker's is turned first, the",
        "banker loses the bets; when one matching a board card comes, that card's bets go to",
        "the banker.",
    ),
}


def typing_lines(game: str) -> list[str]:
    """How to type a move in ``game``, with that game's own examples (:data:`EXAMPLES`) and
    the names of its deck's cards."""
    examples = EXAMPLES.get(game)
    if examples is None:
        lines = ["Type a move's number, or the move written out as listed;"]
    else:
        card = f", or its card ({examples.card})" if examples.card else ""
        written = ", ".join(str(move) for move in examples.moves)
        lines = [f"Type a move's number{card}, or the move written out ({written});"]
    lines.append("? or help shows this text again; q leaves the table (you are asked to "
                 "confirm).")
    if examples is not None and examples.card is None:
        if any(move.amount for move in examples.moves):
            lines.append("In a list of amounts, type the amount itself (5 bets 5).")
        return lines
    family = deck_family(get_game(game).new_match(get_game(game).preset()).deck)
    lines.extend(_DECK_LINES[family])
    return lines


def help_lines(game: str, *, signals: bool = False) -> list[str]:
    """The help for ``game``: its moves and card values, how to type a move with its own
    examples (:func:`typing_lines`), and with ``signals`` (a table that plays Tresette's
    signals) what each signal means."""
    lines = list(_HELP.get(game, (f"{game}: the moves you can make are listed by number.",)))
    if signals:
        lines.extend(SIGNALS)
    lines.extend(typing_lines(game))
    return lines
