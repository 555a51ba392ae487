"""A user who denies or takes back something about themselves ("turns out I'm not allergic to
latex after all", "其实不太会", "Svelte 那个方案被组长否了", "I'm an only child") gets the memory it
names withdrawn and no positive fact formed from the denial — through the HTTP API, in Chinese
and English; a negated sentence about someone else, or one saying the thing still holds ("not
only Italian"), withdraws nothing."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "denial", "key", "old"),
    [
        ("I'm allergic to latex.",
         "turns out I'm not allergic to latex after all, the patch test was clean",
         "health.allergy", "latex"),
        ("我对芒果过敏", "医生说我其实对芒果不过敏，上周做了检查", "health.allergy", "芒果"),
        ("我会说韩语", "其实不太会，只会说 annyeong，一点都不流利", "language.preferred", "韩语"),
        ("I can speak Korean pretty well.",
         "Honestly no, my Korean is terrible, I only know a few words.",
         "language.preferred", "korean"),
        ("I have an older brother.", "no wait, I'm an only child, that was my cousin",
         "family.member", "brother"),
    ],
)  # fmt: skip
async def test_a_denial_withdraws_the_value_it_names(
    tenant: TenantCtx, first: str, denial: str, key: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", denial, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == []
    assert await tenant.values("u", key, "frozen", lower=True) == [old]
    hits = (await tenant.recall("u", old, top_k=8))["memories"]
    assert old not in [(m["value"] or "").lower() for m in hits if m["key"] == key]


@pytest.mark.parametrize(
    ("first", "dropped", "key"),
    [
        ("我们决定用 Svelte 做管理后台", "Svelte 那个方案被组长否了，目前还没定", "task.decision"),
        ("We decided to go with Redis for the cache.",
         "Scratch that, the Redis idea got vetoed by our CTO, still undecided.", "task.decision"),
        ("我打算明年春天去西藏旅行", "西藏不去了，假期批不下来", "plan"),
        # dropped as "that plan" or "not … after all", no name needed
        ("我打算五月去厦门玩", "那个计划取消了", "plan"),
        ("I'm planning to do an MBA next year", "not doing the MBA after all, too expensive",
         "plan"),
        ("我下周五要去参加同学聚会", "聚会不去了，要加班", "event"),
    ],
)  # fmt: skip
async def test_a_decision_or_plan_dropped_is_withdrawn(
    tenant: TenantCtx, first: str, dropped: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    before = await tenant.values("u", key, "active", lower=True)
    assert len(before) == 1
    await tenant.say("u", "s1", dropped, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == []
    assert await tenant.values("u", key, "frozen", lower=True) == before


async def test_an_ability_taken_back_without_its_name_withdraws_only_abilities(
    tenant: TenantCtx,
) -> None:
    # the turn before formed a skill and a city: "其实不太会" takes back the skill only
    await tenant.say("u", "s1", "我会弹吉他，住在杭州", at=T1)
    assert await tenant.values("u", "residence.city", "active", lower=True) == ["杭州"]
    await tenant.say("u", "s1", "其实不太会啦，只会弹两个和弦", at=T2)
    assert await tenant.values("u", "residence.city", "active", lower=True) == ["杭州"]
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "frozen"}, headers=tenant.headers
    )
    frozen = [m["content"] for m in r.json()["items"] if m["type"] != "episode"]
    assert frozen == ["会弹吉他"]


async def test_a_denial_forms_no_positive_fact(tenant: TenantCtx) -> None:
    # "不吃素" is no food avoided; "withdrew from Boston" is no city; the reason after a
    # denial ("got tested last week") is no condition
    await tenant.say("u", "s1", "我其实不吃素，昨天点素面只是因为赶时间", at=T1)
    await tenant.say("u", "s1", "nah, I withdrew from Boston, my back is acting up", at=T1)
    await tenant.say(
        "u", "s1", "turns out I'm not actually allergic to aspirin — got tested last week", at=T2
    )
    for key in ("diet.avoid", "diet.style", "residence.city", "health.condition"):
        assert await tenant.values("u", key, "active", lower=True) == [], key


@pytest.mark.parametrize(
    ("first", "other", "key", "kept"),
    [
        ("I'm vegan.", "My sister isn't vegan though, she eats everything.",
         "diet.style", "vegan"),
        ("我会说德语", "我男朋友不会说德语，他只会英语", "language.preferred", "德语"),
        ("I speak Italian.", "Not only Italian, I also speak some Greek.",
         "language.preferred", "italian"),
        ("我们决定用 Go 写后端", "隔壁组的方案被老板否了，他们还没定用什么", "task.decision",
         "用 go 写后端"),
        ("I have a cat named Pixel.", "My roommate doesn't have a cat, she's allergic.",
         "pets.name", "pixel"),
        # a negation beside a place or a job of the user's is no denial of it
        ("I live in Denver.", "Honestly I don't love Denver in winter, way too cold.",
         "residence.city", "denver"),
        ("我在字节跳动上班", "其实我不太喜欢字节跳动的加班文化", "work.employer", "字节跳动"),
        # a denial that names a plan's place drops no plan
        ("我打算下个月去北京出差", "其实我不住北京，住在天津", "plan", "打算下个月去北京出差"),
    ],
)  # fmt: skip
async def test_a_negated_sentence_about_someone_else_withdraws_nothing(
    tenant: TenantCtx, first: str, other: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert kept in await tenant.values("u", key, "active", lower=True)
    await tenant.say("u", "s1", other, at=T2)
    assert kept in await tenant.values("u", key, "active", lower=True)
    assert await tenant.values("u", key, "frozen", lower=True) == []
