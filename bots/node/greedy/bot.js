// Thebes greedy bot: plays the legal action with the most estimated points per week spent, travel included.
// Exhibitions are worth their points; a dig its expected finds from the public bag contents; a card a fixed
// worth (less as the game runs out; congress cards their marginal points). The public rule numbers it needs
// travel with the bot in thebes_rules.json: bots have no network at run time.
const { run } = require('arena-bot');
const RULES = require('./thebes_rules.json');

const CARD_WORTH = { assistant: 1.5, shovel: 1.5, car: 2.0, zeppelin: 1.0, special_permission: 0.8 };
const SPENT_CARD_COST = 0.5;
const TOKEN_WORTH = 1.0;

const congressPoints = (n) => RULES.congress_points[Math.min(n, RULES.congress_points.length - 1)];

function cardGain(me, card) {
  switch (card.kind) {
    case 'specialized_knowledge': return 1.2 * card.value;
    case 'general_knowledge': return 0.8 * card.value;
    case 'rumors': return 1.0;
    case 'congress': return congressPoints(me.congress + 1) - congressPoints(me.congress);
    case 'assistant': return me.assistants >= 3 ? 0 : CARD_WORTH.assistant;
    case 'shovel': return me.shovels >= 3 ? 0 : CARD_WORTH.shovel;
    case 'car': return me.cars ? 0 : CARD_WORTH.car;
    default: return CARD_WORTH[card.kind] ?? 0.5;
  }
}

function digGain(obs, me, act) {
  let spec = (me.books[act.site] || 0) + RULES.assistant_bonus[Math.min(me.assistants, 3)];
  spec += (act.rumors ? 2 : 0) + (act.assistant ? 1 : 0);
  const knowledge = Math.min(spec + Math.min(me.general_knowledge, spec), RULES.knowledge_cap);
  const draws = RULES.wheel[knowledge][act.weeks] + RULES.shovel_bonus[Math.min(me.shovels, 3)] + (act.shovel ? 1 : 0);
  const bag = obs.bags.find((b) => b.site === act.site);
  const worth = bag.artifacts.reduce((a, b) => a + b, 0) + TOKEN_WORTH * (bag.specialized.length + bag.general);
  let gain = bag.size ? (Math.min(draws, bag.size) * worth) / bag.size : 0;
  if (bag.first_dig_bonus) gain += 1.0;
  const spent = [act.rumors, act.assistant, act.shovel, act.permission].filter(Boolean).length;
  return gain - SPENT_CARD_COST * spent;
}

function trip(me, dest, noCar) {
  let d = RULES.distance[me.place][dest];
  if (me.cars && d >= RULES.car_min_segments && !noCar) d -= RULES.car_saves;
  return d;
}

function value(obs, me, act) {
  if (act.kind === 'retire') return 0;
  const late = Math.min(Math.max(RULES.end_time - me.time, 1) / 104.0, 1.0);
  let gain; let weeks; let dest;
  if (act.kind === 'take') {
    const card = obs.display.find((c) => c.id === act.card);
    gain = cardGain(me, card) * (card.kind === 'congress' ? 1 : late);
    weeks = card.weeks; dest = card.city;
  } else if (act.kind === 'exhibit') {
    const card = obs.exhibitions.find((x) => x.id === act.card);
    gain = card.points; weeks = card.weeks; dest = card.city;
  } else if (act.kind === 'exchange') {
    gain = 0.2; weeks = 1 + (obs.exchange_run_seat === me.seat ? obs.exchange_run_count : 0); dest = 'warsaw';
  } else {
    gain = digGain(obs, me, act); weeks = act.weeks; dest = RULES.site_place[act.site];
  }
  let travel;
  if (act.zeppelin) { travel = 0; gain -= SPENT_CARD_COST; } else { travel = trip(me, dest, act.no_car); }
  return gain / (travel + weeks);
}

run({
  decide(request) {
    const obs = request.thebes;
    const me = obs.seats[obs.current_player];
    let best = 0; let bestValue = -Infinity;
    request.legal_actions.forEach((legal, i) => {
      const v = value(obs, me, legal.thebes);
      if (v > bestValue) { best = i; bestValue = v; }  // ties: the first in legal order
    });
    return best;
  },
});
