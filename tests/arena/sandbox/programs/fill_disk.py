"""Hostile: fill /tmp, then fill the socket directory with data and with files."""
import errno
import json
import os

result = {}
written = 0
try:
    with open("/tmp/fill", "wb") as f:
        while True:
            f.write(b"\0" * (1 << 20))
            f.flush()
            written += 1 << 20
except OSError as exc:
    result["tmp"] = {"errno": errno.errorcode.get(exc.errno), "bytes": written}
os.unlink("/tmp/fill")

written = 0
try:
    with open("/sock/fill", "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
            written += 4096
except OSError as exc:
    result["sock_data"] = {"errno": errno.errorcode.get(exc.errno), "bytes": written}

files = 0
try:
    while True:
        open(f"/sock/f{files}", "w").close()
        files += 1
except OSError as exc:
    result["sock_files"] = {"errno": errno.errorcode.get(exc.errno), "files": files}
print("RESULT " + json.dumps(result), flush=True)
