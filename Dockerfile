# Mahjong Tally: multi-stage build, non-root, the database on a volume, migrations on start
# (the bot's post_init brings the schema to the newest revision before polling).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY storage ./storage
COPY bot ./bot
RUN python -m venv /opt/venv \
 && /opt/venv/bin/pip install --no-cache-dir --upgrade pip \
 && /opt/venv/bin/pip install --no-cache-dir .

FROM python:3.11-slim
# The pictures' CJK font (Noto Sans SC) comes with the Python dependencies: no system font.
RUN useradd --create-home --uid 10001 tally \
 && mkdir -p /data && chown tally:tally /data
COPY --from=build /opt/venv /opt/venv
COPY config.example.toml /app/config.example.toml
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    TALLY_STORAGE__URL=sqlite+aiosqlite:////data/tally.sqlite3
WORKDIR /app
USER tally
VOLUME ["/data"]
# Webhook mode listens here (TALLY_TELEGRAM__LISTEN=0.0.0.0:8443; see compose.yaml).
EXPOSE 8443
# Needs TALLY_TELEGRAM__TOKEN: without one, `run` exits at once with "configuration error:
# no Telegram token" (console mode, for trying the bot in a terminal, is
# `docker run -it --rm mahjong-tally python -m bot console`).
CMD ["python", "-m", "bot", "run"]
