"""A change of job, role or work place said in the user's own words forms the new value and
freezes the old one; a duty added to the same job freezes nothing — through the HTTP API, in
Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def _values(t: TenantCtx, user: str, key: str, status: str) -> list[str]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"key": key, "status": status}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return sorted(m["value"] for m in r.json()["items"])


async def _active(t: TenantCtx, user: str, key: str) -> list[str]:
    return await _values(t, user, key, "active")


async def _frozen(t: TenantCtx, user: str, key: str) -> list[str]:
    return await _values(t, user, key, "frozen")


async def test_left_one_hospital_and_starting_at_another_on_monday(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a nurse at St. Mary's.", at=T1)
    await tenant.say(
        "u",
        "s1",
        "Big news: I left St. Mary's and I'm starting at Kaiser on Monday, same job, just "
        "better hours",
        at=T2,
    )
    assert await _active(tenant, "u", "work.employer") == ["Kaiser"]
    assert await _frozen(tenant, "u", "work.employer") == ["St. Mary's"]
    assert await _active(tenant, "u", "work.role") == ["nurse"]
    assert await _active(tenant, "u", "event") == []  # a new job, not an appointment


async def test_promoted_from_teller_to_account_manager_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在招商银行做柜员", at=T1)
    await tenant.say("u", "s1", "升职了！现在是客户经理了，终于不用再坐柜台了", at=T2)
    assert await _active(tenant, "u", "work.role") == ["客户经理"]
    assert await _frozen(tenant, "u", "work.role") == ["柜员"]
    assert await _active(tenant, "u", "work.employer") == ["招商银行"]
    assert await _active(tenant, "u", "tech.preferred") == []  # "不用再…" gives up no tool


async def test_quit_teaching_and_now_an_instructional_designer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I teach 5th grade at Lincoln Elementary", at=T1)
    assert await _active(tenant, "u", "work.role") == ["5th grade teacher"]
    await tenant.say(
        "u",
        "s1",
        "Update on me: I quit teaching in June. Now I'm an instructional designer at Coursera, "
        "fully remote",
        at=T2,
    )
    assert await _active(tenant, "u", "work.role") == ["instructional designer"]
    assert await _frozen(tenant, "u", "work.role") == ["5th grade teacher"]
    assert await _active(tenant, "u", "work.employer") == ["Coursera"]
    assert await _frozen(tenant, "u", "work.employer") == ["Lincoln Elementary"]


async def test_transferred_to_another_city_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在北京上班", at=T1)
    await tenant.say("u", "s1", "公司把我调到上海分部了，下周开始在上海上班", at=T2)
    assert await _active(tenant, "u", "work.location") == ["上海"]
    assert await _frozen(tenant, "u", "work.location") == ["北京"]
    assert await _active(tenant, "u", "work.employer") == []  # 上海 is where, not who
    assert await _active(tenant, "u", "event") == []


async def test_handed_in_notice_and_freelancing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm an accountant at Deloitte", at=T1)
    await tenant.say(
        "u",
        "s1",
        "So I handed in my notice at Deloitte. Freelancing as a bookkeeper from now on, wish "
        "me luck",
        at=T2,
    )
    assert await _active(tenant, "u", "work.employer") == []
    assert await _frozen(tenant, "u", "work.employer") == ["Deloitte"]
    assert await _active(tenant, "u", "work.role") == ["bookkeeper"]
    assert await _frozen(tenant, "u", "work.role") == ["accountant"]


async def test_a_duty_added_to_the_job_freezes_nothing(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I'm a software engineer at Orbitly.", at=T1)
    await tenant.say("en", "s1", "I'm also responsible for the on-call rotation there.", at=T2)
    assert await _active(tenant, "en", "work.role") == ["software engineer"]
    assert await _active(tenant, "en", "work.employer") == ["Orbitly"]
    assert await _frozen(tenant, "en", "work.role") == []

    await tenant.say("zh", "s1", "我在晨光传媒做编辑", at=T1)
    await tenant.say("zh", "s1", "我在单位还负责招人", at=T2)
    assert await _active(tenant, "zh", "work.role") == ["编辑"]
    assert await _active(tenant, "zh", "work.employer") == ["晨光传媒"]
    assert await _frozen(tenant, "zh", "work.role") == []


async def test_a_word_of_the_duty_is_no_employer_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在华为上班", at=T1)
    await tenant.say("u", "s1", "在那边做嵌入式开发，主要写驱动", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["华为"]
    assert await _frozen(tenant, "u", "work.employer") == []
    assert await _active(tenant, "u", "work.role") == ["嵌入式开发"]


async def test_a_company_the_user_is_with_is_no_tool(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my employer is Tandem Robotics", at=T1)
    await tenant.say("u", "s1", "oh btw I switched jobs, I'm with Kestrel Automation now", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["Kestrel Automation"]
    assert await _frozen(tenant, "u", "work.employer") == ["Tandem Robotics"]
    assert await _active(tenant, "u", "tech.preferred") == []


async def test_a_job_lost_without_naming_it_freezes_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I work at Acme Robotics.", at=T1)
    await tenant.say("en", "s1", "I got laid off last week, kind of a shock.", at=T2)
    # only the record of the withdrawal, with no value, is left active
    assert await _active(tenant, "en", "work.employer") == [None]
    assert await _frozen(tenant, "en", "work.employer") == ["Acme Robotics"]

    await tenant.say("zh", "s1", "我在星河科技上班", at=T1)
    await tenant.say("zh", "s1", "我被裁了，心情很差", at=T2)
    assert await _frozen(tenant, "zh", "work.employer") == ["星河科技"]


async def test_someone_elses_lost_job_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Acme Robotics.", at=T1)
    await tenant.say("u", "s1", "My husband got laid off last week.", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["Acme Robotics"]
    assert await _frozen(tenant, "u", "work.employer") == []


async def test_a_transfer_or_a_start_the_classifier_doubts_is_work(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我在深圳上班", at=T1)
    await tenant.say("zh", "s1", "我被调到广州了", at=T2)
    assert await _active(tenant, "zh", "work.location") == ["广州"]
    assert await _frozen(tenant, "zh", "work.location") == ["深圳"]
    assert await _active(tenant, "zh", "residence.city") == []  # sent there to work

    await tenant.say("en", "s1", "I work at Umbrella Labs.", at=T1)
    await tenant.say("en", "s1", "Starting at Google next week as an SRE!", at=T2)
    assert await _active(tenant, "en", "work.employer") == ["Google"]
    assert await _frozen(tenant, "en", "work.employer") == ["Umbrella Labs"]
    assert await _active(tenant, "en", "work.role") == ["SRE"]


async def test_a_work_given_up_by_its_activity_freezes_the_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I teach high school chemistry.", at=T1)
    assert await _active(tenant, "u", "work.role") == ["high school chemistry teacher"]
    await tenant.say("u", "s1", "I quit teaching last month, burnt out.", at=T2)
    assert await _frozen(tenant, "u", "work.role") == ["high school chemistry teacher"]


async def test_a_duty_stated_after_the_employer_is_the_role(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I work at Sundial Energy.", at=T1)
    await tenant.say("en", "s1", "I look after the company's payroll there.", at=T2)
    assert await _active(tenant, "en", "work.role") == ["payroll"]
    assert await _active(tenant, "en", "work.employer") == ["Sundial Energy"]

    await tenant.say("mx", "s1", "我在腾讯上班", at=T1)
    await tenant.say("mx", "s1", "在那边 mainly 负责 growth hacking", at=T2)
    assert await _active(tenant, "mx", "work.role") == ["growth hacking"]
    assert await _active(tenant, "mx", "work.employer") == ["腾讯"]


async def test_a_role_then_where_in_one_sentence_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我是一名护士，在市第一人民医院")
    assert await _active(tenant, "u", "work.role") == ["护士"]
    assert await _active(tenant, "u", "work.employer") == ["市第一人民医院"]


async def test_a_duty_beside_a_job_title_replaces_no_role(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I'm a bookkeeper at Sundial Energy.", at=T1)
    await tenant.say("en", "s1", "I look after the company's payroll there.", at=T2)
    assert await _active(tenant, "en", "work.role") == ["bookkeeper"]
    assert await _frozen(tenant, "en", "work.role") == []
    r = await tenant.client.get(
        f"{tenant.user('en')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    kept = [m["content"] for m in r.json()["items"] if m["type"] == "profile" and not m["key"]]
    assert any("payroll" in c for c in kept), kept  # the duty is kept, with no key

    await tenant.say("zh", "s1", "我在晨光传媒做编辑", at=T1)
    await tenant.say("zh", "s1", "我在单位负责招人", at=T2)
    assert await _active(tenant, "zh", "work.role") == ["编辑"]
    assert await _frozen(tenant, "zh", "work.role") == []


async def test_a_duty_said_as_a_change_replaces_the_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a bookkeeper at Sundial Energy.", at=T1)
    await tenant.say("u", "s1", "I'm now in charge of the whole finance team there.", at=T2)
    assert await _active(tenant, "u", "work.role") == ["whole finance team"]
    assert await _frozen(tenant, "u", "work.role") == ["bookkeeper"]
