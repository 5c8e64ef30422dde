"""`manage.py ensure_bucket`: make the object storage's bucket if it does not exist (docker-compose.yml's migrate
service runs it, before web and workers start). Nothing to do when storage is the local folder."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from arena_site import objects


class Command(BaseCommand):
    help = "Create the S3 bucket of ARENA_S3_BUCKET if it does not exist (no-op on local storage)."

    def add_arguments(self, parser):
        parser.add_argument("--wait", type=float, default=30.0,
                            help="seconds to keep trying while the endpoint does not answer yet")

    def handle(self, *args, wait: float, **options):
        if objects.is_local():
            self.stdout.write(f"storage is the folder {objects.storage().path('')}: no bucket to make")
            return
        from botocore.exceptions import ClientError, EndpointConnectionError

        storage: Any = objects.storage()  # django-storages' S3Storage, which has no type information
        deadline = time.monotonic() + wait
        while True:
            try:
                client = storage.connection.meta.client
                try:
                    client.head_bucket(Bucket=storage.bucket_name)
                    self.stdout.write(f"bucket {storage.bucket_name} exists")
                except ClientError as exc:
                    if exc.response.get("Error", {}).get("Code") not in ("404", "NoSuchBucket"):
                        raise
                    region = storage.region_name
                    where = ({"CreateBucketConfiguration": {"LocationConstraint": region}}
                             if region and region != "us-east-1" else {})  # AWS's default region takes none
                    client.create_bucket(Bucket=storage.bucket_name, **where)
                    self.stdout.write(f"bucket {storage.bucket_name} created")
                return
            except EndpointConnectionError as exc:
                if time.monotonic() > deadline:
                    raise CommandError(f"object storage does not answer: {exc}") from None
                time.sleep(1)
