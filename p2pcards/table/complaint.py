"""Complaints about a wrong share of a hand key (SPEC §9.13.4).

At a table that shares its hand keys, a seat whose box of another seat's sharing opens to a
share that fails the dealer's commitments says nothing else but a ``complain`` in its next turn:
the shared point of that one box with its proof (:func:`body`). Every participant checks it
(:func:`check`): a proven complaint ends the match with the dealer at fault.
"""

from __future__ import annotations

from typing import Any

from ..crypto import CryptoError, Randomness
from ..crypto.inbox import BoxOpening, InboxKey, verify_opening
from ..crypto.keyshares import share_in_box
from ..crypto.vss import share_is_valid
from ..wire import Chain, Payload
from .cycle import DeckCycle
from .deal import box_index
from .errors import Violation, body_field
from .events import Complaint


def may_complain(cycle: DeckCycle | None, holder: int, dealer: int, *, turn: int | None,
                 chain: Chain) -> bool:
    """Whether ``holder`` may complain now about its share of ``dealer``'s key: it is
    ``holder``'s turn (``turn``: the seat the table waits for, ``None`` when the match is over
    or stopped), ``cycle`` shares its keys, ``dealer``'s sharing is in the chain, ``holder`` is
    another seat of the cycle and has signed nothing since it (SPEC §9.13.4)."""
    if (cycle is None or not cycle.sharing or turn is None or turn != holder
            or holder == dealer or holder not in cycle.holders
            or dealer not in cycle.dealt_at):
        return False
    since = range(cycle.dealt_at[dealer] + 1, chain.next_seq)
    return all(chain.seat_of(i) != holder for i in since)


def body(cycle: DeckCycle, me: int, rng: Randomness | None) -> dict[str, Any]:
    """The local seat ``me``'s ``complain`` body about its share of ``cycle.bad_box``'s key:
    the shared point of that one box with its proof."""
    dealer = cycle.bad_box
    assert dealer is not None and cycle.my_inbox is not None
    dealt = cycle.dealt[dealer]
    box = dealt.boxes[box_index(me, dealer)]
    opening = InboxKey(cycle.my_inbox).open_box(
        dealt.ephemeral, box, cycle.ctx(me, f"open-{dealer}"), rng)
    return {"dealer": dealer, "open": opening.to_wire()}


def check(cycle: DeckCycle, seat: int, body: dict[str, Any],
          index: int) -> tuple[Complaint, Violation]:
    """A complaint of holder ``seat`` in envelope ``index``: its opening must verify and open
    its box to a share that fails the dealer's commitments, else ``bad-complaint`` names the
    complainant. The proven complaint and the dealer's violation it proves."""
    raw = body_field(body, "open", seat, index, {"dealer", "open"})
    dealer: int = body["dealer"]
    dealt = cycle.dealt[dealer]
    box = dealt.boxes[box_index(seat, dealer)]
    try:
        opening = BoxOpening.from_wire(raw)
        verify_opening(opening, cycle.inboxes[seat], dealt.ephemeral, box,
                       cycle.ctx(seat, f"open-{dealer}"))
    except CryptoError as exc:
        raise Violation("bad-complaint", str(exc), seat=seat, index=index) from None
    share = share_in_box(dealt, cycle.table_id, cycle.number, dealer, seat,
                         box_index(seat, dealer), cycle.inboxes[seat], opening.shared)
    if share_is_valid(dealt.all_commitments(cycle.publics[dealer]), seat, share):
        raise Violation("bad-complaint", f"the box of seat {dealer} for seat {seat} opens "
                        "to a share that matches its commitments", seat=seat, index=index)
    dealt_at = cycle.dealt_at[dealer]
    proven = Violation(
        "bad-key-share", f"seat {dealer} dealt seat {seat} a share of its hand key that does "
        f"not match its commitments, as seat {seat}'s complaint in envelope {index} proves",
        seat=dealer, index=dealt_at)
    return Complaint(seat, dealer, index, dealt_at), proven


def starts(payload: Payload, cycle: DeckCycle | None, *, turn: int | None, chain: Chain) -> bool:
    """Whether ``payload`` is a ``complain`` its signer may place now, in place of the message
    its turn calls for (:func:`may_complain` about the ``dealer`` its body names)."""
    body = payload.body
    return (payload.kind == "complain" and isinstance(body, dict)
            and type(body.get("dealer")) is int
            and may_complain(cycle, payload.seat, body["dealer"], turn=turn, chain=chain))


def due(cycle: DeckCycle | None, me: int | None, *, turn: int | None, chain: Chain) -> bool:
    """Whether the local seat ``me`` holds a wrong share of ``cycle`` (``cycle.bad_box``) and
    may place its ``complain`` about it now (:func:`may_complain`)."""
    return (cycle is not None and cycle.bad_box is not None and me is not None
            and may_complain(cycle, me, cycle.bad_box, turn=turn, chain=chain))


def owed(cycle: DeckCycle | None) -> bool:
    """Whether the local seat holds a wrong share of ``cycle`` (``cycle.bad_box``): it then
    signs nothing but its ``complain`` (SPEC §9.13.4)."""
    return cycle is not None and cycle.bad_box is not None
