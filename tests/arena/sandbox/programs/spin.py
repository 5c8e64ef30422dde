"""Hostile: spin forever in one process."""
print("SPINNING", flush=True)
while True:
    pass
