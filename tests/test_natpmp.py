"""NAT-PMP (RFC 6886) and PCP (RFC 6887) messages against bytes written out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.net.natpmp import (
    PortMapRefused,
    natpmp_delete_request,
    natpmp_external_address_request,
    natpmp_map_request,
    parse_natpmp_external_address,
    parse_natpmp_map,
    parse_pcp_map,
    pcp_map_request,
)

NONCE = bytes(range(1, 13))


def test_external_address_request_is_version_0_opcode_0() -> None:
    assert natpmp_external_address_request() == b"\x00\x00"


def test_map_request_bytes_follow_rfc_6886_section_3_3() -> None:
    # version 0, opcode 2 (TCP), reserved 0, internal 7447 = 0x1d17, suggested 7447,
    # lifetime 7200 s = 0x00001c20
    expected = bytes.fromhex("00 02 0000 1d17 1d17 00001c20")
    assert natpmp_map_request(7447, 7447, 7200) == expected


def test_delete_request_has_zero_external_port_and_lifetime() -> None:
    assert natpmp_delete_request(7447) == bytes.fromhex("00 02 0000 1d17 0000 00000000")


def test_external_address_answer_gives_the_ipv4_address() -> None:
    # version 0, opcode 128, result 0, epoch 0x00000e10, address 203.0.113.7
    answer = bytes.fromhex("00 80 0000 00000e10 cb007107")
    assert parse_natpmp_external_address(answer) == "203.0.113.7"


def test_map_answer_gives_port_and_lease() -> None:
    # version 0, opcode 130, result 0, epoch 5, internal 7447, external 40000 = 0x9c40,
    # lifetime 3600 = 0x00000e10
    answer = bytes.fromhex("00 82 0000 00000005 1d17 9c40 00000e10")
    mapping = parse_natpmp_map(answer, 7447)
    assert (mapping.internal_port, mapping.external_port, mapping.lifetime) == (7447, 40000, 3600)


@pytest.mark.parametrize(("code", "words"), [
    (1, "unsupported version"), (2, "not authorized or refused"), (3, "network failure"),
    (4, "out of resources"), (5, "unsupported opcode"), (77, "unknown result code"),
])
def test_natpmp_refusals_give_one_sentence(code: int, words: str) -> None:
    answer = bytes.fromhex("00 82") + code.to_bytes(2, "big") + bytes(12)
    with pytest.raises(PortMapRefused) as caught:
        parse_natpmp_map(answer, 7447)
    text = str(caught.value)
    assert words in text and f"code {code}" in text and "\n" not in text


@pytest.mark.parametrize(("answer", "words"), [
    (b"\x00", "too few"),
    (bytes.fromhex("01 82 0000"), "version 1"),
    (bytes.fromhex("00 81 0000 00000005 1d17 9c40 00000e10"), "opcode 129"),
    (bytes.fromhex("00 82 0000 00000005 1d17"), "not 16"),
    (bytes.fromhex("00 82 0000 00000005 1d18 9c40 00000e10"), "internal port 7448"),
])
def test_malformed_natpmp_answers_are_named(answer: bytes, words: str) -> None:
    with pytest.raises(PortMapRefused, match=words):
        parse_natpmp_map(answer, 7447)


def test_pcp_map_request_bytes_follow_rfc_6887() -> None:
    expected = bytes.fromhex(
        "02 01 0000 00001c20"                        # version 2, MAP, reserved, lifetime 7200
        "00000000000000000000ffff c0a80a02"          # client 192.168.10.2, IPv4-mapped
        "0102030405060708090a0b0c"                   # mapping nonce
        "06 000000 1d17 1d17"                        # TCP, reserved, internal, suggested port
        "00000000000000000000000000000000")          # suggested external address: any
    request = pcp_map_request("192.168.10.2", NONCE, 7447, 7447, 7200)
    assert len(request) == 60
    assert request == expected


def test_pcp_request_takes_an_ipv6_client_address() -> None:
    request = pcp_map_request("2001:db8::5", NONCE, 7447, 0, 0)
    assert request[8:24] == bytes.fromhex("20010db8000000000000000000000005")
    assert request[4:8] == bytes(4)


def pcp_answer(result: int = 0, nonce: bytes = NONCE, port: int = 7447) -> bytes:
    """A PCP MAP answer as RFC 6887 §7.2 and §11.1 lay it out."""
    return bytes.fromhex(
        "02 81 00") + bytes([result]) + bytes.fromhex(
        "00000e10 0000002a" + "00" * 12) + nonce + bytes.fromhex(
        "06 000000") + port.to_bytes(2, "big") + bytes.fromhex(
        "9c40 00000000000000000000ffff cb007107")


def test_pcp_answer_gives_port_address_and_lease() -> None:
    mapping = parse_pcp_map(pcp_answer(), NONCE, 7447)
    assert mapping.external_port == 40000
    assert mapping.lifetime == 3600
    assert mapping.external_address == "203.0.113.7"


@pytest.mark.parametrize(("code", "words"), [
    (2, "not authorized"), (8, "no resources"), (11, "cannot provide"), (200, "unknown"),
])
def test_pcp_refusals_give_one_sentence(code: int, words: str) -> None:
    with pytest.raises(PortMapRefused, match=f"refused by PCP: .*{words}.*code {code}"):
        parse_pcp_map(pcp_answer(result=code), NONCE, 7447)


def test_pcp_answer_with_another_nonce_is_refused() -> None:
    with pytest.raises(PortMapRefused, match="nonce"):
        parse_pcp_map(pcp_answer(nonce=bytes(12)), NONCE, 7447)


def test_pcp_answer_for_another_port_is_refused() -> None:
    with pytest.raises(PortMapRefused, match="not TCP port 7447"):
        parse_pcp_map(pcp_answer(port=80), NONCE, 7447)


def test_natpmp_only_gateway_answering_pcp_is_named() -> None:
    # RFC 6887 §9: a NAT-PMP server answers version 2 with its own header, result 1.
    answer = bytes.fromhex("00 81 0001 00000005")
    with pytest.raises(PortMapRefused, match="NAT-PMP only"):
        parse_pcp_map(answer, NONCE, 7447)


@given(st.integers(1, 65535), st.integers(0, 65535), st.integers(0, 2**32 - 1))
def test_map_request_round_trips_through_an_answer(inside: int, outside: int,
                                                   lifetime: int) -> None:
    request = natpmp_map_request(inside, outside, lifetime)
    answer = b"\x00\x82\x00\x00\x00\x00\x00\x01" + request[4:]
    mapping = parse_natpmp_map(answer, inside)
    assert (mapping.internal_port, mapping.external_port, mapping.lifetime) == (
        inside, outside, lifetime)


@given(st.binary(max_size=80))
def test_any_bytes_give_a_mapping_or_one_sentence(answer: bytes) -> None:
    for parse in (lambda: parse_natpmp_map(answer, 7447),
                  lambda: parse_pcp_map(answer, NONCE, 7447)):
        try:
            parse()
        except PortMapRefused as refusal:
            assert "\n" not in str(refusal)


def test_ports_out_of_range_are_refused_before_sending() -> None:
    with pytest.raises(ValueError, match="internal port 0"):
        natpmp_map_request(0, 0, 60)
    with pytest.raises(ValueError, match="70000"):
        pcp_map_request("192.168.10.2", NONCE, 7447, 70000, 60)
