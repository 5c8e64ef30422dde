# Arena's image for docker-compose.yml: the web server, the Celery worker and the Celery beat scheduler.
# The packages are those of scripts/system-packages that a server needs (the sandbox, the bots' runtimes,
# building C++ bots), without the browser the tests use.
# Debian's python3 lives under /usr, which the bot sandbox binds read-only: the bots' runtimes are built from it.
FROM debian:bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive PYTHONUNBUFFERED=1 VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends python3 python3-venv python3-pip nodejs npm \
      bubblewrap tini libseccomp2 util-linux ca-certificates \
      g++ make libgrpc++-dev protobuf-compiler-grpc \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md manage.py ./
COPY arena ./arena
COPY proto ./proto
COPY platform ./platform
COPY bots ./bots
RUN python3 -m venv $VIRTUAL_ENV && pip install -q --upgrade pip && pip install -q -e '.[deploy]' \
 && arena runtimes install

ENV ARENA_STORAGE_DIR=/data/storage ARENA_VAR_DIR=/data
EXPOSE 8000
CMD ["gunicorn", "--chdir", "platform", "--bind", "0.0.0.0:8000", "--workers", "3", "arena_site.wsgi"]
