"""Detection of sensitive values in Chinese and English text.

Two levels (DESIGN.md): ``secret`` — government ID numbers (Chinese resident ID, US SSN), bank
card numbers, IBANs, passwords and PINs stated in text — are stored only encrypted and masked
everywhere; ``personal`` — email addresses and phone numbers — are encrypted at rest, kept out
of embedding input and logs, and returned to their owner.

Checksums and number formats come from maintained libraries (docs/libraries.md):
``python-stdnum`` validates the ID numbers (GB 11643 check digit and birth date), IBANs
(ISO 13616 mod 97) and card numbers (Luhn, ISO/IEC 7812); ``phonenumbers`` (Google's
libphonenumber metadata) finds phone numbers in text, in international form and in the national
formats of ``PHONE_REGIONS``, also when they are written straight after Chinese characters.

Every boundary below names the characters it excludes (``[0-9A-Za-z]``), never ``\\w``: in
Python ``\\w`` matches Chinese characters, so "邮箱是liming@example.com" would have no boundary
before the address.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import phonenumbers
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from stdnum import iban, luhn
from stdnum.cn import ric
from stdnum.us import ssn

from app.kit.chinese import simplified

Level = Literal["secret", "personal"]

# National formats recognised without a +country prefix (Memlane's users write Chinese and
# English); numbers written with +country are recognised for every country.
PHONE_REGIONS = ("CN", "US")
# No valid number has fewer digits (the shortest plans, e.g. +290 and +683, have 4-digit
# numbers after a 3-digit country code; CN and US national numbers have 7 or more): text with
# fewer is not handed to the matcher, which costs about a millisecond per call.
MIN_PHONE_DIGITS = 7

_CN_ID = re.compile(r"(?<![0-9A-Za-z])(\d{17}[\dXx])(?![0-9A-Za-z])")
_CARD = re.compile(r"(?<![\d-])(\d(?:[ -]?\d){12,18})(?![\d-])")
# A UUID (RFC 9562, 8-4-4-4-12 hex digits) names a record, and holds nothing sensitive: the
# digits of its groups must not read as a card or a phone number ("…-a8e3-944177023849" passes
# the Luhn check; about 1.5 UUIDs in 1,000 were masked as one or the other).
_UUID = re.compile(
    r"(?<![0-9A-Za-z-])[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}(?![0-9A-Za-z-])"
)
# IBAN: compact, or printed in groups of four (ISO 13616-1 "paper format").
_IBAN = re.compile(
    r"(?<![0-9A-Za-z])([A-Z]{2}\d{2}(?:[0-9A-Z]{11,30}|(?: [0-9A-Z]{4}){2,7}(?: [0-9A-Z]{1,3})?))"
    r"(?![0-9A-Za-z])",
    re.I,  # "iban: nl31 abna 0582 0647 98" (checked in capitals)
)
# US SSN only in its written form 123-45-6789: a bare 9-digit number is far more often
# something else.
_SSN = re.compile(r"(?<![\d-])(\d{3}-\d{2}-\d{4})(?![\d-])")
# A password or PIN stated in text: a keyword, then what it is (docs/privacy.md, "Passwords"):
#   keyword   密码 口令 支付密码 登录密码 登录码 PIN码 | password(s) passwd pwd pw passcode
#             passphrase PIN
#             (PIN code, PIN number), login (only a credential-looking token: "the login is
#             admin" names a user); English keywords stand as whole words ("spinning" is not)
#   via       optional "for/of/on/at/to" + up to 4 words, only before an explicit separator
#             ("the password for my bank is …")
#   separator explicit: 是 为 : ： = "is" "was" — or implicit: spaces, or nothing after a
#             Chinese keyword ("密码abc123")
#   value     the next token, up to a space, quote or punctuation mark
# Whether the token is taken is decided by ``_looks_like_credential``.
_PASSWORD = re.compile(
    r"(?:(?P<zh>支付密码|登录密码|登[录陆入]码|密码|口令|pin\s*码)"
    r"|(?<![A-Za-z0-9!#$%&*@_.:/-])(?P<en>passwords?|passwd|pwd|pw|passcode|passphrase|log-?ins?(?!\s+(?:passwords?|passcode|passphrase|pin|pwd|pw)\b)|pass(?=\s*[:=])"
    r"|(?<!area\s)(?<!postal\s)pin(?:\s*(?:code|number))?)"
    r"(?![A-Za-z0-9]))"
    r"(?:(?P<via>\s+(?:for|of|on|at|to)\s+[^\s:：=]+(?:\s+[^\s:：=]+){0,3}?)"
    r"(?P<sep1>\s*[:：=]\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*)"
    r"|(?P<sep2>\s*(?:是|为|[:：=]|->|=>|→)\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*"
    # "the router password, it's …", "密码改成了 …": said again, changed
    r"|\s*[,，]\s*(?:it'?s|it is|now it'?s|which is)(?:\s+now)?\s+"
    r"|\s*(?:改成了?|换成了?|改为|变成了?)\s*|\s+(?:is\s+now|changed\s+to|now)\s+)"
    # "changed my email password to …": only a credential-looking token (implicit)
    r"|(?P<sep3>\s+(?:to|into)\s+|\s*))"
    r"[\"'“‘]?(?P<v>[^\s\"'”’“‘，。、,;；！？()（）]{1,64})",
    re.I,
)
MIN_PASSWORD_CHARS = 3
# after the bare keyword "pass:" a value needs more to read as a password ("pass: 12A" is a seat)
MIN_PASS_CHARS = 6
# after a login's user name: " / the password"
_USER_SLASH_SECRET = re.compile(r"\s*/\s*[\"'“‘]?(?P<v>[^\s\"'”’“‘，。、,;；！？()（）]{1,64})")
# The mask of a secret (app/privacy/protect.py): stars, then at most the last 4 characters.
_MASK = re.compile(r"\*{3,}[0-9A-Za-z]{0,4}")
MIN_PIN_DIGITS = 4
# A PIN or password said in number words ("my pin is one two three four", "passcode: five
# five two one"): the run of digit words after the keyword, at least ``MIN_PIN_DIGITS`` of them.
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_DIGIT_WORDS = re.compile(rf"{_DIGIT_WORD}(?:[\s,-]+{_DIGIT_WORD})*(?![A-Za-z])", re.I)
# A user name and its password as two short fields ("u: anna p: hunter2", "user: tom / pass:
# sesame99"): the second field is the password whatever its keyword.
_USER_PASS = re.compile(
    r"(?<![A-Za-z])(?:u|user(?:\s*name)?|login|id)\s*[:=]\s*\S+?[\s,;/|]+"
    r"(?:p|pw|pwd|pass|passwd|password)\s*[:=]\s*[\"'“‘]?(?P<v>[^\s\"'”’“‘，。、,;；！？()（）]{1,64})",
    re.I,
)
# The password of a URL's user ("postgres://admin:S3cretPg!pw@db.internal:5432/app").
# (bounded, and only where a scheme can begin: a long run of letters is read once, not once per
# letter)
_URL_CREDENTIALS = re.compile(
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/@]{1,256}:(?P<v>[^\s@/]{1,256})@"
)
# A password said before its keyword: "Kitten$Mittens99 - that's my new amazon password",
# "\"blueHorizon!42\" - that's what I set as the password for …", "Hz_19931122 这个是我公司
# 邮箱的登录密码", "Z3x-Kp9-Wq2，是我 Outlook 邮箱的登录口令": a token with a digit or a symbol
# beside its letters, six characters or more, then what links it to the keyword, in its clause.
_BEFORE_KEYWORD = re.compile(
    r"(?<![^\s\"'“‘(（\[【：:])[\"'“‘]?"
    r"(?P<v>(?=[^\s\"'”’]*[A-Za-z])(?=[^\s\"'”’]*[\d!#$%^&*_@~+=?])"
    r"[^\s\"'”’“‘，。、,;；：！？()（）@\u4e00-\u9fff]{6,64})"
    r"[\"'”’]?\s*(?:[-–—:：,，→←]\s*)?"
    r"(?:(?:that'?s|this is|it'?s|is|was|as|(?:这个)?(?:就)?是|为)\s*)"
    r"[^.!?。！？\n,，;；]{0,40}?"
    r"(?:p[a@]?s{1,2}o?w(?:or|ro|r|o|ord)?d|passcode|passphrase|pin\b|密码|口令)"
    r"(?!\s+(?:manager|app|generator|strength|policy|reset|rules?|requirements?)\b)",
    re.I,
)
# A device's administrator and its password ("路由器后台 admin / Tplink@6688", "root/Passw0rd!"):
# a digit or a symbol in it.
_ADMIN_PAIR = re.compile(
    r"(?<![A-Za-z0-9])(?:admin|root|administrator|管理员)\s*/\s*"
    r"(?P<v>(?=[^\s，。,;；]*[\d@#$%^&*!])[^\s，。,;；]{4,64})",
    re.I,
)
# A wallet's seed (recovery) phrase: the keyword, then 12 to 24 words.
_SEED_PHRASE = re.compile(
    r"(?:(?:seed|recovery|mnemonic|backup|secret recovery|wallet)\s+(?:phrase|words)"
    r"|mnemonic|助记词)"
    r"\s*(?:[:：=]|是|为|is|was)?\s*[\"'“‘]?(?P<v>[a-z]+(?:[\s,]+[a-z]+){11,23})",
    re.I,
)
# After a Chinese keyword, a password may be said in spaced parts ("密码是 abc 123"): the parts
# of Latin letters, digits and symbols up to the next Chinese character or punctuation mark.
_SPACED_PART = re.compile(
    r"(?: [A-Za-z0-9@#$%^&*_+=!~-]{1,16})+"
    r"(?=\s*(?:$|[\u3000-\u303f\uff00-\uffef\u4e00-\u9fff,.;!?]))"
)
# Ordinary words that follow "password is …" in sentences about a password, not stating it.
_NOT_CREDENTIALS = frozenset(
    """a an the my your his her our their its this that not no too very so now also still
    wrong right correct incorrect invalid valid expired expiring weak strong short long
    required needed missing empty blank same different new old changed reset updated saved
    set stored secure safe unsafe ok okay fine good bad easy hard simple lost forgotten
    locked hidden shown visible case sensitive mandatory optional protected here there
    below above attached actually probably basically literally really just definitely
    currently""".split()  # noqa: SIM905 (a word list reads better as text)
)
# Chinese phrasings after 密码是/为 that ask or judge instead of stating the password.
_NOT_CREDENTIALS_ZH = (
    "什么",
    "多少",
    "啥",
    "哪",
    "不",
    "错",
    "对",
    "正确",
    "空",
    "一样",
    "相同",
    "同一",
    "必填",
    "必须",
    "多久",
    "几位",
    "怎么",
    "如何",
)
EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
)


# An order's, a parcel's or a booking's number that happens to pass the Luhn check is no card
# ("My Amazon order 113-2298765-4410923", "订单号6222021001123456789").
_ORDER_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:order|tracking|booking|confirmation|invoice|reference|ref|receipt|ticket"
    r"|shipment|parcel)(?:\s+(?:number|no\.?|num|#|id))?\s*[:#]?\s*$|订单号?|单号|快递|运单|物流",
    re.I,
)
# A card number said as one ("银行卡号是…", "card number: …") is a card whether or not it
# passes the Luhn check (a mistyped or test number is still the user's card number).
_CARD_SAID = re.compile(
    r"(?:(?:银行|信用|借记|储蓄)?卡号(?:码)?|(?:银行|信用|借记|储蓄)卡"
    r"|(?<![A-Za-z])(?:card\s*(?:number|no\.?|num|#)|(?:credit|debit|bank)\s+card)(?![A-Za-z]))"
    r"[^0-9\n]{0,12}?(?P<v>\d(?:[ -]?\d){11,18})(?![\d-])",
    re.I,
)
# An identity document's number said as one ("身份证号码：…", "passport: X1234567", "驾照号是…",
# "driver's license number …") is a secret whether or not it passes a checksum, like a card
# said as one: a mistyped or foreign number is still the user's document. The value must hold
# at least ``MIN_DOCUMENT_DIGITS`` digits ("my passport is expired" states none).
_ID_SAID = re.compile(
    # 身分证 as Taiwan writes it (身分證字號), 居留证 a residence permit
    r"(?:(?:身[份分]证|护照|驾照|驾驶证|社保卡?|医保卡?|证件|港澳通行证|签证|居留证|居住证)"
    r"(?:号码|号|编号|字号)?"
    # a bare "id" names an order or a user as often ("order id 123456"): only as a document
    r"|(?<![A-Za-z])(?:passport|driver'?s?\s+licen[cs]e|social\s+security|ssn"
    r"|(?:national|government|identity|tax|resident)\s+id(?:\s+card)?|id\s+card|identity\s+card)"
    r"(?:\s+(?:number|no\.?|num|#))?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:id|licen[cs]e)\s+(?:number|no\.?|num|#)(?![A-Za-z]))"
    r"(?:\s*(?:[:：=]|是|为)\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*|\s+|(?<=[号码证照]))"
    # a space only before a digit: "S530-4629-1183 if the rental place asks" ends at 1183
    r"(?P<v>[A-Za-z]{0,3} ?\d(?: ?\d|-?[0-9A-Za-z]){4,19})(?![0-9A-Za-z-])",
    re.I,
)
MIN_DOCUMENT_DIGITS = 5
# A bank account's number said as one: "my bank account number is 12345678901", "银行账号 …".
_ACCOUNT_SAID = re.compile(
    r"(?:(?<![A-Za-z])(?:(?:bank|checking|savings|current)\s+)?(?:account|acct)\s*"
    r"(?:number|no\.?|num|#)(?![A-Za-z])|(?:银行|开户|收款)(?:账号|账户|帐号|帐户)(?:号码)?"
    r"|(?:账户|帐户)号码?)"
    r"(?:\s*(?:[:：=#]|是|为)\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*|\s+|(?<=[号户]))"
    r"(?P<v>\d(?:[ -]?\d){5,33})(?![\d-])",
    re.I,
)
# A code that opens something — a door, an alarm, a safe — or a card's security code (CVV):
# the keyword, optionally "for the …", a separator, then digits (a trailing # or * as keyed).
_CODE = re.compile(
    r"(?:(?<![A-Za-z])(?:(?P<cvv>cvv2?|cvc2?|csc|cvn|card\s+security\s+code)"
    r"|(?:door|alarm|gate|safe|security|access|entry|garage|locker|lock|building"
    r"|keypad|lockbox)\s+(?:code|pin|combination)"
    # a code sent to log in once: "my one-time code is …", "OTP: …"
    r"|(?:one[- ]?time|verification|confirmation|2fa|two[- ]factor|otp|sms|login"
    r"|auth(?:entication|enticator)?)\s+(?:code|pin|passcode)|otp"
    # the thing it opens after the word: "the code for my safe", "the combination to the lock"
    r"|(?:code|combination|pin)\s+(?:for|of|to|on)\s+(?:(?:the|my|our|your)\s+)?"
    r"(?:[A-Za-z]+\s+)?(?:door|alarm|gate|safe|garage|locker|lock|building|keypad|lockbox))"
    r"(?![A-Za-z])"
    r"|(?P<cvv_zh>安全码|CVV码)|门禁码|开门码|保险柜码|(?:短信)?验证码|动态码|动态密码|校验码)"
    r"(?:\s+(?:for|of|on|to|at)\s+[^\s:：=]+(?:\s+[^\s:：=]+){0,3}?"
    # "the verification code they sent me is …"
    r"|\s+(?:(?:that|which)\s+)?(?:they|you|we|i|it|the\s+[A-Za-z]+)\s+(?:just\s+)?"
    r"(?:sent|texted|emailed|gave)(?:\s+(?:me|us))?)?"
    r"(?:\s*(?:[:：=]|是|为)\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*|\s+|(?<=码))"
    # digits as keyed, or spoken in groups: "0420", "7731#", "5-1-9-3"
    r"(?P<v>\d(?:[- ]?\d){2,7}[#*]?)(?![0-9A-Za-z-])",
    re.I,
)
# A card's expiry date, taken only in a text that speaks of a card ("exp 09/28").
_EXPIRY = re.compile(
    r"(?<![A-Za-z])(?:exp(?:iry|ires|iring|iration)?(?:\s+date)?"
    r"|(?:valid|good)\s+(?:thru|through|until)"
    r"|有效期(?:至|到)?)\.?\s*(?:is\s+|[:：]\s*|是|为)?\s*"
    r"(?P<v>(?:0[1-9]|1[0-2])\s*/\s*(?:20)?\d{2})(?![0-9/])",
    re.I,
)
_SPEAKS_OF_CARD = re.compile(r"card|卡|cvv|cvc|\bcid\b|amex|visa|mastercard", re.I)
# API keys and access tokens by their format. The provider formats detect-secrets (Yelp)
# maintains come from its plugins' patterns; the prefixes below add what those patterns miss
# in conversation: OpenAI project and service keys (sk-proj-…, sk-svcacct-…, no legacy
# marker), GitHub tokens of any length, Stripe test keys, Google API keys, Anthropic keys.
_PROVIDER_TOKENS = tuple(
    pattern
    for plugin in (
        AWSKeyDetector,
        DiscordBotTokenDetector,
        GitHubTokenDetector,
        GitLabTokenDetector,
        JwtTokenDetector,
        MailchimpDetector,
        OpenAIDetector,
        PypiTokenDetector,
        SendGridDetector,
        SlackDetector,
        SquareOAuthDetector,
        StripeDetector,
        TelegramBotTokenDetector,
    )
    for pattern in plugin().denylist
)
_TOKEN_PREFIXES = re.compile(
    r"(?<![0-9A-Za-z_-])(?:sk-(?:proj-|svcacct-|admin-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{16,}"
    r"|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|[rsp]k_(?:live|test)_[0-9A-Za-z]{16,}|(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"
    r"|xox[abposre]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|hf_[A-Za-z0-9]{30,}"
    # Alibaba Cloud access key ids, webhook signing secrets
    r"|LTAI[0-9A-Za-z]{12,}|whsec_[A-Za-z0-9]{16,})"
    r"(?![0-9A-Za-z_-])"
)
# A key said as one: "my api key is …", "token: …", "密钥是 …". The value must read as a key —
# at least ``MIN_KEY_CHARS`` characters with both letters and digits — so "the secret is that
# I hate cake" and "the key is under the mat" are left alone.
_KEY_SAID = re.compile(
    r"(?:(?<![A-Za-z])(?:(?:api|access|secret|auth|private|client|bearer|app)[ _-]?"
    r"(?:keys?|tokens?|secrets?)|tokens?|secrets?|keys?)(?![A-Za-z])|密钥|秘钥|私钥|令牌|API\s*Key)"
    r"(?:\s+(?:for|of|on|to|at)\s+[^\s:：=]+(?:\s+[^\s:：=]+){0,3}?)?"
    r"(?:\s*(?:[:：=]|是|为)\s*|\s+(?:is|was)(?:\s+now)?\s*[:：]?\s*)"
    r"[\"'“‘]?(?P<v>[A-Za-z0-9][A-Za-z0-9._~+/=-]{7,})",
    re.I,
)
MIN_KEY_CHARS = 8
# An AWS secret access key (40 characters of base64) is taken in a text that holds an access
# key id: pasted as a pair, "AKIA… / wJalrXUtnFEMI/K7MDENG/…".
_AWS_KEY_ID = re.compile(r"(?<![0-9A-Z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


def _reads_as_key(value: str) -> bool:
    """At least ``MIN_KEY_CHARS`` characters, with letters and digits."""
    return (
        len(value) >= MIN_KEY_CHARS
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


def _token_end(text: str, end: int) -> int:
    """Where the token that reaches ``end`` ends: over letters, digits, ``_-+/=``, and a dot
    with more of them after it."""
    at = _TOKEN_REST.match(text, end)
    return at.end() if at else end


_TOKEN_REST = re.compile(r"[A-Za-z0-9_+/=-]*(?:\.[A-Za-z0-9_+/=-]+)*")


def token_spans(text: str) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the API keys and access tokens in ``text``: by provider format
    (detect-secrets' patterns and ``_TOKEN_PREFIXES``), or said as a key (``_KEY_SAID``)."""
    spans = []
    for pattern in (*_PROVIDER_TOKENS, _TOKEN_PREFIXES):
        for m in pattern.finditer(text):
            # a pattern that captures the key itself (AWS: "aws … key … '…'") names it in its
            # first group; other groups name only the prefix ("(ghp|gho|…)_…")
            whole = not pattern.groups or len(m.group(1) or "") < MIN_KEY_CHARS * 2
            spans.append(m.span(0 if whole else 1))
    if _AWS_KEY_ID.search(text):
        for m in _AWS_SECRET.finditer(text):
            value = m.group(0)
            if any(c.isupper() for c in value) and any(c.islower() for c in value):
                spans.append(m.span())
    for m in _KEY_SAID.finditer(text):
        start, end = m.span("v")
        while end > start and text[end - 1] in ".":
            end -= 1
        if _reads_as_key(text[start:end]):
            spans.append((start, end))
    # patterns of one key overlap ("sk_live_" + 24 characters, and the whole key; a JWT's
    # first parts, and the whole token said as one): its union
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        # a key runs on to its last character ("eyJ….eyJ….<signature>": a JWT's pattern may
        # stop at its second dot)
        b = _token_end(text, b)
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _looks_like_credential(value: str, *, explicit: bool, pin: bool) -> bool:
    """Whether the token after a password keyword is taken for the password.

    - After a PIN keyword: digits only, at least ``MIN_PIN_DIGITS`` ("PIN 4821").
    - Otherwise at least ``MIN_PASSWORD_CHARS`` characters, and either it contains a digit or
      a symbol (anything but letters, ``-`` and ``'``), so it reads as a credential whatever
      comes before it ("password hunter2xyz", "pwd=hunter2xyz"); or it is letters only and
      was introduced by an explicit separator (is, was, :, =, 是, 为) and is not an ordinary
      word of ``_NOT_CREDENTIALS`` / does not start like ``_NOT_CREDENTIALS_ZH``
      ("passcode = correcthorse" is taken; "password is wrong", "I forgot my password
      yesterday", "password reset link" are not).
    """
    if _MASK.fullmatch(value):
        return False  # a value masked already ("password is ******"), protected again
    if pin:
        return value.isdigit() and len(value) >= MIN_PIN_DIGITS
    if len(value) < MIN_PASSWORD_CHARS:
        return False
    if not explicit and re.search(r"[\u4e00-\u9fff]", value):
        return False  # "密码强度要求：…" goes on about the password, states none
    if any(ch.isdigit() or not (ch.isalpha() or ch in "-'") for ch in value):
        return True
    if not explicit:
        return False
    return value.lower() not in _NOT_CREDENTIALS and not value.startswith(_NOT_CREDENTIALS_ZH)


