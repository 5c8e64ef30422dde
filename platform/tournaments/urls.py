from rest_framework.routers import DefaultRouter

from .api import TournamentViewSet

router = DefaultRouter(trailing_slash=True)
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = router.urls
