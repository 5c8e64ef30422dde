"""Staff see and edit version tests and their pairs in the Django admin."""

from __future__ import annotations

import random

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_version_test_admin_pages_render(setup, client, django_user_model):
    from versiontests import services
    from versiontests.models import Pair, VersionTest

    assert admin.site.is_registered(VersionTest) and admin.site.is_registered(Pair)
    test = services.create(owner=setup.owner, version_a=setup.va, version_b=setup.vb, ladder=setup.ladder,
                           rng=random.Random(3))
    client.force_login(django_user_model.objects.create_superuser("vt-boss", "", "pw-123456789"))
    for model, obj in (("versiontest", test), ("pair", test.pair_set.first())):
        assert client.get(reverse(f"admin:versiontests_{model}_changelist")).status_code == 200
        page = client.get(reverse(f"admin:versiontests_{model}_change", args=[obj.pk]))
        assert page.status_code == 200
