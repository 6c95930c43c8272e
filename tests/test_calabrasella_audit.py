"""Calabrasella's hidden-rule cheats: each is caught live by the views that can see it, accepted
by the others, caught later in play where the public cards prove it, and always caught by the
full-information replay after the keys are revealed, with the culprit seat named."""

from __future__ import annotations

from calabrasella_views import SEAT0, SEAT1, SEAT2, WIDOW, Views, exchange, replay

from p2pcards.cards import card, cards
from p2pcards.games.base import Action, IllegalMove


def _rules(verdicts: dict[int | str, IllegalMove | None]
           ) -> dict[int | str, tuple[str, int | None] | None]:
    return {key: None if error is None else (error.rule, error.seat)
            for key, error in verdicts.items()}


def _replay_names(views: Views, index: int, rule: str, seat: int) -> None:
    found = replay(views)
    assert found is not None
    at, error = found
    assert (at, error.rule, error.seat) == (index, rule, seat)
    assert f"seat {seat}" in str(error) or f"declarer {seat}" in str(error)


def test_a_denied_called_card_is_named_by_the_replay_and_by_its_later_play() -> None:
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)))
    verdicts = _rules(views.act(Action("deny"), drop=True))  # seat 1 holds 3B
    assert verdicts == {"full": ("false-denial", 1), 0: None, 1: ("false-denial", 1), 2: None,
                        "observer": None}
    _replay_names(views, 2, "false-denial", 1)
    # the others play on: seat 2 denies too, the widow does not hold 3B
    views.honest(Action("deny"), Action("discard", cards=cards("QD")),
                 Action("take", cards=cards("7S")))
    verdicts = _rules(views.act(Action("play", card=card("3B"))))  # seat 1 leads the 3B
    assert verdicts == {0: ("false-denial", 1), 2: ("false-denial", 1),
                        "observer": ("false-denial", 1)}


def test_a_declarer_calling_a_card_it_holds_is_named() -> None:
    views = Views.deal()
    views.honest(Action("bid"))
    verdicts = _rules(views.act(Action("call", cards=(card("3D"),)), drop=True))
    assert verdicts == {"full": ("called-held-card", 0), 0: ("called-held-card", 0), 1: None,
                        2: None, "observer": None}
    _replay_names(views, 1, "called-held-card", 0)
    views.honest(Action("deny"), Action("deny"), Action("discard", cards=cards("QD")),
                 Action("take", cards=cards("7S")))
    views.honest(Action("play", card=card("2B")), Action("play", card=card("4C")))
    verdicts = _rules(views.act(Action("play", card=card("3D"))))
    assert verdicts == {1: ("called-held-card", 0), 2: ("called-held-card", 0),
                        "observer": ("called-held-card", 0)}


def test_a_holder_passing_another_card_is_caught_by_the_declarer_at_once() -> None:
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)))
    verdicts = _rules(views.act(Action("give", card=card("2B")), drop=True))
    assert verdicts == {"full": ("wrong-card-passed", 1), 0: ("wrong-card-passed", 1),
                        1: ("wrong-card-passed", 1), 2: None, "observer": None}
    _replay_names(views, 2, "wrong-card-passed", 1)


def test_a_revoke_is_named_by_the_replay_and_by_a_later_card_of_that_suit() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.honest(*(Action("play", card=c) for c in cards("2B 4C 3B 3D JD")))
    verdicts = _rules(views.act(Action("play", card=card("5C")), drop=True))  # holds 7D
    assert verdicts == {"full": ("must-follow-suit", 2), 0: None, 1: None,
                        2: ("must-follow-suit", 2), "observer": None}
    _replay_names(views, 11, "must-follow-suit", 2)
    views.honest(Action("play", card=card("2D")), Action("play", card=card("4B")))
    verdicts = _rules(views.act(Action("play", card=card("6D"))))
    assert verdicts == {0: ("must-follow-suit", 2), 1: ("must-follow-suit", 2),
                        "observer": ("must-follow-suit", 2)}


def test_a_declarer_giving_back_a_card_it_does_not_hold_is_named_by_the_replay() -> None:
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)),
                 Action("give", card=card("3B")))
    verdicts = _rules(views.act(Action("return", card=card("7S")), drop=True))  # in the widow
    assert verdicts == {"full": ("card-not-in-hand", 0), 0: ("card-not-in-hand", 0), 1: None,
                        2: None, "observer": None}
    _replay_names(views, 3, "card-not-in-hand", 0)


def test_a_hidden_discard_of_a_card_not_held_is_named_by_the_replay() -> None:
    views = Views.deal()
    exchange(views)
    verdicts = _rules(views.act(Action("discard", cards=cards("QD 7D")), drop=True))
    # face down: even seat 2, which holds the 7D, sees only two hidden cards
    assert verdicts == {"full": ("card-not-in-hand", 0), 0: ("card-not-in-hand", 0), 1: None,
                        2: None, "observer": None}
    _replay_names(views, 4, "card-not-in-hand", 0)


def test_honest_hand_replays_clean() -> None:
    views = Views.deal((SEAT0, SEAT1, SEAT2), WIDOW)
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    assert replay(views) is None