def reads_as_credential(value: str) -> bool:
    """Whether ``value``, said with no password keyword before it, still reads as one: at
    least ``MIN_PASSWORD_CHARS`` characters with a digit or a symbol ("tulip-4417", "8814";
    not "Lille")."""
    return _looks_like_credential(value, explicit=False, pin=False)


def password_spans(text: str) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the passwords and PINs stated in ``text`` (the value only)."""
    spans = []
    for m in _PASSWORD.finditer(text):
        start, end = m.span("v")
        # a sentence's closing full stop is not part of the value: "… is hunter2xyz."
        while end > start and text[end - 1] in ".…":
            end -= 1
        keyword = (m.group("zh") or m.group("en") or "").lower()
        pin = keyword.startswith("pin") and not m.group("zh")
        explicit = bool((m.group("sep1") or m.group("sep2") or "").strip())
        if keyword.startswith("log") or keyword == "pass":
            # "my login is jsmith" names a user, "pass: yes" answers; "… is tiger_lily_42",
            # "pass: Sunfl0wer!" state a secret
            explicit = False
            pair = _USER_SLASH_SECRET.match(text, end)
            if keyword.startswith("log") and pair is not None and pair.group("v")[-1] not in ":：=":
                # "my bank login: anna.b / Passw0rd!": the user name, then the password
                value = pair.group("v").rstrip(".…")
                if _looks_like_credential(value, explicit=False, pin=False):
                    spans.append((pair.start("v"), pair.start("v") + len(value)))
                continue
            if keyword == "pass" and end - start < MIN_PASS_CHARS:
                continue  # "boarding pass: 12A" is a seat
        words = _DIGIT_WORDS.match(text, start) if m.group("en") or m.group("zh") else None
        if words is not None and len(re.findall(r"[A-Za-z]+", words.group(0))) >= MIN_PIN_DIGITS:
            spans.append((start, words.end()))  # "my pin is one two three four"
            continue
        if m.group("zh") and (parts := _SPACED_PART.match(text, end)) and text[start:end].isascii():
            end = parts.end()  # "密码是 abc 123"
        if _looks_like_credential(text[start:end], explicit=explicit, pin=pin):
            spans.append((start, end))
    for pattern in (_USER_PASS, _SEED_PHRASE, _URL_CREDENTIALS, _ADMIN_PAIR, _BEFORE_KEYWORD):
        for m in pattern.finditer(text):
            span = m.span("v")
            if not any(a <= span[0] < b for a, b in spans):
                spans.append(span)
    return sorted(spans)


# A secret's keyword, however the sentence goes on to give its value (docs/privacy.md,
# "A secret said further on"): "the security code on the back of my visa is 392", "can u save
# my alarm passcode? its 7314", "paswrod is hunter42x", "I use the same password everywhere
# which is bad I know: marigold2019", "wifi 密码好像是 88888888 吧". The password's keyword is
# read with its common misspellings (a letter left out, doubled or two swapped).
_SECRET_WORD = re.compile(
    r"(?<![A-Za-z0-9!#$%&*@_.:/-])(?:(?:p[a@]?s{1,2}o?w(?:or|ro|r|o|ord)?d[sz]?|pass(?:code|phrase|wd)|pwd"
    # "password manager", "password strength": about passwords, none stated
    r"|pw)(?!\s+(?:manager|app|generator|strength|policy|reset|rules?|requirements?)\b)"
    r"|(?<!area\s)(?<!postal\s)pin(?:\s*(?:code|number|no\.?))?|pass|passport(?!\s+(?:photos?|office|renewal|application|cover|holder|control))"
    r"(?:\s+(?:number|no\.?))?"
    r"|(?:driver'?s?\s+)?licen[cs]e\s+(?:number|no\.?)|(?:national\s+)?insurance\s+number|national\s+insurance"
    r"|ni\s+(?:number|no\.?)|nino|social(?:\s+security)?(?:\s+(?:number|no\.?))?"
    r"|(?:tax|taxpayer)\s+id(?:entification)?(?:\s+(?:number|no\.?))?|ein|itin|sin|utr|tin"
    r"|(?:(?:two|2)[- ]factor\s+)?(?:backup|recovery)\s+codes?"
    r"|tfn|ppsn?|bsn|cpf|aadhaar"
    # a key that opens a network, a stream or a product: "wifi key which is …"
    r"|(?:wifi|wi-fi|network|wpa2?|stream|license|licence|product|activation)\s+key"
    # a card's security code by other names: "cid 7741", "the three digits on the back"
    r"|(?P<cvv>cid|cvv2?|cvc2?|(?:three|3|four|4)\s+digits\s+on\s+the\s+back"
    r"|(?:three|3|four|4)[- ]digit\s+(?:code|number)|back\s+(?:three|3)\s+digits"
    r"|(?:three|3)\s+(?:numbers|digits)\s+on\s+the\s+back(?:\s+of\s+(?:my|the)\s+\w+)?)"
    # what opens a device or an account: "laptop unlock is …", "I log into outlook with …"
    r"|unlock(?:\s+(?:code|pin|pattern))?|log(?:ging|s)?\s*in(?:to)?|sign(?:ing|s)?\s+in(?:to)?"
    r"|(?:security|access|entry|door|gate|alarm|safe|lock|locker|garage|keypad|building"
    r"|verification|one[- ]?time|otp|2fa|sms|login|auth)\s+(?:code|pin))"
    # a keyword glued to digits is part of a value ("password0315")
    r"(?![A-Za-z0-9])"
    r"|(?P<bare>(?<![A-Za-z])(?:code|combination|combo)(?![A-Za-z]))"
    # what a code opens, said for the code: "The bike lock is 0-7-3-9", "Safe in the hotel
    # room: 2580" (digits only)
    r"|(?P<opens>(?<![A-Za-z])(?:lock|padlock|safe|locker|lockbox|key\s?safe|alarm|garage|gate)"
    r"(?![A-Za-z]))"
    # a bank account's numbers: "routing 021000021", "sort code 20-45-77", "checking acct …"
    r"|(?P<account>(?<![A-Za-z])(?:routing(?:\s+(?:number|no\.?))?|sort\s+code|acct"
    r"|account(?:\s+(?:number|no\.?))?)(?![A-Za-z])|(?:银行)?账号|账户|帐号)"
    r"|密码|秘码|口令|暗号|登[录陆入]码|验证码|校验码|动态码|安全码|门禁码|开门码|取件码|取货码|撤防码|布防码"
    r"|解锁码|开锁码|备用码|恢复码|激活码|授权码|护照|身份证|证件|驾照|驾驶证|社保卡?|医保卡?|通行证"
    r"|(?P<cvv_zh>背面(?:的|那)?(?:三|3)(?:位|个)(?:数字?|码)?)"
    r"|(?P<opens_zh>门锁|密码锁|保险柜|保险箱|智能锁|指纹锁)"
    r"|纳税(?:人)?识别号|税号|PIN\s*码"
    # the new one, after the old ("微博密码 weibo_2023 已经作废了，新的是 wb#Sunny_2024")
    r"|(?P<new>新的(?=是|为)|(?<![A-Za-z])new\s+one(?![A-Za-z]))",
    re.I,
)
# what the new one is said of, when it is a number or an address, not a secret ("我换号码了，新的是
# 0988-765-432", "got a new phone number, the new one is …"); a password named wins
_NEW_NUMBER = re.compile(
    r"号码|手机|电话|换号|门号|門號|邮箱|\b(?:phone|number|cell|mobile|e-?mail)\b", re.I
)
_NEW_SECRET = re.compile(r"密码|口令|\b(?:password|passcode|pin)\b", re.I)
PHONE_SHAPED = re.compile(r"\+?\(?\d[\d\s().-]{6,16}\d")
# a bare "code" is a secret's only beside what it opens ("the safe in the hotel room, code
# 1-9-8-4"; not "zip code 94110" nor "the code is 1234")
_OPENS = re.compile(
    r"(?<![A-Za-z])(?:safe|door|gate|alarm|lock|locker|garage|keypad|lockbox|building"
    r"|cabinet|drawer|vault|suitcase|shed|bike|security|verification|otp)(?![A-Za-z])",
    re.I,
)
# what stands between a keyword and its value: "is", ":", "it's", "'s", "是", "=" …
_SAID_AS = re.compile(
    r"\s*(?:[:：=]|->|=>|→|是|为|[—–]|\s-)\s*"
    r"|(?:\s+|(?<=[?？,，\s]))(?:(?:is|was|are|it'?s|its|it is)"
    r"(?:\s+(?:now|actually|still|just|currently|probably|basically))?"
    r"|now|to|with|using|as|takes)\s+|[)）]\s*"
    r"|['’]s\s+|[,，]\s*"
    # a value after Chinese words and a space: "驾驶证档案编号 440300…", "…生日 wangfang0512"
    r"|(?<=[\u4e00-\u9fff])\s+"
    # set or changed to: "设成了 …", "我改成 … 了"
    r"|\s*(?:设成|设为|设置成|设置为|改成|改为|换成|变成)了?\s*"
    # keyed in: "就输20190808", "再输771902"
    r"|(?:就|再|先|然后)?(?:输入?|按)\s*",
    re.I,
)
# a value shaped like a secret: one token with a digit, or digits keyed in groups
# ("83 47 21", "1-9-8-4", "G 1234 5678")
_SHAPE = (
    r"[\"'“‘【\[]?(?P<v>(?:[A-Z]{1,3} ?)?\d{1,8}(?:\s*[ -]\s*\d{1,8}){1,5}(?: ?[A-Z])?"
    r"(?![0-9A-Za-z])"
    # a dial's turns: "left 32 right 17 left 5", "左15 右42 左7"
    r"|(?:left|right|[LR]|左|右)\s*\d{1,2}(?:[,，\s]+(?:left|right|[LR]|左|右)\s*\d{1,2}){2,5}"
    r"|[^\s\"'”’“‘，。、,;；：！？()（）【】\[\]\u4e00-\u9fff]*\d"
    r"[^\s\"'”’“‘，。、,;；：！？()（）【】\[\]\u4e00-\u9fff]*)"
)
_SECRET_SHAPE = re.compile(r"\s*" + _SHAPE)
# how far after its keyword a value is looked for, and what ends the search: a line, a
# sentence (a question mark only when the answer follows: "passcode? its 7314"), or a word
# naming another kind of value
_WINDOW_CHARS = 240
_WINDOW_END = re.compile(
    r"\n|[.!。！](?:\s|$)|[?？](?!\s*(?:it'?s|its|it is)\b)"
    r"|(?<![A-Za-z])(?:phone|cell|mobile|email|e-mail)(?![A-Za-z])|电话|手机|邮箱",
    re.I,
)
MIN_WINDOW_DIGITS = 3
MAX_WINDOW_TRIES = 12


def _secret_shaped(value: str) -> bool:
    """At least ``MIN_WINDOW_DIGITS`` digits, or letters and a digit in five characters or
    more: what ``window_spans`` and ``_listed_after`` take for a secret's value."""
    digits = sum(ch.isdigit() for ch in value)
    letters = sum(ch.isalpha() for ch in value)
    return digits >= MIN_WINDOW_DIGITS or bool(digits and letters and len(value) >= 5)


