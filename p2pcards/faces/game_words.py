"""The engines' own words a face shows, marked for the catalogs.

The engines speak English (and Tute's screen Spanish): their screen labels
(:attr:`~p2pcards.games.base.GameSpec.screen`), legends, score categories, the stage and status
words of their observations, and the kinds and values of moves. Those texts are the protocol's
and the verifier's and stay as they are; a face translates each where it shows it
(:func:`word`). This module only lists them for extraction, with the context they are looked up
in. Pure.
"""

from __future__ import annotations

from ..i18n import N_, NP_, _

__all__ = ["MOVE_WORDS", "SCREEN_WORDS", "word"]

SCREEN_WORDS = (
    # the generic screen and every game's own labels
    N_("table"), N_("trick"), N_("last trick"), N_("trump"), N_("cards in hand"), N_("stock"),
    N_("captured"), N_("card points"), N_("scope"), N_("match"), N_("your hand"),
    N_("stage"), N_("dealer"), N_("bids"), N_("declarer"), N_("called card"), N_("answers"),
    N_("card passed"), N_("card given back"), N_("discarded"), N_("your discards"),
    N_("widow"), N_("taken"), N_("chips"),
    N_("triunfo"), N_("baza en juego"), N_("última baza"), N_("cartas vistas"),
    N_("cartas en mano"), N_("cantes"), N_("puntos"), N_("manos ganadas"),
    N_("our melds"), N_("their melds"), N_("discard pile"), N_("pozzetti left"),
    N_("cannot discard"), N_("upcard"), N_("out of the game"), N_("scores"), N_("pool"),
    N_("rebuy price"), N_("your melds"), N_("your deadwood"), N_("bank"), N_("limits"),
    N_("bets"), N_("your total"), N_("cards left"), N_("banker's card"),
    N_("board and bets"), N_("dead ranks"), N_("last"),
    # score categories
    N_("denari"), N_("cards"), N_("primiera"), N_("settebello"), N_("rebello"), N_("napola"),
    N_("hand won"), N_("tie-breaker"), N_("melds"), N_("clean burraco"), N_("dirty burraco"),
    N_("closing"), N_("pozzetto not taken"), N_("set aside"), N_("hand total"), N_("balance"),
    N_("rumino"), N_("knock"), N_("stock exhausted"), N_("deadwood"), N_("gin"),
    N_("paid in"), N_("payout"), N_("total"), N_("two-card 7½"), N_("game won"),
    N_("declarations"), N_("tute"), N_("banker"), N_("bet"), N_("won/lost"),
    N_("next banker"), N_("points"),
    # stage and status words of the observations
    N_("bidding"), N_("call"), N_("discard"), N_("draw"), N_("play"), N_("return"),
    N_("tricks"), N_("answer"), N_("take"), N_("playing"), N_("stood"), N_("bust"),
    N_("not announced"), N_("pass"), N_("give"), N_("deny"), N_("bid"), N_("show"),
    N_("banker's rank"), N_("cards turned"),
    # why a Ziginette hand is over
    N_("no bets on the board"), N_("the deck ran out"), N_("every board card is matched"),
    # the games' legends
    N_('palos: D oros, C copas, S espadas, B bastos; A as, J sota, Q caballo, K rey '
       '(e.g. KD = rey de oros)'),
    N_('suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K '
       're; ?? a card you may not see; strength 3 2 A K Q J 7 6 5 4'),
    N_('suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K '
       're; J Q K are worth ½, KD is wild (1 to 7); ?? a hole card you cannot see'),
    N_('suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K '
       "re; a bet on a board card wins if the banker's rank comes first, loses if its "
       'own does'),
    N_('suits: H hearts, D diamonds, C clubs, S spades; A ace (low), T ten, J jack, Q '
       'queen, K king; X1-X4 jokers (wild); the last digit is the copy (1 or 2)'),
    N_('suits: H hearts, D diamonds, C clubs, S spades; A ace, T ten, J jack, Q queen, '
       'K king; X1-X4 jokers; the last digit is the copy (1 or 2); jokers and 2s are '
       'wild'),
)
"""Labels, categories and observation words, looked up with :func:`word`."""

MOVE_WORDS = (
    # kinds of move
    NP_("move", "add"), NP_("move", "announce"), NP_("move", "bet"),
    NP_("move", "bid"), NP_("move", "bust"), NP_("move", "call"),
    NP_("move", "claim"), NP_("move", "deal-again"), NP_("move", "declare"),
    NP_("move", "decline"), NP_("move", "deny"), NP_("move", "discard"),
    NP_("move", "done"), NP_("move", "draw"), NP_("move", "give"),
    NP_("move", "hit"), NP_("move", "knock"), NP_("move", "maximum"),
    NP_("move", "meld"), NP_("move", "minimum"), NP_("move", "pass"),
    NP_("move", "pass-bank"), NP_("move", "play"), NP_("move", "rebuy"),
    NP_("move", "return"), NP_("move", "rumino"), NP_("move", "stand"),
    NP_("move", "take"),
    # values of moves
    NP_("move", "aces"), NP_("move", "twos"), NP_("move", "threes"),
    NP_("move", "napoli"), NP_("move", "good-play"), NP_("move", "cuarenta"),
    NP_("move", "veinte"), NP_("move", "tute"), NP_("move", "stock"),
    NP_("move", "upcard"), NP_("move", "best"), NP_("move", "count"),
    NP_("move", "none"), NP_("move", "one"), NP_("move", "two"),
)
"""The kinds and values of moves, as :func:`~p2pcards.faces.wording.action_text` looks them up
(context ``move``)."""


def word(text: str) -> str:
    """An engine's label, category or observation word in the language in use."""
    return _(text)
