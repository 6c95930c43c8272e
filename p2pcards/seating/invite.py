"""Invites: ``p2pcards://HOST:PORT/<table nonce hex>?rules=<rules digest hex>#<host fingerprint>``.

The host prints one invite per table. The nonce (16 random bytes, 32 hex digits) names this
table among everything the host ever hosts, so an old invite is refused; the fingerprint lets
the joiner check that whoever answers at ``HOST:PORT`` holds the host's identity key; the rules
digest (:meth:`p2pcards.seating.rules.TableRules.digest`, 16 bytes, 32 hex digits) commits the
host to the table's rules (game, preset, every flag, player count and timeouts), so that a joiner
refuses a table whose rules are not the ones it was invited to. An IPv6 host is written in
brackets: ``p2pcards://[::1]:7000/...``.

An invite without ``?rules=`` (from an older host) is still understood: :attr:`Invite.rules` is
then ``None`` and the joiner can only compare what the host announces with the named preset.

For a table played through a relay the scheme is ``p2pcards+relay://`` and ``HOST:PORT`` is the
relay's address; the nonce then also names the table's room at the relay (see
:mod:`p2pcards.net.relay_mux`).

Sans-IO: parsing and formatting only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Invite", "InviteError", "SCHEME", "RELAY_SCHEME", "NONCE_SIZE", "RULES_DIGEST_SIZE"]

SCHEME = "p2pcards://"
RELAY_SCHEME = "p2pcards+relay://"
NONCE_SIZE = 16
RULES_DIGEST_SIZE = 16

_FINGERPRINT = re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$")
_PATTERN = re.compile(
    r"^p2pcards(?P<relay>\+relay)?://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>[0-9]{1,5})"
    r"/(?P<nonce>[0-9a-fA-F]+)(?:\?rules=(?P<rules>[0-9a-fA-F]*))?#(?P<fingerprint>[A-Za-z2-7\-]+)$"
)


class InviteError(ValueError):
    """An invite that cannot be parsed; the message names the part at fault."""


@dataclass(frozen=True)
class Invite:
    """Where to connect (the host, or the relay when ``relay``), the table nonce and the host's
    identity fingerprint."""

    host: str
    port: int
    nonce: bytes
    fingerprint: str
    relay: bool = False
    rules: bytes | None = None
    """The rules digest the invite commits to, or ``None`` for an invite of an older host."""

    def __post_init__(self) -> None:
        if self.rules is not None and len(self.rules) != RULES_DIGEST_SIZE:
            raise InviteError(f"invite rules digest must be {RULES_DIGEST_SIZE} bytes, "
                              f"not {len(self.rules)}")
        if len(self.nonce) != NONCE_SIZE:
            raise InviteError(f"invite table nonce must be {NONCE_SIZE} bytes, "
                              f"not {len(self.nonce)}")
        if not 1 <= self.port <= 65535:
            raise InviteError(f"invite port {self.port} is not between 1 and 65535")
        if not _FINGERPRINT.match(self.fingerprint):
            raise InviteError(f"invite fingerprint {self.fingerprint!r} is not of the form "
                              "XXXX-XXXX-XXXX-XXXX")

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        scheme = RELAY_SCHEME if self.relay else SCHEME
        rules = "" if self.rules is None else f"?rules={self.rules.hex()}"
        return f"{scheme}{host}:{self.port}/{self.nonce.hex()}{rules}#{self.fingerprint}"

    @classmethod
    def parse(cls, text: str) -> Invite:
        """Parse an invite; the leading ``p2pcards join`` of the printed line and the quotes
        around the invite (it is printed quoted for the shell) are tolerated."""
        text = text.strip()
        if text.startswith("p2pcards join "):
            text = text[len("p2pcards join "):].strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1].strip()
        match = _PATTERN.match(text)
        if match is None:
            if not text.startswith((SCHEME, RELAY_SCHEME)):
                raise InviteError(f"an invite starts with {SCHEME} or {RELAY_SCHEME}, this one "
                                  f"is {text[:30]!r}")
            raise InviteError(
                f"invite {text[:80]!r} is not of the form "
                f"{SCHEME}HOST:PORT/NONCE?rules=DIGEST#FINGERPRINT"
            )
        host = match["host"].strip("[]")
        nonce_hex = match["nonce"]
        if len(nonce_hex) != 2 * NONCE_SIZE:
            raise InviteError(f"invite table nonce must be {2 * NONCE_SIZE} hex digits, "
                              f"not {len(nonce_hex)}")
        rules_hex = match["rules"]
        if rules_hex is not None and len(rules_hex) != 2 * RULES_DIGEST_SIZE:
            raise InviteError(f"invite rules digest must be {2 * RULES_DIGEST_SIZE} hex digits, "
                              f"not {len(rules_hex)}")
        return cls(host, int(match["port"]), bytes.fromhex(nonce_hex),
                   match["fingerprint"].upper(), relay=match["relay"] is not None,
                   rules=None if rules_hex is None else bytes.fromhex(rules_hex))
