"""Staff manage everything in the Django admin: every platform model is registered and its pages render."""

import pytest
from django.contrib import admin
from django.urls import reverse
from platform_helpers import make_bot

PLATFORM_APPS = {"botregistry", "ladders", "matches"}


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("boss", "", "pw-123456789")
    client.force_login(user)
    return client


def test_every_model_is_registered():
    from django.apps import apps

    for app in PLATFORM_APPS:
        for model in apps.get_app_config(app).get_models():
            assert admin.site.is_registered(model), model


def test_changelists_and_change_pages_render(staff_client, make_user):
    from ladders.models import Ladder
    from matches.services import create_match

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "a"), make_bot(make_user(), "b")
    match = create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                         versions=[a.active_version_id, b.active_version_id])
    objects = {"bot": a, "botversion": a.active_version, "ladder": ladder, "rating": a.ratings.first(),
               "match": match, "participant": match.participants.first()}
    for model, obj in objects.items():
        app = obj._meta.app_label
        assert staff_client.get(reverse(f"admin:{app}_{model}_changelist")).status_code == 200, model
        assert staff_client.get(reverse(f"admin:{app}_{model}_change", args=[obj.pk])).status_code == 200, model


def test_admin_suspends_and_reinstates_a_version(staff_client, make_user):
    from botregistry.models import BotVersion

    bot = make_bot(make_user(), "a")
    url = reverse("admin:botregistry_botversion_changelist")
    staff_client.post(url, {"action": "suspend", "_selected_action": [bot.active_version_id]})
    version = BotVersion.objects.get(pk=bot.active_version_id)
    assert version.status == "suspended" and "suspended by boss" in version.status_reason
    staff_client.post(url, {"action": "reinstate", "_selected_action": [bot.active_version_id]})
    assert BotVersion.objects.get(pk=bot.active_version_id).status == "ready"
