"""Crash at start with a traceback."""
print("about to crash", flush=True)
raise RuntimeError("boom in the bot")
