from django.urls import path

from .api import NotificationPreferencesView

urlpatterns = [
    path("auth/me/notifications/", NotificationPreferencesView.as_view(), name="notification-preferences"),
]
