"""A backend that requires player-info forwarding, for end-to-end tests.

    python -m tests.e2e.forwarding_backend --mode velocity --secret-file F --game 127.0.0.1:P

It stands where a Paper or Spigot server configured for a proxy stands, and does
what they do at login, from the published formats (the reading side is
``tests/forwarding_receiver.py``): in ``velocity`` mode it answers Login Start
with a Login Plugin Request on ``velocity:player_info`` asking for version 4,
checks the HMAC of the response with its own secret and reads the player info;
in ``legacy`` mode it splits the handshake's server address on NUL as Spigot's
``bungeecord: true`` does. A refusal is sent to the player as a login disconnect
with the reason a Paper/Spigot backend gives. An accepted player is handed, by a
plain byte relay, to a real game server (``--game``, flying-squid in offline
mode) with the original handshake and Login Start, so the player spawns and plays.

stdout, one JSON object per line:
    {"event":"listening","port":P}
    {"event":"forwarded","mode":M,"host":H,"version":V,"address":A,"uuid":U,"name":N,"properties":[...],...}
    {"event":"refused","mode":M,"reason":R}
"""
from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from typing import Any

from proxy.protocol import versions
from proxy.protocol.tables import table_for_version
from proxy.protocol.wire import FIXED, pack_string, pack_varint, read_string, read_varint
from tests.forwarding_receiver import Refused, read_legacy, read_modern

CHANNEL = "velocity:player_info"
MAX_FRAME = 2 * 1024 * 1024


def emit(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


class Frames:
    """Uncompressed frames (login happens before Set Compression): varint length, payload."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader
        self.buffer = bytearray()

    async def next(self) -> bytes:
        while True:
            if self.buffer:
                try:
                    length, start = read_varint(self.buffer, 0)
                except Exception:
                    length, start = -1, 0
                if length > MAX_FRAME:
                    raise Refused("frame too long")
                if length >= 0 and start + length <= len(self.buffer):
                    packet = bytes(self.buffer[start:start + length])
                    del self.buffer[:start + length]
                    return packet
            chunk = await self.reader.read(65536)
            if not chunk:
                raise ConnectionError("the proxy closed the connection")
            self.buffer += chunk


def frame(packet: bytes) -> bytes:
    return pack_varint(len(packet)) + packet


def parse_handshake(packet: bytes) -> tuple[int, str, int, int]:
    # Spigot with bungeecord: true reads the address with Short.MAX_VALUE as its limit, not 255.
    _, pos = read_varint(packet, 0)
    protocol, pos = read_varint(packet, pos)
    host, pos = read_string(packet, pos, limit=32767)
    port = FIXED["u16"].unpack_from(packet, pos)[0]
    next_state, _ = read_varint(packet, pos + 2)
    return protocol, host, port, next_state


def login_disconnect(protocol: int, reason: str) -> bytes:
    table = _table(protocol)
    pid = table.packet_id("login", "toClient", "disconnect")
    assert pid is not None
    return pack_varint(pid) + pack_string(json.dumps({"text": reason}))


def _table(protocol: int) -> Any:
    version = versions.by_protocol(protocol)
    if version is None:
        raise Refused(f"unsupported protocol {protocol}")
    return table_for_version(version.name)


def login_name(protocol: int, packet: bytes) -> str:
    _, pos = read_varint(packet, 0)
    name, _ = read_string(packet, pos, limit=16)
    return name


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


class Backend:
    def __init__(self, mode: str, secret: bytes, game: tuple[str, int]) -> None:
        self.mode = mode
        self.secret = secret
        self.game = game

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frames = Frames(reader)
        protocol = 0
        try:
            handshake = await frames.next()
            protocol, host, port, next_state = parse_handshake(handshake)
            if next_state != 2:
                writer.close()  # status pings are not this backend's business
                return
            if self.mode == "legacy":
                host, info = read_legacy(host)
                login_start = await frames.next()
                event = info.as_json() | {"name": login_name(protocol, login_start), "version": None}
            else:
                login_start = await frames.next()
                info = await self._velocity(frames, writer, protocol)
                event = info.as_json()
        except Refused as refused:
            emit({"event": "refused", "mode": self.mode, "reason": str(refused)})
            if protocol:
                try:
                    writer.write(frame(login_disconnect(protocol, str(refused))))
                    await writer.drain()
                except (Refused, ConnectionError, OSError):
                    pass
            writer.close()
            return
        except (ConnectionError, OSError):
            writer.close()
            return
        emit({"event": "forwarded", "mode": self.mode, "host": host} | event)
        await self._relay(reader, writer, frames, protocol, host, port, login_start)

    async def _velocity(self, frames: Frames, writer: asyncio.StreamWriter, protocol: int) -> Any:
        table = _table(protocol)
        request_id = table.packet_id("login", "toClient", "login_plugin_request")
        response_id = table.packet_id("login", "toServer", "login_plugin_response")
        if request_id is None or response_id is None:
            raise Refused("This server requires Minecraft 1.13 or newer (Velocity forwarding).")
        message_id = secrets.randbelow(1 << 31)
        writer.write(frame(pack_varint(request_id) + pack_varint(message_id) + pack_string(CHANNEL) + b"\x04"))
        await writer.drain()
        packet = await frames.next()
        pid, pos = read_varint(packet, 0)
        answered_id, pos = read_varint(packet, pos)
        if pid != response_id or answered_id != message_id:
            raise Refused("Unexpected query response")
        data = packet[pos + 1:] if packet[pos:pos + 1] == b"\x01" else None
        return read_modern(data, self.secret)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, frames: Frames,
                     protocol: int, host: str, port: int, login_start: bytes) -> None:
        try:
            game_reader, game_writer = await asyncio.open_connection(*self.game)
        except OSError:
            writer.write(frame(login_disconnect(protocol, "The game server behind the test backend is down")))
            writer.close()
            return
        # The game server is in offline mode and knows nothing of forwarding: a plain handshake.
        game_writer.write(frame(pack_varint(0) + pack_varint(protocol) + pack_string(host.split("\0")[0])
                                + FIXED["u16"].pack(port) + pack_varint(2)) + frame(login_start)
                          + bytes(frames.buffer))
        await game_writer.drain()
        await asyncio.gather(pipe(reader, game_writer), pipe(game_reader, writer))


async def serve(args: argparse.Namespace) -> None:
    secret = b""
    if args.secret_file:
        with open(args.secret_file, encoding="utf-8") as handle:
            secret = "".join(handle.read().splitlines()).encode("utf-8")
    host, _, port = args.game.rpartition(":")
    backend = Backend(args.mode, secret, (host, int(port)))
    server = await asyncio.start_server(backend.handle, "127.0.0.1", args.port)
    emit({"event": "listening", "port": server.sockets[0].getsockname()[1]})
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()

    def watch_stdin() -> None:
        sys.stdin.read()  # the driver closes stdin to stop us
        loop.call_soon_threadsafe(stdin_closed.set_result, None)

    loop.run_in_executor(None, watch_stdin)
    async with server:
        await stdin_closed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("velocity", "legacy"), required=True)
    parser.add_argument("--secret-file")
    parser.add_argument("--game", required=True, help="HOST:PORT of the offline game server behind")
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
