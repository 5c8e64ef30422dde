from rest_framework.routers import DefaultRouter

from .api import VersionTestViewSet

router = DefaultRouter(trailing_slash=True)
router.register("version-tests", VersionTestViewSet, basename="version-test")

urlpatterns = router.urls
