// arena_bot.hpp: the Arena C++ bot SDK, header only, over grpc++ (Debian's libgrpc++-dev).
//
// A bot derives from arena::Bot, overrides decide() (and start()/end() if it wants them) and calls
// arena::run(bot) from main(). run() serves the arena.v1.Bot gRPC service on the unix socket named by the
// environment variable ARENA_SOCKET until the referee stops the process. The protocol, every field documented,
// is in proto/arena/v1/arena.proto; the generated C++ code (arena/v1/*.pb.h) is made at build time from the
// .proto files of the kit's proto/ folder (the kit is bound at /runtime in the build: see arena.mk).
//
//     #include "arena_bot.hpp"
//     struct RandomBot : arena::Bot {
//       int decide(const arena::v1::DecideRequest& request) override {
//         return random_index(request.legal_actions_size());
//       }
//     };
//     int main() { RandomBot bot; return arena::run(bot); }
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/arena.pb.h"

namespace arena {

// One bot for one match. The SDK fills the public fields from StartMatch before the first decide().
class Bot {
 public:
  virtual ~Bot() = default;

  // Called once before the first decision; the fields below are already set.
  virtual void start(const v1::StartMatchRequest& request) { (void)request; }
  // Called for each of this seat's decisions: return an index into request.legal_actions().
  virtual int decide(const v1::DecideRequest& request) = 0;
  // Called once with the final result.
  virtual void end(const v1::EndMatchRequest& request) { (void)request; }

  // Attach a short note to the answer of the decision being decided (DecideResponse.annotation: at most 256
  // characters, e.g. the evaluation or plan), shown to the bot's owner on this turn in the replay viewer. What the
  // bot prints on stdout/stderr is kept by decision too (flush it: std::endl or std::fflush).
  void annotate(const std::string& text) { annotation = text.substr(0, 256); }
  std::string annotation;            // set by annotate(); cleared before each decide()

  // A uniformly random integer in [0, n), from the referee's per-seat seed (replays play out the same).
  int random_index(int n) { return n <= 1 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng); }

  std::string game;                  // "thebes" or "minos"
  std::string params_json;           // the game's parameters as JSON, e.g. {"players": 4}
  int seat = 0;                      // this bot's seat, 0-based
  std::vector<std::string> players;  // every seat's bot name, in seat order
  v1::TimeControl time_control;      // the clock of the match
  std::mt19937_64 rng{0};            // seeded with StartMatchRequest.bot_seed
};

namespace detail {

// The gRPC service: calls come one at a time from the referee, the mutex only guards against a confused client.
class Service final : public v1::Bot::Service {
 public:
  explicit Service(arena::Bot& bot) : bot_(bot) {}

  grpc::Status StartMatch(grpc::ServerContext*, const v1::StartMatchRequest* request,
                          v1::StartMatchResponse*) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bot_.game = request->game();
    bot_.params_json = request->params_json();
    bot_.seat = static_cast<int>(request->seat());
    bot_.players.clear();
    for (const auto& p : request->players()) bot_.players.push_back(p.name());
    bot_.time_control = request->time_control();
    bot_.rng.seed(request->bot_seed());
    return guarded([&] { bot_.start(*request); });
  }

  grpc::Status Decide(grpc::ServerContext*, const v1::DecideRequest* request,
                      v1::DecideResponse* response) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bot_.annotation.clear();
    return guarded([&] {
      response->set_index(static_cast<uint32_t>(bot_.decide(*request)));
      if (!bot_.annotation.empty()) response->set_annotation(bot_.annotation);
    });
  }

  grpc::Status EndMatch(grpc::ServerContext*, const v1::EndMatchRequest* request,
                        v1::EndMatchResponse*) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return guarded([&] { bot_.end(*request); });
  }

 private:
  // An exception in the bot's code becomes an error status (a fault the referee reports with this text), and is
  // printed on stderr, which `arena bot check` shows.
  template <class F>
  grpc::Status guarded(F f) {
    try {
      f();
      return grpc::Status::OK;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "arena_bot: exception in the bot: %s\n", e.what());
      return grpc::Status(grpc::StatusCode::INTERNAL, e.what());
    } catch (...) {
      std::fprintf(stderr, "arena_bot: unknown exception in the bot\n");
      return grpc::Status(grpc::StatusCode::INTERNAL, "unknown exception in the bot");
    }
  }

  arena::Bot& bot_;
  std::mutex mutex_;
};

}  // namespace detail

// Serve `bot` on unix:$ARENA_SOCKET until the process is stopped. Returns 2 (with a message on stderr) when
// ARENA_SOCKET is not set or the socket cannot be opened.
inline int run(Bot& bot) {
  const char* socket = std::getenv("ARENA_SOCKET");
  if (socket == nullptr || *socket == '\0') {
    std::fprintf(stderr, "arena_bot: ARENA_SOCKET is not set (the referee sets it to the unix socket to serve)\n");
    return 2;
  }
  detail::Service service(bot);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(std::string("unix:") + socket, grpc::InsecureServerCredentials());
  builder.RegisterService(&service);
  // Few threads: the referee makes one call at a time, and the sandbox limits the bot's processes and threads.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 2);
  builder.SetMaxReceiveMessageSize(16 * 1024 * 1024);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "arena_bot: could not serve on unix:%s\n", socket);
    return 2;
  }
  server->Wait();
  return 0;
}

}  // namespace arena
