from django.urls import path

from monitoring.views import metrics

urlpatterns = [path("metrics", metrics, name="metrics")]
