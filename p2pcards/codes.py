"""Short invite codes: ``7-scopa-tavolo``, read over the phone, redeemed through a relay.

A code is a *nameplate* (a number, 1 to :data:`NAMEPLATES`) and two words from :data:`WORDS`
(256 Italian words of the card table, the kitchen and the street): 16 bits of password. The
nameplate names a mailbox, a relay room whose 16-byte name is
``SHA-256("p2pcards code room v1" || nameplate)[:16]``; the whole code is the password of a
SPAKE2 exchange (the ``spake2`` package, Ed25519 group) between the host, which waits in the
mailbox, and one joiner. The exchange, sans-IO here, is:

1. joiner -> host ``{"type": "code-pake", "msg": SPAKE2_B message}``;
2. host -> joiner ``{"type": "code-pake", "msg": SPAKE2_A message, "box": SecretBox(k_box,
   invite)}``: the table's full invite, which names the relay, the table nonce, the rules
   digest and the host's identity fingerprint;
3. joiner -> host ``{"type": "code-confirm", "mac": HMAC-SHA256(k_confirm, "joiner")}``.

``k_box`` and ``k_confirm`` are HKDF-SHA256 expansions of the SPAKE2 key (info
``p2pcards code box v1`` / ``p2pcards code confirm v1``). A joiner with the wrong words derives
another key: the box does not open (it is told "the code is wrong or already used") and its
confirmation does not match, so the host *burns* the code: a code serves one exchange, right or
wrong, which bounds an online guesser to one try in 65,536 per code. SPAKE2 gives a passive
observer, the relay included, nothing to test guesses against offline. The invite then goes
through every check of an ordinary invite: the code authenticates the host's identity key
because the invite it unlocks carries its fingerprint.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.exceptions import CryptoError
from nacl.secret import SecretBox
from spake2 import SPAKE2_A, SPAKE2_B

__all__ = ["WORDS", "NAMEPLATES", "Code", "CodeError", "WrongCode", "make_code", "parse_code",
           "looks_like_code", "mailbox_room", "HostExchange", "JoinerExchange"]

NAMEPLATES = 999
"""Nameplates are 1..999: short to read, and a host picks a free one at random."""

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

_ID_HOST = b"p2pcards code host v1"
_ID_JOINER = b"p2pcards code joiner v1"
_CODE = re.compile(r"^(\d{1,3})-([a-z]+)-([a-z]+)$")


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


def make_code(nameplate: int | None = None) -> Code:
    """A fresh code (a random nameplate unless given, two random words)."""
    plate = nameplate if nameplate is not None else secrets.randbelow(NAMEPLATES) + 1
    return Code(plate, (secrets.choice(WORDS), secrets.choice(WORDS)))


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


def mailbox_room(nameplate: int) -> bytes:
    """The 16-byte relay room of a nameplate's mailbox."""
    return hashlib.sha256(b"p2pcards code room v1" + str(nameplate).encode()).digest()[:16]


def _keys(shared: bytes) -> tuple[bytes, bytes]:
    def expand(info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)

    return expand(b"p2pcards code box v1"), expand(b"p2pcards code confirm v1")


def _bytes_field(message: dict[str, object], key: str, kind: str) -> bytes:
    if message.get("type") != kind or not isinstance(message.get(key), bytes):
        raise CodeError(f"expected a {kind!r} message with {key!r} bytes")
    value = message[key]
    assert isinstance(value, bytes)
    return value


class HostExchange:
    """The host's side for one code: answers one joiner's message with the boxed invite, then
    checks its confirmation. One exchange per code, whatever its outcome."""

    def __init__(self, code: Code, invite: str) -> None:
        self.code = code
        self.invite = invite
        self._spake = SPAKE2_A(code.password, idA=_ID_HOST, idB=_ID_JOINER)
        self._confirm: bytes | None = None

    def answer(self, message: dict[str, object]) -> dict[str, object]:
        """The reply to the joiner's ``code-pake`` message."""
        theirs = _bytes_field(message, "msg", "code-pake")
        ours = self._spake.start()
        try:
            shared = self._spake.finish(theirs)
        except Exception as exc:  # noqa: BLE001 - the package raises several kinds
            raise CodeError(f"a bad SPAKE2 message: {exc}") from None
        box_key, self._confirm = _keys(shared)
        box = bytes(SecretBox(box_key).encrypt(self.invite.encode("utf-8")))
        return {"type": "code-pake", "msg": ours, "box": box}

    def confirmed(self, message: dict[str, object]) -> bool:
        """Whether the joiner's ``code-confirm`` proves it had the right words."""
        mac = _bytes_field(message, "mac", "code-confirm")
        if self._confirm is None:
            raise CodeError("a confirmation before the exchange")
        expected = hmac.new(self._confirm, b"joiner", hashlib.sha256).digest()
        return hmac.compare_digest(mac, expected)


class JoinerExchange:
    """The joiner's side: :meth:`start`, then :meth:`open` the host's answer (raises
    :class:`WrongCode`), then send :meth:`confirmation`."""

    def __init__(self, code: Code) -> None:
        self.code = code
        self._spake = SPAKE2_B(code.password, idA=_ID_HOST, idB=_ID_JOINER)
        self._confirm: bytes | None = None

    def start(self) -> dict[str, object]:
        return {"type": "code-pake", "msg": self._spake.start()}

    def open(self, message: dict[str, object]) -> str:
        """The invite in the host's answer; :class:`WrongCode` if it does not open."""
        theirs = _bytes_field(message, "msg", "code-pake")
        box = _bytes_field(message, "box", "code-pake")
        try:
            shared = self._spake.finish(theirs)
        except Exception as exc:  # noqa: BLE001 - the package raises several kinds
            raise CodeError(f"a bad SPAKE2 message: {exc}") from None
        box_key, self._confirm = _keys(shared)
        try:
            return bytes(SecretBox(box_key).decrypt(box)).decode("utf-8")
        except (CryptoError, UnicodeDecodeError):
            raise WrongCode("the code is wrong or already used") from None

    def confirmation(self) -> dict[str, object]:
        """The ``code-confirm`` message (after :meth:`open`; a wrong code sends a MAC under
        its wrong key, which burns the code just the same)."""
        if self._confirm is None:
            raise CodeError("confirmation before the host's answer")
        return {"type": "code-confirm",
                "mac": hmac.new(self._confirm, b"joiner", hashlib.sha256).digest()}
