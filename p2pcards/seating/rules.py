"""The rules a seat signs: game, preset, every flag value, player count and timeouts.

:class:`TableRules` is the part of a genesis that is fixed before anybody is seated. The host
announces it in the seating handshake, its invite commits to it with :meth:`TableRules.digest`,
and a joiner compares the genesis against it before signing (see :mod:`p2pcards.seating.handshake`).

Digest (normative, ``protocol/SPEC.md`` §11.2)::

    rules digest = SHA-256(pack(["p2pcards/rules/v1", game, preset, config, timeouts]))[:16]

where ``pack`` is the canonical msgpack encoding of :mod:`p2pcards.wire.codec`, ``config`` the
game config's wire map (every flag and ``players``, as in the genesis) and ``timeouts`` the map of
``step`` and ``action`` seconds; when a dropout policy is set (SPEC §9.13) its name is appended
to the array. Invites carry it as 32 lowercase hex digits.

Also here: :func:`parse_setting` turns ``--set NAME=VALUE`` into a typed flag value, and
:meth:`TableRules.differences` / :meth:`TableRules.describe` say what a person must be shown.

Sans-IO: no sockets, no clocks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, card
from ..games import get_game
from ..games.base import Flag, GameError, UnknownFlag
from ..wire import codec
from .genesis import DEFAULT_TIMEOUTS, DROPOUT_POLICIES, Genesis, GenesisError

__all__ = ["TableRules", "Difference", "parse_setting", "parse_settings", "RULES_CONTEXT",
           "DIGEST_SIZE", "show_value"]

RULES_CONTEXT = "p2pcards/rules/v1"
DIGEST_SIZE = 16
"""Bytes of the rules digest (128 bits: the host chooses both rule sets, so collisions count)."""

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def show_value(value: object) -> str:
    """A flag value as ``p2pcards rules`` and ``--set`` spell it (``on``/``off``, card codes)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Card):
        return value.code
    return str(value)


@dataclass(frozen=True)
class Difference:
    """One flag whose table value is not the named preset's."""

    flag: str
    preset_value: object
    table_value: object

    def __str__(self) -> str:
        return (f"{self.flag} = {show_value(self.table_value)} "
                f"(the preset says {show_value(self.preset_value)})")


@dataclass(frozen=True)
class TableRules:
    """Game, preset, the full config in wire form (``players`` included) and the timeouts."""

    game: str
    preset: str
    config: Mapping[str, Any]
    timeouts: Mapping[str, int]
    dropout: str | None = None
    """The genesis dropout policy (SPEC §9.13), or ``None``: no key sharing."""

    # ------------------------------------------------------------------ building

    @classmethod
    def choose(cls, game: str, preset: str = "", players: int | None = None,
               flags: Mapping[str, object] | None = None,
               timeouts: Mapping[str, int] | None = None,
               dropout: str | None = None) -> TableRules:
        """The rules of a new table; :class:`~p2pcards.games.base.GameError` for a bad game,
        preset, player count or flag, :class:`ValueError` for bad timeouts."""
        spec = get_game(game)
        preset = preset or spec.default_preset
        config = spec.preset(preset, players=players, **dict(flags or {}))
        chosen = dict(timeouts or DEFAULT_TIMEOUTS)
        _check_timeouts(chosen)
        _check_dropout(dropout, config.players)
        return cls(spec.name, preset, config.to_wire(), chosen, dropout)

    @classmethod
    def of(cls, genesis: Genesis) -> TableRules:
        """The rules a genesis fixes."""
        return cls(genesis.game, genesis.preset, dict(genesis.config), dict(genesis.timeouts),
                   genesis.dropout)

    @classmethod
    def from_wire(cls, data: object) -> TableRules:
        """Parse and check announced rules; :class:`GenesisError` names what is wrong."""
        expected = {"game", "preset", "config", "timeouts"}
        if not isinstance(data, dict) or set(data) - {"dropout"} != expected:
            raise GenesisError("table rules must be a map of " + ", ".join(sorted(expected)))
        game, preset, config, timeouts = (data[k] for k in ("game", "preset", "config",
                                                              "timeouts"))
        if not isinstance(game, str) or not isinstance(preset, str):
            raise GenesisError("table rules: game and preset must be text")
        if not isinstance(config, dict) or not isinstance(timeouts, dict):
            raise GenesisError("table rules: config and timeouts must be maps")
        try:
            spec = get_game(game)
            allowed = spec.preset_players(preset)
            parsed = spec.config_from_wire(config)
        except GameError as exc:
            raise GenesisError(f"table rules: {exc}") from None
        if spec.name != game:
            raise GenesisError(f"table rules: the game must be spelled {spec.name!r}")
        if parsed.players not in allowed:
            raise GenesisError(f"table rules: preset {preset!r} of {game} is not for "
                               f"{parsed.players} players")
        dropout = data.get("dropout")
        try:
            _check_timeouts(timeouts)
            if "dropout" in data:
                _check_dropout(dropout, parsed.players)
        except ValueError as exc:
            raise GenesisError(f"table rules: {exc}") from None
        return cls(game, preset, dict(config), dict(timeouts), dropout)

    def to_wire(self) -> dict[str, Any]:
        out = {"game": self.game, "preset": self.preset, "config": dict(self.config),
               "timeouts": dict(self.timeouts)}
        if self.dropout is not None:
            out["dropout"] = self.dropout
        return out

    # ------------------------------------------------------------------ facts

    @property
    def players(self) -> int:
        players = self.config["players"]
        assert isinstance(players, int)
        return players

    def digest(self) -> bytes:
        """The 16-byte commitment carried by invites (see the module docstring)."""
        fields: list[Any] = [RULES_CONTEXT, self.game, self.preset, dict(self.config),
                             dict(self.timeouts)]
        if self.dropout is not None:
            fields.append(self.dropout)
        data = codec.pack(fields)
        return hashlib.sha256(data).digest()[:DIGEST_SIZE]

    def matches(self, genesis: Genesis) -> bool:
        """Whether ``genesis`` fixes exactly these rules."""
        return TableRules.of(genesis) == self

    def differences(self) -> list[Difference]:
        """Every flag whose value is not the named preset's, in the game's flag order."""
        spec = get_game(self.game)
        preset = spec.preset(self.preset, players=self.players).to_wire()
        return [Difference(f.name, _typed(f, preset[f.name]), _typed(f, self.config[f.name]))
                for f in spec.flags if preset[f.name] != self.config[f.name]]

    def timeout_differences(self) -> list[str]:
        """The timeouts that are not the defaults, as ``step``/``action`` names."""
        return [k for k in DEFAULT_TIMEOUTS if self.timeouts.get(k) != DEFAULT_TIMEOUTS[k]]

    @property
    def unusual(self) -> bool:
        """True when a flag differs from the preset or a timeout from the default: what a
        joiner that cannot ask a person refuses unless told to accept."""
        return bool(self.differences() or self.timeout_differences())

    def summary(self) -> str:
        """One line: ``scopa (napola), 2 players, target=21, ties=each``."""
        changed = "".join(f", {d.flag}={show_value(d.table_value)}" for d in self.differences())
        return f"{self.game} ({self.preset}), {self.players} players{changed}"

    def describe(self) -> list[str]:
        """What a person is shown before signing: the rules, each difference, each timeout."""
        spec = get_game(self.game)
        lines = [f"table rules: {spec.title}, preset {self.preset}, {self.players} players"]
        differences = self.differences()
        if differences:
            lines.append(f"  house rules (differences from the preset {self.preset}):")
            lines += [f"    {d}" for d in differences]
        else:
            lines.append(f"  no house rules: exactly the preset {self.preset} "
                         f"(p2pcards rules {self.game} lists it)")
        step, action = self.timeouts["step"], self.timeouts["action"]
        lines.append(f"  timeouts: {_timeout(step, 'step')} for automatic steps, "
                     f"{_timeout(action, 'action')} for a person's move")
        if self.dropout is not None:
            lines.append(f"  {DROPOUT_TEXT[self.dropout]}")
        return lines


