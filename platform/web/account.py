"""The owner's page's account actions: deleting the account (`accounts.deletion`) behind a confirmation page.

The confirmation asks for the password (an account without one, made through an identity provider, types its
user name instead); a wrong password counts towards the log-in lock-out, and tries are limited per user and
address like the API's `DELETE /api/auth/me/`. The data export is the API's `GET /api/auth/me/export/`, which the
owner page links (the session signs the download in)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from accounts import deletion, throttles
from botregistry.models import Bot


@login_required(login_url="web:login")
def delete_account(request):
    user = request.user
    problem = None
    if request.method == "POST":
        if (wait := throttles.throttled(request, throttles.DELETE_ACCOUNT)) is not None:
            return HttpResponse(f"Too many tries: try again in {int(wait) + 1} s.", status=429,
                                content_type="text/plain")
        problem = deletion.confirmation_problem(request, user, password=request.POST.get("password", ""),
                                                username=request.POST.get("username", ""))
        if problem is None:
            deletion.delete_account(user)
            logout(request)
            messages.success(request, gettext("Your account is deleted. Your bots are retired; the matches they "
                                              "played stay, shown as played by a deleted account."))
            return redirect("web:home")
    bots = Bot.objects.filter(owner=user, retired_at__isnull=True).order_by("name")
    return render(request, "web/delete_account.html", {
        "bots": bots, "needs_password": user.has_usable_password(), "problem": problem,
        "deleted_name": deletion.DELETED_NAME}, status=400 if problem else 200)
