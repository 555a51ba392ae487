"""Detection and sealing of sensitive values, without a database."""

from __future__ import annotations

import base64
import random
import secrets
import uuid

import pytest

from app.config import Settings
from app.privacy.crypto import Cipher, SealError, load_cipher
from app.privacy.detect import detect, valid_card, valid_cn_id
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
    assert valid_card("6222021234567894") and not valid_card("6222021234567897")
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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a keyword and a credential-looking token, with or without a separator
        ("password hunter2xyz", "hunter2xyz"),
        ("Noted your password hunter2xyz", "hunter2xyz"),
        ("the password for my bank is hunter2xyz", "hunter2xyz"),
        ("The PIN for my card is 0000", "0000"),
        ("pwd=hunter2xyz", "hunter2xyz"),
        ("passwd: xk9", "xk9"),
        ("PIN 4821", "4821"),
        ("PIN code: 4821", "4821"),
        ("passwords: abc!def", "abc!def"),
        ("my password is hunter2xyz.", "hunter2xyz"),
        ("my password is sunflower", "sunflower"),  # letters only, after "is"
        ("密码 abc123", "abc123"),
        ("密码abc123", "abc123"),
        ("口令是芝麻开门", "芝麻开门"),
        ("登录密码为 Qw3rty!", "Qw3rty!"),
        ("PIN码是1234", "1234"),
        ("ok I changed the router password, it's BlueHeron!42 now", "BlueHeron!42"),
        ("my wifi password is now tulip-4471", "tulip-4471"),
        ("the wifi password changed to sunflower88", "sunflower88"),
        ("wifi密码改成了 abc12345", "abc12345"),
        ("我的登录码是dd2025x", "dd2025x"),
        ("登录码不是豆豆，是dd2025x", "dd2025x"),
    ],
)
def test_password_phrasings(text: str, value: str) -> None:
    assert kinds(text) == [("password", value)]


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password yesterday",
        "password reset link",
        "please send me a password reset link",
        "your password is too short",
        "the password is wrong",
        "password for the wifi",
        "I put a pin in it",
        "spinning 1234 times",
        "PIN is abc",  # a PIN is digits
        "密码是什么",
        "我忘记密码了",
        "密码错误",
        "密码是不是错了",
        "支付密码是多少位",
        "my password is ******",  # masked already
        "PIN is ******",
        "the password, it's too short",
        "my password is now expired",
    ],
)
def test_talk_about_passwords_is_not_a_password(text: str) -> None:
    assert kinds(text) == []


def test_phones_and_emails() -> None:
    assert kinds("我的手机号是13812345678，邮箱是 liming@example.com。") == [
        ("phone", "13812345678"),
        ("email", "liming@example.com"),
    ]
    assert kinds("call me at +14155550123") == [("phone", "+14155550123")]
    assert kinds("version 1.2.3 released in 2026") == []


