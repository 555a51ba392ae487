"""Rule extractor, Chinese pattern families."""

from __future__ import annotations

import asyncio
from datetime import datetime

from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.extraction.rules import RuleExtractor

AT = datetime.fromisoformat("2026-09-01T09:00:00+08:00")  # a Tuesday


def extract(text: str, *, has_task: bool = False, role: str = "user") -> list[ExtractedFact]:
    turn = Turn("m1", role, text, AT)  # type: ignore[arg-type]
    return asyncio.run(RuleExtractor().extract([turn], has_task=has_task))


def by_key(facts: list[ExtractedFact], key: str) -> list[ExtractedFact]:
    return [f for f in facts if f.key == key]


def one(text: str, key: str, *, has_task: bool = False) -> ExtractedFact:
    facts = by_key(extract(text, has_task=has_task), key)
    assert len(facts) == 1, (text, facts)
    return facts[0]


def test_common_fields() -> None:
    fact = one("我叫李明", "name.full")
    assert fact.value == "李明"
    assert fact.source == "user_declared"
    assert fact.confidence is None
    assert fact.message_ids == ["m1"]
    assert fact.type == "profile"
    assert fact.scope == "user"


def test_assistant_turns_yield_nothing() -> None:
    assert extract("我叫李明，我住在深圳", role="assistant") == []


def test_identity_sentence_split_into_clauses() -> None:
    facts = extract("我叫李明，是广东人，邮箱是 liming@example.com。")
    assert [f.key for f in facts] == ["name.full", "hometown", "contact.email"]
    assert facts[1].value == "广东"
    assert "广东" in facts[1].content
    assert facts[2].value == "liming@example.com"
    assert "liming@example.com" in facts[2].content


def test_hometown_and_residence() -> None:
    assert one("我老家在湖南", "hometown").value == "湖南"
    fact = one("我住在深圳", "residence.city")
    assert (fact.value, fact.content, fact.is_correction) == ("深圳", "住在深圳", False)


def test_move_is_a_correction_dated_from_the_phrase() -> None:
    fact = one("我搬到上海了", "residence.city")
    assert fact.value == "上海" and fact.is_correction
    fact = one("我上个月搬到了上海", "residence.city")
    assert fact.valid_from == datetime.fromisoformat("2026-08-01T00:00:00+08:00")
    assert "深圳" not in fact.content


def test_employer_and_role_cut_from_one_clause() -> None:
    facts = extract("我在星河科技做后端开发。")
    assert one("我在星河科技做后端开发。", "work.employer").value == "星河科技"
    assert by_key(facts, "work.role")[0].value == "后端开发"
    assert "星河科技" in by_key(facts, "work.employer")[0].content


def test_job_change_retracts_the_old_employer() -> None:
    text = "我已经从星河科技离职了，现在在蓝鲸数据做产品经理，不要再提星河科技了。"
    facts = extract(text)
    employer = by_key(facts, "work.employer")
    assert len(employer) == 1
    assert employer[0].value == "蓝鲸数据"
    assert employer[0].is_correction and employer[0].retracts == ["星河科技"]
    assert "在星河科技" not in employer[0].content
    role = by_key(facts, "work.role")[0]
    assert role.value == "产品经理" and role.is_correction
    constraint = by_key(facts, "assistant.constraint")[0]
    assert constraint.type == "constraint" and "星河科技" in constraint.content


def test_quit_alone_is_emitted_as_a_retraction() -> None:
    fact = one("我已经从星河科技离职了", "work.employer")
    assert fact.value is None and fact.retracts == ["星河科技"] and fact.is_correction


def test_job_hop_in_one_clause() -> None:
    fact = one("我从星河科技跳槽到了蓝鲸数据", "work.employer")
    assert fact.value == "蓝鲸数据" and fact.retracts == ["星河科技"]


def test_correction_not_x_but_y() -> None:
    fact = one("我不是程序员，是设计师", "work.role")
    assert fact.value == "设计师"
    assert fact.is_correction and fact.retracts == ["程序员"]
    assert "程序员" not in fact.content


def test_likes_dislikes_and_diet_are_multi_valued() -> None:
    fact = one("我喜欢吃火锅", "preference.likes")
    assert (fact.value, fact.content, fact.type) == ("火锅", "喜欢吃火锅", "preference")
    assert one("我讨厌香菜", "preference.dislikes").value == "香菜"
    facts = by_key(extract("我不吃香菜，也不吃葱。"), "diet.avoid")
    assert [f.value for f in facts] == ["香菜", "葱"]
    assert "香菜" in facts[0].content and "葱" in facts[1].content


def test_drink_and_its_change() -> None:
    fact = one("我喜欢喝美式。", "preference.drink")
    assert (fact.value, fact.content) == ("美式", "喜欢喝美式")
    fact = one("我改喝拿铁了。", "preference.drink")
    assert fact.value == "拿铁" and fact.is_correction
    assert "拿铁" in fact.content and "美式" not in fact.content


