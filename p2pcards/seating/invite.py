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

More ways to reach the host (:mod:`.candidates`) follow the rules digest as query parameters,
in the order the joiner tries them (SPEC §11.9)::

    &via=ADDR,ADDR,...   more direct addresses: untagged ones are classified by the address
                         (LAN, IPv6, public); ``m~ADDR`` is a port mapped on the host's router,
                         ``o~ADDR`` the host's address as a relay observed it
    &relay=ADDR          a relay room to fall back on (direct scheme only)

Parameters a joiner does not know are ignored, so later hosts may add some.

Sans-IO: parsing and formatting only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .candidates import Candidate, CandidateError, Kind, classify, format_address, parse_address

__all__ = ["Invite", "InviteError", "SCHEME", "RELAY_SCHEME", "NONCE_SIZE", "RULES_DIGEST_SIZE"]

SCHEME = "p2pcards://"
RELAY_SCHEME = "p2pcards+relay://"
NONCE_SIZE = 16
RULES_DIGEST_SIZE = 16

_FINGERPRINT = re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$")
_PATTERN = re.compile(
    r"^p2pcards(?P<relay>\+relay)?://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>[0-9]{1,5})"
    r"/(?P<nonce>[0-9a-fA-F]+)(?:\?(?P<query>[^#]*))?#(?P<fingerprint>[A-Za-z2-7\-]+)$"
)
_TAGS: dict[str, Kind] = {"m": "mapped", "o": "observed"}
_TAG_OF: dict[Kind, str] = {kind: tag for tag, kind in _TAGS.items()}


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
    via: tuple[Candidate, ...] = ()
    """More direct ways to the host, in the order to try them (after ``HOST:PORT`` of a direct
    invite, before the relay of a relay invite)."""
    fallback: tuple[str, int] | None = None
    """A relay whose room (named by the nonce) a direct invite falls back on."""

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
        if any(not c.direct or c.kind == "punched" for c in self.via):
            raise InviteError("an invite's via list holds direct addresses only")
        if self.relay and self.fallback is not None:
            raise InviteError("a relay invite names its relay once, as its address")

    def candidates(self) -> list[Candidate]:
        """Every way to the host in the order to try them: the direct ones, then the relay."""
        if self.relay:
            return [*self.via, Candidate("relay", self.host, self.port)]
        first = Candidate(classify(self.host), self.host, self.port)
        tail = [] if self.fallback is None else [Candidate("relay", *self.fallback)]
        return [first, *(c for c in self.via if c != first), *tail]

    @property
    def relay_address(self) -> tuple[str, int] | None:
        """The relay whose room this invite may use, if any."""
        return (self.host, self.port) if self.relay else self.fallback

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        scheme = RELAY_SCHEME if self.relay else SCHEME
        params = [] if self.rules is None else [f"rules={self.rules.hex()}"]
        if self.via:
            params.append("via=" + ",".join(_via_text(c) for c in self.via))
        if self.fallback is not None:
            params.append(f"relay={format_address(*self.fallback)}")
        query = "?" + "&".join(params) if params else ""
        return f"{scheme}{host}:{self.port}/{self.nonce.hex()}{query}#{self.fingerprint}"

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
        params = _query(match["query"] or "")
        rules_hex = params.get("rules")
        if rules_hex is not None and not re.fullmatch(r"[0-9a-fA-F]*", rules_hex):
            raise InviteError(f"invite rules digest {rules_hex[:40]!r} is not hex digits")
        if rules_hex is not None and len(rules_hex) != 2 * RULES_DIGEST_SIZE:
            raise InviteError(f"invite rules digest must be {2 * RULES_DIGEST_SIZE} hex digits, "
                              f"not {len(rules_hex)}")
        try:
            via = tuple(_via(part) for part in params["via"].split(",")) if "via" in params \
                else ()
            fallback = parse_address(params["relay"], "invite relay") if "relay" in params \
                else None
        except CandidateError as exc:
            raise InviteError(str(exc)) from None
        return cls(host, int(match["port"]), bytes.fromhex(nonce_hex),
                   match["fingerprint"].upper(), relay=match["relay"] is not None,
                   rules=None if rules_hex is None else bytes.fromhex(rules_hex),
                   via=via, fallback=fallback)


def _query(text: str) -> dict[str, str]:
    """The invite's query parameters (the first of a repeated name counts)."""
    params: dict[str, str] = {}
    for part in text.split("&") if text else ():
        name, equals, value = part.partition("=")
        if not equals:
            raise InviteError(f"invite parameter {part[:40]!r} is not of the form NAME=VALUE")
        params.setdefault(name, value)
    return params


def _via(text: str) -> Candidate:
    """One entry of ``via=``: ``ADDR``, or a tagged ``m~ADDR`` / ``o~ADDR``."""
    tag, tilde, rest = text.partition("~")
    if tilde:
        if tag not in _TAGS:
            raise InviteError(f"invite address {text[:60]!r} has the unknown tag {tag[:8]!r}")
        host, port = parse_address(rest, "invite address")
        return Candidate(_TAGS[tag], host, port)
    host, port = parse_address(text, "invite address")
    return Candidate(classify(host), host, port)


def _via_text(candidate: Candidate) -> str:
    """The ``via=`` entry of a candidate (inferred kinds untagged)."""
    tag = _TAG_OF.get(candidate.kind)
    return f"{tag}~{candidate.where}" if tag else candidate.where
