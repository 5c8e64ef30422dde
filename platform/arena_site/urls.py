"""URLs: the REST API under /api/, the admin, and the web pages (platform/web) at the root once they exist."""

import importlib.util

from django.conf import settings
from django.contrib import admin
from django.http import HttpResponseRedirect
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
]
if "tournaments" in settings.INSTALLED_APPS:  # tournaments' API: /api/tournaments/
    urlpatterns.append(path("api/", include("tournaments.urls")))
if "versiontests" in settings.INSTALLED_APPS:  # version tests' API: /api/version-tests/
    urlpatterns.append(path("api/", include("versiontests.urls")))

if "web" in settings.INSTALLED_APPS and importlib.util.find_spec("web.urls") is not None:
    urlpatterns.append(path("", include("web.urls")))
else:
    # Until the web pages exist, the front page is the leaderboards in the browsable API.
    urlpatterns.append(path("", lambda request: HttpResponseRedirect("/api/ladders/")))
