"""Page-number pagination for every list of the API (`?page=2&page_size=100`, at most 500 a page)."""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500
