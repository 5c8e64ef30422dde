"""URLs: the REST API under /api/ (with the tournaments' and version tests'), the admin, and the web pages
(platform/web) at the root."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from arena_site.health import healthz
from web.language import set_language

# With DEBUG off: the site's friendly pages for browsers, JSON under /api/ (arena_site.errors).
handler404 = "arena_site.errors.page_not_found"
handler500 = "arena_site.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("api/", include("tournaments.urls")),  # /api/tournaments/
    path("api/", include("versiontests.urls")),  # /api/version-tests/
    path("api/", include("notifications.urls")),  # /api/auth/me/notifications/
    path("api/", include("competitions.urls")),  # /api/competitions/, /api/seasons/
    path("", include("monitoring.urls")),  # /metrics, for Prometheus
    path("healthz", healthz, name="healthz"),
    # the language switcher (web.language) and the JavaScript's translations (gettext() in the viewer, live pages)
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),  # for docker-compose.yml's healthcheck (arena_site.health)
    # django-allauth's pages (email, password reset and change, identity providers); its log-in and sign-up
    # are the site's own pages (web), which these two lead to
    path("accounts/login/", RedirectView.as_view(pattern_name="web:login", query_string=True)),
    path("accounts/signup/", RedirectView.as_view(pattern_name="web:signup", query_string=True)),
    path("accounts/", include("allauth.urls")),
    path("", include("web.urls")),
]
