from django.contrib.auth import views as auth_views
from django.urls import path

from . import pages, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", pages.favicon, name="favicon"),
    path("ladders/", pages.ladder_list, name="ladders"),
    path("ladders/<slug:slug>/", views.ladder, name="ladder"),
    path("games/<slug:name>/", pages.game_page, name="game"),
    path("users/<str:username>/", pages.user_page, name="user"),
    path("matches/", pages.match_list, name="matches"),
    path("bots/<int:bot_id>/", views.bot, name="bot"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/frames.json", views.match_frames, name="match-frames"),
    path("matches/<int:match_id>/replay.json.gz", views.match_replay, name="match-replay"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    # without a `next`, a log-in lands on the owner's page (Django's default, /accounts/profile/, does not exist)
    path("login/", auth_views.LoginView.as_view(template_name="web/login.html", next_page="web:me",
                                                redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("me/", views.me, name="me"),
]
