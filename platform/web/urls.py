from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("ladders/<slug:slug>/", views.ladder, name="ladder"),
    path("bots/<int:bot_id>/", views.bot, name="bot"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/frames.json", views.match_frames, name="match-frames"),
    path("matches/<int:match_id>/replay.json.gz", views.match_replay, name="match-replay"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    path("login/", auth_views.LoginView.as_view(template_name="web/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("me/", views.me, name="me"),
]
