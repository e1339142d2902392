"""Online mode's key exchange against published values and against itself."""
from __future__ import annotations

import hashlib

import pytest

from proxy.protocol import key_exchange as kx


@pytest.mark.parametrize(("name", "expected"), [
    # The three server hashes wiki.vg's protocol encryption page publishes for SHA-1 of a name alone.
    ("Notch", "4ed1f46bbe04bc756bcb17c0c7ce3e4632f06a48"),
    ("jeb_", "-7c9d5b0044c130109a5d7b5fb5c317c02b4e28c1"),
    ("simon", "88e16a1019277b15d58faf0541e11910eb756f6"),
])
def test_server_hash_is_javas_signed_hex(name: str, expected: str) -> None:
    assert kx.server_hash(name.encode(), b"", b"") == expected


def test_the_hash_covers_id_secret_and_key_in_that_order() -> None:
    digest = hashlib.sha1(b"id" + b"secret" + b"key").digest()
    number = int.from_bytes(digest, "big", signed=True)
    assert kx.server_hash(b"id", b"secret", b"key") == (f"-{-number:x}" if number < 0 else f"{number:x}")
    assert kx.server_hash(b"id", b"secret", b"key") != kx.server_hash(b"secret", b"id", b"key")


def test_a_secret_round_trips_through_the_exported_key() -> None:
    private = kx.make_keypair()
    der = kx.export_public_key(private)
    assert der[:1] == b"\x30"  # DER SubjectPublicKeyInfo: a SEQUENCE
    secret = bytes(range(16))
    sealed = kx.encrypt_secret(kx.import_public_key(der), secret)
    assert len(sealed) == kx.KEY_BITS // 8 and sealed != secret
    assert kx.decrypt_secret(private, sealed) == secret


def test_a_key_that_is_not_rsa_is_refused() -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    der = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(ValueError):
        kx.import_public_key(der)
    with pytest.raises(ValueError):
        kx.import_public_key(b"not a key")
