from django.contrib.auth import views as auth_views
from django.urls import path

from datasets import views as datasets

from . import account, competitions, login, pages, play, play_new, signup, tables, teams, views, watch

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", pages.favicon, name="favicon"),
    path("ladders/", pages.ladder_list, name="ladders"),
    path("ladders/<slug:slug>/", views.ladder, name="ladder"),
    path("ladders/<slug:slug>/datasets/", datasets.page, name="ladder-datasets"),
    path("ladders/<slug:slug>/datasets/<str:name>", datasets.file, name="ladder-dataset-file"),
    path("search/", pages.search, name="search"),
    path("games/<slug:name>/", pages.game_page, name="game"),
    path("games/<slug:name>/example.json", pages.game_example, name="game-example"),
    path("games/<slug:name>/developers/", pages.game_developers_page, name="game_developers"),
    path("users/<str:username>/", pages.user_page, name="user"),
    path("matches/", pages.match_list, name="matches"),
    path("bots/<int:bot_id>/", views.bot, name="bot"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/frames.json", views.match_frames, name="match-frames"),
    path("matches/<int:match_id>/live/", watch.live_events, name="match-live"),
    path("matches/<int:match_id>/play/", play.play, name="match-play"),
    path("matches/<int:match_id>/play/resign/", play.resign, name="match-resign"),
    path("play/", play_new.play_new, name="play-new"),
    path("tables/<int:table_id>/", tables.table, name="table"),
    path("tables/<int:table_id>/state/", tables.table_state, name="table-state"),
    path("tables/<int:table_id>/cancel/", tables.table_cancel, name="table-cancel"),
    path("tables/<int:table_id>/leave/", tables.table_leave, name="table-leave"),
    path("tables/join/<str:key>/", tables.table_invite, name="table-invite"),
    path("matches/<int:match_id>/replay.json.gz", views.match_replay, name="match-replay"),
    path("teams/", teams.team_list, name="teams"),
    path("teams/join/<str:key>/", teams.join, name="team-join"),
    path("teams/<slug:slug>/", teams.team, name="team"),
    path("competitions/", competitions.competition_list, name="competitions"),
    path("competitions/new/", competitions.competition_new, name="competition-new"),
    path("competitions/<slug:slug>/", competitions.competition, name="competition"),
    path("competitions/<slug:slug>/archive/", competitions.competition_archive, name="competition-archive"),
    path("competitions/<slug:slug>/results.<str:fmt>", competitions.competition_results,
         name="competition-results"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    # without a `next`, a log-in lands on the owner's page (Django's default, /accounts/profile/, does not exist);
    # limited per client address like the API's log-in (web/login.py)
    path("login/", login.login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("signup/", signup.signup, name="signup"),  # django-allauth's sign-up (web/signup.py)
    path("me/", views.me, name="me"),
    path("me/delete/", account.delete_account, name="delete-account"),
]
