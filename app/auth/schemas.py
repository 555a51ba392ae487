from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


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


class ApiKeyRead(BaseModel):
    id: uuid.UUID
    tenant_id: uuid.UUID
    name: str
    prefix: str
    created_at: datetime
    revoked_at: datetime | None = None


class ApiKeyCreated(ApiKeyRead):
    api_key: str = Field(description="The secret. Shown once, never again.")