def test_constraints_on_the_assistant() -> None:
    facts = extract("以后回答不要用比喻，控制在三句话以内。")
    assert [f.type for f in facts] == ["constraint", "constraint"]
    assert all(f.key == "assistant.constraint" for f in facts)
    assert "比喻" in facts[0].content and "三句话" in facts[1].content
    assert one("别用英文回复", "assistant.constraint").content == "别用英文回复"
    assert "星河科技" in one("不要再提星河科技了", "assistant.constraint").content
    assert one("请用中文回复", "assistant.constraint").type == "constraint"


def test_contacts_keep_the_value_as_written() -> None:
    fact = one("我的手机号是 138-0013-8000", "contact.phone")
    assert fact.value == "138-0013-8000" and "138-0013-8000" in fact.content


def test_secret_numbers_are_masked_in_content() -> None:
    fact = one("我的身份证号是 440301199003071230，帮我记一下。", "identity.document")
    assert "440301199003071230" not in fact.content
    assert fact.metadata["sensitivity"] == "secret"


def test_birthday_and_age() -> None:
    fact = one("我生日是3月5日", "birthday")
    assert (fact.value, fact.content) == ("03-05", "生日是3月5日")
    assert one("我的生日是三月五号", "birthday").value == "03-05"
    assert one("我今年三十岁", "age").value == "30"


def test_pets_each_name_is_a_fact() -> None:
    facts = extract("我家有两只猫，一只叫馒头，一只叫芝麻。")
    names = by_key(facts, "pets.name")
    assert [f.value for f in names] == ["馒头", "芝麻"]
    assert "馒头" in names[0].content and "芝麻" in names[1].content
    assert by_key(facts, "pets.kind")[0].value == "猫"


def test_family_member() -> None:
    fact = one("我女儿叫小雨", "family.member")
    assert fact.value == "小雨" and fact.metadata["relation"] == "女儿"
    assert "小雨" in fact.content


def test_budget_values_and_bounds() -> None:
    assert one("这个项目预算50万。", "project.budget").value == "50万"
    again = one("再确认一下，预算50万。", "project.budget")
    assert (again.key, again.value) == ("project.budget", "50万")
    capped = one("预算最多30万。", "project.budget")
    assert capped.value == "30万" and capped.metadata["bound"] == "max"
    assert capped.type == "fact"


def test_health_allergy() -> None:
    fact = one("我对花生过敏。", "health.allergy")
    assert fact.value == "花生" and "花生" in fact.content and fact.type == "constraint"


def test_event_resolves_the_date_in_the_message_offset() -> None:
    fact = one("我明天下午三点要和客户开会。", "event")
    assert fact.type == "event"
    assert fact.valid_from == datetime.fromisoformat("2026-09-02T15:00:00+08:00")
    assert fact.valid_to is not None and fact.valid_to > fact.valid_from
    assert "客户开会" in fact.content and "明天" not in fact.content


def test_plan() -> None:
    fact = one("我打算明年去日本", "plan")
    assert fact.type == "event" and "日本" in fact.content
    assert fact.valid_from == datetime.fromisoformat("2027-01-01T00:00:00+08:00")


def test_tech_preferences_and_schedule_habits() -> None:
    facts = extract("我一般上午开会，下午写代码。我偏好 Python 和 Go。")
    assert [f.value for f in by_key(facts, "tech.preferred")] == ["python", "go"]
    habits = by_key(facts, "schedule.habit")
    assert len(habits) == 2
    assert "上午开会" in habits[0].content and "下午写代码" in habits[1].content


def test_task_decision_scope_follows_the_task() -> None:
    text = "这个项目我们决定用 Redis 做缓存。"
    fact = one(text, "task.decision", has_task=True)
    assert (fact.type, fact.scope) == ("fact", "task")
    assert "Redis" in fact.content
    assert one(text, "task.decision").scope == "user"


def test_language_and_gender() -> None:
    assert one("我母语是粤语", "language.preferred").value == "粤语"
    assert one("我是女生", "identity.gender").value == "女"


def test_questions_and_small_talk_yield_nothing() -> None:
    for text in ["今天有点热啊。", "北京地铁怎么收费？", "我住在哪里比较好？", "你好", "谢谢！"]:
        assert extract(text) == [], text


def test_a_question_clause_does_not_spoil_the_statement() -> None:
    facts = extract("我住在深圳，你呢？")
    assert [f.key for f in facts] == ["residence.city"]


def test_encouragement_is_not_a_rule() -> None:
    for text in ["别担心，会好的", "不要紧", "别客气"]:
        assert by_key(extract(text), "assistant.constraint") == [], text


def test_a_place_pointed_at_is_no_employer() -> None:
    for text in ("我在单位还负责招人", "在那边 mainly 负责 growth hacking", "我在公司那边管质检"):
        employers = [f.value for f in extract(text) if f.key == "work.employer"]
        assert employers == [], text
    assert [f.value for f in extract("我在晨曦出版社做编辑") if f.key == "work.employer"] == [
        "晨曦出版社"
    ]
