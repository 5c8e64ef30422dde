# Arena's image for docker-compose.yml: the web server, the Celery worker and the Celery beat scheduler.
# The packages are those of scripts/system-packages that a server needs (the sandbox, the bots' runtimes,
# building C++, Go and Java bots), without the browser the tests use.
# Debian's python3 lives under /usr, which the bot sandbox binds read-only: the bots' runtimes are built from it.
#
# Build with BuildKit (`docker build`, Docker >= 23 with buildx; `DOCKER_BUILDKIT=1 docker build` on Docker 20.10):
# the steps that reach a package registry mount an optional build secret `extra_ca`, a PEM file of certificates to
# trust besides Debian's (a company's TLS-inspecting proxy, say):
#     docker build --secret id=extra_ca,src=/usr/local/share/ca-certificates/proxy.crt -t arena:latest .
# scripts/with-build-ca hands it to apt, pip and npm for that step only; it is never written to a layer.
FROM debian:bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive PYTHONUNBUFFERED=1 VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH
COPY scripts/with-build-ca /usr/local/bin/with-build-ca
RUN --mount=type=secret,id=extra_ca with-build-ca sh -c 'apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends python3 python3-venv python3-pip python3-dev nodejs npm \
      bubblewrap tini libseccomp2 util-linux ca-certificates \
      g++ make libgrpc++-dev protobuf-compiler-grpc \
      golang-go golang-google-grpc-dev golang-github-golang-protobuf-1-5-dev protoc-gen-go protoc-gen-go-grpc \
      default-jdk-headless libgrpc-java protobuf-compiler-grpc-java-plugin libprotobuf-java libnetty-java \
      libguava-java libperfmark-java libgoogle-gson-java libgeronimo-annotation-1.3-spec-java \
 && rm -rf /var/lib/apt/lists/*'

WORKDIR /app
# README.md comes after the long step below: pip needs a readme (pyproject.toml's `readme`) only for the package's
# description, so the step installs with a stand-in and an edit to README.md rebuilds in seconds, not ~16 minutes.
COPY pyproject.toml manage.py ./
COPY arena ./arena
COPY proto ./proto
COPY bots ./bots
COPY scripts/build-image ./scripts/build-image
# The bots' runtimes and the built-in C++, Go and Java bots are built here (trusted code; no sandbox during
# `docker build`) by scripts/build-image, which CI runs too, so that the unprivileged web service finds them built
# when it registers the built-in bots and never writes under /app.
RUN --mount=type=secret,id=extra_ca python3 -m venv $VIRTUAL_ENV \
 && echo 'Arena (README.md is copied after this step)' > README.md \
 && with-build-ca sh -c "pip install -q --no-cache-dir --upgrade pip && pip install -q --no-cache-dir -e '.[deploy]' \
 && scripts/build-image"
# README.md and the platform after the long step above, which needs only the engine (the installed package is
# `arena*`): a change to either rebuilds the image in seconds from the cache, not in many minutes.
COPY README.md ./
COPY platform ./platform

# The web server and beat run as the unprivileged `arena` (the image's default user); only the worker runs as root
# (docker-compose.yml: the sandbox needs it). /data is each container's own working folder (packages, replays and
# logs are shared through object storage, not a volume); its group is arena and setgid and every service writes
# with umask 0002 (the entrypoint); tini reaps the bots' orphaned processes.
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin arena \
 && mkdir -p /data/storage && chown -R arena:arena /data && chmod 2770 /data /data/storage
ENV ARENA_STORAGE_DIR=/data/storage ARENA_VAR_DIR=/data
# the worker's start (docker-compose.yml): its cgroups writable, Docker's /proc masks lifted, for the sandbox
COPY scripts/worker-init /usr/local/bin/arena-worker-init
USER arena
ENTRYPOINT ["/usr/bin/tini", "--", "sh", "-c", "umask 0002 && exec \"$@\"", "arena"]
EXPOSE 8000
CMD ["gunicorn", "--chdir", "platform", "--bind", "0.0.0.0:8000", "--workers", "3", "--worker-class", "gthread", \
     "--threads", "64", "--control-socket", "/data/gunicorn.ctl", "arena_site.wsgi"]