def _a_date(value: str) -> bool:
    """Whether ``value`` reads as a date: 2 or 3 numbers, a month (1–12) and a day (1–31)
    among them, and a year of two digits or 1900–2100 ("11/27", "2026-03-01"; not "32-14-08"
    nor "5-3-2108")."""
    written = [p for p in re.split(r"\s*[/.-]\s*", value) if p.isdigit()]
    parts = [int(p) for p in written]
    if len(parts) not in (2, 3):
        return False
    if len(parts) == 3 and len(written[0 if parts[0] > 31 else 2]) not in (2, 4):
        return False  # "7-7-4": no year is written with one digit
    if len(parts) == 2:
        return any(1 <= a <= 12 and 1 <= b <= 31 for a, b in (parts, parts[::-1]))
    if parts[0] > 31:  # year first: year-month-day only
        y, pairs = parts[0], [(parts[1], parts[2])]
    else:  # month and day either way, then the year
        y, pairs = parts[2], [(parts[0], parts[1]), (parts[1], parts[0])]
    if not (y <= 99 or 1900 <= y <= 2100):
        return False
    return any(1 <= m <= 12 and 1 <= d <= 31 for m, d in pairs)


# a unit after a number: it counts, measures or names a model ("费用 120 元", "7 个工作日",
# "120 km", "得力 4078 型号")
_UNIT_AFTER = re.compile(
    r"\s*(?:元|块|美元|人|个|天|次|岁|年|月|日|号|点|分钟?|小时|公里|米|斤|克|%|型号?|款|系列"
    r"|(?:rmb|usd|eur|gbp|dollars?|bucks|yuan|km|kg|cm|mm|mi|miles|lbs?|days?|hours?|mins?"
    r"|minutes?|years?|people|times|model|series|edition)(?![A-Za-z]))",
    re.I,
)


