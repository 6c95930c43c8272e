"""Finding a bot by name: a built-in kind, or a user's own bot given as ``module:callable``.

``--bot`` on ``host``, ``join`` and ``demo`` takes one of:

- ``smart`` (the default) or ``random``: the built-in bots of :func:`p2pcards.bots.make_bot`;
- ``module:callable``: a callable importable as ``module`` (on ``sys.path``, e.g. the current
  directory) with attribute path ``callable`` (dots allowed, ``pkg.mod:Factory.create``);
- ``path/to/file.py:callable``: the same from a Python file.

The callable is called with keyword arguments ``game`` (the game name), ``seat`` (the seat
number) and ``seed`` (an int or ``None``), and must return an object with ``name`` (text) and
``choose(observation, legal)`` (the :class:`p2pcards.bots.Bot` protocol). A class with such an
``__init__`` is such a callable. Anything wrong is a :class:`BotLoadError` whose message says
what and where, in one sentence.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from .base import BOT_KINDS, Bot, make_bot

__all__ = ["BotLoadError", "check_bot_spec", "load_bot", "describe_bot_spec"]


class BotLoadError(ValueError):
    """A ``--bot`` value that does not give a usable bot."""


def describe_bot_spec(spec: str) -> str:
    """A short label for progress lines: the built-in kind, or the callable's name."""
    return spec if spec in BOT_KINDS else spec.rpartition(":")[2]


def _import_target(spec: str) -> Any:
    where, sep, attribute = spec.rpartition(":")
    if not sep or not where or not attribute:
        raise BotLoadError(
            f"--bot {spec!r}: expected smart, random, module:callable or file.py:callable")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise BotLoadError(f"--bot {spec!r}: no file {str(path)!r}")
        name = f"p2pcards_user_bot_{path.stem}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise BotLoadError(f"--bot {spec!r}: {str(path)!r} cannot be loaded as Python")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the user's code: report, never a traceback
            del sys.modules[name]
            raise BotLoadError(f"--bot {spec!r}: loading {str(path)!r} failed: "
                               f"{type(exc).__name__}: {exc}") from None
    else:
        if "" not in sys.path and "." not in sys.path:
            sys.path.insert(0, "")  # a module in the current directory, as `python -m` finds it
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as exc:
            raise BotLoadError(f"--bot {spec!r}: no module named {exc.name!r}") from None
        except Exception as exc:
            raise BotLoadError(f"--bot {spec!r}: importing {where!r} failed: "
                               f"{type(exc).__name__}: {exc}") from None
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BotLoadError(f"--bot {spec!r}: {where!r} has no attribute "
                               f"{attribute!r}") from None
    if not callable(target):
        raise BotLoadError(f"--bot {spec!r}: {attribute!r} is not callable")
    return target


def check_bot_spec(spec: str) -> None:
    """Raise :class:`BotLoadError` now if ``spec`` cannot name a bot (a built-in kind, or an
    importable callable), before any table is joined. The callable is not called."""
    if spec not in BOT_KINDS:
        _import_target(spec)


def load_bot(spec: str, game: str, seat: int, seed: int | None) -> Bot:
    """The bot ``spec`` names (see the module docstring) for ``seat`` of a ``game`` table."""
    if spec in BOT_KINDS:
        return make_bot(game, spec, seed)
    factory = _import_target(spec)
    try:
        bot = factory(game=game, seat=seat, seed=seed)
    except Exception as exc:
        raise BotLoadError(f"--bot {spec!r}: making the bot failed: "
                           f"{type(exc).__name__}: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotLoadError(f"--bot {spec!r}: the object it returned has no choose(observation, "
                           f"legal) method")
    if not isinstance(getattr(bot, "name", None), str):
        raise BotLoadError(f"--bot {spec!r}: the object it returned has no text 'name'")
    loaded: Bot = bot
    return loaded
