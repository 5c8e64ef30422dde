"""Prometheus metrics of the whole site, computed from the database and the broker at scrape time."""