def _not_a_secret(value: str, *, dates: bool = True) -> bool:
    """A date (unless ``dates`` is False: a code's digits), a time, an amount, a count or a
    year said after a keyword ("expires 11/27", "at 3pm", "$50", "2 attempts", "since 2019"):
    no secret."""
    if re.fullmatch(r"-?\d+\.\d+|\d+(?:\.\d+)?x\d+(?:\.\d+)?", value, re.I):
        return True  # a decimal number (a coordinate, a measure), dimensions ("35x45")
    if re.fullmatch(r"\d{1,4}(?:\s*[/.-]\s*\d{1,4}){1,2}", value):
        return dates and _a_date(value)
    return bool(
        re.fullmatch(
            r"\d{1,2}(?::\d\d)?(?:am|pm|h)?|[$€£¥]\S*|\S*[%元块]"
            r"|\d+(?:st|nd|rd|th|x|s|k|m)|(?:19|20)\d\d",
            value,
            re.I,
        )
    )


# keywords of an identity document: what follows them is one
_DOCUMENT_WORD = re.compile(
    r"passport|licen|insurance|social|\bni\b|nino|tax|\b(?:ein|itin|sin|utr|tin)\b"
    r"|护照|身份证|证件|驾照|驾驶证|社保|医保|通行证|纳税|税号",
    re.I,
)


