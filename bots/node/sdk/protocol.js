'use strict';
/**
 * The arena.v1 protocol as the SDK serves it: the Bot service definition grpc-js takes (`addService`), made
 * from protobufjs reflection types.
 *
 * The runtime build (tools/prepare.js) parses the .proto files once into protocol.json; a bot loads that with
 * protobufjs/light, which spares every start requiring @grpc/proto-loader with the full .proto parser and
 * parsing three .proto files (about 140 ms together). Without protocol.json (the SDK used outside a built
 * runtime) the .proto files are parsed as before. Either way the codecs are proto-loader's: messages are plain
 * objects converted with the same options (snake_case names, 64-bit integers and enums as strings, defaults,
 * oneof names).
 */

const fs = require('fs');
const path = require('path');

const PROTO_DIR = path.join(__dirname, 'proto');
const PROTO_FILE = path.join('arena', 'v1', 'arena.proto');
const PROTOCOL_JSON = path.join(__dirname, 'protocol.json');
const SERVICE = 'arena.v1.Bot';

const LOAD_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

/** The protobufjs Root of arena.v1, resolved. */
function loadRoot() {
  let json;
  try {
    json = fs.readFileSync(PROTOCOL_JSON, 'utf8');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    const { loadProtosWithOptionsSync } = require('@grpc/proto-loader/build/src/util');
    const root = loadProtosWithOptionsSync(path.join(PROTO_DIR, PROTO_FILE), { ...LOAD_OPTIONS, includeDirs: [PROTO_DIR] });
    root.resolveAll();
    return root;
  }
  const protobuf = require('./packed').require('protobufjs/light');
  const root = protobuf.Root.fromJSON(JSON.parse(json));
  root.resolveAll();
  return root;
}

// The two codecs are proto-loader's createSerializer / createDeserializer.
function serializer(type) {
  return function serialize(object) {
    if (Array.isArray(object)) {
      throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    }
    return type.encode(type.fromObject(object)).finish();
  };
}

function deserializer(type) {
  return function deserialize(buffer) {
    return type.toObject(type.decode(buffer), LOAD_OPTIONS);
  };
}

/** The Bot service as grpc-js's ServiceDefinition (what proto-loader's package definition holds for it), and
 *  the protobufjs types of its messages: method name -> [request type, response type]. */
function botService(root = loadRoot()) {
  const service = root.lookupService(SERVICE);
  const definition = {};
  const types = {};
  for (const method of service.methodsArray) {
    const request = method.resolvedRequestType;
    const response = method.resolvedResponseType;
    types[method.name] = [request, response];
    definition[method.name] = {
      path: `/${SERVICE}/${method.name}`,
      requestStream: !!method.requestStream,
      responseStream: !!method.responseStream,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
      // proto-loader's lodash camelCase of the method name; the names of arena.v1 are single PascalCase words
      originalName: method.name[0].toLowerCase() + method.name.slice(1),
    };
  }
  return { definition, types };
}

/** Every message type of `types` and the messages nested in their fields, each once. */
function reachable(types) {
  const found = new Set();
  const visit = (type) => {
    if (found.has(type)) return;
    found.add(type);
    for (const field of type.fieldsArray) {
      if (field.resolvedType && field.resolvedType.fieldsArray) visit(field.resolvedType);
    }
  };
  types.forEach(visit);
  return [...found];
}

/** protobufjs generates a type's encoder, decoder and converters on their first call, which otherwise costs
 *  the first call that meets the type (~15 ms for a Thebes Decide): the steps of serving a call, run once with
 *  an empty message on every type concerned (each nested type has its own). A server only reads requests
 *  (decode, toObject) and writes responses (fromObject, encode). */
function warmSteps(methods) {
  const steps = [];
  for (const [request, response] of methods) {
    for (const type of reachable([request])) steps.push(() => type.toObject(type.decode(EMPTY), LOAD_OPTIONS));
    for (const type of reachable([response])) steps.push(() => type.encode(type.fromObject({})).finish());
  }
  return steps;
}

const EMPTY = new Uint8Array(0);

/** Warm up the serving of `methods` ([request type, response type] pairs) now. */
function warmUp(methods) {
  for (const step of warmSteps(methods)) step();
}

/** Warm up the serving of `methods` one type per turn of the event loop (each takes a millisecond or so), so
 *  that a call being answered meanwhile is held up by one type at most. */
function warmUpInTurns(methods) {
  const steps = warmSteps(methods);
  const next = () => {
    const step = steps.shift();
    if (step === undefined) return;
    step();
    setImmediate(next);
  };
  setImmediate(next);
}

module.exports = { PROTO_DIR, PROTO_FILE, PROTOCOL_JSON, LOAD_OPTIONS, loadRoot, botService, warmUp, warmUpInTurns };
