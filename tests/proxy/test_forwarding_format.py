"""The forwarding formats byte for byte, against vectors written out from the published
formats in the test itself (struct and hmac here, never the encoder under test)."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.connection import forwarding as fw
from proxy.connection.profile import GameProfile, ProfileError, ProfileProperty, offline_uuid, profile_from_session
from tests.forwarding_receiver import Refused, read_legacy, read_modern

SECRET = b"s3cr3t-shared-with-paper"
UUID = uuid.UUID("069a79f4-44e9-4726-a5be-fca90e38aaf5")
# A textures property shaped as Mojang sends it: base64 of a JSON object naming the skin.
TEXTURES = base64.b64encode(json.dumps({
    "timestamp": 1700000000000, "profileId": "069a79f444e94726a5befca90e38aaf5", "profileName": "Notch",
    "textures": {"SKIN": {"url": "http://textures.minecraft.net/texture/292009a4925b58f02c77dadc3ecef07ea4c7472f64e0fdc32ce5522489362680"}},
}).encode()).decode()
SIGNATURE = "c2lnbmF0dXJlLW9mLXRoZS10ZXh0dXJlcw=="
PROFILE = GameProfile(UUID, "Notch", (ProfileProperty("textures", TEXTURES, SIGNATURE),))


def _string(text: str) -> bytes:
    raw = text.encode("utf-8")
    assert len(raw) < 128  # a one-byte varint length, written by hand below
    return bytes([len(raw)]) + raw


def _long_string(text: str) -> bytes:
    raw = text.encode("utf-8")
    assert 128 <= len(raw) < 16384  # a two-byte varint length
    return bytes([(len(raw) & 0x7F) | 0x80, len(raw) >> 7]) + raw


def test_offline_uuid_is_vanillas_name_uuid() -> None:
    # Java: UUID.nameUUIDFromBytes("OfflinePlayer:Notch".getBytes(UTF_8)); MD5, then version 3 and the IETF variant.
    digest = bytearray(hashlib.md5(b"OfflinePlayer:Notch").digest())
    digest[6] = (digest[6] & 0x0F) | 0x30
    digest[8] = (digest[8] & 0x3F) | 0x80
    assert offline_uuid("Notch") == uuid.UUID(bytes=bytes(digest))
    assert str(offline_uuid("Notch")) == "b50ad385-829d-3141-a216-7e7d7539ba7f"


def test_velocity_version_1_payload_byte_for_byte() -> None:
    info = fw.PlayerInfo(PROFILE, "203.0.113.7", protocol=758)
    expected_data = (
        b"\x01"                                   # varint forwarding version 1
        + _string("203.0.113.7")                  # client address
        + struct.pack(">QQ", UUID.int >> 64, UUID.int & (2**64 - 1))  # uuid: two big-endian longs
        + _string("Notch")
        + b"\x01"                                 # one property
        + _string("textures") + _long_string(TEXTURES) + b"\x01" + _string(SIGNATURE)
    )
    expected = hmac.new(SECRET, expected_data, hashlib.sha256).digest() + expected_data
    assert fw.Forwarding("velocity", SECRET).answer(fw.LoginPluginRequest(7, fw.CHANNEL, b""), info) == expected
    assert len(expected) == 32 + len(expected_data)


def test_velocity_unsigned_property_and_lazy_session_version() -> None:
    profile = GameProfile(UUID, "Notch", (ProfileProperty("extra", "v"),))
    info = fw.PlayerInfo(profile, "2001:db8::1", protocol=769)
    expected_data = (b"\x04" + _string("2001:db8::1") + UUID.bytes + _string("Notch")
                     + b"\x01" + _string("extra") + _string("v") + b"\x00")
    request = fw.LoginPluginRequest(1, fw.CHANNEL, b"\x04")  # Paper asks for up to 4
    answer = fw.Forwarding("velocity", SECRET).answer(request, info)
    assert answer == hmac.new(SECRET, expected_data, hashlib.sha256).digest() + expected_data


def test_velocity_key_versions_for_1_19_clients() -> None:
    key = fw.ChatKey(1_700_000_000_000, b"\x30\x82pub", b"sig" * 3, linked=True, holder=UUID)
    info = fw.PlayerInfo(PROFILE, "198.51.100.2", protocol=760, key=key)
    base = (_string("198.51.100.2") + UUID.bytes + _string("Notch") + b"\x01" + _string("textures")
            + _long_string(TEXTURES) + b"\x01" + _string(SIGNATURE))
    key_bytes = struct.pack(">q", 1_700_000_000_000) + b"\x05\x30\x82pub" + b"\x09" + b"sig" * 3
    expected_v3 = b"\x03" + base + key_bytes + b"\x01" + UUID.bytes
    forwarding = fw.Forwarding("velocity", SECRET)
    assert forwarding.answer(fw.LoginPluginRequest(1, fw.CHANNEL, b"\x04"), info) == \
        hmac.new(SECRET, expected_v3, hashlib.sha256).digest() + expected_v3
    # A linked key cannot be sent as version 2: a backend asking for 2 gets version 1, without it.
    expected_v1 = b"\x01" + base
    assert forwarding.answer(fw.LoginPluginRequest(1, fw.CHANNEL, b"\x02"), info) == \
        hmac.new(SECRET, expected_v1, hashlib.sha256).digest() + expected_v1
    # 1.19's key (not linked) goes as version 2.
    generic = fw.PlayerInfo(PROFILE, "198.51.100.2", protocol=759, key=key.__class__(
        1_700_000_000_000, b"\x30\x82pub", b"sig" * 3, linked=False))
    expected_v2 = b"\x02" + base + key_bytes
    assert forwarding.answer(fw.LoginPluginRequest(1, fw.CHANNEL, b"\x04"), generic) == \
        hmac.new(SECRET, expected_v2, hashlib.sha256).digest() + expected_v2


@pytest.mark.parametrize(("requested", "protocol", "has_key", "linked", "version"), [
    (b"", 769, False, False, 1),          # no byte: version 1
    (b"\x01", 769, False, False, 1),
    (b"\x04", 769, False, False, 4),      # 1.19.3+: lazy session
    (b"\x03", 769, False, False, 1),      # ... or 1 when 4 is not understood
    (b"\x7f", 769, False, False, 4),      # capped at what we speak
    (b"\x04", 758, False, False, 1),      # before 1.19 there is no key
    (b"\x04", 759, True, False, 2),
    (b"\x04", 760, True, True, 3),
    (b"\x02", 760, True, True, 1),
    (b"\x04", 760, False, False, 1),      # 1.19.1 without a key
    (b"\x00\x04", 769, False, False, 1),  # not one byte: version 1, as Velocity reads it
])
def test_version_negotiation_follows_velocity(requested: bytes, protocol: int, has_key: bool, linked: bool,
                                              version: int) -> None:
    key = fw.ChatKey(1, b"k", b"s", linked=linked) if has_key else None
    info = fw.PlayerInfo(PROFILE, "127.0.0.1", protocol=protocol, key=key)
    assert fw.negotiate(fw.requested_version(requested), info) == version


def test_receiver_reads_what_the_proxy_sends_and_refuses_a_wrong_secret() -> None:
    info = fw.PlayerInfo(PROFILE, "203.0.113.7", protocol=769)
    data = fw.Forwarding("velocity", SECRET).answer(fw.LoginPluginRequest(0, fw.CHANNEL, b"\x04"), info)
    got = read_modern(data, SECRET)
    assert (got.version, got.address, got.uuid, got.name) == (4, "203.0.113.7", str(UUID), "Notch")
    assert got.properties == (("textures", TEXTURES, SIGNATURE),)
    with pytest.raises(Refused, match="Unable to verify player details"):
        read_modern(data, b"another secret")
    with pytest.raises(Refused, match="connect with Velocity"):
        read_modern(None, SECRET)


def test_legacy_host_as_spigot_splits_it() -> None:
    info = fw.PlayerInfo(PROFILE, "203.0.113.7", protocol=340)
    host = fw.Forwarding("legacy").upstream_host("play.example.org", info)
    expected_json = json.dumps([{"name": "textures", "value": TEXTURES, "signature": SIGNATURE}])
    fields = host.split("\0")
    assert fields[:3] == ["play.example.org", "203.0.113.7", "069a79f444e94726a5befca90e38aaf5"]
    assert json.loads(fields[3]) == json.loads(expected_json)
    virtual, got = read_legacy(host)
    assert (virtual, got.address, got.uuid, got.properties) == (
        "play.example.org", "203.0.113.7", str(UUID), (("textures", TEXTURES, SIGNATURE),))


def test_legacy_host_drops_what_a_client_smuggled_after_a_nul() -> None:
    info = fw.PlayerInfo(GameProfile(offline_uuid("eve"), "eve"), "198.51.100.9", protocol=340)
    host = fw.legacy_host("mc.example.org\x001.2.3.4\x00" + "0" * 32, info)
    assert host == "mc.example.org\x00198.51.100.9\x00" + offline_uuid("eve").hex + "\x00[]"


def test_forwarding_never_shows_its_secret() -> None:
    forwarding = fw.Forwarding("velocity", SECRET)
    assert SECRET.decode() not in repr(forwarding) + forwarding.describe() + str(forwarding)
    with pytest.raises(fw.ForwardingError):
        fw.Forwarding("velocity", b"")


@pytest.mark.parametrize(("host", "text"), [
    ("10.0.0.1", "10.0.0.1"), ("::1", "::1"), ("[2001:db8:0:0::1]", "2001:db8::1"),
    ("fe80::1%eth0", "fe80::1"), ("::ffff:192.0.2.5", "192.0.2.5"),
])
def test_client_address_text(host: str, text: str) -> None:
    assert fw.client_address(host) == text


def test_login_plugin_packets() -> None:
    request = b"\x04" + b"\x2a" + _string(fw.CHANNEL) + b"\x04"
    assert fw.parse_login_plugin_request(request) == fw.LoginPluginRequest(42, fw.CHANNEL, b"\x04")
    assert fw.login_plugin_response(2, 42, b"abc") == b"\x02\x2a\x01abc"
    assert fw.login_plugin_response(2, 300, None) == b"\x02\xac\x02\x00"


def test_session_profile_parsing() -> None:
    answer = {"id": UUID.hex, "name": "Notch",
              "properties": [{"name": "textures", "value": TEXTURES, "signature": SIGNATURE}]}
    assert profile_from_session(answer, "notch") == PROFILE
    for bad in (None, {}, {"id": "zz", "name": "Notch"}, {"id": UUID.hex, "name": "Other"},
                {"id": UUID.hex, "name": "Notch", "properties": [{"name": 1}]},
                {"id": UUID.hex, "name": "Notch", "properties": "x"}):
        with pytest.raises(ProfileError):
            profile_from_session(bad, "Notch")


_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", min_size=1, max_size=16)
_text = st.text(max_size=400)  # any Unicode, including characters outside the BMP
_properties = st.lists(st.builds(ProfileProperty, st.text(min_size=1, max_size=40), _text,
                                 st.one_of(st.none(), st.text(min_size=1, max_size=700))), max_size=4)
_addresses = st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)).map(str)


@settings(max_examples=150, deadline=None)
@given(name=_names, player_uuid=st.uuids(), properties=_properties, address=_addresses,
       requested=st.integers(-128, 127), protocol=st.sampled_from([393, 758, 759, 760, 761, 769, 775]),
       key=st.one_of(st.none(), st.builds(fw.ChatKey, st.integers(-(2**63), 2**63 - 1), st.binary(max_size=600),
                                          st.binary(max_size=600), st.booleans(), st.one_of(st.none(), st.uuids()))))
def test_any_player_info_reads_back_as_sent(name: str, player_uuid: uuid.UUID, properties: list[ProfileProperty],
                                            address: str, requested: int, protocol: int, key: fw.ChatKey | None) -> None:
    if protocol not in (759, 760):
        key = None  # only 1.19-1.19.2 clients send a key at login
    info = fw.PlayerInfo(GameProfile(player_uuid, name, tuple(properties)), address, protocol, key)
    data = fw.Forwarding("velocity", SECRET).answer(
        fw.LoginPluginRequest(0, fw.CHANNEL, struct.pack(">b", requested)), info)
    got = read_modern(data, SECRET)
    assert (got.address, got.uuid, got.name) == (address, str(player_uuid), name)
    assert got.properties == tuple((p.name, p.value, p.signature) for p in properties)
    assert got.version == fw.negotiate(requested, info)
    if got.version in (2, 3):
        assert key is not None and got.key == (key.expires_at_ms, key.public_key, key.signature)
    else:
        assert got.key is None
    assert got.holder == (str(key.holder) if got.version == 3 and key is not None and key.holder else None)


def test_login_plugin_protocol_agrees_with_every_versions_table() -> None:
    from proxy.protocol.tables import known_versions, table_for_version

    for name, protocol in known_versions():
        table = table_for_version(name)
        has_plugin_messages = (table.packet_id("login", "toClient", "login_plugin_request") is not None
                               and table.packet_id("login", "toServer", "login_plugin_response") is not None)
        assert has_plugin_messages == (protocol >= fw.LOGIN_PLUGIN_PROTOCOL), name
        assert (fw.Forwarding("velocity", SECRET).refusal(protocol) is None) == has_plugin_messages, name
