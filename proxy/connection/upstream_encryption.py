"""The proxy's answer to a server's encryption request, as a vanilla client gives it.

How this works: an online-mode server sends Encryption Request (its server id, usually
empty, its RSA public key in DER and a verify token; 1.20.5+ adds whether the client
must authenticate). The client picks a 16-byte shared secret, tells the session server
it joins (``join`` with the digest computed here), then sends Encryption Response: the
secret and the verify token, each encrypted with the server's key (PKCS#1 v1.5). From
the byte after that response, both directions of that leg are AES/CFB8 with the secret
as key and IV. Nothing here does I/O: ``plan`` takes the decoded request and the secret
and returns what to send and what to join with.
"""
from __future__ import annotations

from typing import Any

import attrs

from proxy.protocol import key_exchange
from proxy.protocol.errors import PeerError

SECRET_BYTES = 16
# An RSA-1024 key in DER is 162 bytes; vanilla's are 1024-bit. Anything far larger is not a key.
MAX_PUBLIC_KEY_BYTES = 1024
MAX_VERIFY_TOKEN_BYTES = 64


@attrs.frozen
class EncryptionPlan:
    response: dict[str, Any]  # the Encryption Response's fields, for this version's layout
    digest: str  # the server hash the session server's join is told
    authenticate: bool  # False: the server said the client need not join (1.20.5+)


def plan(request: dict[str, Any], secret: bytes, response_fields: dict[str, Any]) -> EncryptionPlan:
    """``response_fields`` is the response layout's field-type map: 1.19-1.19.2 wrap the
    verify token in a switch (``hasVerifyToken``/``crypto``), every other version has it
    as a plain field."""
    if len(secret) != SECRET_BYTES:
        raise ValueError("the shared secret must be 16 bytes")
    server_id = request.get("serverId", "")
    key_der = request.get("publicKey")
    token = request.get("verifyToken")
    if not isinstance(server_id, str) or len(server_id) > 20:
        raise PeerError("encryption request with a bad server id")
    if not isinstance(key_der, (bytes, bytearray)) or not 0 < len(key_der) <= MAX_PUBLIC_KEY_BYTES:
        raise PeerError("encryption request without a usable public key")
    if not isinstance(token, (bytes, bytearray)) or len(token) > MAX_VERIFY_TOKEN_BYTES:
        raise PeerError("encryption request with a bad verify token")
    try:
        public_key = key_exchange.import_public_key(bytes(key_der))
        encrypted_secret = key_exchange.encrypt_secret(public_key, secret)
        encrypted_token = key_exchange.encrypt_secret(public_key, bytes(token))
    except (ValueError, TypeError) as exc:
        raise PeerError(f"the server's public key is unusable ({type(exc).__name__})") from None
    response: dict[str, Any] = {"sharedSecret": encrypted_secret}
    if "hasVerifyToken" in response_fields:
        response["hasVerifyToken"] = True
        response["crypto"] = {"verifyToken": encrypted_token}
    else:
        response["verifyToken"] = encrypted_token
    digest = key_exchange.server_hash(server_id.encode("ascii", "replace"), secret, bytes(key_der))
    return EncryptionPlan(response, digest, bool(request.get("shouldAuthenticate", True)))
