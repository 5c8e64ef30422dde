// Plays a uniformly random legal action of any game (seeded by the referee, so a replayed match plays the same).
const { run } = require('arena-bot');

run({
  decide(request, bot) {
    return Math.floor(bot.random() * request.legal_actions.length);
  },
});
