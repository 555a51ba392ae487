"""Detection and sealing of sensitive values, without a database."""

from __future__ import annotations

import base64
import secrets

import pytest

from app.config import Settings
from app.privacy.crypto import Cipher, SealError, load_cipher
from app.privacy.detect import detect, valid_cn_id, valid_luhn
from app.privacy.protect import Privacy, embedding_text

ID = "440301199003071230"
CARD = "6222 0212 3456 7894"  # a Luhn-valid test number


def kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in detect(text)]


def test_cn_id_checksum() -> None:
    assert valid_cn_id(ID)
    assert not valid_cn_id("440301199003071231")
    assert kinds(f"我的身份证号是 {ID}，帮我记一下。") == [("cn_id", ID)]
    assert kinds("订单号 440301199003071231") == []


def test_bank_card_luhn_zh_and_en() -> None:
    assert valid_luhn("6222021234567894") and not valid_luhn("6222021234567897")
    assert kinds(f"我的银行卡号是{CARD}") == [("bank_card", CARD)]
    assert kinds("my card number is 4111111111111111") == [("bank_card", "4111111111111111")]
    assert kinds("tracking number 4111111111111112") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我的密码是 hunter2pass", "hunter2pass"),
        ("支付密码：839201", "839201"),
        ("my password is Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("The wifi passcode = correcthorse", "correcthorse"),
        ("PIN is 4821", "4821"),
    ],
)
def test_passwords(text: str, value: str) -> None:
    assert kinds(text) == [("password", value)]


def test_phones_and_emails() -> None:
    assert kinds("我的手机号是13812345678，邮箱是 liming@example.com。") == [
        ("phone", "13812345678"),
        ("email", "liming@example.com"),
    ]
    assert kinds("call me at +14155550123") == [("phone", "+14155550123")]
    assert kinds("version 1.2.3 released in 2026") == []


def _privacy() -> Privacy:
    return Privacy(Cipher(keys={"k1": secrets.token_bytes(32)}, current="k1"))


def test_protect_masks_secrets_and_tokenises_personal_values() -> None:
    p = _privacy()
    out = p.protect(f"身份证 {ID}，邮箱 a.b@example.org", "t:u")
    assert ID not in out.text and "a.b@example.org" not in out.text
    assert "**************1230" in out.text and "⟦email:" in out.text
    assert (
        p.reveal_personal(out.text, out.sealed, "t:u")
        == "身份证 **************1230，邮箱 a.b@example.org"
    )
    assert p.reveal_all(out.text, out.sealed, "t:u") == f"身份证 {ID}，邮箱 a.b@example.org"
    assert embedding_text(out.text) == "身份证 **************1230，邮箱 [email]"
    assert p.open_secrets(out.sealed, "t:u") == [
        {"kind": "cn_id", "mask": "**************1230", "value": ID}
    ]
    # equal values give equal tokens: duplicates are still recognised
    assert p.protect("邮箱 a.b@example.org", "t:u").text == "邮箱 " + out.sealed[1]["token"]


def test_sealed_values_are_bound_to_their_owner() -> None:
    p = _privacy()
    out = p.protect(f"ID {ID}", "tenant-a:alice")
    with pytest.raises(SealError):
        p.open_secrets(out.sealed, "tenant-a:bob")
    assert p.reveal_personal("⟦email:0123456789⟧", out.sealed, "tenant-a:bob") == "[email]"


def test_key_rotation_keeps_old_values_readable(tmp_path) -> None:  # type: ignore[no-untyped-def]
    old, new = secrets.token_bytes(32), secrets.token_bytes(32)
    sealed = Cipher(keys={"old": old}, current="old").seal("secret", "o")
    settings = Settings(
        data_dir=tmp_path,
        encryption_key=base64.b64encode(new).decode(),
        encryption_key_id="new",
        encryption_previous_keys=f'{{"old": "{base64.b64encode(old).decode()}"}}',
        _env_file=None,  # type: ignore[call-arg]
    )
    cipher = load_cipher(settings)
    assert cipher.current == "new" and cipher.open(sealed, "o") == "secret"
    assert cipher.seal("x", "o")["kid"] == "new"


def test_development_key_file_is_generated_once_with_0600(tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    first = load_cipher(settings)
    assert (tmp_path / "encryption.key").stat().st_mode & 0o777 == 0o600
    assert load_cipher(settings).keys == first.keys


def test_production_refuses_to_start_without_a_key() -> None:
    with pytest.raises(ValueError, match="MEMLANE_ENCRYPTION_KEY"):
        Settings(
            env="production",
            admin_key="a" * 48,
            database_url="postgresql://x/y",
            metrics_token="m" * 32,
            _env_file=None,  # type: ignore[call-arg]
        )


def test_production_refuses_an_open_metrics_page() -> None:
    with pytest.raises(ValueError, match="MEMLANE_METRICS_TOKEN"):
        Settings(
            env="production",
            admin_key="a" * 48,
            database_url="postgresql://x/y",
            encryption_key="A" * 43 + "=",
            _env_file=None,  # type: ignore[call-arg]
        )


def test_production_refuses_a_short_admin_key() -> None:
    with pytest.raises(ValueError, match="at least 32 characters"):
        Settings(
            env="production", admin_key="short", database_url="postgresql://x/y", _env_file=None
        )  # type: ignore[call-arg]
