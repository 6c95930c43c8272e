"""A STUN server for the network lab (RFC 5389 binding, RFC 5780 CHANGE-REQUEST), so that a
miniupnpd router whose WAN address is in a documentation range learns that its WAN side is not
filtered and turns port forwarding on.

Run as ``python3 tests/lab_stun.py ADDRESS_A ADDRESS_B`` inside the internet namespace: it
answers on both addresses at ports 3478 and 3479, from the address and port the request's
CHANGE-REQUEST asks for, prints ``stun: ready`` and serves until killed.
"""

from __future__ import annotations

import ipaddress
import select
import socket
import struct
import sys

MAGIC = 0x2112A442
PORTS = (3478, 3479)
CHANGE_IP, CHANGE_PORT = 0x04, 0x02


def answer(request: bytes, sender: tuple[str, int]) -> tuple[bytes, int] | None:
    """The binding answer to ``request`` and its CHANGE-REQUEST flags, or ``None``."""
    if len(request) < 20:
        return None
    kind, length, cookie = struct.unpack("!HHI", request[:8])
    if kind != 0x0001 or cookie != MAGIC:
        return None
    flags = 0
    at = 20
    while at + 4 <= min(len(request), 20 + length):
        attribute, size = struct.unpack("!HH", request[at:at + 4])
        if attribute == 0x0003 and size == 4:
            flags = struct.unpack("!I", request[at + 4:at + 8])[0]
        at += 4 + (size + 3) // 4 * 4
    address = int(ipaddress.IPv4Address(sender[0]))
    mapped = struct.pack("!HHBBHI", 0x0001, 8, 0, 1, sender[1], address)
    xored = struct.pack("!HHBBHI", 0x0020, 8, 0, 1, sender[1] ^ (MAGIC >> 16), address ^ MAGIC)
    body = mapped + xored
    return struct.pack("!HHI", 0x0101, len(body), MAGIC) + request[8:20] + body, flags


def main(first: str, second: str) -> None:
    sockets: dict[tuple[str, int], socket.socket] = {}
    for host in (first, second):
        for port in PORTS:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind((host, port))
            sockets[(host, port)] = sock
    print("stun: ready", flush=True)
    while True:
        readable, _, _ = select.select(list(sockets.values()), [], [])
        for sock in readable:
            request, sender = sock.recvfrom(2048)
            reply = answer(request, sender)
            if reply is None:
                continue
            host, port = sock.getsockname()
            if reply[1] & CHANGE_IP:
                host = second if host == first else first
            if reply[1] & CHANGE_PORT:
                port = PORTS[1] if port == PORTS[0] else PORTS[0]
            sockets[(host, port)].sendto(reply[0], sender)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
