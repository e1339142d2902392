"""Online mode's key exchange: the RSA key pair, the shared secret under it, the server hash.

The server (here: the proxy toward an online-mode client) sends its RSA public key as
DER SubjectPublicKeyInfo; the client answers with a 16-byte secret and the verify token,
each encrypted with PKCS#1 v1.5; both then ask the session server about the same
"server hash": SHA-1 over the server id, the secret and the key, written as Java's
``BigInteger.toString(16)`` writes a signed number (a minus sign, no leading zeros).
"""
from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

KEY_BITS = 1024  # what vanilla servers use; clients accept it


def make_keypair() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)


def export_public_key(private: rsa.RSAPrivateKey) -> bytes:
    return private.public_key().public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)


def import_public_key(der: bytes) -> rsa.RSAPublicKey:
    key = serialization.load_der_public_key(der)
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError("not an RSA public key")
    return key


def encrypt_secret(public: rsa.RSAPublicKey, data: bytes) -> bytes:
    return public.encrypt(data, padding.PKCS1v15())


def decrypt_secret(private: rsa.RSAPrivateKey, data: bytes) -> bytes:
    return private.decrypt(data, padding.PKCS1v15())


def server_hash(server_id: bytes, secret: bytes, public_key_der: bytes) -> str:
    digest = hashlib.sha1(server_id + secret + public_key_der).digest()
    number = int.from_bytes(digest, "big", signed=True)
    return f"-{-number:x}" if number < 0 else f"{number:x}"
