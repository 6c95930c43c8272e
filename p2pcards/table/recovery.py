"""The recovery of a seat that dropped out (SPEC §9.13, §9.13.5-§9.13.7).

At a table that shares its hand keys, the hub begins the recovery of the seat the table waits
for with its ``recover`` message, and every other seat follows with its own: its share of the
dropped seat's hand key of a deck cards may have been dealt from (:func:`rebuilds`), its own
hand secret under ``dropout`` = ``forfeit`` (:func:`reveals`), and under ``dropout`` = ``bot``
its tokens of the dropped seat's hand (:func:`bot_openings`). :func:`take` checks a received
body and records it in the deck; :func:`rebuild` makes the dropped seat's key from the shares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import crypto
from ..crypto import CryptoError, Randomness
from ..crypto.keyshares import rebuild_key
from ..crypto.vss import share_is_valid
from ..wire import Payload
from .card_use import verified
from .cycle import DeckCycle
from .errors import Violation, body_field, pair_position
from .events import Recovery
from .rounds import HUB_SEAT, Round


def rebuilds(cycle: DeckCycle | None, dropped: int | None) -> bool:
    """Whether the recovery rebuilds ``dropped``'s key of ``cycle``: cards may have been dealt
    with it (the shuffle round is complete) and it is neither audited nor revealed."""
    return (cycle is not None and cycle.shuffled and not cycle.audited
            and dropped not in cycle.secrets)


def reveals(cycle: DeckCycle | None, seat: int, policy: str | None) -> bool:
    """Whether ``seat``'s ``recover`` must carry its own hand secret: with the ``forfeit``
    policy, for a dealt cycle not yet audited whose secret that seat has not revealed."""
    return (policy == "forfeit" and cycle is not None and cycle.shuffled
            and not cycle.audited and seat not in cycle.secrets)


def bot_openings(cycle: DeckCycle | None, dropped: int | None, seat: int) -> list[int]:
    """The positions of ``dropped``'s hand whose share of ``seat`` is not public: with
    ``dropout`` = ``bot``, ``seat``'s ``recover`` publishes its token of each, so that the
    whole hand the bot takes over is open to every participant (SPEC §9.13.7)."""
    if not rebuilds(cycle, dropped):
        return []
    assert cycle is not None and dropped is not None
    return sorted(p for p in cycle.hand_positions.get(dropped, [])
                  if seat not in cycle.public.get(p, set()))


def body(cycle: DeckCycle | None, *, me: int, dropped: int, policy: str | None,
         rng: Randomness) -> dict[str, Any]:
    """The body of the local seat ``me``'s ``recover`` message about ``dropped``."""
    share = secret = None
    if rebuilds(cycle, dropped):
        assert cycle is not None
        share = cycle.my_shares[dropped].to_bytes()
    if reveals(cycle, me, policy):
        assert cycle is not None and cycle.my_key is not None
        secret = cycle.my_key.secret.to_bytes()
    out: dict[str, Any] = {"seat": dropped, "share": share, "secret": secret}
    if policy == "bot":
        openings = bot_openings(cycle, dropped, me)
        out["tokens"] = [] if cycle is None else [
            [p, cycle.token(me, p, f"bot-{p}", rng).to_wire()] for p in openings]
    return out


