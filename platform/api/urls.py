from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts import views as accounts
from api import views

app_name = "api"

router = DefaultRouter()
router.register("bots", views.BotViewSet, basename="bot")
router.register("versions", views.VersionViewSet, basename="version")
router.register("ladders", views.LadderViewSet, basename="ladder")
router.register("matches", views.MatchViewSet, basename="match")
router.register("challenges", views.ChallengeViewSet, basename="challenge")

urlpatterns = [
    path("auth/signup/", accounts.SignupView.as_view(), name="signup"),
    path("auth/login/", accounts.LoginView.as_view(), name="login"),
    path("auth/me/", accounts.MeView.as_view(), name="me"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("", include(router.urls)),
]
