"""AES-256-GCM for sensitive values (``cryptography``), with key ids so keys can rotate.

A sealed value is ``{"kid", "n", "ct"}`` (key id, 96-bit random nonce, ciphertext + tag, both
base64). The associated data binds it to its owner (``tenant_id:user_id``): a ciphertext copied
to another user's row does not open. Keys come from ``MEMLANE_ENCRYPTION_KEY`` (base64 of 32
bytes) with id ``MEMLANE_ENCRYPTION_KEY_ID``; older keys stay readable through
``MEMLANE_ENCRYPTION_PREVIOUS_KEYS`` (``{"kid": "base64", …}``). Without a configured key (the
embedded development mode) a key is generated once into ``data_dir/encryption.key`` (0600).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from app.config import Settings

KEY_FILE = "encryption.key"
NONCE_BYTES = 12


class SealError(Exception):
    """A sealed value could not be opened (unknown key id, wrong owner, tampered)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode(), validate=True)


@dataclass
class Cipher:
    keys: dict[str, bytes]
    current: str

    def seal(self, plaintext: str, owner: str) -> dict[str, str]:
        nonce = secrets.token_bytes(NONCE_BYTES)
        ct = AESGCM(self.keys[self.current]).encrypt(nonce, plaintext.encode(), owner.encode())
        return {"kid": self.current, "n": _b64(nonce), "ct": _b64(ct)}

    def open(self, sealed: dict[str, str], owner: str) -> str:
        """The plaintext. Raises SealError."""
        key = self.keys.get(sealed.get("kid", ""))
        if key is None:
            raise SealError(f"no key with id {sealed.get('kid')!r}")
        try:
            plain = AESGCM(key).decrypt(_unb64(sealed["n"]), _unb64(sealed["ct"]), owner.encode())
        except Exception as exc:
            raise SealError("sealed value does not open for this owner") from exc
        return plain.decode()

    def fingerprint(self, value: str) -> str:
        """A short keyed hash (HMAC-SHA-256) naming a value without revealing it: equal values
        get equal tokens, so duplicates are still recognised."""
        digest = hmac.new(self.keys[self.current], value.encode(), hashlib.sha256).hexdigest()
        return digest[:10]


def load_cipher(settings: Settings) -> Cipher:
    """The configured keys, or the generated key file of the data directory."""
    keys: dict[str, bytes] = {}
    if settings.encryption_previous_keys is not None:
        for kid, b64 in json.loads(settings.encryption_previous_keys.get_secret_value()).items():
            keys[kid] = _unb64(b64)
    if settings.encryption_key is not None:
        current = settings.encryption_key_id
        keys[current] = _unb64(settings.encryption_key.get_secret_value())
    else:
        current, key = _key_file(settings)
        keys[current] = key
    if any(len(k) != 32 for k in keys.values()):
        raise ValueError("encryption keys must be 32 bytes (base64 of 32 random bytes)")
    return Cipher(keys=keys, current=current)


def _key_file(settings: Settings) -> tuple[str, bytes]:
    path = settings.data_dir / KEY_FILE
    if not path.exists():
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first
        else:
            with os.fdopen(fd, "w") as f:
                f.write(f"local1:{_b64(secrets.token_bytes(32))}\n")
    kid, b64 = path.read_text().strip().split(":", 1)
    return kid, _unb64(b64)