def take(cycle: DeckCycle | None, seat: int, body: dict[str, Any], index: int, *,
         dropped: int | None, policy: str | None) -> None:
    """Check ``seat``'s ``recover`` body (envelope ``index``) of the recovery of ``dropped``
    and record its share, secret and tokens in ``cycle``; a :class:`Violation` naming ``seat``
    and changing nothing otherwise."""
    bot = policy == "bot"
    fields = {"seat", "share", "secret", "tokens"} if bot else {"seat", "share", "secret"}
    named = body_field(body, "seat", seat, index, fields)
    if type(named) is not int or named != dropped:
        raise Violation("bad-body", f"the recovery is of seat {dropped}, not "
                        f"{named!r}", seat=seat, index=index)
    share = secret = None
    if rebuilds(cycle, dropped):
        assert cycle is not None and dropped is not None
        try:
            share = crypto.Scalar.from_bytes(body["share"], "key share")
        except CryptoError as exc:
            raise Violation("bad-recovery-share", str(exc), seat=seat, index=index) from None
        dealt = cycle.dealt[dropped]
        if not share_is_valid(dealt.all_commitments(cycle.publics[dropped]), seat, share):
            raise Violation("bad-recovery-share", f"the published share of seat "
                            f"{dropped}'s hand key does not match its commitments",
                            seat=seat, index=index)
    elif body["share"] is not None:
        raise Violation("bad-body", "no share is due in this recovery", seat=seat,
                        index=index)
    if reveals(cycle, seat, policy):
        assert cycle is not None
        try:
            secret = crypto.Scalar.from_bytes(body["secret"], "hand key secret")
        except CryptoError as exc:
            raise Violation("bad-reveal", str(exc), seat=seat, index=index) from None
        if secret * crypto.G != cycle.publics[seat]:
            raise Violation("bad-reveal", "revealed hand key does not match its public "
                            "key", seat=seat, index=index)
    elif body["secret"] is not None:
        raise Violation("bad-body", "no secret is due in this recovery", seat=seat,
                        index=index)
    opened = _check_openings(cycle, seat, body["tokens"], index, dropped) if bot else []
    for position, point in opened:
        assert cycle is not None
        cycle.tokens.setdefault(position, {})[seat] = point
        cycle.public.setdefault(position, set()).add(seat)
    if cycle is not None and share is not None:
        cycle.published[seat] = share
    if cycle is not None and secret is not None:
        cycle.secrets[seat] = secret


def _check_openings(cycle: DeckCycle | None, seat: int, raw: object, index: int,
                    dropped: int | None) -> list[tuple[int, crypto.Point]]:
    """The ``tokens`` of a ``recover`` under ``dropout`` = ``bot``: ``seat``'s tokens of
    :func:`bot_openings`, in that order, each checked in step ``bot-<position>``."""
    want = bot_openings(cycle, dropped, seat)
    if not isinstance(raw, list):
        raise Violation("bad-body", "a recover's tokens are a list", seat=seat, index=index)
    got = [pair_position(item, seat, index) for item in raw]
    if got != want:
        raise Violation("wrong-tokens", f"tokens for positions {got} of the dropped seat's "
                        f"hand, expected {want}", seat=seat, index=index)
    out: list[tuple[int, crypto.Point]] = []
    for position, token in raw:
        assert cycle is not None
        out.append((position, verified(cycle, seat, seat, position, f"bot-{position}",
                                       token, "bad-token", index)))
    return out


def rebuild(cycle: DeckCycle, dropped: int, players: int, index: int) -> None:
    """Every other seat has published its share: ``dropped``'s key of ``cycle`` rebuilt from
    them becomes its known secret (``audit-failed`` at ``index`` if it does not match its
    public key, which the checked shares exclude)."""
    holders = [s for s in range(players) if s != dropped]
    secret = rebuild_key(cycle.published, holders)
    if secret * crypto.G != cycle.publics[dropped]:  # cannot happen: shares checked
        raise Violation("audit-failed", f"the rebuilt key of seat {dropped} does not "
                        "match its public key", seat=None, index=index)
    cycle.secrets[dropped] = secret


def opened(payload: Payload, may_recover: Callable[[int], bool]) -> bool:
    """Whether ``payload`` is the hub's ``recover`` that begins the recovery of the seat its
    body names, one ``may_recover`` allows (the seat the table waits for, SPEC §9.13.5)."""
    body = payload.body
    return (payload.kind == "recover" and payload.seat == HUB_SEAT
            and isinstance(body, dict) and type(body.get("seat")) is int
            and may_recover(body["seat"]) and payload.seat != body["seat"])


def sender(payload: Payload, table_id: bytes) -> tuple[int, object, int] | None:
    """``(signer, named, seq)`` when ``payload`` is a ``recover`` of table ``table_id``
    (``named``: the ``seat`` of its body, as sent), whatever its place; else ``None``."""
    if payload.kind != "recover" or payload.table_id != table_id:
        return None
    body = payload.body
    named = body.get("seat") if isinstance(body, dict) else None
    return payload.seat, named, payload.seq


def begin(waiting: Round, by: int, players: int, index: int) -> tuple[Recovery, Round]:
    """The recovery that ``by`` begins at chain ``index`` of the seat ``waiting`` waited for,
    and its ``recover`` round: ``by`` first, then every other seat but the dropped one."""
    dropped = waiting.current
    others = [s for s in range(players) if s not in (dropped, by)]
    return Recovery(dropped, waiting.kind, by, index), Round("recover", [by, *others])
