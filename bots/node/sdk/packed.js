'use strict';
/**
 * The SDK's libraries (@grpc/grpc-js, protobufjs/light) loaded from the runtime's pack instead of file by file.
 *
 * Requiring grpc-js and protobufjs the ordinary way reads, resolves and compiles about a hundred files at every
 * bot start (some 40 ms of CPU, of the ~60 ms requiring them takes). The runtime build (tools/prepare.js) packs
 * those modules into one script, pack/modules.js, with each module's resolved requires, and a V8 code cache of
 * that script made after it served a bot (pack/modules.cache), so a start reads two files and compiles almost
 * nothing (a cache V8 rejects, e.g. made by another node, only costs the compiling). The modules run exactly as Node
 * would run them: the same sources, real `Module` objects registered in require.cache under their real file
 * names (a later ordinary require of the same file gets the same instance), and any require the pack did not
 * record goes to Node's own require from that module.
 *
 * Without a pack (the SDK used outside a built runtime) `packed.require` is the ordinary require.
 */

const fs = require('fs');
const Module = require('module');
const path = require('path');
const vm = require('vm');

// the runtime's root: this file is <root>/node_modules/arena-bot/packed.js
const ROOT = path.resolve(__dirname, '..', '..');
const PACK_DIR = path.join(__dirname, 'pack');
const SOURCE = path.join(PACK_DIR, 'modules.js');
const CACHE = path.join(PACK_DIR, 'modules.cache');

let pack;  // {entries: id -> file, script} once loaded; null when there is none

function load() {
  if (pack !== undefined) return pack;
  pack = null;
  let source;
  try {
    source = fs.readFileSync(SOURCE, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return pack;
    throw err;
  }
  let cachedData;
  try {
    cachedData = fs.readFileSync(CACHE);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  const script = new vm.Script(source, { filename: SOURCE, cachedData });
  const modules = new Map();  // file (relative to ROOT) -> [links, factory]
  const entries = script.runInThisContext()((file, links, factory) => modules.set(file, [links, factory]));

  function moduleOf(file) {
    const filename = path.join(ROOT, file);
    const cached = Module._cache[filename];
    if (cached) return cached.exports;
    const [links, factory] = modules.get(file);
    const module = new Module(filename, null);
    module.filename = filename;
    module.paths = Module._nodeModulePaths(path.dirname(filename));
    let ordinary;  // Node's require from this module, made when first needed
    const fallback = (request) => (ordinary || (ordinary = Module.createRequire(filename)))(request);
    const localRequire = (request) => {
      const target = links[request];
      if (target === undefined) return fallback(request);      // not seen when packing (e.g. an optional module)
      if (modules.has(target)) return moduleOf(target);
      return Module.isBuiltin(target) ? require(target) : fallback(target);   // a builtin, or a file not packed
    };
    localRequire.resolve = (request, options) => Module.createRequire(filename).resolve(request, options);
    localRequire.cache = Module._cache;
    localRequire.main = require.main;
    Module._cache[filename] = module;
    try {
      factory.call(module.exports, module.exports, localRequire, module, filename, path.dirname(filename));
    } catch (err) {
      delete Module._cache[filename];
      throw err;
    }
    module.loaded = true;
    return module.exports;
  }

  pack = { entries, moduleOf, script, cacheRejected: Boolean(cachedData && script.cachedDataRejected) };
  return pack;
}

/** Module `id` ("@grpc/grpc-js" or "protobufjs/light"): from the pack when the runtime has one. */
function packedRequire(id) {
  const loaded = load();
  if (loaded && loaded.entries[id] !== undefined) return loaded.moduleOf(loaded.entries[id]);
  return require(id);
}

module.exports = { require: packedRequire, load, ROOT, PACK_DIR, SOURCE, CACHE };
