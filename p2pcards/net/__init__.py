"""Direct play over TCP with Trio: framing, invites, the handshake, the hosting hub, the peer loop.

Layers, bottom up (each module has one job):

- :mod:`.framed`: :class:`~.framed.FramedStream`, length-prefixed frames over any Trio stream
  with a hard size limit, and msgpack control messages on top of them.
- :mod:`.handshake`: the joiner's side of the seating handshake over a connection (the
  messages, checks and the one-line invite are the sans-IO :mod:`p2pcards.seating`).
- :mod:`.session`: the match loop shared by every peer: local :class:`~p2pcards.table.Table`
  objects, remote links, routing, timeouts, the transcript.
- :mod:`.hub`: the hosting peer: listens, seats joiners, builds the genesis, forwards every frame.
- :mod:`.peer`: the joining peer.
- :mod:`.seats`: a seat's secrets (fresh, or seeded to reproduce an in-memory match) and bots.
- :mod:`.demo`: ``p2pcards demo``, bots in separate processes, then the verification.

Every failure surfaces as a :class:`~.errors.MatchFailure` carrying one sentence and an exit
status (3 for network and peer trouble, 1 for a protocol violation); :mod:`.nursery` turns a
Trio nursery's exception group into that one failure.
"""
