"""A dishonest dealer: the real ``p2pcards`` program, whose seat deals one wrong encrypted share.

Run as a program (the tests start it as a real process)::

    python tests/evil_dealer.py HOLDER host|join ARGS...

Every sharing of a hand key this process's seat deals (SPEC §9.13.3) carries, for seat
``HOLDER``, a box that opens to a share that does not match the dealer's commitments: the real
box plus 7. Only ``HOLDER`` can tell. Everything else is the unmodified program: seating,
genesis, session, transcript, and the seat's own checks.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from p2pcards.crypto import Point, Randomness, Scalar
from p2pcards.crypto.keyshares import DealtKey
from p2pcards.table import deal as table


def main() -> int:
    holder = int(sys.argv[1])
    honest = table.deal_key

    def deal_wrong_box(secret: Scalar, table_id: bytes, cycle: int, dealer: int,
                       inboxes: Mapping[int, Point], rng: Randomness) -> DealtKey:
        dealt = honest(secret, table_id, cycle, dealer, inboxes, rng)
        boxes = list(dealt.boxes)
        i = holder if holder < dealer else holder - 1
        boxes[i] = boxes[i] + Scalar(7)
        return DealtKey(dealt.ephemeral, dealt.commitments, tuple(boxes))

    table.deal_key = deal_wrong_box  # type: ignore[assignment]
    from p2pcards.cli import main as cli_main

    return cli_main(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