DROPOUT_TEXT = {
    "forfeit": "a seat that drops out forfeits: the others rebuild its hand key from their "
               "shares and check the hand",
    "bot": "a seat that drops out is played by a public bot to the end of the match, its "
           "cards shown to everyone: the others rebuild its hand key from their shares",
}
"""What a person is told about each dropout policy (SPEC §9.13)."""


def _check_dropout(dropout: object, players: int) -> None:
    if dropout is None:
        return
    if dropout not in DROPOUT_POLICIES:
        raise ValueError(f"the dropout policy must be one of {', '.join(DROPOUT_POLICIES)}")
    if players < 3:
        raise ValueError("a dropout policy is for tables of three or more seats")


def _timeout(value: int, key: str) -> str:
    default = DEFAULT_TIMEOUTS[key]
    return f"{value} s" if value == default else f"{value} s (the default is {default} s)"


def _check_timeouts(timeouts: Mapping[str, object]) -> None:
    if set(timeouts) != set(DEFAULT_TIMEOUTS) or not all(
            type(v) is int and 1 <= v <= 86400 for v in timeouts.values()):
        raise ValueError("timeouts must give step and action as whole seconds from 1 to 86400")


def _typed(flag: Flag, raw: object) -> object:
    if isinstance(flag.default, Card) and isinstance(raw, str):
        return card(raw)
    return raw


def parse_setting(game: str, text: str) -> tuple[str, object]:
    """``NAME=VALUE`` as a typed flag value of ``game``; :class:`UnknownFlag` with one sentence
    naming the setting for an unknown flag or a value the flag does not take."""
    spec = get_game(game)
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    by_name = {f.name: f for f in spec.flags}
    if not sep or not name:
        raise UnknownFlag(f"--set {text!r} must be NAME=VALUE, for example "
                          f"{spec.flags[0].name}={show_value(spec.flags[0].default)}"
                          if spec.flags else f"--set {text!r}: {spec.name} has no flags")
    if name not in by_name:
        raise UnknownFlag(f"--set {text!r}: {spec.name} has no flag {name!r} "
                          f"(flags: {', '.join(sorted(by_name))})")
    flag = by_name[name]
    value = _convert(flag, raw)
    if value is None:
        kind = {bool: "on or off", int: "a whole number", str: "text"}.get(
            type(flag.default), "a card code such as 2B")
        raise UnknownFlag(f"--set {text!r}: flag {name!r} of {spec.name} takes {kind}, "
                          f"not {raw!r}")
    try:
        spec.check_flag(name, value)
    except UnknownFlag as exc:
        raise UnknownFlag(f"--set {text!r}: {exc}") from None
    return name, value


def parse_settings(game: str, texts: Sequence[str]) -> dict[str, object]:
    """Every ``--set``; a flag set twice is an error."""
    out: dict[str, object] = {}
    for text in texts:
        name, value = parse_setting(game, text)
        if name in out:
            raise UnknownFlag(f"--set {name} is given twice")
        out[name] = value
    return out


def _convert(flag: Flag, raw: str) -> object | None:
    default = flag.default
    if isinstance(default, bool):
        low = raw.lower()
        return True if low in _TRUE else False if low in _FALSE else None
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            return None
    if isinstance(default, Card):
        try:
            return card(raw.upper())
        except ValueError:
            return None
    by_lower = {c.lower(): c for c in flag.choices if isinstance(c, str)}
    return by_lower.get(raw.lower(), raw)
