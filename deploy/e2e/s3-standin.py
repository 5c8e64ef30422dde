"""The S3 stand-in of scripts/compose-e2e (the `minio` service when MinIO's image cannot be pulled): moto's S3
server, whose objects live in memory, made to keep them in its volume as MinIO does, so that `docker compose
down` then `up` finds the bucket as it was. Every `SYNC_SECONDS` and when stopped (SIGTERM, `docker compose
stop`/`down`), what changed is written under /data/s3/<bucket>/<key>; at start, what is there is put back.
A container killed outright loses at most the last SYNC_SECONDS of writes (MinIO would lose nothing): test only.

    /opt/moto/bin/python s3-standin.py [PORT]
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import boto3
from moto.server import ThreadedMotoServer

ROOT = Path(os.environ.get("S3_STANDIN_DIR", "/data/s3"))  # the volume
SYNC_SECONDS = 15.0


def client(port: int):
    return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id="standin", aws_secret_access_key="standin")


def restore(s3) -> int:
    count = 0
    for bucket in (p for p in ROOT.iterdir() if p.is_dir()) if ROOT.is_dir() else ():
        s3.create_bucket(Bucket=bucket.name)
        for path in (p for p in bucket.rglob("*") if p.is_file() and not p.name.endswith(".part")):
            s3.put_object(Bucket=bucket.name, Key=path.relative_to(bucket).as_posix(), Body=path.read_bytes())
            count += 1
    return count


class Mirror:
    """What the disk holds, by (bucket, key) → ETag: each sync writes what is new or changed, removes what went."""

    def __init__(self, s3):
        self.s3, self.etags = s3, {}
        self.lock = threading.Lock()

    def sync(self) -> None:
        with self.lock:
            seen = {}
            for bucket in self.s3.list_buckets()["Buckets"]:
                name = bucket["Name"]
                (ROOT / name).mkdir(parents=True, exist_ok=True)
                for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=name):
                    for obj in page.get("Contents", []):
                        seen[(name, obj["Key"])] = obj["ETag"]
            for (name, key), etag in seen.items():
                if self.etags.get((name, key)) != etag:
                    path = ROOT / name / key
                    path.parent.mkdir(parents=True, exist_ok=True)
                    part = path.with_name(path.name + ".part")
                    part.write_bytes(self.s3.get_object(Bucket=name, Key=key)["Body"].read())
                    part.replace(path)
            for name, key in set(self.etags) - set(seen):
                (ROOT / name / key).unlink(missing_ok=True)
            self.etags = seen


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 9000
    server = ThreadedMotoServer(ip_address="0.0.0.0", port=port, verbose=False)
    server.start()
    s3 = client(port)
    print(f"s3-standin: {restore(s3)} objects restored from {ROOT}", flush=True)
    mirror = Mirror(s3)
    mirror.sync()
    stopping = threading.Event()

    def stop(signum, frame):  # docker stop: write what changed, then exit
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"s3-standin: serving on port {port}", flush=True)
    while not stopping.wait(SYNC_SECONDS):
        try:
            mirror.sync()
        except Exception as exc:  # a sync that failed is tried again; the server goes on
            print(f"s3-standin: sync failed: {exc!r}", flush=True)
    mirror.sync()
    print(f"s3-standin: {len(mirror.etags)} objects kept in {ROOT}", flush=True)
    server.stop()


if __name__ == "__main__":
    main()
