"""Hostile: allocate (and touch) memory without bound."""
chunks = []
print("ALLOCATING", flush=True)
while True:
    chunks.append(b"\x01" * (4 << 20))
