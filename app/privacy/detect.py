"""Detection of sensitive values in Chinese and English text.

Two levels (DESIGN.md): ``secret`` — Chinese resident ID numbers (GB 11643 checksum), bank card
numbers (Luhn), passwords and PINs stated in text — are stored only encrypted and masked
everywhere; ``personal`` — email addresses, phone numbers (CN mobile, E.164) — are encrypted at
rest, kept out of embedding input and logs, and returned to their owner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Level = Literal["secret", "personal"]

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_CN_ID = re.compile(r"(?<![0-9A-Za-z])(\d{17}[\dXx])(?![0-9A-Za-z])")
_CARD = re.compile(r"(?<![\d-])(\d(?:[ -]?\d){12,18})(?![\d-])")
_PASSWORD = re.compile(
    r"(?:密码|口令|支付密码|登录密码|pin\s*码|password|passcode|passphrase|pin(?:\s*code)?)"
    r"\s*(?:是|为|:|：|=|is|was)\s*[\"'“‘]?(?P<v>[^\s\"'”’，。,;；]{3,64})",
    re.I,
)
_EMAIL = re.compile(
    r"(?<![\w.+-])([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
)
_CN_MOBILE = re.compile(r"(?<![\d+])(1[3-9]\d{9})(?!\d)")
_E164 = re.compile(r"(?<![\w+])(\+[1-9]\d{7,14})(?!\d)")


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # cn_id | bank_card | password | email | phone
    level: Level
    start: int
    end: int
    value: str


def valid_cn_id(number: str) -> bool:
    """GB 11643-1999 check digit of an 18-character resident ID number."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == number[17].upper()


def valid_luhn(digits: str) -> bool:
    """Luhn (ISO/IEC 7812) checksum of a card number."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def detect(text: str) -> list[Finding]:
    """Every sensitive value in ``text``, non-overlapping, in order of position."""
    found: list[Finding] = []

    def add(kind: str, level: Level, m: re.Match[str], group: int | str = 1) -> None:
        start, end = m.span(group)
        if any(f.start < end and start < f.end for f in found):
            return
        found.append(Finding(kind, level, start, end, m.group(group)))

    for m in _CN_ID.finditer(text):
        if valid_cn_id(m.group(1)):
            add("cn_id", "secret", m)
    for m in _CARD.finditer(text):
        digits = re.sub(r"[ -]", "", m.group(1))
        if 13 <= len(digits) <= 19 and valid_luhn(digits):
            add("bank_card", "secret", m)
    for m in _PASSWORD.finditer(text):
        add("password", "secret", m, "v")
    for m in _EMAIL.finditer(text):
        add("email", "personal", m)
    for m in _E164.finditer(text):
        add("phone", "personal", m)
    for m in _CN_MOBILE.finditer(text):
        add("phone", "personal", m)
    return sorted(found, key=lambda f: f.start)
