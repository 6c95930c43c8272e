"""Short invite codes: ``7-scopa-tavolo``, read over the phone, redeemed through a relay.

A code is a *nameplate* (a number the relay's mailbox service hands out, 1 to
:data:`NAMEPLATES`) and two words from :data:`WORDS` (256 Italian words of the card table, the
kitchen and the street): the nameplate is public (it names the mailbox at the relay), the words
are 16 bits of password. The whole code is the password of a SPAKE2 exchange (the ``spake2``
package, Ed25519 group) between the host, which waits in the mailbox, and one joiner. The
exchange, sans-IO here, is three *bodies* (canonical msgpack maps) that the relay forwards
without reading (``protocol/SPEC.md`` §11.6 is normative):

1. joiner -> host ``{"type": "code-pake", "msg": SPAKE2 side-B message}``;
2. host -> joiner ``{"type": "code-pake", "msg": SPAKE2 side-A message, "box": AEAD}``, where
   the box is ChaCha20-Poly1305 under ``k_box`` of ``{"invite": the table's full invite,
   "host": the host's 32-byte identity key}`` with the transcript hash as associated data;
3. joiner -> host ``{"type": "code-confirm", "mac": HMAC-SHA256(k_confirm, "joiner" || th)}``.

``th = SHA-256("p2pcards code v2" || nameplate (2 bytes) || len || msg_A || len || msg_B)``
binds the keys to this mailbox and both SPAKE2 messages; ``k_box`` and ``k_confirm`` are
HKDF-SHA256 of the SPAKE2 key with salt ``th``. A joiner with the wrong words derives another
key: the box does not open (:class:`WrongCode`: "the code is wrong or already used") and its
confirmation does not match, so the host *burns* the code. The relay lets each nameplate be
claimed once, which bounds an online guesser to one try in 65,536 per code; SPAKE2 gives a
passive observer, the relay included, nothing to test guesses against offline. The key in the
box must be the one the invite names (the net layer checks its fingerprint), so a relay or a
guesser without the words cannot substitute another host.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..wire.codec import Limits, pack, unpack
from ..wire.errors import DecodeError

if TYPE_CHECKING:
    from spake2 import SPAKE2_A, SPAKE2_B

__all__ = ["WORDS", "NAMEPLATES", "Code", "CodeError", "WrongCode", "Unlocked", "make_code",
           "parse_code", "looks_like_code", "transcript_hash", "HostExchange", "JoinerExchange",
           "MAX_BODY"]

NAMEPLATES = 999
"""Nameplates are 1..999: short to read; the relay hands out a free one at random."""
MAX_BODY = 1024
"""Largest body of the exchange (the relay's default mailbox message limit)."""

WORDS = (
    "asso", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "fante",
    "cavallo", "re", "regina", "denari", "coppe", "spade", "bastoni", "briscola", "scopa",
    "primiera", "settebello", "napola", "tavolo", "mazzo", "carta", "mano", "presa", "punto",
    "partita", "giro", "turno", "seme", "cappotto", "accuso", "busso", "volo", "striscio",
    "piatto", "tazza", "pane", "vino", "olio", "sale", "pepe", "limone", "arancia", "mela",
    "pera", "fico", "uva", "ciliegia", "pesca", "prugna", "noce", "mandorla", "castagna", "oliva",
    "pomodoro", "basilico", "origano", "aglio", "cipolla", "patata", "carota", "zucca", "fagiolo",
    "cece", "lenticchia", "riso", "pasta", "pizza", "focaccia", "grissino", "biscotto", "torta",
    "gelato", "caffe", "latte", "miele", "burro", "formaggio", "ricotta", "pecorino", "salame",
    "prosciutto", "tonno", "acciuga", "polpo", "cozza", "vongola", "gambero", "sogliola", "trota",
    "sole", "luna", "stella", "cielo", "mare", "fiume", "lago", "monte", "collina", "bosco",
    "prato", "campo", "giardino", "fiore", "rosa", "viola", "giglio", "tulipano", "quercia",
    "pino", "olmo", "faggio", "betulla", "salice", "palma", "cactus", "felce", "muschio", "gatto",
    "cane", "asino", "mulo", "pecora", "capra", "lupo", "volpe", "orso", "cervo", "lepre",
    "riccio", "topo", "talpa", "gufo", "falco", "aquila", "passero", "rondine", "merlo", "gallo",
    "gallina", "anatra", "oca", "cigno", "pavone", "tartaruga", "lucertola", "rana", "delfino",
    "balena", "foca", "pinguino", "rosso", "giallo", "verde", "azzurro", "bianco", "nero",
    "grigio", "marrone", "lilla", "oro", "argento", "rame", "ferro", "bronzo", "piazza", "strada",
    "ponte", "torre", "castello", "chiesa", "porto", "stazione", "mercato", "bottega", "forno",
    "osteria", "cantina", "terrazza", "balcone", "finestra", "porta", "scala", "tetto", "camino",
    "cortile", "fontana", "vicolo", "borgo", "paese", "citta", "lunedi", "martedi", "giovedi",
    "venerdi", "sabato", "domenica", "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno",
    "luglio", "agosto", "ottobre", "novembre", "dicembre", "estate", "inverno", "autunno",
    "primavera", "mattina", "sera", "notte", "alba", "tramonto", "vento", "pioggia", "neve",
    "nebbia", "tuono", "lampo", "nuvola", "arcobaleno", "sabbia", "sasso", "roccia", "conchiglia",
    "barca", "vela", "remo", "ancora", "faro", "isola", "spiaggia", "onda", "scoglio", "musica",
    "canzone", "chitarra", "violino", "flauto", "tamburo", "piano", "opera", "teatro", "festa",
    "ballo", "sorriso", "amico", "nonno",
)
assert len(WORDS) == 256 and len(set(WORDS)) == 256

_ID_HOST = b"p2pcards code host v2"
_ID_JOINER = b"p2pcards code joiner v2"
_DOMAIN = b"p2pcards code v2"
_CODE = re.compile(r"^(\d{1,3})-([a-z]+)-([a-z]+)$")
_NONCE = bytes(12)  # each k_box encrypts exactly one message
_BODY_LIMITS = Limits(max_str_len=MAX_BODY, max_bin_len=MAX_BODY, max_array_len=0,
                      max_map_len=4, max_depth=1)


class CodeError(ValueError):
    """A text that is not a code, or a malformed message of the exchange."""


class WrongCode(CodeError):
    """The words do not match the host's: the code is wrong or already used."""


@dataclass(frozen=True)
class Code:
    """A parsed code: the mailbox's ``nameplate`` and the two ``words``."""

    nameplate: int
    words: tuple[str, str]

    def __str__(self) -> str:
        return f"{self.nameplate}-{self.words[0]}-{self.words[1]}"

    @property
    def password(self) -> bytes:
        return str(self).encode("ascii")


@dataclass(frozen=True)
class Unlocked:
    """What a code opens: the table's full ``invite`` and the host's 32-byte identity key
    (which the invite's fingerprint must name)."""

    invite: str
    host_key: bytes


def make_code(nameplate: int) -> Code:
    """A code for ``nameplate`` (the relay's) with two words drawn uniformly at random."""
    return Code(nameplate, (secrets.choice(WORDS), secrets.choice(WORDS)))


def looks_like_code(text: str) -> bool:
    """Whether ``text`` has the shape of a code (``NUMBER-WORD-WORD``), not of an invite."""
    return _CODE.match(text.strip().lower()) is not None


def parse_code(text: str) -> Code:
    """The code written in ``text`` (case and spaces around it ignored); :class:`CodeError`
    naming what is wrong otherwise."""
    found = _CODE.match(text.strip().lower())
    if found is None:
        raise CodeError(f"{text.strip()!r} is not a code like 7-scopa-tavolo")
    plate = int(found[1])
    if not 1 <= plate <= NAMEPLATES:
        raise CodeError(f"the code's number must be between 1 and {NAMEPLATES}")
    for word in (found[2], found[3]):
        if word not in WORDS:
            raise CodeError(f"{word!r} is not one of the code words: check the spelling")
    return Code(plate, (found[2], found[3]))


def transcript_hash(nameplate: int, msg_a: bytes, msg_b: bytes) -> bytes:
    """``th``: SHA-256 of the domain, the nameplate and both SPAKE2 messages."""
    return hashlib.sha256(_DOMAIN + nameplate.to_bytes(2, "big") + bytes([len(msg_a)]) + msg_a
                          + bytes([len(msg_b)]) + msg_b).digest()


def _keys(shared: bytes, th: bytes) -> tuple[bytes, bytes]:
    def expand(info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=th, info=info).derive(shared)

    return expand(b"p2pcards code box v2"), expand(b"p2pcards code confirm v2")


def _mac(confirm_key: bytes, th: bytes) -> bytes:
    return hmac.new(confirm_key, b"joiner" + th, hashlib.sha256).digest()


def _decode(body: bytes, kind: str, keys: tuple[str, ...]) -> dict[str, bytes]:
    try:
        message = unpack(body, max_size=MAX_BODY + 64, limits=_BODY_LIMITS)
    except DecodeError as exc:
        raise CodeError(f"a {kind!r} message that is not canonical msgpack: {exc}") from None
    if not isinstance(message, dict) or message.get("type") != kind or \
            set(message) != {"type", *keys} or \
            not all(isinstance(message[key], bytes) for key in keys):
        raise CodeError(f"expected a {kind!r} message with the bytes {', '.join(keys)}")
    return {key: message[key] for key in keys}


def _finish(spake: SPAKE2_A | SPAKE2_B, theirs: bytes) -> bytes:
    try:
        return bytes(spake.finish(theirs))
    except Exception as exc:  # noqa: BLE001 - the package raises several kinds
        raise CodeError(f"a bad SPAKE2 message: {exc}") from None


class HostExchange:
    """The host's side for one code: answers one joiner's body with the boxed invite, then
    checks its confirmation. One exchange per code, whatever its outcome."""

    def __init__(self, code: Code, invite: str, host_key: bytes) -> None:
        from spake2 import SPAKE2_A  # loaded only where a short code is used

        self.code = code
        self.invite = invite
        self.host_key = host_key
        self._spake = SPAKE2_A(code.password, idA=_ID_HOST, idB=_ID_JOINER)
        self._confirm: bytes | None = None
        self._th = b""

    def answer(self, body: bytes) -> bytes:
        """The reply to the joiner's ``code-pake`` body."""
        theirs = _decode(body, "code-pake", ("msg",))["msg"]
        ours = self._spake.start()
        shared = _finish(self._spake, theirs)
        self._th = transcript_hash(self.code.nameplate, ours, theirs)
        box_key, self._confirm = _keys(shared, self._th)
        sealed = pack({"invite": self.invite, "host": self.host_key})
        box = ChaCha20Poly1305(box_key).encrypt(_NONCE, sealed, self._th)
        return pack({"type": "code-pake", "msg": ours, "box": box})

    def confirmed(self, body: bytes) -> bool:
        """Whether the joiner's ``code-confirm`` proves it had the right words."""
        mac = _decode(body, "code-confirm", ("mac",))["mac"]
        if self._confirm is None:
            raise CodeError("a confirmation before the exchange")
        return hmac.compare_digest(mac, _mac(self._confirm, self._th))


class JoinerExchange:
    """The joiner's side: :meth:`start`, then :meth:`open` the host's answer (raises
    :class:`WrongCode`), then send :meth:`confirmation`."""

    def __init__(self, code: Code) -> None:
        from spake2 import SPAKE2_B  # loaded only where a short code is used

        self.code = code
        self._spake = SPAKE2_B(code.password, idA=_ID_HOST, idB=_ID_JOINER)
        self._ours = b""
        self._confirm: bytes | None = None
        self._th = b""

    def start(self) -> bytes:
        self._ours = self._spake.start()
        return pack({"type": "code-pake", "msg": self._ours})

    def open(self, body: bytes) -> Unlocked:
        """What the host's answer unlocks; :class:`WrongCode` if it does not open."""
        fields = _decode(body, "code-pake", ("msg", "box"))
        shared = _finish(self._spake, fields["msg"])
        self._th = transcript_hash(self.code.nameplate, fields["msg"], self._ours)
        box_key, self._confirm = _keys(shared, self._th)
        try:
            sealed = ChaCha20Poly1305(box_key).decrypt(_NONCE, fields["box"], self._th)
        except InvalidTag:
            raise WrongCode("the code is wrong or already used") from None
        try:
            inside = unpack(sealed, max_size=MAX_BODY, limits=_BODY_LIMITS)
        except DecodeError as exc:
            raise CodeError(f"the box holds no canonical msgpack: {exc}") from None
        if not isinstance(inside, dict) or set(inside) != {"invite", "host"} or \
                not isinstance(inside["invite"], str) or not isinstance(inside["host"], bytes) \
                or len(inside["host"]) != 32:
            raise CodeError("the box must hold exactly an invite and a 32-byte host key")
        return Unlocked(inside["invite"], inside["host"])

    def confirmation(self) -> bytes:
        """The ``code-confirm`` body (after :meth:`open`; a wrong code sends a MAC under its
        wrong key, which burns the code just the same)."""
        if self._confirm is None:
            raise CodeError("confirmation before the host's answer")
        return pack({"type": "code-confirm", "mac": _mac(self._confirm, self._th)})
