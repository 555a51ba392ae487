from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.auth.principal import KEYS_MANAGE, Scope
from app.kit.types import JsonInteger
from app.memories.schemas import ID_PATTERN

MAX_KEY_LIFETIME_S = 10 * 365 * 24 * 3600


class TenantCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)


class TenantCreated(BaseModel):
    id: uuid.UUID
    name: str
    api_key: str = Field(description="The tenant's first API key. Shown once, never again.")
    created_at: datetime


class TenantRead(BaseModel):
    id: uuid.UUID
    name: str
    created_at: datetime


class ApiKeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="default", min_length=1, max_length=200)
    scopes: list[Scope] | None = Field(
        default=None,
        min_length=1,
        description=(
            "What the key may do; at most the creating key's own scopes. Default: the creating "
            "key's scopes, or memories:read + memories:write for a key bound to a user."
        ),
    )
    user_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        max_length=128,
        description="Bind the key to this end user: any other user's path answers 404.",
    )
    expires_in_s: Annotated[int | None, JsonInteger] = Field(
        default=None,
        ge=1,
        le=MAX_KEY_LIFETIME_S,
        description="The key stops working this many seconds after creation (401 after).",
    )

    @model_validator(mode="after")
    def _bound_keys_do_not_manage_keys(self) -> ApiKeyCreate:
        if self.scopes is not None and len(set(self.scopes)) != len(self.scopes):
            raise ValueError("scopes must not repeat")
        if self.user_id is not None and self.scopes and KEYS_MANAGE in self.scopes:
            raise ValueError("a key bound to one user cannot carry keys:manage")
        if self.user_id is not None and self.scopes and "tenant:write" in self.scopes:
            # Its only reach would be its own user's attributes, which choose the tenant
            # templates that user reads (docs/scopes.md).
            raise ValueError("a key bound to one user cannot carry tenant:write")
        return self


class ApiKeyRead(BaseModel):
    id: uuid.UUID
    tenant_id: uuid.UUID
    name: str
    prefix: str
    scopes: list[Scope]
    user_id: str | None = None
    created_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None


class ApiKeyCreated(ApiKeyRead):
    api_key: str = Field(description="The secret. Shown once, never again.")
