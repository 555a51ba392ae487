"""Episodes through the HTTP API: every user turn worth keeping is stored verbatim, linked both
ways to the facts formed from it, and leaves current knowledge when those facts are corrected."""

from __future__ import annotations

import json
import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.config import Settings
from app.lifecycle.forget import DatabaseRuntime, forget_pass
from app.runtime import Runtime
from tests.conftest import TenantCtx


async def get(t: TenantCtx, user: str, memory_id: str) -> dict[str, Any]:
    r = await t.client.get(f"{t.user(user)}/memories/{memory_id}", headers=t.headers)
    assert r.status_code == 200, r.text
    return r.json()


async def listed(t: TenantCtx, user: str, **params: Any) -> list[dict[str, Any]]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"limit": 200, **params}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


async def say_with(
    t: TenantCtx, user: str, session: str, content: str, at: str, metadata: dict[str, Any]
) -> dict[str, Any]:
    r = await t.client.post(
        f"{t.user(user)}/sessions/{session}/messages?wait=true",
        json={
            "messages": [
                {"role": "user", "content": content, "occurred_at": at, "metadata": metadata}
            ]
        },
        headers=t.headers,
    )
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_a_turn_is_kept_verbatim_with_its_time_session_metadata_and_links(
    tenant: TenantCtx,
) -> None:
    body = await say_with(
        tenant,
        "u",
        "s1",
        "I live in Lisbon.",
        "2026-05-01T10:00:00+01:00",
        {"dia_id": "D1:3", "speaker": "Ann"},
    )
    [fact] = body["memories"]
    [episode_id] = body["episode_ids"]
    episode = await get(tenant, "u", episode_id)
    assert episode["type"] == "episode" and episode["status"] == "active"
    assert episode["content"] == "I live in Lisbon."
    assert episode["key"] is None and episode["value"] is None
    assert episode["valid_from"] == "2026-05-01T09:00:00Z"
    assert episode["metadata"] == {"dia_id": "D1:3", "speaker": "Ann"}
    assert episode["origin"]["session_id"] == "s1"
    assert episode["origin"]["message_ids"] == fact["origin"]["message_ids"]
    # linked both ways
    assert episode["origin"]["fact_ids"] == [fact["id"]]
    assert (await get(tenant, "u", fact["id"]))["origin"]["episode_ids"] == [episode_id]
    # embedded and searchable by its words, ranked with its type weight
    assert episode["embedding_model"] is not None
    recalled = await tenant.recall("u", "Lisbon", explain=True, types=["episode"])
    [hit] = [m for m in recalled["memories"] if m["id"] == episode_id]
    assert hit["explain"]["type_weight"] == 0.85 and hit["explain"]["text_rank"] is not None
    recalled = await tenant.recall("u", "Lisbon", explain=True, types=["profile"])
    [fact_hit] = [m for m in recalled["memories"] if m["id"] == fact["id"]]
    assert fact_hit["explain"]["type_weight"] == 1.0


async def test_an_episode_whose_facts_are_all_in_the_answer_is_left_out(
    tenant: TenantCtx,
) -> None:
    one = await tenant.say("u", "s1", "I live in Lisbon.")
    other = await tenant.say("u", "s1", "The kids loved the science museum in Lisbon.")
    ids = [m["id"] for m in (await tenant.recall("u", "Lisbon"))["memories"]]
    # the fact says what its turn said: the turn does not take a second slot
    assert one["memories"][0]["id"] in ids and one["episode_ids"][0] not in ids
    # a turn no fact was formed from is recalled itself
    assert other["memories"] == [] and other["episode_ids"][0] in ids
    # asked for episodes only, the turn is there
    only = await tenant.recall("u", "Lisbon", types=["episode"])
    assert one["episode_ids"][0] in [m["id"] for m in only["memories"]]


async def test_questions_and_small_talk_are_not_episodes(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "Where do I live?", "谢谢！", "hi there", "今天好热啊。")
    assert body["episode_ids"] == [] and body["memories"] == []
    assert await listed(tenant, "u", type="episode") == []
    # a turn that asks and also tells is kept whole
    body = await tenant.say("u", "s1", "We adopted a puppy last week, any tips on training?")
    [episode_id] = body["episode_ids"]
    assert (await get(tenant, "u", episode_id))["content"].startswith("We adopted a puppy")


