# syntax=docker/dockerfile:1
# Build stage: compile every wheel (gcc and headers live only here).
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# Final stage: wheels and the source tree (migrations live in alembic/), no build tools.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MEMLANE_HOST=0.0.0.0 \
    MEMLANE_PORT=8080 \
    MEMLANE_DATA_DIR=/var/lib/memlane
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels memlane \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /var/lib/memlane --create-home memlane
WORKDIR /app
COPY alembic.ini ./
COPY alembic ./alembic
COPY app ./app
USER memlane
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2).status == 200 else 1)"]
# `python -m app.cli` runs the code in /app, next to its migrations.
ENTRYPOINT ["python", "-m", "app.cli"]
CMD ["serve"]
