"""A uid block is given back only in the database it was leased in (arena_site.uid_blocks.release): a test run
leases in its test database and switches the connection back to DATABASE_URL's when it ends, so a release then
must not go looking in a database that does not hold the lease (on a test machine it may not exist: "could not
release sandbox uid block … database … does not exist"). A worker's release at shutdown still frees its block."""

from __future__ import annotations

import logging

import pytest


@pytest.mark.django_db(transaction=True)
def test_release_frees_the_block_in_its_own_database_and_never_looks_in_another(caplog, monkeypatch):
    from django.db import connection

    from arena_site import uid_blocks
    from arena_site.models import UidBlock

    uid_blocks.ensure_block()
    index = uid_blocks._held.index
    uid_blocks.release()  # a worker stopping: the block is free again
    assert UidBlock.objects.get(kernel=uid_blocks.uids.kernel_id(), index=index).holder == ""

    uid_blocks.ensure_block()
    connection.close()
    # what the end of a test run does: the connection's settings name DATABASE_URL's database again
    monkeypatch.setitem(connection.settings_dict, "NAME", "arena_gc_no_such_database")
    with caplog.at_level(logging.DEBUG, logger="arena.platform"):
        uid_blocks.release()
    monkeypatch.undo()
    connection.close()
    assert uid_blocks._held is None
    assert "could not release" not in caplog.text, caplog.text