def window_spans(text: str) -> list[tuple[int, int, str]]:
    """``[(start, end, kind)]`` (kind ``id_document``, ``card_cvv`` or ``password``) of the
    secrets said further on from their keyword (``_SECRET_WORD``): within ``_WINDOW_CHARS``
    characters and the same sentence, the first value after a separator (``_SAID_AS``, or
    right after the keyword) shaped like a secret (``_SECRET_SHAPE``, ``_secret_shaped``; not
    a date, time, amount or year)."""
    spans: list[tuple[int, int, str]] = []
    words = list(_SECRET_WORD.finditer(text))
    # the keywords that end the one before them: not a weak one (what a code opens, an
    # account, a bare "code"), which a strong keyword names ("The password for my Steam
    # account, it's …")
    strong = [
        w.start()
        for w in words
        if not (w.group("opens") or w.group("opens_zh") or w.group("account") or w.group("bare"))
    ]
    for m in words:
        if m.group("bare") and not _OPENS.search(text, max(0, m.start() - 40), m.end() + 40):
            continue
        # "我换号码了，新的是0988-765-432": the new one of a number, when it is shaped as one,
        # is that number; a password said so ("…to my phone first, the new one is Gr33n!Tea")
        # is still a secret
        said = text[max(0, m.start() - 40) : m.start()] if m.group("new") else ""
        a_number = bool(_NEW_NUMBER.search(said)) and not _NEW_SECRET.search(said)
        digits_only = bool(
            m.group("opens")
            or m.group("opens_zh")
            or m.group("account")
            or m.group("cvv")
            or m.group("cvv_zh")
        )
        # a code's digits may look like a date ("combination 22-08-35")
        coded = digits_only or bool(m.group("bare"))
        # up to the next keyword: what follows it is that keyword's ("password for the pin pad
        # is 1234"), and a text of keywords alone is read once
        end = min(len(text), m.end() + _WINDOW_CHARS)
        after = bisect.bisect_right(strong, m.start())
        if after < len(strong):
            end = min(end, max(m.end(), strong[after]))
        stop = _WINDOW_END.search(text, m.end(), end)
        end = stop.start() if stop else end
        # the first few separators only: a text of keywords alone costs a bounded scan each
        seps = itertools.islice(_SAID_AS.finditer(text, m.end(), end), MAX_WINDOW_TRIES)
        starts = [m.end()] + [s.end() for s in seps]
        for start in starts:
            v = _SECRET_SHAPE.match(text, start, end)
            if v is None:
                continue
            a, b = v.span("v")
            while b > a and text[b - 1] in ".…":
                b -= 1
            value = text[a:b]
            if not value.isdigit():
                while b < len(text) and text[b] == "!":  # "sunflower88!": the mark is kept
                    b += 1
            shaped = _secret_shaped(value)
            if a_number and PHONE_SHAPED.fullmatch(value):
                break
            if digits_only and not re.fullmatch(r"[\d\s#*-]+", value):
                shaped = False
            if shaped and _UNIT_AFTER.match(text, b):
                shaped = False  # "费用 120 元", "120 km": an amount or a measure
            if shaped and not _not_a_secret(value, dates=not coded):
                kind = (
                    "id_document"
                    if _DOCUMENT_WORD.search(m.group(0))
                    else "card_cvv"
                    if m.group("cvv")
                    or m.group("cvv_zh")
                    or re.search(r"security|安全码", m.group(0), re.I)
                    else "bank_account"
                    if m.group("account")
                    else "password"
                )
                spans.append((a, b, kind))
                spans += [(x, y, kind) for x, y in _listed_after(text, b)]
                break
    return spans


