"""Invites: the printed line, its rules digest, and bad invites named by the part at fault.

The seating handshake itself is tested without a network in ``test_seating.py``.
"""

from __future__ import annotations

import pytest

from p2pcards.seating.invite import Invite, InviteError
from p2pcards.wire.identity import IdentityKey

NONCE = bytes(range(16))
DIGEST = bytes(range(100, 116))


# ----------------------------------------------------------------------------- invites


def test_invite_round_trip_and_printed_line() -> None:
    key = IdentityKey.generate()
    invite = Invite("192.168.1.20", 40123, NONCE, key.public.fingerprint, rules=DIGEST)
    text = str(invite)
    assert text == (f"p2pcards://192.168.1.20:40123/{NONCE.hex()}?rules={DIGEST.hex()}"
                    f"#{key.public.fingerprint}")
    assert Invite.parse(text) == invite
    old = Invite.parse(f"p2pcards://192.168.1.20:40123/{NONCE.hex()}#{key.public.fingerprint}")
    assert old.rules is None and old.nonce == NONCE  # an older host's invite is understood
    assert Invite.parse(f"  p2pcards join {text}\n") == invite
    six = Invite("::1", 7, NONCE, key.public.fingerprint)
    assert str(six).startswith("p2pcards://[::1]:7/") and Invite.parse(str(six)) == six


@pytest.mark.parametrize(("text", "message"), [
    ("http://x:1/00#AAAA-AAAA-AAAA-AAAA", "starts with p2pcards://"),
    ("p2pcards://x/" + "00" * 16 + "#AAAA-AAAA-AAAA-AAAA", "is not of the form"),
    ("p2pcards://x:1/" + "00" * 15 + "#AAAA-AAAA-AAAA-AAAA", "32 hex digits, not 30"),
    ("p2pcards://x:70000/" + "00" * 16 + "#AAAA-AAAA-AAAA-AAAA", "port 70000"),
    ("p2pcards://x:1/" + "00" * 16 + "#AAAA-AAAA-AAAA", "XXXX-XXXX-XXXX-XXXX"),
    ("p2pcards://x:1/" + "00" * 16 + "?rules=" + "ab" * 8 + "#AAAA-AAAA-AAAA-AAAA",
     "rules digest must be 32 hex digits, not 16"),
])
def test_bad_invites_name_the_part_at_fault(text: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        Invite.parse(text)
