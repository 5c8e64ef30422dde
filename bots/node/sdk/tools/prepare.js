'use strict';
/**
 * The SDK's build step, run once when the Node runtime is built (`arena runtimes install`), in the installed SDK
 * folder with the runtime's node_modules on NODE_PATH:
 *
 *   node tools/prepare.js
 *
 * Makes what spares a bot's start work that gives the same result every time:
 * 1. protocol.json: the arena.v1 .proto files of proto/ parsed once (protobufjs JSON), parsed with
 *    proto-loader's own loader and the SDK's options, so the messages are the ones proto-loader would make;
 * 2. pack/modules.js: the modules that requiring @grpc/grpc-js and protobufjs/light and serving the Bot service
 *    load, in one script, each with the files its requires resolved to (see packed.js);
 * 3. pack/modules.cache: V8's code cache of that script, made after it served once, so it holds the functions a
 *    start compiles. Only valid for the node that made it: the runtime's stamp names the node binary.
 * Steps 2 and 3 run in fresh node processes (`prepare.js pack`, `prepare.js cache`): each must load the modules
 * itself.
 */

const childProcess = require('child_process');
const fs = require('fs');
const Module = require('module');
const os = require('os');
const path = require('path');

const SDK = path.resolve(__dirname, '..');
const ENTRIES = ['@grpc/grpc-js', 'protobufjs/light'];

/** Serve a bot with the SDK's serve() on a scratch socket and play StartMatch, Decide and EndMatch with it
 *  through a grpc-js client, then call done(): loads and runs what a bot's start and first calls run. */
function serveOnce(requireEntry, done) {
  const grpc = requireEntry('@grpc/grpc-js');
  const sdk = require(SDK);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-pack-'));
  const socket = path.join(scratch, 'bot.sock');
  const server = sdk.serve({ decide: () => 0 }, socket);
  const { definition } = require(path.join(SDK, 'protocol')).botService();
  const Client = grpc.makeGenericClientConstructor(definition, 'Bot');
  const client = new Client(`unix:${socket}`, grpc.credentials.createInsecure());
  const finish = (err) => {
    client.close();
    server.forceShutdown();
    fs.rmSync(scratch, { recursive: true, force: true });
    if (err) throw err;
    done();
  };
  const deadline = Date.now() + 10000;
  client.StartMatch({ game: 'thebes', params_json: '{}', seat: 0, players: [{ seat: 0, name: 'a' }] },
    { deadline }, (err) => {
      if (err) return finish(err);
      client.Decide({ legal_actions: [{ text: 'pass' }] }, { deadline }, (err2) => {
        if (err2) return finish(err2);
        client.EndMatch({}, { deadline }, finish);
      });
    });
}

function writeProtocol() {
  const { loadProtosWithOptionsSync } = require('@grpc/proto-loader/build/src/util');
  const { PROTO_DIR, PROTO_FILE, LOAD_OPTIONS, PROTOCOL_JSON } = require(path.join(SDK, 'protocol'));
  const root = loadProtosWithOptionsSync(path.join(PROTO_DIR, PROTO_FILE), { ...LOAD_OPTIONS, includeDirs: [PROTO_DIR] });
  root.resolveAll();
  fs.writeFileSync(PROTOCOL_JSON, JSON.stringify(root.toJSON()));
}

function writePack() {
  const { ROOT, PACK_DIR, SOURCE } = require(path.join(SDK, 'packed'));
  const inPack = (file) => file.startsWith(path.join(ROOT, 'node_modules') + path.sep) &&
    !file.startsWith(SDK + path.sep) && /\.(js|json)$/.test(file);
  const links = new Map();  // module file -> {request: file it resolved to, or the builtin's name}
  // every require a module makes, at Module.prototype.require: Node's loader skips resolving a request its
  // directory has resolved before, so Module._resolveFilename does not see them all
  const moduleRequire = Module.prototype.require;
  Module.prototype.require = function recordingRequire(request) {
    if (this.filename) {
      if (!links.has(this.filename)) links.set(this.filename, {});
      links.get(this.filename)[request] = Module._resolveFilename(request, this, false);
    }
    return moduleRequire.call(this, request);
  };
  const entries = {};
  const requireEntry = (id) => {
    const file = require.resolve(id);
    if (inPack(file)) entries[id] = path.relative(ROOT, file);
    return require(id);
  };
  for (const id of ENTRIES) requireEntry(id);
  serveOnce(requireEntry, () => {
    Module.prototype.require = moduleRequire;
    const parts = ['(function (define) {\n'];
    for (const file of Object.keys(require.cache).filter(inPack).sort()) {
      const rel = {};
      for (const [request, found] of Object.entries(links.get(file) || {})) {
        rel[request] = path.isAbsolute(found) ? (inPack(found) ? path.relative(ROOT, found) : found) : found;
      }
      const source = fs.readFileSync(file, 'utf8');
      const body = file.endsWith('.json') ? `module.exports = ${JSON.stringify(JSON.parse(source))};`
        : source.replace(/^#!.*/, '');
      parts.push(`define(${JSON.stringify(path.relative(ROOT, file))}, ${JSON.stringify(rel)}, `,
        'function (exports, require, module, __filename, __dirname) {', body, '\n});\n');
    }
    parts.push(`return ${JSON.stringify(entries)};\n})`);
    fs.mkdirSync(PACK_DIR, { recursive: true });
    fs.writeFileSync(SOURCE, parts.join(''));
  });
}

function writeCache() {
  const packed = require(path.join(SDK, 'packed'));
  const pack = packed.load();
  if (!pack) throw new Error(`no pack at ${packed.SOURCE}`);
  serveOnce(packed.require, () => fs.writeFileSync(packed.CACHE, pack.script.createCachedData()));
}

function step(name) {
  childProcess.execFileSync(process.execPath, [__filename, name], { stdio: 'inherit' });
}

const mode = process.argv[2];
if (mode === 'pack') writePack();
else if (mode === 'cache') writeCache();
else {
  writeProtocol();
  step('pack');
  step('cache');
}