# More secrets listed after one, each with a short label or none: "backup codes: 4471 9023,
# 8830 1174", "alarm 8842, garage 1379", "淘宝登录密码 Tb#2024xiao，京东的是 jd_Xiao2024",
# "微博密码 … 已经作废了，新的是 wb#Sunny_2024", "登录是 Lx_2024login，支付是 204816"
_LISTED = re.compile(
    r"\s*(?:[,，、;；]|\band\b|和|以及)\s*"
    r"(?:[^\s,，。.!?！？;；:：\d][^,，。.!?！？;；:：\d]{0,23}?"
    r"(?:\s*(?:的)?\s*(?:是|为|is|it'?s|[:：=])\s*|\s+))?" + _SHAPE,
    re.I,
)


def _listed_after(text: str, end: int) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the secrets listed after one that ends at ``end`` (``_LISTED``),
    each shaped like a secret as ``window_spans`` takes them."""
    out: list[tuple[int, int]] = []
    while (m := _LISTED.match(text, end)) is not None:
        a, b = m.span("v")
        value = text[a:b].rstrip(".…")
        b = a + len(value)
        if not _secret_shaped(value) or _not_a_secret(value):
            break
        out.append((a, b))
        end = b
    return out


# Another value said beside a secret as the one it is not, or instead of it: "Falcon$772 not
# Falcon$727", "…，不是 Lily_0932", "密码不是 2468 是 8642": as secret as the first.
_BESIDE_SECRET = re.compile(
    r"\s*[,，]?\s*(?:not|instead of|rather than|or|but|不是|而不是|还是|而是|是"
    # a correction: "12-34-56, wait no sorry, it's 14-38-22", "382910，哦不对，是382901"
    r"|(?:wait|no|sorry|oops|i mean|actually|哦|不对|说错了|错了)[^\d\n]{0,20}?"
    r"(?:it'?s|is|是|:|：))\s*[\"'“‘]?"
    r"(?P<v>[^\s\"'”’“‘，。、,;；！？()（）]*\d[^\s\"'”’“‘，。、,;；！？()（）]*)",
    re.I,
)


# A field name that says its value is a password or PIN (a metadata key, a task slot):
# "password", "pw", "bank_pin", "wifi.passcode", "登录密码".
_PASSWORD_FIELD = re.compile(
    r"(?:^|.*[._\- ])(?:passwords?|passwd|pwd|pw|passcode|passphrase|pin|pin_?code)$"
    r"|^.*(?:密码|口令)$",
    re.I,
)


def names_a_password(field: str) -> bool:
    """Whether a field called ``field`` holds a password or PIN as a whole."""
    return bool(_PASSWORD_FIELD.match(field))


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # cn_id | us_ssn | bank_card | iban | id_document | bank_account | password
    #            | api_key | card_cvv | card_expiry | email | phone
    level: Level
    start: int
    end: int
    value: str


def valid_cn_id(number: str) -> bool:
    """Whether ``number`` is a valid 18-character Chinese resident ID number (GB 11643-1999:
    check digit and birth date; ``stdnum.cn.ric``)."""
    return len(number) == 18 and bool(ric.is_valid(number))


def valid_card(digits: str) -> bool:
    """Whether ``digits`` (13–19 digits, no separators) passes the Luhn check of ISO/IEC 7812
    (``stdnum.luhn``)."""
    return digits.isdigit() and 13 <= len(digits) <= 19 and bool(luhn.is_valid(digits))


def phone_spans(text: str) -> list[tuple[int, int, str]]:
    """``[(start, end, raw text)]`` of the valid phone numbers in ``text`` (``phonenumbers``
    with leniency VALID: the number must exist in the numbering plan of its region)."""
    spans: dict[tuple[int, int], str] = {}
    if sum(ch.isdigit() for ch in text) < MIN_PHONE_DIGITS:
        return []
    for region in PHONE_REGIONS:
        for m in phonenumbers.PhoneNumberMatcher(text, region):
            spans.setdefault((m.start, m.end), m.raw_string)
    return [(start, end, raw) for (start, end), raw in sorted(spans.items())]


def detect(text: str, known: Sequence[tuple[str, str]] = ()) -> list[Finding]:
    """Every sensitive value in ``text``, non-overlapping, in order of position. Secrets are
    looked for first, so a number that is both (an ID that also reads as a phone) is a secret.

    ``known``: ``(value, kind)`` of secrets known from elsewhere (a password restated without
    its keyword, "sorry, I meant tulip-4417"): each copy of ``value`` standing as a word of its
    own is a secret of ``kind``, before anything else is looked for. No value is found inside
    a UUID (``_UUID``). Traditional Chinese is read in simplified characters ("身分證字號",
    "銀行帳號"; ``kit.chinese.simplified`` keeps every span where it was)."""
    found: list[Finding] = []
    written = text
    text = simplified(text)

    def add(kind: str, level: Level, start: int, end: int) -> None:
        if any(f.start < end and start < f.end for f in found):
            return
        found.append(Finding(kind, level, start, end, written[start:end]))

    for value, kind in known:
        for m in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", written):
            add(kind, "secret", *m.span())
    # identifiers are held as found, so no number inside one is taken for a value, and left out
    held = len(found)
    for m in _UUID.finditer(text):
        add("uuid", "personal", *m.span())
    identifiers = found[held:]
    for m in _CN_ID.finditer(text):
        if valid_cn_id(m.group(1)):
            add("cn_id", "secret", *m.span(1))
    for m in _SSN.finditer(text):
        if ssn.is_valid(m.group(1)):
            add("us_ssn", "secret", *m.span(1))
    for start, end in token_spans(text):
        add("api_key", "secret", start, end)
    for m in _IBAN.finditer(text):  # before cards: an IBAN's digits may pass the Luhn check
        if iban.is_valid(m.group(1).upper()):
            add("iban", "secret", *m.span(1))
    for m in _CARD.finditer(text):
        if valid_card(re.sub(r"[ -]", "", m.group(1))) and not _ORDER_BEFORE.search(
            text, max(0, m.start(1) - 24), m.start(1)
        ):
            add("bank_card", "secret", *m.span(1))
    for m in _CARD_SAID.finditer(text):
        add("bank_card", "secret", *m.span("v"))
    for m in _ID_SAID.finditer(text):
        if sum(ch.isdigit() for ch in m.group("v")) >= MIN_DOCUMENT_DIGITS:
            add("id_document", "secret", *m.span("v"))
    for m in _ACCOUNT_SAID.finditer(text):
        add("bank_account", "secret", *m.span("v"))
    for m in _CODE.finditer(text):
        cvv = m.group("cvv") or m.group("cvv_zh")
        add("card_cvv" if cvv else "password", "secret", *m.span("v"))
    for start, end in password_spans(text):
        add("password", "secret", start, end)
    for start, end, kind in window_spans(text):
        add(kind, "secret", start, end)
    for f in [f for f in found if f.level == "secret" and f not in identifiers]:
        if (beside := _BESIDE_SECRET.match(text, f.end)) is not None:
            add(f.kind, "secret", *beside.span("v"))
    if _SPEAKS_OF_CARD.search(text):
        for m in _EXPIRY.finditer(text):
            add("card_expiry", "secret", *m.span("v"))
    for m in EMAIL.finditer(text):
        add("email", "personal", *m.span(1))
    for start, end, _ in phone_spans(text):
        add("phone", "personal", start, end)
    return sorted((f for f in found if f not in identifiers), key=lambda f: f.start)
