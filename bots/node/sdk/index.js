'use strict';
/**
 * Write an Arena bot in JavaScript.
 *
 *   const { run } = require('arena-bot');
 *   run({
 *     decide(request, bot) {                 // an arena.v1 DecideRequest, as a plain object
 *       return Math.floor(bot.random() * request.legal_actions.length);   // the index of a legal action
 *     },
 *   });
 *
 * `run` serves the arena.v1 Bot service on the unix socket named by the environment variable ARENA_SOCKET.
 * Messages are plain objects with the .proto's snake_case field names (see proto/arena/v1/arena.proto):
 * `request.thebes` is the Thebes observation, `request.legal_actions[i].text` / `.thebes` each legal action,
 * `request.observation` names the game whose observation is set. 64-bit integers (bot_seed) are strings.
 *
 * Hooks of the policy object, all optional except decide:
 *   start(request, bot)  StartMatch; `bot` then has game, params, seat, players, timeControl and random()
 *   decide(request, bot) returns an index, or the canonical text of a legal action
 *   end(request, bot)    EndMatch: request.seats has every seat's score and rank
 *
 * Debugging: what the bot prints (console.log/console.error) is kept by decision and shown to its owner beside
 * the turn in the replay viewer; `bot.annotate(text)` inside decide attaches a short note (at most 256
 * characters, e.g. the evaluation or plan) to this decision's answer (DecideResponse.annotation). An exception in
 * a hook prints its stack to stderr (the same log) before the referee counts the fault.
 */

const path = require('path');
const grpc = require('./packed').require('@grpc/grpc-js');
const protocol = require('./protocol');

/** proto-loader's package definition of arena.v1 (every message and the service), parsed from the .proto files. */
function loadDefinition() {
  const protoLoader = require('@grpc/proto-loader');  // here only: serving a bot does not need it
  return protoLoader.loadSync(path.join(protocol.PROTO_DIR, protocol.PROTO_FILE),
    { ...protocol.LOAD_OPTIONS, includeDirs: [protocol.PROTO_DIR] });
}

/** The arena.v1 gRPC objects (grpc.loadPackageDefinition), e.g. `loadProtocol().Bot` to make a client. */
function loadProtocol(definition) {
  return grpc.loadPackageDefinition(definition || loadDefinition()).arena.v1;
}

/** A small seeded generator (mulberry32) so a bot's choices replay exactly; returns floats in [0, 1). */
function seededRandom(seed) {
  // fold the decimal 64-bit seed into 32 bits
  let a = 0;
  for (const ch of String(seed)) a = (Math.imul(a, 31) + ch.charCodeAt(0)) >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function choiceMessage(choice) {
  if (typeof choice === 'string') return { text: choice };
  if (choice && typeof choice === 'object' && 'index' in choice) return { index: choice.index };
  if (!Number.isInteger(choice)) throw new Error(`decide() returned ${choice}: expected an index or a text`);
  return { index: choice };
}

/** Start serving `policy` on `socketPath` (default: $ARENA_SOCKET); returns the grpc.Server. */
function serve(policy, socketPath) {
  const where = socketPath || process.env.ARENA_SOCKET;
  if (!where) {
    console.error('ARENA_SOCKET is not set: the referee starts a bot with the path of its socket there');
    process.exit(2);
  }
  const service = protocol.botService();
  // StartMatch's codecs before listening, the others' (Decide's are the big ones) once StartMatch is
  // answered, a type per turn of the event loop so the answer is not held up on its way out: the referee
  // starts every seat before its first Decide (one that comes sooner merely generates its codecs itself, as
  // protobufjs does on first use)
  protocol.warmUp([service.types.StartMatch]);
  let warming = false;
  const warmUpTheRest = () => {
    if (warming) return;
    warming = true;
    protocol.warmUpInTurns(Object.keys(service.types).filter((name) => name !== 'StartMatch')
      .map((name) => service.types[name]));
  };
  let note = '';
  const bot = {
    game: '', params: {}, seat: -1, players: [], timeControl: null, random: seededRandom(0),
    /** Attach `text` to the answer of the decision being decided (the last call wins; max 256 characters). */
    annotate(text) { note = String(text).slice(0, 256); },
  };
  const server = new grpc.Server();
  const handle = (fn) => (call, callback) => {
    try {
      callback(null, fn(call.request));
    } catch (err) {
      console.error(err && err.stack ? err.stack : String(err));  // the owner's log of this turn
      callback({ code: grpc.status.UNKNOWN, details: String(err && err.stack ? err.stack : err) });
    }
  };
  server.addService(service.definition, {
    StartMatch: handle((request) => {
      bot.game = request.game;
      bot.params = JSON.parse(request.params_json || '{}');
      bot.seat = request.seat;
      bot.players = request.players.map((p) => p.name);
      bot.timeControl = request.time_control;
      bot.random = seededRandom(request.bot_seed);
      if (policy.start) policy.start(request, bot);
      warmUpTheRest();
      return {};
    }),
    Decide: handle((request) => {
      note = '';
      const message = choiceMessage(policy.decide(request, bot));
      if (note) message.annotation = note;
      return message;
    }),
    EndMatch: handle((request) => {
      if (policy.end) policy.end(request, bot);
      return {};
    }),
  });
  server.bindAsync(`unix:${where}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) {
      console.error(`cannot listen on ${where}: ${err.message}`);
      process.exit(1);
    }
  });
  return server;
}

/** Serve `policy` until the referee stops the process. */
function run(policy, socketPath) {
  const server = serve(policy, socketPath);
  process.on('SIGTERM', () => server.forceShutdown());
  return server;
}

module.exports = { run, serve, loadProtocol, seededRandom };
