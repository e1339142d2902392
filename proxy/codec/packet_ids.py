"""The packets a connection watches outside the taps, by id, for one version."""
from __future__ import annotations

import attrs

from proxy.codec.versioned import VersionCodec
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER


@attrs.frozen
class WatchedIds:
    """Ids, for one version, of the packets the connection watches outside the taps;
    None where the version has no such packet. ``interesting`` marks the server's play
    ids the fast path must surface (subscribed, or a state change)."""

    login_acknowledged: int | None = None
    login_plugin_response: int | None = None
    finish_configuration: int | None = None
    configuration_acknowledged: int | None = None
    compress: int | None = None
    success: int | None = None
    encryption_begin: int | None = None
    login_disconnect: int | None = None
    login_plugin_request: int | None = None
    kick_disconnect: int | None = None
    start_configuration: int | None = None
    join_game: int | None = None
    registry_data: int | None = None
    transfer: int | None = None  # 1.20.5+: the server sends the player to another address
    transfer_configuration: int | None = None
    keep_alive: int | None = None  # play, server to client: timed with the client's echo (ClientPing)
    keep_alive_reply: int | None = None  # play, client to server
    interesting: bytes = bytes(128)

    @classmethod
    def for_codec(cls, codec: VersionCodec) -> "WatchedIds":
        table = codec.table
        play_s2c = {name: table.packet_id(State.PLAY, TO_CLIENT, name)
                    for name in ("kick_disconnect", "start_configuration", "login", "transfer", "keep_alive")}
        interesting = bytearray(128)
        for pid in [*play_s2c.values(), *codec.subscribed[TO_CLIENT]]:
            if pid is not None and pid < len(interesting):
                interesting[pid] = 1
        return cls(
            login_acknowledged=table.packet_id(State.LOGIN, TO_SERVER, "login_acknowledged"),
            login_plugin_response=table.packet_id(State.LOGIN, TO_SERVER, "login_plugin_response"),
            finish_configuration=table.packet_id(State.CONFIGURATION, TO_SERVER, "finish_configuration"),
            configuration_acknowledged=table.packet_id(State.PLAY, TO_SERVER, "configuration_acknowledged"),
            compress=table.packet_id(State.LOGIN, TO_CLIENT, "compress"),
            success=table.packet_id(State.LOGIN, TO_CLIENT, "success"),
            encryption_begin=table.packet_id(State.LOGIN, TO_CLIENT, "encryption_begin"),
            login_disconnect=table.packet_id(State.LOGIN, TO_CLIENT, "disconnect"),
            login_plugin_request=table.packet_id(State.LOGIN, TO_CLIENT, "login_plugin_request"),
            kick_disconnect=play_s2c["kick_disconnect"],
            start_configuration=play_s2c["start_configuration"],
            join_game=play_s2c["login"],
            registry_data=table.packet_id(State.CONFIGURATION, TO_CLIENT, "registry_data"),
            transfer=play_s2c["transfer"],
            transfer_configuration=table.packet_id(State.CONFIGURATION, TO_CLIENT, "transfer"),
            keep_alive=play_s2c["keep_alive"],
            keep_alive_reply=table.packet_id(State.PLAY, TO_SERVER, "keep_alive"),
            interesting=bytes(interesting),
        )
