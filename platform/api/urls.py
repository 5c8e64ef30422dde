from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts import account_views as account_flows
from accounts import views as accounts
from api import export, tables, teams, views
from datasets import views as datasets

app_name = "api"

router = DefaultRouter()
router.register("bots", views.BotViewSet, basename="bot")
router.register("versions", views.VersionViewSet, basename="version")
router.register("ladders", views.LadderViewSet, basename="ladder")
router.register("matches", views.MatchViewSet, basename="match")
router.register("challenges", views.ChallengeViewSet, basename="challenge")
router.register("teams", teams.TeamViewSet, basename="team")
router.register("invitations", teams.InvitationViewSet, basename="invitation")

urlpatterns = [
    path("auth/signup/", accounts.SignupView.as_view(), name="signup"),
    path("auth/login/", accounts.LoginView.as_view(), name="login"),
    path("auth/me/", accounts.MeView.as_view(), name="me"),
    path("auth/email/", account_flows.EmailView.as_view(), name="email"),
    path("auth/email/resend/", account_flows.ResendView.as_view(), name="email-resend"),
    path("auth/email/verify/", account_flows.VerifyView.as_view(), name="email-verify"),
    path("auth/password/reset/", account_flows.ResetRequestView.as_view(), name="password-reset"),
    path("auth/password/reset/confirm/", account_flows.ResetConfirmView.as_view(), name="password-reset-confirm"),
    path("auth/password/change/", account_flows.PasswordChangeView.as_view(), name="password-change"),
    path("auth/me/export/", export.ExportView.as_view(), name="me-export"),
    path("bots/<int:pk>/transfer/", teams.BotTransferView.as_view(), name="bot-transfer"),
    path("ladders/<slug:slug>/datasets/", datasets.api_listing, name="ladder-datasets"),
    path("human-matches/", tables.HumanMatchView.as_view(), name="human-matches"),
    path("tables/", tables.TableListView.as_view(), name="tables"),
    path("tables/join/", tables.TableJoinView.as_view(), name="table-join"),
    path("tables/<int:pk>/", tables.TableDetailView.as_view(), name="table"),
    path("tables/<int:pk>/cancel/", tables.TableCancelView.as_view(), name="table-cancel"),
    path("tables/<int:pk>/leave/", tables.TableLeaveView.as_view(), name="table-leave"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("", include(router.urls)),
]
