"""Telling owners what happened to their bots: by email and by a signed webhook, for the events each one chose."""
