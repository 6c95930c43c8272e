"""``p2pcards relay`` as a release older than hole punching answers: a ``hello`` that asks
``see`` (RELAY.md, "Observed addresses") is refused ``bad-message``, the way that release's
hello parser refused any key it did not know. Everything else is the unmodified relay.

Run as a program (the tests start it as a real process)::

    python tests/old_relay.py relay --listen HOST:PORT ...
"""

from __future__ import annotations

import sys

from p2pcards.cli import main
from p2pcards.relay import handshake
from p2pcards.relay.errors import RelayProtocolError
from p2pcards.relay.messages import Hello, decode_hello


def hello_without_see(data: bytes) -> Hello:
    """Parse a ``hello`` as a relay older than ``see`` did: exactly the keys it knew."""
    hello = decode_hello(data)
    if hello.see:
        raise RelayProtocolError("bad-message", "hello message must have exactly the keys "
                                 "['id', 'room', 'since', 't', 'v']")
    return hello


if __name__ == "__main__":
    handshake.decode_hello = hello_without_see  # the server's handshake parses through this
    sys.exit(main(sys.argv[1:]))
