"""The account flows people expect (django-allauth behind the API and the web pages): sign-up → verification
mail → log-in by username or email, password reset, change of email (verified before it replaces the old one)
and of password, and what waits for a verified address (uploads, email notifications)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from platform_helpers import bot_files, make_bot, upload, zip_bytes

PASSWORD = "a-Long-pass-123"


class Outbox:
    """Django's test mail outbox (`django.core.mail.outbox`, which the test set-up may replace), read when used."""

    def _box(self):
        from django.core import mail

        return mail.outbox

    def __iter__(self):
        return iter(self._box())

    def __getitem__(self, index):
        return self._box()[index]

    def clear(self):
        self._box().clear()


@pytest.fixture
def mailoutbox(db):
    from django.core import mail

    mail.outbox = []
    return Outbox()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()  # allauth's and the API's counters live in the cache; each test starts from zero
    yield
    cache.clear()


def link_in(mail, path: str) -> str:
    """The key at the end of the link to `path` in a mail (the part the API takes)."""
    return re.search(rf"https?://[^/\s]+{re.escape(path)}([^/\s]+)/", mail.body).group(1)


def api_signup(anon, name: str, email: str):
    return anon.post("/api/auth/signup/", {"username": name, "email": email, "password": PASSWORD}, format="json")


# ----------------------------------------------------------------------------------------------------- sign-up

def test_api_signup_mails_a_verification_link_and_uploads_wait_for_it(anon, client_for, mailoutbox, db):
    from django.contrib.auth import get_user_model

    made = api_signup(anon, "vera", "Vera@Example.org")
    assert made.status_code == 201, made.content
    assert made.json()["email_verified"] is False
    assert [m.to for m in mailoutbox] == [["vera@example.org"]]
    key = link_in(mailoutbox[0], "/accounts/confirm-email/")
    owner = client_for()
    owner.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    assert owner.get("/api/auth/me/").json()["email_verification_pending"] is True

    user = get_user_model().objects.get(username="vera")
    bot = make_bot(user, "vera-bot")
    archive = zip_bytes(bot_files("vera-bot"))
    refused = upload(owner, bot.pk, archive)
    assert refused.status_code == 403 and "verify your email" in refused.json()["detail"]

    assert anon.post("/api/auth/email/verify/", {"key": key + "x"}, format="json").status_code == 400
    verified = anon.post("/api/auth/email/verify/", {"key": key}, format="json")
    assert verified.status_code == 200 and verified.json()["verified"] is True
    again = anon.post("/api/auth/email/verify/", {"key": key}, format="json")
    assert again.status_code == 400 and "already used" in str(again.json()), "a used key is refused clearly"
    assert owner.get("/api/auth/me/").json()["email_verification_pending"] is False
    assert upload(owner, bot.pk, archive).status_code == 201

    # log-in by username or by email address; the password is checked either way
    for login in ("vera", "vera@example.org", "VERA@example.org"):
        got = anon.post("/api/auth/login/", {"username": login, "password": PASSWORD}, format="json")
        assert got.status_code == 200 and got.json()["token"], login
    assert anon.post("/api/auth/login/", {"username": "vera@example.org", "password": "nope"},
                     format="json").status_code == 400


def test_api_signup_needs_a_free_valid_address_and_a_name_that_is_not_reserved(anon, mailoutbox, db):
    assert api_signup(anon, "first", "same@example.org").status_code == 201
    taken = api_signup(anon, "second", "SAME@example.org")
    assert taken.status_code == 400 and "email" in taken.json()
    assert anon.post("/api/auth/signup/", {"username": "noemail", "password": PASSWORD},
                     format="json").status_code == 400
    assert api_signup(anon, "bad", "not-an-address").status_code == 400
    assert api_signup(anon, "arena-bot", "x@example.org").status_code == 400, "reserved word"