async def test_a_repeated_turn_is_one_episode(tenant: TenantCtx) -> None:
    first = await tenant.say("u", "s1", "The kids loved the science museum.")
    again = await tenant.say("u", "s2", "The kids loved the science museum.")
    assert first["episode_ids"] == again["episode_ids"]
    [episode] = await listed(tenant, "u", type="episode")
    assert episode["confirmations"] == 2
    assert episode["origin"]["sessions"] == ["s1", "s2"]
    assert len(episode["origin"]["message_ids"]) == 2


async def test_explicit_writes_cannot_claim_to_be_episodes(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories",
        json={"content": "I live in Lisbon", "type": "episode"},
        headers=tenant.headers,
    )
    assert r.status_code == 422


async def recall_first_and_contents(t: TenantCtx, query: str) -> tuple[dict[str, Any], str]:
    recalled = (await t.recall("u", query))["memories"]
    return recalled[0], " | ".join(m["content"] for m in recalled)


async def test_a_move_freezes_the_old_sentence_en(tenant: TenantCtx) -> None:
    old = await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T09:00:00+00:00")
    new = await tenant.say("u", "s2", "I moved to Porto.", at="2026-03-10T09:00:00+00:00")
    first, contents = await recall_first_and_contents(tenant, "where do I live")
    assert first["type"] != "episode" and first["value"] == "Porto"
    assert "Lisbon" not in contents
    [porto_fact] = new["memories"][:1]
    lisbon_episode = await get(tenant, "u", old["episode_ids"][0])
    assert lisbon_episode["status"] == "frozen"
    assert lisbon_episode["superseded_by"] == porto_fact["id"]
    # the turn that made the correction is current knowledge itself
    porto_episode = await get(tenant, "u", new["episode_ids"][0])
    assert porto_episode["status"] == "active"
    assert porto_episode["content"] == "I moved to Porto."
    # the old sentence stays readable as history
    history = await tenant.recall("u", "where do I live", include_reminders=True)
    assert "I live in Lisbon." in [m["content"] for m in history["reminders"]]


async def test_a_job_change_freezes_the_old_sentence_zh(tenant: TenantCtx) -> None:
    old = await tenant.say("u", "s1", "我在星河科技上班", at="2026-01-10T09:00:00+08:00")
    new = await tenant.say("u", "s2", "我现在在云帆网络上班了。", at="2026-03-10T09:00:00+08:00")
    first, contents = await recall_first_and_contents(tenant, "我在哪里工作")
    assert first["type"] != "episode" and first["value"] == "云帆网络"
    assert "星河科技" not in contents
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "frozen"
    assert (await get(tenant, "u", new["episode_ids"][0]))["status"] == "active"


async def test_a_job_change_by_tiaocao_freezes_the_old_sentence_zh(tenant: TenantCtx) -> None:
    old = await tenant.say("u", "s1", "我在星河科技上班", at="2026-01-10T09:00:00+08:00")
    await tenant.say("u", "s2", "我跳槽到了云帆网络", at="2026-03-10T09:00:00+08:00")
    first, contents = await recall_first_and_contents(tenant, "我在哪里工作")
    assert first["type"] != "episode" and first["value"] == "云帆网络"
    assert "星河科技" not in contents
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "frozen"


async def test_an_episode_with_one_corrected_fact_of_two_leaves_and_the_other_fact_stays(
    tenant: TenantCtx,
) -> None:
    both = await tenant.say(
        "u", "s1", "I live in Lisbon and I work as a nurse.", at="2026-01-10T09:00:00+00:00"
    )
    [episode_id] = both["episode_ids"]
    assert len((await get(tenant, "u", episode_id))["origin"]["fact_ids"]) == 2
    await tenant.say("u", "s2", "I moved to Porto.", at="2026-03-10T09:00:00+00:00")
    assert (await get(tenant, "u", episode_id))["status"] == "frozen"
    # what the old turn said that still holds is still known, from its own fact
    [role] = await listed(tenant, "u", key="work.role", status="active")
    assert role["value"] == "nurse" and role["origin"]["episode_ids"] == [episode_id]
    _, contents = await recall_first_and_contents(tenant, "my work as a nurse")
    assert "works as a nurse" in contents and "Lisbon" not in contents


