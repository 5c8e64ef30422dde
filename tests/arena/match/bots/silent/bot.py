"""Starts but never opens its socket."""
import time

print("thinking about opening a socket some day", flush=True)
time.sleep(3600)