def test_web_signup_verification_link_and_login_by_email(client, mailoutbox, db):
    from allauth.account.models import EmailAddress

    page = client.get("/signup/").content.decode()
    assert 'name="email"' in page and "verify your address" in page
    made = client.post("/signup/", {"username": "wendy", "email": "wendy@example.org", "password1": PASSWORD,
                                    "password2": PASSWORD})
    assert made.status_code == 302 and made["Location"] == "/me/"
    me = client.get("/me/").content.decode()
    assert "wendy@example.org" in me and "not verified" in me, "the owner page says what waits"
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)", mailoutbox[0].body).group(1)
    client.post("/logout/")
    confirm = client.get(link)
    assert confirm.status_code == 200 and b"wendy@example.org" in confirm.content
    assert not EmailAddress.objects.get(email="wendy@example.org").verified, "a GET (a mail scanner) verifies nothing"
    client.post(link)
    assert EmailAddress.objects.get(email="wendy@example.org").verified
    logged = client.post("/login/", {"username": "wendy@example.org", "password": PASSWORD})
    assert logged.status_code == 302 and client.session.get("_auth_user_id")


def test_web_signup_refuses_reserved_and_taken_names(client, make_user, db):
    make_user("taken")
    for name in ("taken", "Official", "ad.min", "x"):
        got = client.post("/signup/", {"username": name, "email": f"{len(name)}@example.org",
                                       "password1": PASSWORD, "password2": PASSWORD})
        assert got.status_code == 200 and b"errorlist" in got.content, name
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("holder", "held@example.org", PASSWORD)
    twice = client.post("/signup/", {"username": "another", "email": "HELD@example.org", "password1": PASSWORD,
                                     "password2": PASSWORD})
    assert twice.status_code == 200 and b"already registered" in twice.content, "one account per address"
    assert not get_user_model().objects.filter(username="another").exists()


# -------------------------------------------------------------------------------------------- password reset

