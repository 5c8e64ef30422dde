from rest_framework.routers import DefaultRouter

from .api import CompetitionViewSet, SeasonViewSet

router = DefaultRouter(trailing_slash=True)
router.register("competitions", CompetitionViewSet, basename="competition")
router.register("seasons", SeasonViewSet, basename="season")

urlpatterns = router.urls
