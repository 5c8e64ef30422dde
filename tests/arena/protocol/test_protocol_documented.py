"""The .proto files are the only thing a bot author must read: every service, method, message and field in
proto/arena/v1 carries a comment."""

from importlib import resources

from google.protobuf import descriptor_pb2

from arena.protocol_gen import PROTO_ROOT, proto_files


def _descriptor_set(tmp_path):
    from grpc_tools import protoc

    out = tmp_path / "set.pb"
    args = ["protoc", f"-I{PROTO_ROOT}", f"-I{resources.files('grpc_tools') / '_proto'}", "--include_source_info",
            f"--descriptor_set_out={out}"] + [str(p.relative_to(PROTO_ROOT)) for p in proto_files()]
    assert protoc.main(args) == 0
    return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _undocumented(file: descriptor_pb2.FileDescriptorProto) -> list[str]:
    comments = {tuple(loc.path): (loc.leading_comments + loc.trailing_comments).strip()
                for loc in file.source_code_info.location}
    missing = []

    def message(m, path, name):
        if not comments.get(path) and not name.endswith("Response"):
            missing.append(f"message {name}")
        for j, f in enumerate(m.field):
            if not comments.get(path + (2, j)):
                missing.append(f"field {name}.{f.name}")
        for k, nested in enumerate(m.nested_type):
            if not nested.options.map_entry:  # the synthetic message of a map<,> field
                message(nested, path + (3, k), f"{name}.{nested.name}")

    for i, m in enumerate(file.message_type):
        message(m, (4, i), m.name)
    for i, s in enumerate(file.service):
        if not comments.get((6, i)):
            missing.append(f"service {s.name}")
        for j, method in enumerate(s.method):
            if not comments.get((6, i, 2, j)):
                missing.append(f"rpc {s.name}.{method.name}")
    return missing


def test_every_service_message_and_field_is_documented(tmp_path):
    missing = {f.name: _undocumented(f) for f in _descriptor_set(tmp_path).file}
    missing = {name: items for name, items in missing.items() if items}
    assert not missing, f"undocumented in the protocol: {missing}"


def test_the_check_finds_an_undocumented_field():
    file = descriptor_pb2.FileDescriptorProto(name="x.proto", message_type=[descriptor_pb2.DescriptorProto(
        name="X", field=[descriptor_pb2.FieldDescriptorProto(name="y", number=1)])])
    assert _undocumented(file) == ["message X", "field X.y"]
