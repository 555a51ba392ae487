"""The vault's sign-in session: an encrypted cookie, and the CSRF token inside it.

Design (docs/vault.md, "Security"):

- Signing in sends an API key once (a form POST, or a vault link). The cookie then carries that
  key sealed with AES-256-GCM (the service's own cipher, app/privacy/crypto.py, associated data
  ``vault-session``): the browser's JavaScript cannot read it (``HttpOnly``), nobody can read or
  forge it without the server's key, and every request authenticates the key again exactly as
  the REST API does (``get_principal``), so a revoked or expired key ends the session at once.
- The cookie is ``SameSite=Strict``, ``Path=/vault``, ``Secure`` behind HTTPS, and ends after
  ``settings.vault_session_ttl_s`` (or earlier with the key).
- CSRF: the session holds a random 256-bit token (synchronizer token pattern). Every form that
  changes state carries it in a hidden field and the server compares it in constant time;
  before sign-in, the login form's token is a double-submit cookie of its own. SameSite=Strict
  and a same-origin ``Origin`` check are further layers, not the only one.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from app.privacy.crypto import Cipher, SealError

COOKIE = "memlane_vault"
LOGIN_CSRF_COOKIE = "memlane_vault_login"
COOKIE_PATH = "/vault"
SESSION_AAD = "vault-session"


@dataclass(frozen=True, slots=True)
class VaultSession:
    """One signed-in browser: the API key it signed in with, its CSRF token, its end (epoch s)
    and, for a vault link, the one user it may see."""

    api_key: str
    csrf: str
    expires_at: float
    user_id: str | None = None

    def expired(self, now: float | None = None) -> bool:
        return (now if now is not None else time.time()) >= self.expires_at


def new_token() -> str:
    """A random 256-bit url-safe token."""
    return secrets.token_urlsafe(32)


def seal_session(cipher: Cipher, session: VaultSession) -> str:
    """The cookie value of ``session``: base64 of the sealed JSON."""
    body = {"k": session.api_key, "c": session.csrf, "e": session.expires_at, "u": session.user_id}
    sealed = cipher.seal(json.dumps(body), SESSION_AAD)
    # Unpadded, so the cookie value needs no quoting.
    return base64.urlsafe_b64encode(json.dumps(sealed).encode()).decode().rstrip("=")


def open_session(cipher: Cipher, value: str | None) -> VaultSession | None:
    """The session of a cookie value, or None when it is missing, forged, tampered, sealed
    with a key the server no longer has, or expired."""
    if not value:
        return None
    try:
        padded = value + "=" * (-len(value) % 4)
        sealed: dict[str, Any] = json.loads(base64.urlsafe_b64decode(padded.encode()))
        body = json.loads(cipher.open(sealed, SESSION_AAD))
        session = VaultSession(
            api_key=str(body["k"]),
            csrf=str(body["c"]),
            expires_at=float(body["e"]),
            user_id=body.get("u"),
        )
    except (SealError, ValueError, KeyError, TypeError, binascii.Error, AttributeError):
        return None
    return None if session.expired() else session


def same_token(expected: str, given: str | None) -> bool:
    """Constant-time comparison of a CSRF token; False for a missing one."""
    return bool(given) and hmac.compare_digest(expected.encode(), (given or "").encode())
