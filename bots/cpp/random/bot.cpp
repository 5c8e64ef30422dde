// A random Arena bot in C++: plays a uniformly random legal action (any game).
#include <string>

#include "arena_bot.hpp"

struct RandomBot : arena::Bot {
  int decide(const arena::v1::DecideRequest& request) override {
    const int n = request.legal_actions_size();
    // a note for the bot's owner on this turn in the replay viewer (DecideResponse.annotation)
    annotate("random among " + std::to_string(n) + " legal actions");
    return random_index(n);
  }
};

int main() {
  RandomBot bot;
  return arena::run(bot);
}
