// A random Arena bot in C++: plays a uniformly random legal action (any game).
#include "arena_bot.hpp"

struct RandomBot : arena::Bot {
  int decide(const arena::v1::DecideRequest& request) override {
    return random_index(request.legal_actions_size());
  }
};

int main() {
  RandomBot bot;
  return arena::run(bot);
}
