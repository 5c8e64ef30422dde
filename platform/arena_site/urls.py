"""URLs: the REST API under /api/ (with the tournaments' and version tests'), the admin, and the web pages
(platform/web) at the root."""

from django.contrib import admin
from django.urls import include, path

from arena_site.health import healthz

# With DEBUG off: the site's friendly pages for browsers, JSON under /api/ (arena_site.errors).
handler404 = "arena_site.errors.page_not_found"
handler500 = "arena_site.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("api/", include("tournaments.urls")),  # /api/tournaments/
    path("api/", include("versiontests.urls")),  # /api/version-tests/
    path("api/", include("notifications.urls")),  # /api/auth/me/notifications/
    path("", include("monitoring.urls")),  # /metrics, for Prometheus
    path("healthz", healthz, name="healthz"),  # for docker-compose.yml's healthcheck (arena_site.health)
    path("", include("web.urls")),
]
