"""Away seats and re-entry (SPEC §11.7): the limits of the wait for a seat whose connection was
lost (the policy itself is :class:`~.links.Reentry`)."""

from __future__ import annotations

__all__ = ["MAX_RETURN_WAIT", "AWAY_REMINDERS"]

MAX_RETURN_WAIT = 86_400
"""The longest return wait (``--return-wait``), in seconds: one day."""
AWAY_REMINDERS = (300.0, 60.0, 30.0, 10.0)
"""Seconds left at which the wait for an away seat is said again."""