async def test_one_turn_that_corrects_itself_stays_current(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T09:00:00+00:00")
    # the same turn forms the old fact again (a refresh) and the correction
    body = await tenant.say(
        "u", "s2", "I moved to Porto. I live in Porto now.", at="2026-03-10T09:00:00+00:00"
    )
    [episode_id] = body["episode_ids"]
    assert (await get(tenant, "u", episode_id))["status"] == "active"
    [city] = await listed(tenant, "u", key="residence.city", status="active")
    assert city["value"] == "Porto"


async def test_deleting_or_editing_a_fact_takes_its_episode_out_of_recall(
    tenant: TenantCtx,
) -> None:
    a = await tenant.say("u", "s1", "My favorite color is blue.")
    [fact] = a["memories"]
    r = await tenant.client.delete(
        f"{tenant.user('u')}/memories/{fact['id']}", headers=tenant.headers
    )
    assert r.status_code in (200, 204), r.text
    assert (await get(tenant, "u", a["episode_ids"][0]))["status"] == "frozen"
    assert "blue" not in " ".join(
        m["content"] for m in (await tenant.recall("u", "my favorite color"))["memories"]
    )

    b = await tenant.say("u", "s1", "I live in Lisbon.")
    [city] = b["memories"]
    r = await tenant.client.patch(
        f"{tenant.user('u')}/memories/{city['id']}",
        json={"value": "Porto"},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    assert (await get(tenant, "u", b["episode_ids"][0]))["status"] == "frozen"
    recalled = (await tenant.recall("u", "where do I live"))["memories"]
    assert recalled[0]["value"] == "Porto"
    assert "Lisbon" not in " ".join(m["content"] for m in recalled)


async def test_an_explicit_correction_freezes_the_extracted_sentence(tenant: TenantCtx) -> None:
    a = await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T09:00:00+00:00")
    await tenant.remember(
        "u",
        "lives in Porto",
        type="profile",
        key="residence.city",
        value="Porto",
        occurred_at="2026-03-10T09:00:00+00:00",
    )
    assert (await get(tenant, "u", a["episode_ids"][0]))["status"] == "frozen"


async def test_a_secret_in_a_turn_is_masked_in_its_episode(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "My password is Tr0ub4dor&3 and I live in Lisbon.")
    [episode_id] = body["episode_ids"]
    episode = await get(tenant, "u", episode_id)
    assert "Tr0ub4dor&3" not in json.dumps(episode)
    assert episode["content"].startswith("My password is ") and "Lisbon" in episode["content"]
    assert episode["secrets"], episode
    recalled = await tenant.recall("u", "Lisbon")
    assert "Tr0ub4dor&3" not in json.dumps(recalled)


async def test_erase_removes_episodes(tenant: TenantCtx) -> None:
    await tenant.say("gone", "s1", "I live in Lisbon.", "The kids loved the museum.")
    assert len(await listed(tenant, "gone", type="episode")) == 2
    r = await tenant.client.delete(tenant.user("gone"), headers=tenant.headers)
    assert r.status_code == 200, r.text
    assert await listed(tenant, "gone") == []
    assert (await tenant.recall("gone", "museum"))["memories"] == []


async def test_export_import_round_trips_episodes_with_their_links(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T09:00:00+00:00")
    await tenant.say("u", "s2", "I moved to Porto.", at="2026-03-10T09:00:00+00:00")
    r = await tenant.client.get(f"{tenant.user('u')}/export", headers=tenant.headers)
    assert r.status_code == 200, r.text
    doc = json.loads(r.content)
    assert sorted(m["status"] for m in doc["memories"] if m["type"] == "episode") == [
        "active",
        "frozen",
    ]
    r = await other_tenant.client.post(
        f"{other_tenant.user('v')}/import",
        content=json.dumps(doc),
        headers={**other_tenant.headers, "content-type": "application/json"},
    )
    assert r.status_code == 200, r.text
    mine = {m["id"]: m for m in await listed(other_tenant, "v")}
    episodes = {m["content"]: m for m in mine.values() if m["type"] == "episode"}
    assert set(episodes) == {"I live in Lisbon.", "I moved to Porto."}
    assert episodes["I live in Lisbon."]["status"] == "frozen"
    assert episodes["I moved to Porto."]["status"] == "active"
    for episode in episodes.values():
        [fact_id] = episode["origin"]["fact_ids"]
        assert fact_id in mine, "the link points at the imported fact"
        assert mine[fact_id]["origin"]["episode_ids"] == [episode["id"]]
    assert episodes["I live in Lisbon."]["superseded_by"] == next(
        m["id"] for m in mine.values() if m["value"] == "Porto"
    )


async def test_the_forgetting_pass_archives_a_faded_episode(app: Any, tenant: TenantCtx) -> None:
    now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    rt: Runtime = app.state.memlane
    # An episode fades once 0.5^(age / half-life) < min_decay: a month past that age.
    faded = rt.settings.half_life_episode_days * math.log2(1 / rt.settings.recall_min_decay) + 30
    old = await tenant.say(
        "u", "s1", "The kids loved the museum.", at=(now - timedelta(days=faded)).isoformat()
    )
    recent = await tenant.say(
        "u", "s1", "We went hiking on Sunday.", at=(now - timedelta(days=2)).isoformat()
    )
    summary = await forget_pass(
        DatabaseRuntime(rt.settings, rt.engine, rt.sessionmaker),
        now=now,
        only_tenants=[uuid.UUID(tenant.id)],
    )
    assert summary.archived_by_decay >= 1
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "archived"
    assert (await get(tenant, "u", recent["episode_ids"][0]))["status"] == "active"


async def test_a_turn_said_in_a_task_stays_in_the_task(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "We picked Redis for the cache.", task_id="proj-a")
    episode = await get(tenant, "u", body["episode_ids"][0])
    assert (episode["scope"], episode["scope_id"]) == ("task", "proj-a")
    assert (await tenant.recall("u", "Redis cache", task_id="proj-b"))["memories"] == []


async def test_an_episode_is_indexed_with_the_previous_turn_and_the_date(
    tenant: TenantCtx,
) -> None:
    body = await tenant.say(
        "u",
        "s1",
        "My sister Ana visited Valparaiso.",
        "She loved the murals there.",
        at="2026-05-08T13:56:00+00:00",
    )
    first, second = [await get(tenant, "u", i) for i in body["episode_ids"]]
    assert second["content"] == "She loved the murals there."
    assert second["origin"]["context"] == {
        "previous_message_id": first["origin"]["message_ids"][0],
        "date": "2026-05-08",
    }
    assert first["origin"]["context"] == {"previous_message_id": None, "date": "2026-05-08"}
    # found by words only its previous turn and its date hold, shown as the turn itself
    recalled = await tenant.recall("u", "Valparaiso May 2026", types=["episode"], explain=True)
    hit = next(m for m in recalled["memories"] if m["id"] == second["id"])
    assert hit["content"] == "She loved the murals there."
    assert hit["explain"]["text_rank"] is not None


async def test_the_turn_of_a_past_event_fades_with_the_event(tenant: TenantCtx) -> None:
    body = await tenant.say(
        "u", "s1", "我明天下午三点要和客户开会。", at="2026-09-01T09:00:00+08:00"
    )
    [event] = body["memories"]
    assert event["type"] == "event" and body["episode_ids"]
    soon = await tenant.recall("u", "客户开会", at="2026-09-01T12:00:00+08:00")
    assert body["episode_ids"][0] in [m["id"] for m in soon["memories"]] or event["id"] in [
        m["id"] for m in soon["memories"]
    ]
    later = await tenant.recall("u", "客户开会", at="2026-10-15T12:00:00+08:00")
    assert "客户开会" not in " ".join(m["content"] for m in later["memories"])


async def test_the_turn_of_a_preference_stays_while_the_preference_stays(
    tenant: TenantCtx, settings: Settings
) -> None:
    # a preference never fades (floor 0.5): its 14-day half-life must not make the turn fade
    body = await tenant.say("u", "s1", "I love green tea.", at="2026-01-10T09:00:00+00:00")
    [pref] = body["memories"]
    assert pref["type"] == "preference"
    [episode_id] = body["episode_ids"]
    # 120 days on: a 14-day half-life with the episode's floor 0 would have faded (< 0.02)
    later = await tenant.recall(
        "u", "green tea", types=["episode"], at="2026-05-10T09:00:00+00:00", explain=True
    )
    [hit] = [m for m in later["memories"] if m["id"] == episode_id]
    half_life = settings.half_life_episode_days
    assert hit["explain"]["half_life_days"] == half_life
    assert hit["decay"] == pytest.approx(0.5 ** (120 / half_life), rel=1e-3)


async def test_the_turn_of_an_event_already_past_ages_like_any_turn(
    tenant: TenantCtx, settings: Settings
) -> None:
    body = await tenant.say(
        "u", "s1", "I went to a pottery class yesterday.", at="2026-01-10T09:00:00+00:00"
    )
    [event] = body["memories"]
    assert event["type"] == "event"
    [episode_id] = body["episode_ids"]
    # 60 days on the event itself has faded (3-day half-life); what was said is still recalled
    later = await tenant.recall("u", "pottery class", at="2026-03-11T09:00:00+00:00", explain=True)
    [hit] = [m for m in later["memories"] if m["id"] == episode_id]
    assert hit["explain"]["half_life_days"] == settings.half_life_episode_days  # its own
    assert event["id"] not in [m["id"] for m in later["memories"]]


async def test_a_newer_statement_without_a_change_cue_still_freezes_the_old_sentence(
    tenant: TenantCtx,
) -> None:
    old = await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T09:00:00+00:00")
    await tenant.say("u", "s2", "I live in Porto now.", at="2026-03-10T09:00:00+00:00")
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "frozen"
    first, contents = await recall_first_and_contents(tenant, "where do I live")
    assert first["value"] == "Porto" and "Lisbon" not in contents


async def test_a_guess_outdated_by_a_later_guess_keeps_its_turn(tenant: TenantCtx) -> None:
    # the key-family classifier reads both as an employer; nothing said a job changed
    old = await tenant.say(
        "u", "s1", "I spend most of my week at the Initech office.", at="2026-01-10T09:00:00+00:00"
    )
    [guess] = old["memories"]
    assert guess["key"] == "work.employer" and guess["metadata"]["formed_by"] == "classifier"
    later = await tenant.say(
        "u", "s2", "I spend most of my week at the Globex office.", at="2026-03-10T09:00:00+00:00"
    )
    assert ("Globex", "classifier") in [
        (m["value"], m["metadata"].get("formed_by")) for m in later["memories"]
    ]
    assert (await get(tenant, "u", guess["id"]))["status"] == "frozen"  # the fact: arbitrated
    episode = await get(tenant, "u", old["episode_ids"][0])
    assert episode["status"] == "active"  # the turn: what the user said, still current
    recalled = await tenant.recall("u", "the Initech office")
    contents = [m["content"] for m in recalled["memories"]]
    assert "I spend most of my week at the Initech office." in contents


async def test_a_guess_outdated_by_a_stated_change_freezes_its_turn(tenant: TenantCtx) -> None:
    old = await tenant.say(
        "u", "s1", "I spend most of my week at the Initech office.", at="2026-01-10T09:00:00+00:00"
    )
    [guess] = old["memories"]
    assert guess["metadata"]["formed_by"] == "classifier"
    await tenant.say(
        "u",
        "s2",
        "Left Initech last spring, I'm at Pied Piper now running QA.",
        at="2026-03-10T09:00:00+00:00",
    )
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "frozen"
    _, contents = await recall_first_and_contents(tenant, "where do I work")
    assert "Initech office" not in contents


async def test_a_guess_confirmed_in_plain_words_is_no_guess(tenant: TenantCtx) -> None:
    guessed = await tenant.say(
        "u", "s1", "I spend most of my week at the Initech office.", at="2026-01-10T09:00:00+00:00"
    )
    said = await tenant.say("u", "s1", "I work at Initech.", at="2026-01-11T09:00:00+00:00")
    [fact] = said["memories"]
    assert fact["id"] == guessed["memories"][0]["id"]  # the same fact, confirmed
    assert "formed_by" not in fact["metadata"]
    await tenant.say("u", "s2", "I work at Pied Piper.", at="2026-03-10T09:00:00+00:00")
    for body in (guessed, said):
        assert (await get(tenant, "u", body["episode_ids"][0]))["status"] == "frozen"
    _, contents = await recall_first_and_contents(tenant, "where do I work")
    assert "Initech" not in contents


async def test_a_guess_turned_into_its_opposite_freezes_its_turn(tenant: TenantCtx) -> None:
    # a liking the classifier guessed, then the user gives the thing up: the later fact is of
    # another key (an avoidance), so no plain recency replaced the guess — the user said the
    # opposite, and the old turn must not answer "can I eat spicy food?" as current
    old = await tenant.say(
        "u", "s1", "我超级喜欢吃辣的，尤其是重庆火锅～", at="2026-01-10T09:00:00+08:00"
    )
    [liking] = [m for m in old["memories"] if m["key"] == "preference.likes"]
    assert liking["metadata"]["formed_by"] == "classifier"
    later = await tenant.say(
        "u", "s2", "最近胃不好，医生让我别吃辣，我已经戒辣了。", at="2026-03-10T09:00:00+08:00"
    )
    assert ("diet.avoid", "辣") in [(m["key"], m["value"]) for m in later["memories"]]
    assert (await get(tenant, "u", liking["id"]))["status"] == "frozen"
    assert (await get(tenant, "u", old["episode_ids"][0]))["status"] == "frozen"
    _, contents = await recall_first_and_contents(tenant, "我能吃辣吗？")
    assert not any("超级喜欢吃辣" in c for c in contents)
