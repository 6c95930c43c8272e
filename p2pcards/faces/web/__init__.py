"""The browser face: a page served by the peer process itself (no server anywhere else).

:mod:`.server` is the ASGI app (loopback, random port, token in every URL) run by ``hypercorn``'s
Trio worker; :mod:`.hub` is a seat's page (its player hooks and its WebSocket messages, built
from :class:`~p2pcards.faces.view.SeatView`); :mod:`.replay` turns a recorded match into the
frames ``p2pcards show --web`` steps through. ``static/`` holds the page: plain ES modules and
CSS, no build step.
"""
