"""AES/CFB8 stream cipher for an encrypted leg (online mode).

cryptography moved CFB8 to its ``decrepit`` package; importing it from there
keeps the deprecation warning quarry triggers out of our logs, and the fallback
keeps older cryptography releases working.
"""
from __future__ import annotations

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

try:
    from cryptography.hazmat.decrepit.ciphers.modes import CFB8
except ImportError:  # cryptography < 43
    from cryptography.hazmat.primitives.ciphers.modes import CFB8  # type: ignore[attr-defined,no-redef,unused-ignore]


class StreamCipher:
    """One leg's cipher: Minecraft uses the shared secret as both key and IV.

    ``iv`` exists so the cipher can be checked against published CFB8 vectors,
    which use a separate IV.
    """

    def __init__(self, shared_secret: bytes, iv: bytes | None = None) -> None:
        cipher = Cipher(algorithms.AES(shared_secret), CFB8(shared_secret if iv is None else iv))
        self._encryptor = cipher.encryptor()
        self._decryptor = cipher.decryptor()

    def encrypt(self, data: bytes) -> bytes:
        return self._encryptor.update(data)

    def decrypt(self, data: bytes) -> bytes:
        return self._decryptor.update(data)