# --- next to Chinese text, and what must not be taken for a sensitive value ----------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the wording of the issue: no space between the Chinese and the address
        ("我的邮箱是liming@example.com", [("email", "liming@example.com")]),
        ("邮箱：liming@example.com，有事发邮件", [("email", "liming@example.com")]),
        ("liming@example.com是我的工作邮箱", [("email", "liming@example.com")]),
        ("我的手机号是13812345678", [("phone", "13812345678")]),
        ("手机13812345678，微信同号", [("phone", "13812345678")]),
        ("我的电话是138-0013-8000", [("phone", "138-0013-8000")]),
        ("办公室电话010-88886666", [("phone", "010-88886666")]),
        ("美国的号码是+14155550123", [("phone", "+14155550123")]),
        (
            "我的电话１３８１２３４５６７８",
            [("phone", "１３８１２３４５６７８")],
        ),  # full-width digits
        ("身份证号码440301199003071230", [("cn_id", ID)]),
        ("我的银行卡是6222021234567894", [("bank_card", "6222021234567894")]),
        (
            "邮箱是liming@example.com，手机是13912345678",
            [("email", "liming@example.com"), ("phone", "13912345678")],
        ),
    ],
)
def test_values_written_straight_after_chinese_text(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert kinds(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("my email is sam@example.org", [("email", "sam@example.org")]),
        ("reach me at (415) 555-0100 after 6", [("phone", "(415) 555-0100")]),
        ("my UK number is +44 20 7946 0958", [("phone", "+44 20 7946 0958")]),
        # the shortest numbering plans: 7 digits in all, the least the matcher is given
        ("in Niue call +683 4002", [("phone", "+683 4002")]),
        ("my SSN is 123-45-6789", [("us_ssn", "123-45-6789")]),
        ("IBAN: DE89 3704 0044 0532 0130 00, thanks", [("iban", "DE89 3704 0044 0532 0130 00")]),
        ("send it to GB82WEST12345698765432", [("iban", "GB82WEST12345698765432")]),
        ("Visa 4111 1111 1111 1111 expires soon", [("bank_card", "4111 1111 1111 1111")]),
    ],
)
def test_english_wordings(text: str, found: list[tuple[str, str]]) -> None:
    assert kinds(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "我2019年搬到上海，2026年12月1日开始新工作",
        "订单号 202612011234567，请查收",  # 15 digits, fails the card checksum
        "订单号是1234567890",
        "order number 1234567890 shipped",
        "交易号 4200001234202612011234567890",  # 28 digits: longer than any card
        "预算50万，最多80万",
        "价格13800元",
        "邮编100080",
        "ISBN 9787115428028",
        "the meeting is at 10:30 on 2026-12-01",
        "I have 3 cats and 2 dogs, room 1234",
        "编号 440301199003071231",  # an ID's shape with a wrong check digit, not said as one
        "编号 440301199013071230",  # right check digit, but month 13: no such birth date
        "IBAN DE89 3704 0044 0532 0130 01",  # wrong check digits
        "ref 000-12-3456",  # an SSN's shape never issued, not said as one
        "version 1.2.3 released in 2026",
        "an address like user at example dot com",
    ],
)
def test_ordinary_numbers_are_not_flagged(text: str) -> None:
    assert kinds(text) == []


def test_a_uuid_is_no_card_and_no_phone() -> None:
    """The digits inside an identifier are not a value of their own: these UUIDs were masked
    (the first as a Luhn-valid card, the second as a phone), so a take-back's reference to the
    turn it corrects lost its target and the correction did not stick. A card beside a UUID is
    still a card."""
    for uid in ("8c524cf5-1648-4e27-a8e3-944177023849", "bdef071e-1680-4338-ae4b-6cecc5e42cc2"):
        assert kinds(uid) == []
        assert kinds(f"order {uid} was paid") == []
        assert kinds(f"订单{uid}") == []
    assert kinds(f"8c524cf5-1648-4e27-a8e3-944177023849 card {CARD}") == [("bank_card", CARD)]
    rng = random.Random(20261203)
    sample = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(3000)]
    assert [u for u in sample if detect(u)] == []


def test_an_id_number_is_a_secret_before_it_is_a_phone() -> None:
    """Secrets are looked for first: digits that are both never end up merely 'personal'."""
    [finding] = detect(f"号码{ID}")
    assert (finding.kind, finding.level) == ("cn_id", "secret")


def test_protect_keeps_an_email_glued_to_chinese_out_of_the_text() -> None:
    p = _privacy()
    out = p.protect("我的邮箱是liming@example.com", "t:u")
    assert "liming" not in out.text and out.text.startswith("我的邮箱是⟦email:")
    assert embedding_text(out.text) == "我的邮箱是[email]"
    assert p.reveal_personal(out.text, out.sealed, "t:u") == "我的邮箱是liming@example.com"


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


@pytest.mark.parametrize(
    ("field", "named"),
    [
        ("password", True),
        ("pw", True),
        ("bank_pin", True),
        ("wifi.passcode", True),
        ("登录密码", True),
        ("PIN", True),
        ("spinner", False),
        ("pwned_count", False),
        ("card", False),
        ("opinion", False),
    ],
)
def test_fields_named_for_passwords(field: str, named: bool) -> None:
    from app.privacy.detect import names_a_password

    assert names_a_password(field) is named


