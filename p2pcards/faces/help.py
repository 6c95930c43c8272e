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
from ..i18n import N_, _, language

__all__ = ["help_lines", "signal_lines", "typing_lines", "EXAMPLES", "SIGNALS"]


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

_ITALIAN_CARDS = N_(
    "Cards: rank then suit. A 2 3 4 5 6 7 J (fante) Q (cavallo) K (re); suits D denari,\n"
    "C coppe, S spade, B bastoni."
)

_SPANISH_CARDS = N_(
    "Cards: rank then suit. A 2 3 4 5 6 7 J (sota) Q (caballo) K (rey); suits D oros,\n"
    "C copas, S espadas, B bastos."
)

_FRENCH_CARDS = N_(
    "Cards: rank, suit, then which of the two decks (1 or 2): A 2 ... 9 T J Q K of H hearts,\n"
    "D diamonds, C clubs, S spades (QS2 is the queen of spades of deck 2); X1-X4 jokers."
)

_DECK_LINES = {"italian": _ITALIAN_CARDS, "spanish": _SPANISH_CARDS, "french": _FRENCH_CARDS}

SIGNALS_TEXT = N_(
    "Signals ride on a play; the play is the same, the signal tells your partner something:\n"
    "  (signal: best)    you lead and ask your partner to win the trick with their best card\n"
    "  (signal: count N) you follow and hold N cards of the suit led (before this card)\n"
    "  (signal: two / one / none)  you hold exactly two, one or no cards of some suit\n"
    "A signal must be true: the audit at the end of the hand checks it."
)

SIGNALS = tuple(SIGNALS_TEXT.split("\n"))
"""The lines about Tresette's signals, in English (:func:`signal_lines` translates them)."""

_HELP: dict[str, str] = {
    "scopa": N_(
        "Scopa: play one card from your hand each turn.\n"
        "If a table card has the same value you must take it (a single card before a sum);\n"
        "otherwise you may take table cards whose values add up to your card's value\n"
        "(play KS [4D 6S]: the K, worth 10, takes 4 and 6). Taking every card on the table is a\n"
        "scopa, one point. Values: A 1, 2-7 face value, J 8, Q 9, K 10.\n"
        "At the end of the hand: most cards 1, most denari 1, the settebello (7D) 1, the best\n"
        "primiera 1, and each scopa 1 (some variants add napola and rebello)."
    ),
    "briscola": N_(
        "Briscola: play any card, you need not follow suit. The highest trump (the suit of the\n"
        "card under the stock) wins the trick, else the highest card of the suit led; the\n"
        "winner draws first. Strength: A 3 K Q J 7 6 5 4 2. Card points: A 11, 3 10, K 4,\n"
        "Q 3, J 2, others 0; 120 in all: more than 60 wins the hand."
    ),
    "tressette": N_(
        "Tressette: follow the suit led if you can. Before your second play you may declare\n"
        "a combination (three or four aces, 2s or 3s, or the napoli A-2-3 of one suit).\n"
        "Card strength in each suit: 3 2 A K Q J 7 6 5 4. No trumps: the highest card of the\n"
        "suit led wins. Card points: an ace 1, each 3, 2, K, Q, J a third of a point, the last\n"
        "trick 1 more."
    ),
    "tresette": N_(
        "Tresette: four players in two partnerships (you and the seat opposite); follow the\n"
        "suit led if you can. Before your first play you may declare 'good play' if you hold\n"
        "a meld; you announce which melds when you win your first trick.\n"
        "Card strength in each suit: 3 2 A K Q J 7 6 5 4. No trumps: the highest card of the\n"
        "suit led wins. Card points: an ace 1, each 3, 2, K, Q, J a third of a point, the last\n"
        "trick 1 more."
    ),
    "calabrasella": N_(
        "Calabrasella: three players. Bid to play alone against the other two, or pass. The\n"
        "declarer calls a card it lacks, whoever holds it gives it, then the declarer takes\n"
        "the widow and discards. Tricks: follow suit if you can, strength 3 2 A K Q J 7 6 5 4.\n"
        "Card points: an ace 3, each 3, 2, K, Q, J 1, the last trick 3 more; the declarer\n"
        "needs more than the two defenders together. Chips go to the winners."
    ),
    "tute": N_(
        "Tute (Spanish deck): four players in two partnerships. Follow the suit led and beat\n"
        "the best card so far if you can; if you cannot follow, you must trump when you can.\n"
        "Strength: A 3 K Q J 7 6 5 4 2 (as, tres, rey, caballo, sota). Card points: A 11,\n"
        "3 10, K 4, Q 3, J 2. After your side wins a trick you may declare a king and horse\n"
        "of one suit: las cuarenta (40) in trumps, las veinte (20) in another suit."
    ),
    "burraco": N_(
        "Burraco: four players in two partnerships, two French decks with jokers. Each turn:\n"
        "draw from the stock or take the whole discard pile, meld sets (3+ of a rank) or runs\n"
        "(3+ in a suit) and add to your side's melds, then discard one card. 2s and jokers\n"
        "are wild. A meld of 7 or more is a burraco. Empty your hand to take a pozzetto, then\n"
        "close with a burraco made. Card values: A 15, 8-K 10, 3-7 5, 2 20, joker 30."
    ),
    "rumino": N_(
        "Rumino: draw from the stock or take the upcard, then discard. Make sets and runs;\n"
        "knock when your unmatched cards (deadwood) are few enough, or go gin with none. A\n"
        "rumino (seven of a suit in sequence, or seven of a kind) wins the game at once; with\n"
        "six of one you may take a discard that completes it out of turn. Deadwood counts\n"
        "against you (A 1, J Q K and jokers 10); at 100 points you are out."
    ),
    "sette-e-mezzo": N_(
        "Seven and a Half: a banking game. Bet against the bank, then take cards (hit) or\n"
        "stand; over 7 1/2 you bust and lose your bet. Values: A-7 face value, J Q K a half;\n"
        "the king of denari (KD) is wild. The bank plays last and pays whoever beats it."
    ),
    "ziginette": N_(
        "Ziginette: a banking game. The banker turns a card for itself and cards on the board;\n"
        "you bet on a board card. When a card matching the banker's is turned first, the\n"
        "banker loses the bets; when one matching a board card comes, that card's bets go to\n"
        "the banker."
    ),
}


