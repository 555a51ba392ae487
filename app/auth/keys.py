"""API key material: generation, hashing, constant-time comparison."""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_PREFIX = "mlk_"
ADMIN_KEY_PREFIX = "mla_"


def new_api_key(prefix: str = KEY_PREFIX) -> str:
    """A fresh secret: prefix + 43 url-safe characters (256 bits of entropy)."""
    return prefix + secrets.token_urlsafe(32)


def hash_key(secret: str) -> str:
    """SHA-256 hex of a key. Keys are 256-bit random, so a fast hash is enough (no salt)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_secret(a: str, b: str) -> bool:
    """Constant-time comparison of two secrets."""
    return hmac.compare_digest(a.encode(), b.encode())
