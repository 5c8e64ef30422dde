# Stand-ins for the official images docker-compose.yml pulls (postgres:15, redis:7, minio/minio), for a host
# whose Docker engine reaches no image registry (scripts/compose-e2e only; never used by docker-compose.yml).
# Built from Debian's own packages and, for S3, moto's server from PyPI, with the same commands, environment
# variables, volumes and health checks as the official images (deploy/e2e/standins-entrypoint).
# Build context: the repository's root (for scripts/with-build-ca: the optional `extra_ca` build secret).
FROM debian:bookworm-slim AS base
ENV DEBIAN_FRONTEND=noninteractive
COPY scripts/with-build-ca /usr/local/bin/with-build-ca
COPY deploy/e2e/standins-entrypoint /usr/local/bin/standins-entrypoint

FROM base AS postgres
RUN --mount=type=secret,id=extra_ca with-build-ca sh -c 'apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*'
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
ENTRYPOINT ["standins-entrypoint", "postgres"]

FROM base AS redis
RUN --mount=type=secret,id=extra_ca with-build-ca sh -c 'apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*'
WORKDIR /data
ENTRYPOINT ["standins-entrypoint", "redis"]
CMD ["redis-server"]

# S3 (moto's server, its objects kept in the volume by deploy/e2e/s3-standin.py, as MinIO keeps them) and an SMTP
# sink printing every message to its log (Python 3.11's smtpd), both plain Python.
FROM base AS python
RUN --mount=type=secret,id=extra_ca with-build-ca sh -c 'apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/* && python3 -m venv /opt/moto \
 && /opt/moto/bin/pip install -q --no-cache-dir "moto[server]>=5,<6"'
COPY deploy/e2e/s3-standin.py /usr/local/bin/s3-standin.py
CMD ["/opt/moto/bin/python", "/usr/local/bin/s3-standin.py", "9000"]