# --- API keys, card security codes, codes that open things, more password wordings -------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("my openai key is sk-proj-AbCdEf1234567890XyZ, keep it handy",
         [("api_key", "sk-proj-AbCdEf1234567890XyZ")]),
        ("sk-abcdefghijklmnop1234 is the old one", [("api_key", "sk-abcdefghijklmnop1234")]),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789",
         [("api_key", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")]),
        ("AWS key AKIAIOSFODNN7EXAMPLE", [("api_key", "AKIAIOSFODNN7EXAMPLE")]),
        ("slack token: xoxb-123456789012-abcdefABCDEF",
         [("api_key", "xoxb-123456789012-abcdefABCDEF")]),
        ("stripe sk_live_abcdefghijklmnopqrstuvwx",
         [("api_key", "sk_live_abcdefghijklmnopqrstuvwx")]),
        ("my api key is abc123def456ghi", [("api_key", "abc123def456ghi")]),
        ("the access token = 9f8e7d6c5b4a3210", [("api_key", "9f8e7d6c5b4a3210")]),
        ("密钥是 a8f3k29dk3l0zq7w", [("api_key", "a8f3k29dk3l0zq7w")]),
        ("我的gmail password是 MoonLight#88", [("password", "MoonLight#88")]),
        ("the login for my work laptop is tiger_lily_42 btw", [("password", "tiger_lily_42")]),
        # a login's password: "login" names the account, not a user name
        ("my netflix login password is bluefox2291 — remember it", [("password", "bluefox2291")]),
        ("login pin: 4821", [("password", "4821")]),
        ("Update: changed my email password to PurpleRain_1999",
         [("password", "PurpleRain_1999")]),
        ("Passcode for the door is 7731#, and the alarm code is 0420.",
         [("password", "7731#"), ("password", "0420")]),
        ("the gate code: 2580", [("password", "2580")]),
        ("门禁码是 1234#", [("password", "1234#")]),
        ("My credit card number is 4111 1111 1111 1111, exp 09/28, CVV 123.",
         [("bank_card", "4111 1111 1111 1111"), ("card_expiry", "09/28"), ("card_cvv", "123")]),
        ("我的信用卡安全码是 321", [("card_cvv", "321")]),
        # said as a card number: a card even when the Luhn check fails
        ("我的银行卡号是6222 0212 3456 7890 123。", [("bank_card", "6222 0212 3456 7890 123")]),
        ("card number: 4111 1111 1111 1112", [("bank_card", "4111 1111 1111 1112")]),
    ],
)  # fmt: skip
def test_keys_codes_and_more_passwords(text: str, found: list[tuple[str, str]]) -> None:
    assert kinds(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "the secret is that I love cake",
        "the key is under the mat",
        "the key to success is practice",
        "token limit is 4096",
        "my login is admin",
        "the login page is broken",
        "I need to change my password to something stronger",
        "my alarm code is wrong",
        "exp 09/28 for the project",  # an expiry only beside a card
        "I paid with my credit card on 12/25",
        "the code is 1234",
        "I read chapter 123 of the security code guide",
        "sk-learn is great",
        "we use scikit-learn and gpt-4o-mini",
        "send the secret santa list to Amy",
        "我的卡丢了，卡号记不清了",
        "密钥管理很重要",
        "my card expires next month",
    ],
)
def test_talk_about_keys_and_codes_is_not_a_secret(text: str) -> None:
    assert kinds(text) == []