def test_password_reset_through_the_api(anon, client_for, mailoutbox, db):
    made = api_signup(anon, "rita", "rita@example.org").json()
    mailoutbox.clear()
    unknown = anon.post("/api/auth/password/reset/", {"email": "nobody@example.org"}, format="json")
    known = anon.post("/api/auth/password/reset/", {"email": "rita@example.org"}, format="json")
    assert unknown.status_code == known.status_code == 202 and unknown.json() == known.json(), \
        "the answer does not tell who has an account"
    to_rita = [m for m in mailoutbox if m.to == ["rita@example.org"]]
    assert len(to_rita) == 1
    key = link_in(to_rita[0], "/accounts/password/reset/key/")

    wrong = anon.post("/api/auth/password/reset/confirm/", {"key": "1-abc-def", "password": "New-pass-456"},
                      format="json")
    assert wrong.status_code == 400 and "key" in wrong.json()
    weak = anon.post("/api/auth/password/reset/confirm/", {"key": key, "password": "123"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()
    done = anon.post("/api/auth/password/reset/confirm/", {"key": key, "password": "New-pass-456"}, format="json")
    assert done.status_code == 200, done.content
    used = anon.post("/api/auth/password/reset/confirm/", {"key": key, "password": "Other-pass-789"}, format="json")
    assert used.status_code == 400 and "key" in used.json(), "a reset key works once"

    old = client_for()
    old.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")
    assert old.get("/api/auth/me/").status_code == 401, "a reset revokes the account's API tokens"
    assert anon.post("/api/auth/login/", {"username": "rita", "password": PASSWORD}, format="json").status_code == 400
    assert anon.post("/api/auth/login/", {"username": "rita", "password": "New-pass-456"},
                     format="json").status_code == 200


def test_password_reset_through_the_web_pages(client, mailoutbox, db):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("paula", "paula@example.org", PASSWORD)
    assert "Forgot your password?" in client.get("/login/").content.decode()
    assert client.post("/accounts/password/reset/", {"email": "paula@example.org"}).status_code == 302
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/[^/\s]+/)", mailoutbox[-1].body).group(1)
    form_page = client.get(link, follow=True)  # allauth moves the key into the session, then shows the form
    assert form_page.status_code == 200 and b"password1" in form_page.content
    done = client.post(form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
                       {"password1": "Fresh-pass-789", "password2": "Fresh-pass-789"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Fresh-pass-789")
    bad = client.get("/accounts/password/reset/key/1-not-a-key/", follow=True)
    assert bad.status_code == 200 and b"invalid" in bad.content.lower(), "a bad link says so"


# ------------------------------------------------------------------------------- change of email and password

def test_a_new_address_replaces_the_old_only_once_verified_and_notifications_follow(
        anon, client_for, mailoutbox, db):
    from django.contrib.auth import get_user_model

    from accounts.emails import notification_address
    from notifications import services

    token = api_signup(anon, "carl", "carl@example.org").json()["token"]
    owner = client_for()
    owner.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    user = get_user_model().objects.get(username="carl")
    assert notification_address(user) is None, "an unverified address gets no notifications"
    anon.post("/api/auth/email/verify/", {"key": link_in(mailoutbox[0], "/accounts/confirm-email/")}, format="json")
    assert notification_address(user) == "carl@example.org"

    mailoutbox.clear()
    changing = owner.post("/api/auth/email/", {"email": "carl@new.example"}, format="json")
    assert changing.status_code == 202
    assert {(a["email"], a["verified"]) for a in changing.json()} == {("carl@example.org", True),
                                                                      ("carl@new.example", False)}
    user.refresh_from_db()
    assert user.email == "carl@example.org" and notification_address(user) == "carl@example.org", \
        "until the new address is verified, the old one stays"
    with pytest.raises(services.PreferencesRefused):  # the notification form can't skip verification
        services.update(user, email_address="carl@new.example")
    assert [m.to for m in mailoutbox] == [["carl@new.example"]]
    anon.post("/api/auth/email/verify/", {"key": link_in(mailoutbox[0], "/accounts/confirm-email/")}, format="json")
    user.refresh_from_db()
    assert user.email == "carl@new.example" and notification_address(user) == "carl@new.example"
    assert [a["email"] for a in owner.get("/api/auth/email/").json()] == ["carl@new.example"]


def test_change_password_through_the_api_asks_for_the_current_one(anon, make_user, client_for, db):
    user = make_user("pete")
    owner = client_for(user)
    wrong = owner.post("/api/auth/password/change/", {"old_password": "nope", "password": "Next-pass-321"},
                       format="json")
    assert wrong.status_code == 400 and "old_password" in wrong.json()
    assert owner.post("/api/auth/password/change/", {"old_password": "pw-123456789", "password": "Next-pass-321"},
                      format="json").status_code == 200
    assert anon.post("/api/auth/login/", {"username": "pete", "password": "Next-pass-321"},
                     format="json").status_code == 200
    assert owner.get("/api/auth/me/").status_code == 200, "a change (not a reset) keeps the API tokens"
    # guessing the current password is bounded: allauth's change_password limit (5 a minute per account)
    tries = [owner.post("/api/auth/password/change/", {"old_password": f"guess-{i}", "password": "Next-pass-321"},
                        format="json").status_code for i in range(6)]
    assert tries[-1] == 429 and set(tries[:-1]) <= {400, 429} and tries.count(429) >= 1


def test_web_pages_for_email_and_password_need_a_log_in_and_show_the_owners_own(client, make_user, db):
    for path in ("/accounts/email/", "/accounts/password/change/", "/accounts/3rdparty/"):
        got = client.get(path)
        assert got.status_code == 302 and got["Location"].startswith("/login/"), path
    user = make_user("olga")
    client.force_login(user)
    me = client.get("/me/").content.decode()
    for path in ("/accounts/email/", "/accounts/password/change/", "/accounts/3rdparty/"):
        assert path in me, path
        assert client.get(path).status_code == 200, path
    changed = client.post("/accounts/password/change/", {"oldpassword": "pw-123456789", "password1": "Web-pass-999",
                                                         "password2": "Web-pass-999"})
    assert changed.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Web-pass-999")


# ---------------------------------------------------------------------------------------------- permissions

def test_account_endpoints_are_the_signed_in_owners_only(anon, make_user, client_for, db):
    for method, path in (("get", "/api/auth/email/"), ("post", "/api/auth/email/"),
                         ("post", "/api/auth/email/resend/"), ("post", "/api/auth/password/change/")):
        assert getattr(anon, method)(path, {}, format="json").status_code in (401, 403), path
    alice, bob = make_user("alice"), make_user("bob")
    client_for(alice).post("/api/auth/email/", {"email": "alice@example.org"}, format="json")
    assert client_for(bob).get("/api/auth/email/").json() == [], "bob sees his own addresses, not alice's"
    assert client_for(alice).get("/api/auth/email/").json()[0]["email"] == "alice@example.org"
    too_soon = client_for(alice).post("/api/auth/email/resend/", format="json")
    assert too_soon.status_code == 429, "a link went out a moment ago (allauth: one per address per 3 minutes)"
    cache.clear()
    assert client_for(alice).post("/api/auth/email/resend/", format="json").status_code == 202
    assert client_for(bob).post("/api/auth/email/resend/", format="json").status_code == 400, "nothing to verify"


def test_failed_logins_by_email_still_lock_out(client, settings, db):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("lena", "lena@example.org", PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": "lena@example.org", "password": "wrong"})
    locked = client.post("/login/", {"username": "lena@example.org", "password": PASSWORD})
    assert locked.status_code == 429 and not client.session.get("_auth_user_id")


def test_username_and_email_share_one_failure_count(client, anon, settings, db):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("mona", "mona@example.org", PASSWORD)
    for i in range(settings.AXES_FAILURE_LIMIT):  # alternating does not double the guesses
        client.post("/login/", {"username": "MONA@example.org" if i % 2 else "mona", "password": "wrong"})
    for login in ("mona", "mona@example.org"):
        assert client.post("/login/", {"username": login, "password": PASSWORD}).status_code == 429, login
        assert anon.post("/api/auth/login/", {"username": login, "password": PASSWORD},
                         format="json").status_code == 429, login


def test_the_openapi_schema_lists_the_account_endpoints(anon, db):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/auth/signup/", "/api/auth/login/", "/api/auth/email/", "/api/auth/email/resend/",
                 "/api/auth/email/verify/", "/api/auth/password/reset/", "/api/auth/password/reset/confirm/",
                 "/api/auth/password/change/"):
        assert path in schema["paths"], path


def test_accounts_nobody_signed_up_are_not_held_back(make_user, client_for, db):
    """Accounts made by staff, by register_builtin_bots or by an older Arena have no address on record: their
    uploads and notifications work as before (accounts.emails)."""
    from accounts.emails import notification_address, verification_pending

    user = make_user("legacy")
    assert not verification_pending(user)
    user.email = "legacy@example.org"
    user.save()
    assert notification_address(user) == "legacy@example.org"
    assert client_for(user).get("/api/auth/me/").json()["email_verification_pending"] is False
    # putting a new address on record (it waits for its link) holds nothing back either
    assert client_for(user).post("/api/auth/email/", {"email": "legacy@new.example"}, format="json").status_code == 202
    assert not verification_pending(user) and notification_address(user) == "legacy@example.org"


def test_a_mail_server_that_is_down_loses_no_sign_up_and_says_to_ask_again(anon, client, settings, caplog, db):
    """SMTP refusing connections (a real closed port, as in a deployment whose mail server is down) is no 500:
    the account is made, the failure logged for the operator, the person told to ask for the mail again."""
    import logging
    import socket

    from django.contrib.auth import get_user_model

    with socket.socket() as probe:  # a port of 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port
    with caplog.at_level(logging.ERROR, logger="arena.platform"):
        made = api_signup(anon, "mailless", "mailless@example.org")
        page = client.post("/signup/", {"username": "mailless2", "email": "mailless2@example.org",
                                        "password1": PASSWORD, "password2": PASSWORD}, follow=True)
    assert made.status_code == 201, made.content
    assert page.status_code == 200 and "ask for it again" in page.content.decode()
    assert set(get_user_model().objects.filter(username__startswith="mailless").values_list("username", flat=True)
               ) == {"mailless", "mailless2"}
    assert caplog.text.count("could not send the") >= 2 and "mailless@example.org" in caplog.text
    assert anon.post("/api/auth/login/", {"username": "mailless@example.org", "password": PASSWORD},
                     format="json").status_code == 200
