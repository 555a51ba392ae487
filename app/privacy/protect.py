"""Sealing sensitive values out of stored text, and opening them for their owner.

Stored text never holds a sensitive value in the clear:
- a ``personal`` value (email, phone) is replaced by a token ``⟦email:3f9a2c1b7e⟧`` (a keyed
  fingerprint: equal values give equal tokens, so duplicates are still recognised), revealed
  to the owner on read, and shown as ``[email]`` to the embedder;
- a ``secret`` value (ID number, bank card, password) is replaced by a mask that keeps at most
  its last 4 characters (``**************1230``); it is opened only by the audited reveal
  endpoint.
Every replaced value is kept sealed (AES-GCM, bound to the owner) in the row's ``sealed`` list:
``{"token", "kind", "level", "mask", "kid", "n", "ct"}``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.privacy.crypto import Cipher, SealError
from app.privacy.detect import Level, detect, names_a_password

TOKEN = re.compile(r"⟦(?P<kind>[a-z_]+):(?P<fp>[0-9a-f]{10})⟧")
# What ``mask`` returns: stars, then at most the last 4 characters.
MASK = re.compile(r"\*{3,}[0-9A-Za-z]{0,4}")
# Secrets whose mask keeps their last 4 characters; every other secret is masked whole.
NUMBER_KINDS = frozenset({"cn_id", "us_ssn", "bank_card", "iban", "id_document", "bank_account"})
SECRET_KEYS = {
    "identity.document": "cn_id",
    "finance.card": "bank_card",
    "account.password": "password",
}


def owner_of(tenant_id: object, user_id: str) -> str:
    """The associated data that binds a sealed value to one user of one tenant."""
    return f"{tenant_id}:{user_id}"


def mask(value: str, kind: str) -> str:
    """The visible stand-in of a secret: ID, card and account numbers keep their last 4;
    everything else (passwords, API keys, a card's CVV and expiry) is fully hidden."""
    if kind not in NUMBER_KINDS:
        return "******"
    digits = re.sub(r"[ -]", "", value)
    return "*" * max(len(digits) - 4, 0) + digits[-4:]


@dataclass
class Protected:
    text: str
    sealed: list[dict[str, Any]] = field(default_factory=list)


class Privacy:
    """Seals and opens sensitive values with one cipher."""

    def __init__(self, cipher: Cipher):
        self.cipher = cipher

    def digest(self, text: str) -> str:
        """A keyed SHA-256 (HMAC) of ``text``: identifies a request body without storing a hash
        that a dictionary could reverse (a short password, an ID number)."""
        return hmac.new(
            self.cipher.keys[self.cipher.current], text.encode(), hashlib.sha256
        ).hexdigest()

    def _entry(self, value: str, kind: str, level: Level, owner: str) -> dict[str, Any]:
        token = f"⟦{kind}:{self.cipher.fingerprint(value)}⟧"
        return {
            "token": token,
            "kind": kind,
            "level": level,
            "mask": mask(value, kind) if level == "secret" else token,
            **self.cipher.seal(value, owner),
        }

    def protect(
        self,
        text: str,
        owner: str,
        *,
        whole_secret: str | None = None,
        known: Sequence[tuple[str, str]] = (),
    ) -> Protected:
        """``text`` with every sensitive value replaced. ``whole_secret`` names the kind of a
        value that is secret as a whole (the value of an ``account.password`` fact);
        ``known``: ``(value, kind)`` of secrets known from elsewhere (``detect``)."""
        if whole_secret and text and not TOKEN.fullmatch(text):
            entry = self._entry(text, whole_secret, "secret", owner)
            return Protected(entry["mask"], [entry])
        out, sealed, last = [], [], 0
        for f in detect(text, known):
            entry = self._entry(f.value, f.kind, f.level, owner)
            out.append(text[last : f.start] + entry["mask"])
            sealed.append(entry)
            last = f.end
        out.append(text[last:])
        return Protected("".join(out), sealed)

    def reveal_personal(
        self, text: str | None, sealed: list[dict[str, Any]], owner: str
    ) -> str | None:
        """The owner's view: personal tokens replaced by their values; secrets stay masked."""
        if not text or "⟦" not in text:
            return text
        entries = {e["token"]: e for e in sealed if e.get("level") == "personal"}

        def sub(m: re.Match[str]) -> str:
            entry = entries.get(m.group(0))
            if entry is None:
                return f"[{m.group('kind')}]"
            try:
                return self.cipher.open(entry, owner)
            except SealError:
                return f"[{m.group('kind')}]"

        return TOKEN.sub(sub, text)

    def reveal_all(
        self, text: str, sealed: list[dict[str, Any]], owner: str, *, secrets: bool = True
    ) -> str:
        """Every sealed value back in place — in memory only, for the local extractor; with
        ``secrets=False`` the personal values only, the secrets' masks left as they are.

        Secret masks all look alike ("******"), so each secret entry fills the first mask still
        in the text: entries are sealed in the order their values stand in the text, and one
        value must never fill another's place (it would then stand where no rule masks it).
        A mask fills only a whole mask — never the stars of a longer one (a password's
        "******" inside a card number's "************1112" would put the password where the
        card's mask stands, in a text that is stored)."""
        for entry in sealed:
            try:
                value = self.cipher.open(entry, owner)
            except SealError:
                continue
            if entry["level"] == "secret":
                if secrets:
                    text = _fill_first_mask(text, entry["mask"], value)
            else:
                text = text.replace(entry["token"], value)
        return text

    def open_secrets(self, sealed: list[dict[str, Any]], owner: str) -> list[dict[str, str]]:
        """``[{kind, mask, value}]`` of the secret entries (for the audited reveal)."""
        return [
            {"kind": e["kind"], "mask": e["mask"], "value": self.cipher.open(e, owner)}
            for e in sealed
            if e.get("level") == "secret"
        ]


def _fill_first_mask(text: str, mask: str, value: str) -> str:
    """``text`` with the first whole ``mask`` in it (never the stars of a longer mask:
    "******" inside "************1112") replaced by ``value``; as it was when there is none."""
    whole = re.search(rf"(?<!\*){re.escape(mask)}(?![*0-9A-Za-z])", text)
    return text[: whole.start()] + value + text[whole.end() :] if whole else text


def masks_as_tokens(text: str, sealed: Sequence[dict[str, Any]]) -> str:
    """``text`` with each secret's mask replaced by that secret's token, filled as
    ``Privacy.reveal_all`` fills values (each entry the first whole mask still in place), with
    no decryption: masks look alike ("******" for every password), tokens tell secrets apart
    (a keyed fingerprint of the value). For comparing stored texts; never shown."""
    for entry in sealed:
        if entry.get("level") == "secret":
            text = _fill_first_mask(text, entry["mask"], entry["token"])
    return text


def embedding_text(text: str) -> str:
    """What the embedder sees: personal tokens as ``[kind]``; secrets are already masked."""
    return TOKEN.sub(lambda m: f"[{m.group('kind')}]", text)


def merge_sealed(*lists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per token."""
    seen: dict[str, dict[str, Any]] = {}
    for entries in lists:
        for e in entries:
            seen.setdefault(e["token"], e)
    return list(seen.values())


@dataclass
class ProtectedMemory:
    """A memory's text fields as stored: ``content`` and ``value`` with every sensitive value
    replaced, and the sealed entries of both (one per token)."""

    content: str
    value: str | None
    sealed: list[dict[str, Any]]


def protect_memory(
    privacy: Privacy,
    owner: str,
    *,
    content: str,
    key: str | None,
    value: str | None,
    secret_kind: str | None = None,
    known: Sequence[tuple[str, str]] = (),
) -> ProtectedMemory:
    """The one protection of a memory's clear ``content`` and ``value`` (every write path
    calls it through the memory writer, and a write's intake through the same writer step).

    The value of a secret key (``SECRET_KEYS``: ``account.password`` → ``password``) or of a
    fact marked secret (``secret_kind``) is sealed as a whole, and where the content repeats it
    verbatim the content shows the mask too, whether or not detection recognises it there.
    ``known``: ``(value, kind)`` of secrets the content holds where detection cannot tell
    (``Privacy.protect``).
    """
    whole = SECRET_KEYS.get(key or "") or secret_kind
    c = privacy.protect(content, owner, known=known)
    if whole and value and not TOKEN.fullmatch(value):
        entry = privacy._entry(value, whole, "secret", owner)
        # Detection may have sealed it in the content already (same token); if not, the
        # content's verbatim copies are masked here.
        text = c.text.replace(value, entry["mask"]) if len(value) >= 4 else c.text
        return ProtectedMemory(text, entry["mask"], merge_sealed(c.sealed, [entry]))
    v = privacy.protect(value, owner) if value else None
    return ProtectedMemory(
        c.text, v.text if v is not None else value, merge_sealed(c.sealed, v.sealed if v else [])
    )


@dataclass
class ProtectedJson:
    """A JSON value as stored: every string in it (at any depth; dict keys are left as they
    are) with its sensitive values replaced, and the sealed entries of all of them."""

    value: Any
    sealed: list[dict[str, Any]]


def protect_json(privacy: Privacy, owner: str, value: Any) -> ProtectedJson:
    """The protection of ``protect_memory`` (the same ``Privacy.protect``) applied to every
    string inside ``value`` (dicts and lists walked recursively; numbers, booleans and null
    unchanged, except a large integer that is a sensitive number, which becomes its masked
    text). A value under a key that names a password (``names_a_password``: "password",
    "pin", "wifi.passcode", "密码") is secret as a whole, as the value of an
    ``account.password`` fact. Used for memory metadata and task working memory (name, slots,
    steps)."""
    sealed: list[list[dict[str, Any]]] = []

    def walk(v: Any, whole: str | None = None) -> Any:
        if isinstance(v, str):
            # a value protected already (a mask) is not sealed again as a secret of its own
            p = privacy.protect(v, owner, whole_secret=None if MASK.fullmatch(v) else whole)
            sealed.append(p.sealed)
            return p.text
        if isinstance(v, int) and not isinstance(v, bool) and (whole or abs(v) >= 10**6):
            # a card or ID number sent as a JSON number (or a PIN under a password field):
            # stored as its masked text if it is one
            p = privacy.protect(str(v), owner, whole_secret=whole)
            if p.sealed:
                sealed.append(p.sealed)
                return p.text
            return v
        if isinstance(v, dict):
            return {
                k: walk(x, "password" if names_a_password(str(k)) else whole) for k, x in v.items()
            }
        if isinstance(v, list):
            return [walk(x, whole) for x in v]
        return v

    out = walk(value)
    return ProtectedJson(out, merge_sealed(*sealed))


def reveal_json(privacy: Privacy, value: Any, sealed: list[dict[str, Any]], owner: str) -> Any:
    """The owner's view of a value stored by ``protect_json``: personal tokens in every string
    replaced by their values (``Privacy.reveal_personal``); secrets stay masked."""
    if isinstance(value, str):
        return privacy.reveal_personal(value, sealed, owner)
    if isinstance(value, dict):
        return {k: reveal_json(privacy, x, sealed, owner) for k, x in value.items()}
    if isinstance(value, list):
        return [reveal_json(privacy, x, sealed, owner) for x in value]
    return value
