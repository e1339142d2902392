"""AES/CFB8 against NIST SP 800-38A's published vectors (F.3.7, F.3.8), as a stream."""
from __future__ import annotations

import pytest

from proxy.protocol.cipher import StreamCipher

KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
IV = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
PLAIN = bytes.fromhex("6bc1bee22e409f96e93d7e117393172aae2d")
CIPHER = bytes.fromhex("3b79424c9c0dd436bace9e0ed4586a4f32b9")


def test_encrypts_the_nist_vector() -> None:
    assert StreamCipher(KEY, IV).encrypt(PLAIN) == CIPHER


def test_decrypts_the_nist_vector() -> None:
    assert StreamCipher(KEY, IV).decrypt(CIPHER) == PLAIN


@pytest.mark.parametrize("cut", [1, 5, 7, 16, 17])
def test_the_stream_does_not_care_where_reads_split(cut: int) -> None:
    # TCP hands a leg arbitrary pieces; CFB8 state must carry across calls.
    enc = StreamCipher(KEY, IV)
    assert enc.encrypt(PLAIN[:cut]) + enc.encrypt(PLAIN[cut:]) == CIPHER
    dec = StreamCipher(KEY, IV)
    assert dec.decrypt(CIPHER[:cut]) + dec.decrypt(CIPHER[cut:]) == PLAIN


def test_minecraft_uses_the_secret_as_iv() -> None:
    secret = bytes(range(16, 32))
    assert StreamCipher(secret).encrypt(PLAIN) == StreamCipher(secret, secret).encrypt(PLAIN)
    assert StreamCipher(secret).encrypt(PLAIN) != StreamCipher(secret, IV).encrypt(PLAIN)


def test_each_direction_keeps_its_own_state() -> None:
    # One StreamCipher serves a leg both ways: encrypting must not advance decryption.
    leg = StreamCipher(KEY, IV)
    leg.encrypt(PLAIN)
    assert leg.decrypt(CIPHER) == PLAIN