def test_keys_and_short_codes_are_masked_whole() -> None:
    p = _privacy()
    out = p.protect("CVV 123, key sk-proj-AbCdEf1234567890XyZ", "t:u")
    assert out.text == "CVV ******, key ******"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the value further on from its keyword, in the same sentence
        ("I changed my gmail password yesterday, actually the new one is Kettle#5521",
         [("password", "Kettle#5521")]),
        ("the security code on the back of my visa is 392", [("card_cvv", "392")]),
        ("can u save my alarm passcode? its 7314", [("password", "7314")]),
        ("I use the same password everywhere which is bad I know: marigold2019",
         [("password", "marigold2019")]),
        ("The password for my Steam account, it's dragonfly99 now",
         [("password", "dragonfly99")]),
        ("my pin number's 0926 for the atm card", [("password", "0926")]),
        ("嗯 那个 wifi 密码好像是 88888888 吧", [("password", "88888888")]),
        ("不好意思刚才说错了，邮箱密码其实是 Lily_0923", [("password", "Lily_0923")]),
        # the keyword misspelt, said short, or bare beside what the code opens
        ("paswrod is hunter42x dont forget it", [("password", "hunter42x")]),
        ("my email pass is Qwerty!234", [("password", "Qwerty!234")]),
        ("the safe in the hotel room, code 1-9-8-4, write that down", [("password", "1-9-8-4")]),
        # keyed in groups, and documents by their keyword
        ("刚收到的短信验证码：83 47 21", [("password", "83 47 21")]),
        ("one time code: 771 204", [("password", "771 204")]),
        ("我的护照 号码是 G 1234 5678", [("id_document", "G 1234 5678")]),
        ("My national insurance number is QQ123456C", [("id_document", "QQ123456C")]),
        ("here's my passport number for the visa form: K48291735",
         [("id_document", "K48291735")]),
        # the number ends where the words begin
        ("my drivers licence no. is S530-4629-1183 if the rental place asks",
         [("id_document", "S530-4629-1183")]),
        # what it is not is as secret
        ("Sorry typo, the router password is Falcon$772 not Falcon$727",
         [("password", "Falcon$772"), ("password", "Falcon$727")]),
        # far from its keyword, or after a dash; what a code opens said for the code
        ("The password for the router in the basement, the one my landlord set up back in "
         "March, is K8s-basement-99", [("password", "K8s-basement-99")]),
        ("My dad's debit card PIN — 9902. He asked me to store it.", [("password", "9902")]),
        ("The bike lock is 0-7-3-9, don't tell Sam", [("password", "0-7-3-9")]),
        ("the combination on the storage unit padlock is 19 - 44 - 7",
         [("password", "19 - 44 - 7")]),
        ("gym locker combo: 32-14-08", [("password", "32-14-08")]),
        ("My social is 412 55 8019, keep it safe", [("id_document", "412 55 8019")]),
        ("my NI number is QQ 12 34 56 C", [("id_document", "QQ 12 34 56 C")]),
        ("Two-factor backup code 7H3K-9P2L, I printed the rest", [("password", "7H3K-9P2L")]),
        # set or changed to, in Chinese; a misspelt keyword; a pickup code
        ("顺便把网银登录密码设成了 Hz#2024bank，手机号没变", [("password", "Hz#2024bank")]),
        ("支付密码 我改成 207734 了", [("password", "207734")]),
        ("我的开机秘码是 lk1234qq，别忘了", [("password", "lk1234qq")]),
        ("快递取件码 5-3-2108，帮我记着", [("password", "5-3-2108")]),
        # several listed after one keyword, or each with a short label of its own
        ("my google backup codes: 4471 9023, 8830 1174, 2290 6651",
         [("password", "4471 9023"), ("password", "8830 1174"), ("password", "2290 6651")]),
        ("list for you: wifi pw BlueOcean_5G, alarm 8842, garage 1379",
         [("password", "BlueOcean_5G"), ("password", "8842"), ("password", "1379")]),
        ("帮我记住：淘宝登录密码 Tb#2024xiao，京东的是 jd_Xiao2024",
         [("password", "Tb#2024xiao"), ("password", "jd_Xiao2024")]),
        ("谷歌两步验证的备用码：3827 1940、5561 0283",
         [("password", "3827 1940"), ("password", "5561 0283")]),
        # what it is, after what it is not; the new one after the old
        ("刚才说错了，密码不是 abc123，是 abc12345",
         [("password", "abc123"), ("password", "abc12345")]),
        ("门锁密码不是 2468 是 8642", [("password", "2468"), ("password", "8642")]),
        ("微博密码 weibo_2023 已经作废了，新的是 wb#Sunny_2024",
         [("password", "weibo_2023"), ("password", "wb#Sunny_2024")]),
        # accounts, tax numbers, a card's code and expiry by other names
        ("checking acct 0049127735, routing 021000021",
         [("bank_account", "0049127735"), ("bank_account", "021000021")]),
        ("sort code 20-45-77 account number 31926819",
         [("bank_account", "20-45-77"), ("bank_account", "31926819")]),
        ("tax id / EIN for the llc is 84-3920175", [("id_document", "84-3920175")]),
        ("Put my SIN down as 046 454 286 on the rental form", [("id_document", "046 454 286")]),
        ("card no. 5425-2334-3010-9903, the three digits on the back are 662",
         [("bank_card", "5425-2334-3010-9903"), ("card_cvv", "662")]),
        ("my amex is 3742 915068 21431, cid 7741, good thru 11/26",
         [("bank_card", "3742 915068 21431"), ("card_cvv", "7741"), ("card_expiry", "11/26")]),
        # what opens a device, a lock or an alarm
        ("work laptop unlock is Winter2025$ until IT resets it", [("password", "Winter2025$")]),
        ("I log into outlook with kestrel.Moon.77", [("password", "kestrel.Moon.77")]),
        ("the padlock on the shed opens with 7-7-4", [("password", "7-7-4")]),
        ("家里报警器的撤防码 6620", [("password", "6620")]),
        ("驾驶证档案编号 440300123456，帮我记着", [("id_document", "440300123456")]),
        # (what is said of it is taken too: a Chinese value after 是 is one, "口令是芝麻开门")
        ("开机密码是我名字拼音加生日 wangfang0512",
         [("password", "我名字拼音加生日"), ("password", "wangfang0512")]),
        # a password's closing mark is the password's
        ("can you save my netflix pw for me its sunflower88! thx",
         [("password", "sunflower88!")]),
        # a word of doubt between the separator and the value; a value after a parenthesis
        ("I told you wrong yesterday, my Spotify pwd is actually Bluebird!Song77",
         [("password", "Bluebird!Song77")]),
        ("My passport number (it's on the photo page) 533 829 104",
         [("id_document", "533 829 104")]),
        # a code whose digits read like a date, a dial's turns, a key safe, a device's key
        ("remember for me: locker 14 at the gym, combination 22-08-35",
         [("password", "22-08-35")]),
        ("the combination to the filing cabinet is left 32 right 17 left 5",
         [("password", "left 32 right 17 left 5")]),
        ("the keysafe outside mum's house for the carers is 1 9 4 7", [("password", "1 9 4 7")]),
        ("whats the best way to remember my wifi key which is 7hG2-kP9q-Lm4x-Rt8v",
         [("password", "7hG2-kP9q-Lm4x-Rt8v")]),
        # a card's code and expiry by other words, in both languages
        ("Visa 4916-3380-7721-5506 expiring 03/2028, 3 digit code 906",
         [("bank_card", "4916-3380-7721-5506"), ("card_expiry", "03/2028"),
          ("card_cvv", "906")]),
        ("信用卡 4392 2600 1234 5672，有效期 08/26，背面三位数 219",
         [("bank_card", "4392 2600 1234 5672"), ("card_expiry", "08/26"), ("card_cvv", "219")]),
        # a token runs to its end; access key ids and webhook secrets by their prefix
        ("Use bearer token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyMTIzIn0.K8vX2mPq9LrT4wYz7bNc",
         [("api_key", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyMTIzIn0.K8vX2mPq9LrT4wYz7bNc")]),
        ("把这个 webhook 密钥存起来：whsec_9fKd83LsPq02MzXvW7bNmA4t",
         [("api_key", "whsec_9fKd83LsPq02MzXvW7bNmA4t")]),
        # a correction after the first value; a URL's credentials; a device's admin pair
        ("locker combination is 12-34-56, wait no sorry, it's 14-38-22",
         [("password", "12-34-56"), ("password", "14-38-22")]),
        ("保险箱密码是382910，哦不对，是382901", [("password", "382910"), ("password", "382901")]),
        ("DATABASE_URL=postgres://admin:S3cretPg!pw@db.internal:5432/app",
         [("password", "S3cretPg!pw")]),
        ("家里路由器后台 admin / Tplink@6688", [("password", "Tplink@6688")]),
        # keyed into a lock; a card's code on its back; a lower-case IBAN
        ("酒店保险柜：先按#，再输771902，最后按*", [("password", "771902")]),
        ("the three numbers on the back of my Mastercard are 904", [("card_cvv", "904")]),
        ("iban: nl31 abna 0582 0647 98 for the deposit", [("iban", "nl31 abna 0582 0647 98")]),
        # a document number in groups of up to eight digits after a comma
        ("爸的身份证号, 330106 19650218 1196", [("id_document", "330106 19650218 1196")]),
        # said before its keyword
        ("Kitten$Mittens99 - that's my new amazon password, don't let me forget",
         [("password", "Kitten$Mittens99")]),
        ('"blueHorizon!42" - that\'s what I set as the password for my Netflix account',
         [("password", "blueHorizon!42")]),
        ("Hz_19931122 这个是我公司邮箱的登录密码", [("password", "Hz_19931122")]),
        ("你帮我记住这个：Z3x-Kp9-Wq2，是我 Outlook 邮箱的登录口令", [("password", "Z3x-Kp9-Wq2")]),
        # in brackets; a keyword glued to digits is the value's; listed codes whole
        ("网银U盾密码（区分大小写）【Mm7788kk】", [("password", "Mm7788kk")]),
        ("密码就是 password 后面加上我生日那四位，即 password0315", [("password", "password0315")]),
        ("Here are my GitHub recovery codes: 8f3k2-9qz1m, 4hd7x-2p0lw, mm39a-77trc",
         [("password", "8f3k2-9qz1m"), ("password", "4hd7x-2p0lw"), ("password", "mm39a-77trc")]),
        ("National insurance JK 48 21 93 D, if the payroll people ask",
         [("id_document", "JK 48 21 93 D")]),
        ("信用卡背面那三个数是 338，卡号你之前记过了", [("card_cvv", "338")]),
        # an IBAN whose digits also pass the Luhn check is an IBAN, whole
        ("IBAN is GB90 LOYD 3096 3458 2910 47 for the rent",
         [("iban", "GB90 LOYD 3096 3458 2910 47")]),
        # one key, whole, however many patterns know it
        ("Stripe secret key sk_live_51HxQ2aBcDeFgHiJkLmNoPqRsTuV for the shop",
         [("api_key", "sk_live_51HxQ2aBcDeFgHiJkLmNoPqRsTuV")]),
    ],
)  # fmt: skip
def test_a_secret_said_further_on_from_its_keyword(text: str, found: list[tuple[str, str]]) -> None:
    assert kinds(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "what's the zip code 94110 like to live in",
        "my password expires in 2031",
        "my passport is valid until 2031, so no rush",
        "I changed my password 3 times this week",
        "my bus pass is in my bag",
        "the code review is at 10:30",
        "the pin on the map is at 5th avenue",
        "my passport photo cost $15",
        "My password manager is 1Password",
        "密码强度要求：大写字母 + 数字，8-16 位",
        "I dropped a pin on the map at 40.7128, -74.0060",
        "the safe was installed on 2024-03-15",
        "I need 2 passport photos, 35x45 mm",
        "confirmation code for the rental car is K4R-22",
        "护照办理要 7 个工作日，费用 120 元",
        "the new alarm clock cost 120 dollars",
        "My Amazon order 113-2298765-4410923 was delivered to the wrong address.",
        "订单号6222021001123456789，帮我查下物流",
        "My area PIN code is 560034, Koramangala",
        "保险柜是得力 4078 型号，多少钱",
        "iPhone15 is what I use, and I reset my password yesterday",
        "v2.3.1 is the version where the password manager broke",
    ],
)
def test_a_keyword_with_no_secret_after_it_masks_nothing(text: str) -> None:
    assert kinds(text) == []
