"""Ordinary sentences, said as a new user would, become the memory a person would expect —
through the HTTP API, in Chinese and English: the current fact active, the replaced one
frozen, and recall ranking the current one first."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def _memories(t: TenantCtx, user: str, **params: object) -> list[dict]:
    r = await t.client.get(f"{t.user(user)}/memories", params=params, headers=t.headers)
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def _active(t: TenantCtx, user: str, key: str) -> list[str]:
    return [m["value"] for m in await _memories(t, user, key=key, status="active")]


async def _frozen(t: TenantCtx, user: str, key: str) -> list[str]:
    return [m["value"] for m in await _memories(t, user, key=key, status="frozen")]


async def _first_recalled(t: TenantCtx, user: str, query: str, key: str) -> str | None:
    """The value of the first recalled memory of ``key`` (``None`` if none is recalled)."""
    found = [m for m in (await t.recall(user, query, top_k=8))["memories"] if m["key"] == key]
    return found[0]["value"] if found else None


async def test_left_an_employer_and_joined_another_in_one_sentence_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Hooli.", at=T1)
    await tenant.say("u", "s2", "Left Hooli last spring, I'm at Pied Piper now running QA.", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["Pied Piper"]
    assert await _frozen(tenant, "u", "work.employer") == ["Hooli"]
    assert await _active(tenant, "u", "work.role") == ["QA"]
    assert await _first_recalled(tenant, "u", "Where do I work?", "work.employer") == "Pied Piper"


async def test_left_an_employer_and_joined_another_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在星河科技上班。", at=T1)
    await tenant.say("u", "s2", "我跳槽到蓝鲸数据了。", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["蓝鲸数据"]
    assert await _frozen(tenant, "u", "work.employer") == ["星河科技"]
    assert await _first_recalled(tenant, "u", "我在哪家公司上班？", "work.employer") == "蓝鲸数据"


async def test_a_pet_named_in_the_middle_of_the_sentence_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我有一只叫馒头的猫。")
    assert await _active(tenant, "zh", "pets.name") == ["馒头"]
    assert await _active(tenant, "zh", "pets.kind") == ["猫"]
    await tenant.say("en", "s1", "I have a cat named Rex.")
    assert await _active(tenant, "en", "pets.name") == ["Rex"]


async def test_a_second_pet_is_an_addition_not_a_replacement(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a cat named Tom.", at=T1)
    await tenant.say("u", "s1", "I also have a dog called Rex", at=T2)
    assert sorted(await _active(tenant, "u", "pets.name")) == ["Rex", "Tom"]
    assert sorted(await _active(tenant, "u", "pets.kind")) == ["cat", "dog"]
    assert await _frozen(tenant, "u", "pets.name") == []


async def test_the_user_corrects_a_model_inferred_role_zh(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "职业是后端开发", key="work.role", value="后端开发", source="model_inferred"
    )
    await tenant.say("u", "s1", "我做的是前端开发。")
    assert await _active(tenant, "u", "work.role") == ["前端开发"]
    assert await _frozen(tenant, "u", "work.role") == ["后端开发"]
    assert await _first_recalled(tenant, "u", "我是做什么工作的？", "work.role") == "前端开发"


async def test_the_user_corrects_a_model_inferred_role_en(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "works as a backend developer", key="work.role", value="backend developer",
        source="model_inferred",
    )  # fmt: skip
    await tenant.say("u", "s1", "I'm a frontend developer.")
    assert await _active(tenant, "u", "work.role") == ["frontend developer"]
    assert await _frozen(tenant, "u", "work.role") == ["backend developer"]


async def test_stopped_drinking_freezes_the_usual_drink_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I usually drink green tea.", at=T1)
    assert await _active(tenant, "u", "preference.drink") == ["green tea"]
    await tenant.say("u", "s2", "I stopped drinking green tea.", at=T2)
    assert await _active(tenant, "u", "preference.drink") == []
    assert await _frozen(tenant, "u", "preference.drink") == ["green tea"]
    recalled = (await tenant.recall("u", "What does the user drink?", top_k=8))["memories"]
    assert all(m["key"] != "preference.drink" for m in recalled)


async def test_no_longer_drinking_freezes_the_usual_drink_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I usually drink green tea.", at=T1)
    await tenant.say("u", "s2", "I no longer drink green tea", at=T2)
    assert await _active(tenant, "u", "preference.drink") == []
    assert await _active(tenant, "u", "diet.avoid") == ["green tea"]


async def test_quit_a_drink_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我平时喝可乐。", at=T1)
    await tenant.say("u", "s2", "可乐戒了，现在只喝白开水。", at=T2)
    assert await _active(tenant, "u", "preference.drink") == ["白开水"]
    assert await _frozen(tenant, "u", "preference.drink") == ["可乐"]


async def test_favourite_player_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My favorite football player is Player_X.", at=T1)
    assert await _active(tenant, "u", "preference.likes") == ["player_x"]
    await tenant.say("u", "s2", "My favorite football player is Player_Y now.", at=T2)
    assert await _active(tenant, "u", "preference.likes") == ["player_y"]
    assert await _frozen(tenant, "u", "preference.likes") == ["player_x"]


async def test_favourite_player_replaced_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我最喜欢的足球运动员是梅西", at=T1)
    await tenant.say("u", "s2", "我现在最喜欢的足球运动员是C罗", at=T2)
    assert await _active(tenant, "u", "preference.likes") == ["c罗"]
    assert await _frozen(tenant, "u", "preference.likes") == ["梅西"]
    assert (
        await _first_recalled(tenant, "u", "我最喜欢哪个足球运动员？", "preference.likes") == "c罗"
    )


async def test_favourites_of_other_categories_stay(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我最喜欢的足球运动员是梅西", at=T1)
    await tenant.say("u", "s2", "我最喜欢的歌手是周杰伦", at=T2)
    assert sorted(await _active(tenant, "u", "preference.likes")) == ["周杰伦", "梅西"]


async def test_a_duty_after_the_employer_is_a_role_not_a_new_employer_zh(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我在星河科技做后端开发。", at=T1)
    await tenant.say("u", "s2", "我在公司负责招聘工作。", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["星河科技"]
    assert await _frozen(tenant, "u", "work.employer") == []
    # a duty beside the job title the user has replaces no role: it is kept with no key
    assert await _active(tenant, "u", "work.role") == ["后端开发"]
    kept = [
        m["content"]
        for m in await _memories(tenant, "u", status="active")
        if m["type"] == "profile" and m["key"] is None
    ]
    assert any("招聘" in c for c in kept), kept


async def test_a_duty_after_the_employer_is_a_role_not_a_new_employer_en(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I work at Initech.", at=T1)
    await tenant.say("u", "s2", "At the company I'm responsible for recruiting.", at=T2)
    assert await _active(tenant, "u", "work.employer") == ["Initech"]
    assert await _frozen(tenant, "u", "work.employer") == []


async def test_a_school_with_a_year_is_the_same_school_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I graduated from ORG1.", at=T1)
    await tenant.say("u", "s2", "I graduated from ORG1 in 2015.", at=T2)
    assert await _active(tenant, "u", "education.school") == ["org1"]
    assert await _frozen(tenant, "u", "education.school") == []


async def test_a_school_with_a_year_is_the_same_school_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我毕业于清华大学。", at=T1)
    await tenant.say("u", "s2", "我2015年毕业于清华大学。", at=T2)
    assert await _active(tenant, "u", "education.school") == ["清华大学"]


async def test_switched_language_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我写后端一直用Python。", at=T1)
    await tenant.say("u", "s2", "我改用Go了", at=T2)
    assert await _active(tenant, "u", "tech.preferred") == ["go"]
    assert await _frozen(tenant, "u", "tech.preferred") == ["python"]


async def test_switched_language_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I mostly code in Python.", at=T1)
    await tenant.say("u", "s2", "I switched from Python to Go.", at=T2)
    assert await _active(tenant, "u", "tech.preferred") == ["go"]
    assert await _frozen(tenant, "u", "tech.preferred") == ["python"]


async def test_a_response_rule_without_please_is_a_constraint(tenant: TenantCtx) -> None:
    # two users: one user's second rule of the same kind would replace the first
    await tenant.say("en", "s1", "No emojis in your answers, ever.")
    await tenant.say("zh", "s1", "回答里别用表情符号。")
    for user, word in (("en", "emoji"), ("zh", "表情")):
        rules = await _memories(tenant, user, type="constraint", status="active")
        assert len(rules) == 1
        assert word in rules[0]["content"].lower()
        recalled = await tenant.recall(user, "write me a birthday message")
        assert {m["id"] for m in recalled["constraints"]} == {rules[0]["id"]}


async def test_an_email_after_chinese_text_is_kept_exactly(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在上海工作，邮箱是li.ming@example.com")
    [email] = await _memories(tenant, "u", key="contact.email", status="active")
    assert email["value"] == "li.ming@example.com"
    assert email["content"] == "邮箱是 li.ming@example.com"
    await tenant.say("v", "s1", "my email is sam@example.org")
    assert await _active(tenant, "v", "contact.email") == ["sam@example.org"]


async def test_questions_hypotheticals_and_other_peoples_doings_store_nothing(
    tenant: TenantCtx,
) -> None:
    body = await tenant.say(
        "u",
        "s1",
        "Should I learn Rust next?",
        "如果我搬到深圳，房租会贵很多吗？",
        "My colleague just moved to Berlin.",
        "我同事特别爱吃辣。",
    )
    assert body["memories"] == []
    stored = await _memories(tenant, "u")
    assert [m for m in stored if m["type"] != "episode"] == []  # no fact formed
    # the statements are kept verbatim (episodes: nothing said is lost); the questions are not
    assert sorted(m["content"] for m in stored) == sorted(
        ["My colleague just moved to Berlin.", "我同事特别爱吃辣。"]
    )


async def test_a_negated_verb_with_anymore_gives_its_object_up_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I mostly use Emacs for editing.", at=T1)
    await tenant.say("u", "s2", "I don't use Emacs anymore.", at=T2)
    assert await _active(tenant, "u", "tech.preferred") in ([], [None])
    assert await _frozen(tenant, "u", "tech.preferred") == ["emacs"]


async def test_an_avoidance_lifted_is_withdrawn_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我不吃羊肉。", at=T1)
    await tenant.say("zh", "s2", "现在羊肉能吃了。", at=T2)
    assert "羊肉" not in await _active(tenant, "zh", "diet.avoid")
    assert await _frozen(tenant, "zh", "diet.avoid") == ["羊肉"]
    await tenant.say("en", "s1", "I don't eat shellfish.", at=T1)
    await tenant.say("en", "s2", "I can eat shellfish again.", at=T2)
    assert "shellfish" not in await _active(tenant, "en", "diet.avoid")
    assert await _frozen(tenant, "en", "diet.avoid") == ["shellfish"]


async def test_giving_up_a_thing_freezes_the_value_that_names_it_in_more_words(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我每天都喝可乐", at=T1)
    assert await _active(tenant, "u", "schedule.habit") == ["每天喝可乐"]
    assert await _active(tenant, "u", "preference.drink") == ["可乐"]
    await tenant.say("u", "s2", "可乐戒了", at=T2)
    assert await _active(tenant, "u", "schedule.habit") == []
    assert await _frozen(tenant, "u", "schedule.habit") == ["每天喝可乐"]
    assert await _frozen(tenant, "u", "preference.drink") == ["可乐"]


async def test_a_liked_tool_is_the_preferred_tech_and_giving_it_up_freezes_it(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我喜欢用 Linux 开发", at=T1)
    # the tool's name, in the lower case of a multi-valued key (docs/keys.md)
    assert await _active(tenant, "u", "tech.preferred") == ["linux"]
    assert await _active(tenant, "u", "preference.likes") == []
    await tenant.say("u", "s2", "现在不用 Linux 了", at=T2)
    # what stays active is the value-less record of the withdrawal
    assert await _active(tenant, "u", "tech.preferred") == [None]
    assert await _frozen(tenant, "u", "tech.preferred") == ["linux"]


async def test_a_remark_about_something_loved_is_no_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love how the rain sounds at night.")
    assert await _active(tenant, "u", "preference.likes") == []


async def test_encouragement_and_a_sentences_first_word_leave_the_employer_alone(
    tenant: TenantCtx,
) -> None:
    """A quitting verb under negation quits nothing, "pays off" gives nothing up, and a
    capitalised word outside an employer's slot ("at …", "for …", "joined …") names no
    employer: the stated employer stays active."""
    await tenant.say("u", "s1", "I work at Hooli.", at=T1)
    for text in (
        "Thanks! I won't quit - your words motivate me to keep going!",
        "Stay motivated and keep going. Hard work pays off eventually.",
        "Growing my customer base is the main focus right now.",
        "It's been a lot of work, but the new offers are going well.",
    ):
        await tenant.say("u", "s2", text, at=T2)
    assert await _active(tenant, "u", "work.employer") == ["Hooli"]
    assert await _frozen(tenant, "u", "work.employer") == []


async def test_an_employer_named_in_its_slot_is_formed(tenant: TenantCtx) -> None:
    await tenant.say("a", "s1", "Google hired me last month.", at=T1)
    assert await _active(tenant, "a", "work.employer") == ["Google"]
    await tenant.say("b", "s1", "These days I'm with Initech, mostly doing support.", at=T1)
    assert await _active(tenant, "b", "work.employer") == ["Initech"]


async def test_a_changed_taste_replaces_the_kind_of_the_same_thing_en_and_zh(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "I prefer window seats.", at=T1)
    await tenant.say("en", "s2", "I prefer aisle seats now.", at=T2)
    assert await _active(tenant, "en", "preference.likes") == ["aisle seats"]
    assert await _frozen(tenant, "en", "preference.likes") == ["window seats"]
    await tenant.say("zh", "s1", "我喜欢靠窗的座位", at=T1)
    await tenant.say("zh", "s2", "我现在喜欢靠过道的座位", at=T2)
    assert await _active(tenant, "zh", "preference.likes") == ["靠过道的座位"]
    assert await _frozen(tenant, "zh", "preference.likes") == ["靠窗的座位"]


async def test_a_new_liking_with_now_keeps_the_other_likings(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love jazz.", at=T1)
    await tenant.say("u", "s2", "I love board games now.", at=T2)
    assert sorted(await _active(tenant, "u", "preference.likes")) == ["board games", "jazz"]


async def test_a_city_the_segmenter_does_not_know_is_where_the_user_lives(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我住在波尔图", at=T1)
    assert await _active(tenant, "u", "residence.city") == ["波尔图"]
    await tenant.say("u", "s2", "我搬到清迈了", at=T2)
    assert await _active(tenant, "u", "residence.city") == ["清迈"]
    assert await _frozen(tenant, "u", "residence.city") == ["波尔图"]


async def test_no_common_noun_after_a_residence_verb_is_a_city(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在宿舍", at=T1)
    assert await _active(tenant, "u", "residence.city") == []


async def test_a_change_cue_and_its_value_in_two_clauses_supersede(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I live in Bristol.", at=T1)
    await tenant.say("en", "s2", "And now we've relocated again, to Cardiff, for good.", at=T2)
    assert await _active(tenant, "en", "residence.city") == ["Cardiff"]
    assert await _frozen(tenant, "en", "residence.city") == ["Bristol"]
    await tenant.say("zh", "s1", "我叫王小红", at=T1)
    await tenant.say("zh", "s2", "我改名了，现在叫王若溪", at=T2)
    assert await _active(tenant, "zh", "name.full") == ["王若溪"]
    assert await _frozen(tenant, "zh", "name.full") == ["王小红"]


async def test_two_facts_of_one_sentence_keep_their_own_clauses(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Our office is in Denver, though I live out in Boulder.", at=T1)
    assert await _active(tenant, "u", "residence.city") == ["Boulder"]
    assert await _active(tenant, "u", "work.employer") == []
    assert await _active(tenant, "u", "work.location") == ["Denver"]


async def test_a_drink_that_is_my_thing_now_replaces_the_old_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Pepsi is my drink.", at=T1)
    assert await _active(tenant, "u", "preference.drink") == ["Pepsi"]
    await tenant.say("u", "s2", "ok so I'm off soda, sparkling water is my thing now", at=T2)
    assert await _active(tenant, "u", "preference.drink") == ["sparkling water"]
    assert await _frozen(tenant, "u", "preference.drink") == ["Pepsi"]


async def test_a_drink_one_tired_of_is_given_up_but_not_avoided(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I drink a lot of green tea.", at=T1)
    assert await _active(tenant, "u", "preference.drink") == ["green tea"]
    await tenant.say("u", "s2", "Green tea got boring, I'm on matcha lattes now.", at=T2)
    assert await _active(tenant, "u", "preference.drink") == ["matcha lattes"]
    assert await _frozen(tenant, "u", "preference.drink") == ["green tea"]
    assert await _active(tenant, "u", "diet.avoid") == []


async def test_a_daily_drink_is_the_usual_drink_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我每天晚上都要喝一杯热牛奶", at=T1)
    assert await _active(tenant, "zh", "preference.drink") == ["热牛奶"]
    await tenant.say("en", "s1", "I've been drinking oolong every afternoon.", at=T1)
    assert await _active(tenant, "en", "preference.drink") == ["oolong"]
    await tenant.say("x", "s1", "咖啡喝了心慌", at=T1)
    assert await _active(tenant, "x", "preference.drink") == []


async def test_an_employer_named_like_a_particle_keeps_its_name(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在美的做采购", at=T1)
    assert await _active(tenant, "u", "work.employer") == ["美的"]
    await tenant.say("u", "s2", "对了，我已经从美的离职了", at=T2)
    assert await _frozen(tenant, "u", "work.employer") == ["美的"]


async def test_an_age_in_words_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I'm twenty-seven.", at=T1)
    assert await _active(tenant, "en", "age") == ["27"]
    await tenant.say("zh", "s1", "我今年二十八了", at=T1)
    assert await _active(tenant, "zh", "age") == ["28"]
    await tenant.say("x", "s1", "我今年大三了", at=T1)
    assert await _active(tenant, "x", "age") == []


async def test_a_pet_that_is_someone_elses_is_withdrawn_en_and_zh(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I have a dog called Bruno.", at=T1)
    await tenant.say("en", "s2", "No, sorry, Bruno is my neighbour's dog, not mine.", at=T2)
    assert [v for v in await _active(tenant, "en", "pets.name") if v] == []
    assert await _frozen(tenant, "en", "pets.name") == ["Bruno"]
    await tenant.say("zh", "s1", "我养了一只仓鼠叫团子", at=T1)
    await tenant.say("zh", "s2", "不对，团子是我室友的，我自己没养", at=T2)
    assert [v for v in await _active(tenant, "zh", "pets.name") if v] == []
    assert await _frozen(tenant, "zh", "pets.name") == ["团子"]


async def test_a_budget_cut_replaces_the_budget_en_and_zh(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "The budget for the app is $30,000.", at=T1)
    await tenant.say("en", "s2", "Client cut the budget to $20,000.", at=T2)
    assert await _active(tenant, "en", "project.budget") == ["$20,000"]
    assert await _frozen(tenant, "en", "project.budget") == ["$30,000"]
    await tenant.say("zh", "s1", "这个项目预算五十万", at=T1)
    assert await _active(tenant, "zh", "project.budget") == ["五十万"]
    await tenant.say("zh", "s2", "预算砍到三十万了", at=T2)
    assert await _active(tenant, "zh", "project.budget") == ["三十万"]
    assert await _frozen(tenant, "zh", "project.budget") == ["五十万"]


async def test_a_drink_given_up_for_another_is_a_switch_not_an_avoidance(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I usually drink jasmine tea.", at=T1)
    await tenant.say(
        "u", "s2", "I stopped drinking jasmine tea, it's all hot chocolate now.", at=T2
    )
    assert await _active(tenant, "u", "preference.drink") == ["hot chocolate"]
    assert await _frozen(tenant, "u", "preference.drink") == ["jasmine tea"]
    assert await _active(tenant, "u", "diet.avoid") == []


async def test_a_move_from_a_place_leaves_a_role_that_names_the_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work as a teacher in Leeds.", at=T1)
    await tenant.say("u", "s1", "I moved from Leeds to York last week.", at=T2)
    assert await _active(tenant, "u", "residence.city") == ["York"]
    assert await _frozen(tenant, "u", "work.role") == []
    assert len(await _active(tenant, "u", "work.role")) == 1
    assert await _first_recalled(tenant, "u", "What is my job?", "work.role") is not None


async def _withdrawal_records(
    t: TenantCtx, user: str, key: str, status: str = "active"
) -> list[str]:
    """The contents of the rows of ``key`` in ``status``, each of which must hold no value (a
    take-back's record is archived: it states nothing of its own)."""
    active = await _memories(t, user, key=key, status=status)
    assert [m["value"] for m in active] == [None] * len(active)
    return [m["content"] for m in active]


async def _keyless(t: TenantCtx, user: str, status: str) -> list[str]:
    return [
        m["content"]
        for m in await _memories(t, user, status=status)
        if m["key"] is None and m["type"] != "episode"
    ]


async def test_a_fact_said_instead_of_another_replaces_it_in_its_own_key_only(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "I like window seats on flights.", at=T1)
    await tenant.say("en", "s2", "I prefer aisle seats now, not window seats.", at=T2)
    assert await _active(tenant, "en", "preference.likes") == ["aisle seats"]
    assert await _frozen(tenant, "en", "preference.likes") == ["window seats on flights"]
    await tenant.say("zh", "s1", "我最喜欢蓝色", at=T1)
    await tenant.say("zh", "s2", "我现在喜欢绿色，不是蓝色了", at=T2)
    assert await _active(tenant, "zh", "preference.likes") == ["绿色"]
    assert await _frozen(tenant, "zh", "preference.likes") == ["蓝色"]
    # someone else's "not Google" is no statement about the user's own employer
    await tenant.say("w", "s1", "I work at Google.", at=T1)
    await tenant.say("w", "s2", "My wife works at Microsoft, not Google.", at=T2)
    assert await _active(tenant, "w", "work.employer") == ["Google"]


async def test_a_changed_turn_replaces_the_value_it_names_but_an_addition_does_not(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "I do most of my scripting in Perl.", at=T1)
    await tenant.say(
        "en", "s2", "Finally migrated everything off Perl, it's all Python now.", at=T2
    )
    assert await _active(tenant, "en", "tech.preferred") == ["python"]
    assert await _frozen(tenant, "en", "tech.preferred") == ["perl"]
    await tenant.say("zh", "s1", "我一直用 Notion 记笔记", at=T1)
    await tenant.say("zh", "s2", "现在笔记都搬到 Obsidian 了，Notion 太卡", at=T2)
    assert await _active(tenant, "zh", "tech.preferred") == ["obsidian"]
    assert await _frozen(tenant, "zh", "tech.preferred") == ["notion"]
    await tenant.say("add", "s1", "I write my notes in Notion.", at=T1)
    await tenant.say("add", "s2", "These days I also use Obsidian besides Notion.", at=T2)
    assert await _frozen(tenant, "add", "tech.preferred") == []


async def test_an_age_turned_and_a_role_become_replace_the_old_ones(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm 29.", at=T1)
    await tenant.say("u", "s2", "Actually I just turned 30 last week.", at=T2)
    assert await _active(tenant, "u", "age") == ["30"]
    assert await _frozen(tenant, "u", "age") == ["29"]
    await tenant.say("u", "s1", "I'm a nurse.", at=T1)
    await tenant.say("u", "s2", "I quit nursing and became a teacher.", at=T2)
    assert await _active(tenant, "u", "work.role") == ["teacher"]
    assert await _frozen(tenant, "u", "work.role") == ["nurse"]
    await tenant.say("zh", "s1", "我今年刚满三十")
    assert await _active(tenant, "zh", "age") == ["30"]


async def test_a_gender_stated_in_passing_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我是女生哈")
    assert await _active(tenant, "zh", "identity.gender") == ["女"]
    await tenant.say("en", "s1", "I'm a guy btw, in case the name was confusing")
    assert await _active(tenant, "en", "identity.gender") == ["male"]


async def test_a_denial_forms_no_positive_fact_and_withdraws_the_old_one(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I don't actually have a cat, that was my sister's.")
    assert await _active(tenant, "u", "pets.kind") == []
    await tenant.say("zh", "s1", "我不会说日语")
    assert await _active(tenant, "zh", "language.preferred") == []
    await tenant.say("veg", "s1", "我吃素", at=T1)
    await tenant.say("veg", "s2", "我其实不吃素", at=T2)
    assert "素食" not in await _active(tenant, "veg", "diet.style")
    assert await _frozen(tenant, "veg", "diet.style") == ["素食"]
    assert await _active(tenant, "veg", "diet.avoid") == []
    await tenant.say("al", "s1", "I'm allergic to penicillin.", at=T1)
    await tenant.say(
        "al", "s2", "Turns out I'm not actually allergic to penicillin — got tested.", at=T2
    )
    assert "penicillin" not in await _active(tenant, "al", "health.allergy")
    assert await _frozen(tenant, "al", "health.allergy") == ["penicillin"]


async def test_a_new_number_or_address_replaces_the_old_one(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "my number is 415-555-0134", at=T1)
    await tenant.say("en", "s2", "new number: (628) 555-0199. lost my old phone", at=T2)
    assert await _active(tenant, "en", "contact.phone") == ["(628) 555-0199"]
    assert await _frozen(tenant, "en", "contact.phone") == ["415-555-0134"]
    await tenant.say("zh", "s1", "我手机号 13912345678", at=T1)
    await tenant.say("zh", "s2", "换号了，新号码 18600001111", at=T2)
    assert await _active(tenant, "zh", "contact.phone") == ["18600001111"]
    await tenant.say("m", "s1", "if you need to send me anything, use maya.o@example.com")
    assert await _active(tenant, "m", "contact.email") == ["maya.o@example.com"]


async def test_a_thing_that_ended_is_frozen_with_or_without_a_key(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "We're planning a trip to Japan in April.", at=T1)
    await tenant.say("en", "s2", "The Japan trip is off, my passport won't be ready.", at=T2)
    assert await _active(tenant, "en", "plan") == []
    await tenant.say("car", "s1", "I drive a 2012 Honda Civic.", at=T1)
    assert len(await _keyless(tenant, "car", "active")) == 1
    await tenant.say("car", "s2", "Sold the Civic last month.", at=T2)
    assert "drives a 2012 Honda Civic" not in await _keyless(tenant, "car", "active")
    assert await _keyless(tenant, "car", "frozen") == ["drives a 2012 Honda Civic"]
    await tenant.say("zh", "s1", "我们数据库一直用 MySQL", at=T1)
    await tenant.say("zh", "s2", "MySQL 已经下线了", at=T2)
    # the key's history reads: the value, then the user's words that withdrew it
    assert await _withdrawal_records(tenant, "zh", "tech.preferred") == ["MySQL 已经下线"]
    assert await _frozen(tenant, "zh", "tech.preferred") == ["mysql"]


async def test_what_was_just_said_is_taken_back_when_nothing_replaces_it(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "Please always answer with bullet points.", at=T1)
    await tenant.say("en", "s1", "My name is Alex.", at=T1)
    await tenant.say("en", "s1", "Hmm, I take that back, Alex is my roommate's name.", at=T2)
    (withdrawal,) = await _withdrawal_records(tenant, "en", "name.full", "archived")
    assert "Alex is my roommate's name" in withdrawal
    assert await _frozen(tenant, "en", "name.full") == ["Alex"]
    # only the turn just before is taken back
    assert len(await _memories(tenant, "en", type="constraint", status="active")) == 1
    await tenant.say("zh", "s1", "我是老师", at=T1)
    await tenant.say("zh", "s1", "哦说错了，我妈是老师，我自己还没工作", at=T2)
    (withdrawal,) = await _withdrawal_records(tenant, "zh", "work.role", "archived")
    assert "我妈是老师" in withdrawal
    assert await _frozen(tenant, "zh", "work.role") == ["老师"]
    # a correction with a value of its own replaces by its key and keeps the rest of the turn
    await tenant.say("v", "s1", "I'm Sam and I work at Google.", at=T1)
    await tenant.say("v", "s1", "Sorry, my mistake: I work at Apple.", at=T2)
    assert await _active(tenant, "v", "work.employer") == ["Apple"]
    assert await _active(tenant, "v", "name.full") == ["Sam"]


async def test_a_diet_denied_and_a_pet_that_is_the_neighbours_are_withdrawn(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "I'm gluten-free.", at=T1)
    await tenant.say("en", "s2", "I'm not actually gluten-free, I eat pasta all the time.", at=T2)
    assert await _frozen(tenant, "en", "diet.style") == ["gluten-free"]
    assert [v for v in await _active(tenant, "en", "diet.style") if v] == []
    await tenant.say("zh", "s1", "我家有只狗叫大黄", at=T1)
    await tenant.say("zh", "s2", "其实大黄是邻居家的狗，我自己没养", at=T2)
    assert await _frozen(tenant, "zh", "pets.name") == ["大黄"]


async def test_a_place_no_longer_liked_leaves_a_dish_named_after_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love New York pizza.", at=T1)
    await tenant.say("u", "s2", "I no longer like New York, too crowded.", at=T2)
    assert [v for v in await _active(tenant, "u", "preference.likes") if v] == ["new york pizza"]


async def test_an_amount_a_licence_a_bare_mobile_number_and_a_card_are_formed(
    tenant: TenantCtx,
) -> None:
    await tenant.say("zh", "s1", "这次年会的预算一共8万块，场地就要占一半")
    assert await _active(tenant, "zh", "project.budget") == ["8万块"]
    await tenant.say("en", "s1", "For the kitchen remodel we have maybe fifteen grand total.")
    assert await _active(tenant, "en", "project.budget") == ["fifteen grand"]
    await tenant.say("ph", "s1", "我微信就是手机号，15921886543")
    assert await _active(tenant, "ph", "contact.phone") == ["15921886543"]
    await tenant.say("id", "s1", "my driver's license number is D4412-88731-20")
    assert [m["key"] for m in await _memories(tenant, "id", status="active") if m["key"]] == [
        "identity.document"
    ]
    await tenant.say("card", "s1", "Card: 4539 1488 0343 6467 exp 09/28, use that one")
    assert [m["key"] for m in await _memories(tenant, "card", status="active") if m["key"]] == [
        "finance.card"
    ]


async def test_someone_elses_new_number_leaves_the_users_own(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "My number is 555-010-2000.", at=T1)
    await tenant.say("en", "s1", "Tom has a new number: 555-444-1212", at=T2)
    assert await _active(tenant, "en", "contact.phone") == ["555-010-2000"]
    await tenant.say("zh", "s1", "我的手机号是13800138000。", at=T1)
    await tenant.say("zh", "s1", "老板换号了，新号码13700137000", at=T2)
    assert await _active(tenant, "zh", "contact.phone") == ["13800138000"]
    await tenant.say("m", "s1", "My email is dana@old.example.", at=T1)
    await tenant.say("m", "s1", "new email from my boss: boss@corp.example", at=T2)
    assert "dana@old.example" in await _active(tenant, "m", "contact.email")


async def test_a_take_back_withdraws_only_what_it_takes_back(tenant: TenantCtx) -> None:
    # a lie in the turn is someone else's: nothing of the user's is taken back
    await tenant.say("a", "s1", "I work at Google as a designer.", at=T1)
    await tenant.say("a", "s1", "My boss promised us bonuses. That was a lie.", at=T2)
    assert await _active(tenant, "a", "work.employer") == ["Google"]
    # a topic named: only what the turn said about it
    await tenant.say("b", "s1", "I live in Lisbon and I work at Google.", at=T1)
    await tenant.say("b", "s1", "forget what I said about my job", at=T2)
    assert await _active(tenant, "b", "residence.city") == ["Lisbon"]
    assert await _frozen(tenant, "b", "work.employer") == ["Google"]
    # a value named: only that value
    await tenant.say("c", "s1", "我是老师。我住在杭州。", at=T1)
    await tenant.say("c", "s1", "说错了，我妈是老师。", at=T2)
    assert await _active(tenant, "c", "residence.city") == ["杭州"]
    role = (await _active(tenant, "c", "work.role"), await _frozen(tenant, "c", "work.role"))
    assert role == ([], ["老师"]), await tenant.facts("c")
    # what the previous turn only said again was formed earlier: it stays
    await tenant.say("d", "s1", "I live in Lisbon.", at=T1)
    await tenant.say("d", "s2", "I live in Lisbon and I have a cat named Tom.", at=T2)
    await tenant.say("d", "s2", "I take that back.", at=T2)
    assert await _active(tenant, "d", "residence.city") == ["Lisbon"]


async def test_words_that_add_or_belong_to_others_replace_nothing(tenant: TenantCtx) -> None:
    await tenant.say("a", "s1", "I love jazz.", at=T1)
    await tenant.say("a", "s2", "I love techno, not just jazz.", at=T2)
    assert "jazz" in await _active(tenant, "a", "preference.likes")
    await tenant.say("b", "s1", "I'm gluten-free.", at=T1)
    await tenant.say(
        "b", "s2", "My sister is not actually gluten-free, she just likes bread.", at=T2
    )
    assert await _active(tenant, "b", "diet.style") == ["gluten-free"]
    await tenant.say("c", "s1", "I have a dog named Biscuit. I love biscuits with tea.", at=T1)
    await tenant.say("c", "s2", "We had to put Biscuit down.", at=T2)
    assert "biscuits with tea" in await _active(tenant, "c", "preference.likes")
    await tenant.say("d", "s1", "我喜欢写Python。", at=T1)
    await tenant.say("d", "s2", "我们组现在全用Go了，我还是喜欢写Python。", at=T2)
    assert "python" in await _active(tenant, "d", "tech.preferred")
    await tenant.say("e", "s1", "I work at Stripe as an engineer.", at=T1)
    await tenant.say("e", "s2", "My job is fine.", at=T2)
    assert await _active(tenant, "e", "work.role") == ["engineer"]


async def test_a_rule_that_opens_with_no_keeps_its_no(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "No emojis in your answers, ever.")
    rules = await _memories(tenant, "u", key="assistant.constraint", status="active")
    assert [m["content"] for m in rules] == ["No emojis in your answers"]
    await tenant.say("c", "s1", "No sugar in my coffee please")
    assert "ee" not in await _active(tenant, "c", "diet.avoid")


async def test_a_name_said_in_passing_is_no_name_of_the_user(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Glad you've got people to lean on, Melanie.", at=T1)
    await tenant.say("u", "s1", "It's still a work in progress, but I'm doing my best.", at=T2)
    assert await _active(tenant, "u", "name.full") == []
    assert await _active(tenant, "u", "work.role") == []
    await tenant.say("p", "s1", "I'm Priya, by the way.")
    assert await _active(tenant, "p", "name.full") == ["Priya"]


async def test_a_withdrawal_is_filed_under_the_key_it_withdrew(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I use Emacs for all my coding.", at=T1)
    await tenant.say("en", "s1", "Honestly that was a lie, I don't use Emacs at all.", at=T2)
    assert await _frozen(tenant, "en", "tech.preferred") == ["emacs"]
    (withdrawal,) = await _withdrawal_records(tenant, "en", "tech.preferred", "archived")
    assert "I don't use Emacs" in withdrawal
    assert await _keyless(tenant, "en", "active") == []
    # withdrawing values of two keys at once leaves the record keyless
    await tenant.say("two", "s1", "I live in Lyon and I work at Renault.", at=T1)
    await tenant.say("two", "s1", "wait no, I take that back, that's my brother.", at=T2)
    assert await _active(tenant, "two", "residence.city") == []
    assert await _active(tenant, "two", "work.employer") == []
    assert len(await _keyless(tenant, "two", "archived")) == 1