def _lines(text: str) -> list[str]:
    """A text of the catalogs in the language in use, as the lines its translation breaks it
    into."""
    return _(text).split("\n")


def signal_lines() -> list[str]:
    """What each of Tresette's signals means, in the language in use."""
    return _lines(SIGNALS_TEXT)


def _typed(text: str) -> str:
    """A move exactly as it is typed, between backquotes outside English (see
    :func:`~p2pcards.faces.terminal.typed`)."""
    return text if language() == "en" else f"`{text}`"


def typing_lines(game: str) -> list[str]:
    """How to type a move in ``game``, with that game's own examples (:data:`EXAMPLES`) and
    the names of its deck's cards."""
    examples = EXAMPLES.get(game)
    if examples is None:
        lines = [_("Type a move's number, or the move written out as listed;")]
    else:
        written = ", ".join(_typed(str(move)) for move in examples.moves)
        if examples.card:
            lines = [_("Type a move's number, or its card ({card}), or the move written out "
                       "({moves});").format(card=_typed(examples.card), moves=written)]
        else:
            lines = [_("Type a move's number, or the move written out ({moves});").format(
                moves=written)]
    lines.append(_("? or help shows this text again; q leaves the table (you are asked to "
                   "confirm)."))
    if examples is not None and examples.card is None:
        if any(move.amount for move in examples.moves):
            lines.append(_("In a list of amounts, type the amount itself (5 bets 5)."))
        return lines
    family = deck_family(get_game(game).new_match(get_game(game).preset()).deck)
    lines.extend(_lines(_DECK_LINES[family]))
    return lines


def help_lines(game: str, *, signals: bool = False) -> list[str]:
    """The help for ``game`` in the language in use: its moves and card values, how to type a
    move with its own examples (:func:`typing_lines`), and with ``signals`` (a table that
    plays Tresette's signals) what each signal means."""
    text = _HELP.get(game)
    lines = (_lines(text) if text is not None
             else [_("{game}: the moves you can make are listed by number.").format(game=game)])
    if signals:
        lines.extend(signal_lines())
    lines.extend(typing_lines(game))
    return lines
