"""The tools a user works in, with or on are tools, however the sentence puts them ("I build
frontends in React", "我用 Angular 做前端", "we're on GCP", "my laptop runs Windows 11", "我们用
Jenkins 做 CI"): not a workplace, a spoken language or a team's decision; and a switch to
another tool of the same kind freezes the one it replaces. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-01T09:00:00+08:00", "2026-12-07T10:00:00+08:00")


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("I build frontends in React.", "react"),
        ("My main language is Java.", "java"),
        ("I deploy on AWS.", "aws"),
        ("We're on GCP.", "gcp"),
        ("our app runs on Heroku", "heroku"),
        ("my laptop runs Windows 11", "windows 11"),
        ("The API is a Flask app.", "flask"),
        ("我用 Angular 做前端。", "angular"),
        ("我们用Jenkins做CI。", "jenkins"),
        ("我们项目用 Spring Boot", "spring boot"),
        ("我们的服务都部署在阿里云上", "阿里云"),
        ("我在 AWS 上部署服务", "aws"),
        ("我们的 side project 都 deploy 在 Vercel 上", "vercel"),
        ("our services are written in Rust", "rust"),
        ("我们团队用飞书沟通", "飞书"),
    ],
)
async def test_a_tool_worked_in_or_on_is_a_tool(tenant: TenantCtx, text: str, tool: str) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "tech.preferred", lower=True) == [tool]
    for key in ("work.employer", "work.location", "language.preferred", "task.decision"):
        assert await tenant.values("u", key) == [], key


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I work at Figma.", "work.employer", "figma"),  # a firm named like a tool
        ("I work in Boston.", "work.location", "boston"),
        ("My main language is Spanish.", "language.preferred", "spanish"),
        ("我们决定用 Kafka 做消息队列", "task.decision", "用 kafka 做消息队列"),  # chosen
    ],
)
async def test_a_workplace_a_language_or_a_choice_stays_what_it_is(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", key, lower=True) == [value]
    assert await tenant.values("u", "tech.preferred") == []


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("I deploy on AWS.", "我们已经从 AWS 迁到 GCP 了。"), "gcp", "aws"),
        (("我做前端用React。", "我们团队转Vue了，我现在写Vue。"), "vue", "react"),
        (("我用 Angular 做前端。", "Angular 太重了，我们 switch 到 Svelte 了。"),
         "svelte", "angular"),
        (("The API is a Flask app.", "We rewrote the API in FastAPI last month."),
         "fastapi", "flask"),
        (("My main language is Java.",
          "These days I write almost everything in Kotlin instead of Java."), "kotlin", "java"),
        (("我们的代码跑在腾讯云上", "从腾讯云迁到华为云了，领导拍板的，没办法"),
         "华为云", "腾讯云"),
        (("我一直用 Sublime 写代码", "最近换 Zed 了，挺快的"), "zed", "sublime"),
        (("We're on Jenkins for builds.", "Jenkins is gone, it's all CircleCI now."),
         "circleci", "jenkins"),
        (("We store everything in MongoDB.", "these days it's all Postgres, mongo was a mistake"),
         "postgres", "mongodb"),
    ],
)  # fmt: skip
async def test_a_switch_of_tools_freezes_the_one_replaced(
    tenant: TenantCtx, turns: tuple[str, str], new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "tech.preferred", at=AT)
    assert active == [new]
    assert frozen == [old]
