"""Hostile: never opens its socket; sleeps forever."""
import time

while True:
    time.sleep(1)
