# The engine and the bots compiled with mypyc (docs/build.md): gcc and mypy stay in this stage.
FROM python:3.11-slim AS compiled
ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/rummy
COPY requirements/build.txt ./requirements/
RUN pip install --require-hashes -r requirements/build.txt
COPY pyproject.toml README.md ./
COPY app ./app
RUN python -m app.build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/rummy
# The locked runtime dependencies (and build backend) first: this layer changes only with the lock.
COPY requirements/runtime.txt ./requirements/
RUN pip install --require-hashes -r requirements/runtime.txt
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-deps --no-build-isolation .
# The compiled modules and the digests of their sources (app/compiled.json), beside the sources.
COPY --from=compiled /srv/rummy/app ./app
# The app serves static/ and applies migrations/ from this source tree, so it runs from here.
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static

RUN useradd --create-home --uid 10001 rummy
USER rummy

EXPOSE 8000
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
