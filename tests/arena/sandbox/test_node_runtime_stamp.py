"""The Node runtime holds a V8 code cache made by the node that built it (the SDK's pack): its stamp follows that
node binary, so replacing node (an upgrade) rebuilds the runtime instead of leaving a cache V8 would reject."""

import os

from arena.sandbox import runtimes


def test_node_stamp_follows_the_node_binary(tmp_path, monkeypatch):
    node = tmp_path / "node"
    node.write_bytes(b"node 20")
    monkeypatch.setattr(runtimes, "SYSTEM_NODE", str(node))
    before = runtimes._node_stamp()
    assert runtimes._node_stamp() == before
    node.write_bytes(b"node 22, a different binary")
    os.utime(node, ns=(1, 1))
    assert runtimes._node_stamp() != before
    assert runtimes.node_binary() == str(node)
