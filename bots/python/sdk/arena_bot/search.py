"""A search bot for Thebes and Minos: Monte Carlo search over determinizations with the referee's own engine.

Two searches, chosen per game by measurement (`bench/search_bots.py`, `--set THEBES_METHOD=tree`):

- Thebes: paired flat Monte Carlo (`search_flat`). The greedy ranks the legal actions and the `ROOT_WIDTH` best
  race: each round samples one determinization and one rollout seed and plays every candidate still in the race
  from that same sample with that same seed (common random numbers), so candidates are compared on the same luck;
  a candidate significantly behind the leader (paired difference, `PRUNE_Z` standard errors) leaves the race.
  Thebes' luck (deck order, bag draws) dwarfs the differences between good moves; the tree below, spreading its
  few hundred iterations over opponent replies on independent samples, was level with greedy at 0.1 s (-26 Elo
  in 40 games) where the paired race was +89 — and +200 or more with 0.3 s (bots/README.md has the figures).
- Minos: the tree (information-set MCTS), which beats the greedy bot by a wide margin already at 0.1 s.

The tree: each iteration samples a full game state consistent with what this seat knows (`arena_bot.forward.Sampler`,
the referee's own engine), walks one shared tree of action texts from the decision (only the actions legal in
that sample count as available: SO-ISMCTS, Cowling, Powley & Whitehouse 2012), expands one action, plays the
sample out with the rollout policy and backs up every seat's reward; each seat chooses in the tree by its own
reward (max^n). The answer is the most visited root action.

- Candidates and priors: a node considers the `WIDTH` best actions by a heuristic (Thebes offers 50+ digs and
  trips a turn, too many for a few hundred iterations), with a progressive bias towards the heuristic's
  favourite that fades as visits accumulate: with little time the bot plays like the heuristic, with more it
  follows the rollouts. At the decision itself Thebes ranks by the engine's greedy policy on the request's
  observation (`arena.games.thebes.policies`), deeper by `ThebesRollout`'s estimate read from the state; Minos by
  the engine's greedy text scores.
- Rollouts: Thebes plays `ThebesRollout` (points per week, lightly perturbed) to the end of the game (~1 ms);
  Minos plays `MinosRollout` (the greedy text scores with 30 % random moves) for `MINOS_ROLLOUT_DECISIONS`
  decisions and scores the position by its VP (a whole Minos game is 250+ decisions). Chosen by
  `bench/search_bots.py --set ...`. Both are the engine's own, compiled with it (`arena.games.<game>.rollout`).
- Reward: half the seat's place among the competitors ((competitors - rank) / (competitors - 1), Minos solo:
  beating Rhadamanthus), half its score margin over the best other (tanh of margin / 20), so the search still
  prefers more points when the ranking looks settled.
- Time: `--think` seconds of search per decision at most, never more than 75 % of the decision's own time plus
  a 1/25 share of the bank (`request.time_left`), less a margin for the call itself.

The built-in bots `bots/python/mcts-level1..3` run `main()` with different `--think` (their bot.toml): level 1
0.1 s, level 2 0.3 s, level 3 1 s. Any Python bot may use it the same way (`from arena_bot.search import main`).
"""

from __future__ import annotations

import argparse
import math
import random
import time
import traceback

from arena_bot import Bot, run
from arena_bot.forward import Sampler, game_for
from arena_bot.rollout import MinosRollout, ThebesRollout

EXPLORATION = 0.7
MARGIN_S = 0.06  # the call, the protobuf conversion and the sandbox's clock: time not spent searching
BANK_SHARE = 25
SCORE_WEIGHT = 0.5
WIDTH = 6
PRIOR_WEIGHT = 2.0
MINOS_ROLLOUT_DECISIONS = 40
GREEDY_RANDOM_SHARE = 0.3
THEBES_RANDOM_SHARE = 0.0
ROLLOUT_NOISE = 0.05
# "flat" (paired flat Monte Carlo at the decision) or "tree" (SO-ISMCTS), per game, chosen by bench/search_bots.py
# (--set THEBES_METHOD=tree): in Thebes the tree at 0.1 s was level with greedy (-26 Elo) and flat +89
THEBES_METHOD = "flat"
MINOS_METHOD = "tree"
ROOT_WIDTH = 8  # flat: the candidates at the decision, the greedy's best first
FAMILY_WIDTH = 3  # flat, Thebes: at most this many variants (weeks, cards spent) of one dig or card among them
PRUNE_EVERY = 8
PRUNE_Z = 2.5


def _family(action) -> tuple[int, int, int]:
    """Thebes actions that differ only in a dig's weeks or the cards spent on it (or in flying to a card): one
    family. The greedy's best dozen are often one dig at six lengths; a race among them decides little."""
    return action.kind, action.site, action.card


def diverse(ranked: list[int], families: list, per_family: int = 0) -> list[int]:
    """`ranked` (best first) reordered so that at most `per_family` (default `FAMILY_WIDTH`) members of a family
    come before the rest: the candidates cover different plans, each with its best variants."""
    limit = per_family or FAMILY_WIDTH
    seen: dict = {}
    first, later = [], []
    for i in ranked:
        n = seen[families[i]] = seen.get(families[i], 0) + 1
        (first if n <= limit else later).append(i)
    return first + later


class Node:
    __slots__ = ("avail", "children", "totals", "visits")

    def __init__(self, seats: int):
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats


def rewards(state, seats: int) -> list[float]:
    """Each seat's reward in [0, 1]: its place among the competitors, and a little for its score margin."""
    scores = state.scores()
    opponent_vp = None
    bot = getattr(state, "bot", None)  # Minos solo: Rhadamanthus' VP is the score to beat
    if isinstance(bot, dict):
        opponent_vp = float(bot["vp"])
    if seats == 1:
        margin = scores[0] - (opponent_vp or 0.0)
        win = 1.0 if margin > 0 else 0.0
        return [(1 - SCORE_WEIGHT) * win + SCORE_WEIGHT * (0.5 + 0.5 * math.tanh(margin / 20))]
    order = sorted(scores, reverse=True)
    out = []
    for s in range(seats):
        better = sum(1 for x in order if x > scores[s])
        ties = order.count(scores[s]) - 1
        place = 1 - (better + ties / 2) / (seats - 1)
        best_other = max(scores[:s] + scores[s + 1:])
        out.append((1 - SCORE_WEIGHT) * place + SCORE_WEIGHT * (0.5 + 0.5 * math.tanh((scores[s] - best_other) / 20)))
    return out


class SearchBot(Bot):
    def __init__(self, think: float, rollout_decisions: int | None = None, iterations: int | None = None):
        super().__init__()
        self.think = think
        self.iteration_cap = iterations  # a fixed number of rollouts a decision instead of the clock (benchmarks)
        self._evaluate = None
        self.rollout_decisions = rollout_decisions
        self.iterations = 0  # of the last decision (benchmarks read it)
        self._greedy = None
        self._thebes = None
        self._minos = None
        self._root = None

    def start(self, request):
        super().start(request)
        if self.game == "thebes":
            self._thebes = ThebesRollout(noise=ROLLOUT_NOISE)
        if self.game == "minos":
            from arena.games.minos.rollout import text_score  # scores action texts: cheap enough for rollouts

            self._greedy = text_score
            self._minos = MinosRollout(random_share=GREEDY_RANDOM_SHARE)
            if self.rollout_decisions is None:
                self.rollout_decisions = MINOS_ROLLOUT_DECISIONS

    def budget(self, request) -> float:
        left = request.time_left
        allowed = 0.75 * left.decision_ms / 1000 + left.bank_ms / 1000 / BANK_SHARE - MARGIN_S
        return max(0.005, min(self.think, allowed))

    def decide(self, request):
        if len(request.legal_actions) == 1:
            return 0
        try:
            return self.search(request)
        except Exception:  # noqa: BLE001 - a position the forward model cannot rebuild must not cost a fault
            traceback.print_exc()  # kept in the match log for the bot's owner
            return 0

    def search(self, request) -> str:
        # the referee charges the CPU a bot was given, not the wall clock (bots/README.md, "Time and faults"):
        # thinking by the process's CPU time makes the bot as strong on a busy worker as on a quiet one
        started = time.process_time()
        deadline = started + self.budget(request)
        sampler = Sampler(request, game_for(self.game, self.params) if self.game else None)
        if (THEBES_METHOD if self.game == "thebes" else MINOS_METHOD) == "flat":
            return self.search_flat(request, sampler, deadline)
        seats = sampler.game.players
        root = Node(seats)
        rng = self.rng
        self._root = self.root_candidates(sampler)
        iterations = 0
        cap = self.iteration_cap
        while iterations == 0 or (iterations < cap if cap is not None else time.process_time() < deadline):
            self.iterate(root, sampler.sample(rng), seats, rng)
            iterations += 1
        self.iterations = iterations
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].totals[request.seat]))[0]
        return best

    def search_flat(self, request, sampler, deadline: float) -> str:
        """Paired flat Monte Carlo: each round draws one determinization and one rollout seed, and plays every
        candidate still in the race from that same sample with that same seed (common random numbers: the
        deck order, the bags' draws and the rollout's noise are shared as far as the lines stay alike), so the
        candidates are compared on the same luck and the difference of their means has a far smaller variance
        than independent rollouts give. Every `PRUNE_EVERY` rounds a candidate whose paired deficit to the
        leader exceeds `PRUNE_Z` standard errors leaves the race, so the time goes to the close calls."""
        seat = request.seat
        seats = sampler.game.players
        rng = self.rng
        first = sampler.sample(rng)
        legal = first.legal_actions()
        order, priors = self.root_candidates(sampler, first, ROOT_WIDTH)
        if len(order) == 1:
            self.iterations = 0
            return str(legal[order[0]])
        results: dict[int, list[float]] = {i: [] for i in order}
        alive = list(order)
        iterations = rounds = 0
        state = first
        while True:
            seed = rng.getrandbits(32)
            actions = state.legal_actions()
            for i in alive:
                branch = state.clone()
                branch.apply(actions[i])
                self.rollout(branch, random.Random(seed))
                results[i].append(self.reward(branch, seats)[seat])
                iterations += 1
            rounds += 1
            if self.iteration_cap is not None:
                if iterations >= self.iteration_cap:
                    break
            elif time.process_time() >= deadline:
                break
            if rounds % PRUNE_EVERY == 0 and len(alive) > 1:
                alive = self.prune(alive, results, rounds)
                if len(alive) == 1:  # the race is decided: answer now rather than spend the rest of the time
                    break
            state = sampler.sample(rng)
        self.iterations = iterations
        bias = {i: PRIOR_WEIGHT * p for i, p in zip(order, priors)}
        n = min(len(results[i]) for i in alive)
        best = max(alive, key=lambda i: sum(results[i][:n]) / n + bias[i] / (n + 1))
        return str(legal[best])

    @staticmethod
    def prune(alive: list[int], results: dict[int, list[float]], rounds: int) -> list[int]:
        """The candidates whose paired mean difference to the leader is not significantly negative."""
        leader = max(alive, key=lambda i: sum(results[i]) / len(results[i]))
        lead = results[leader]
        keep = []
        for i in alive:
            if i == leader:
                keep.append(i)
                continue
            diffs = [a - b for a, b in zip(results[i], lead)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
            se = math.sqrt(var / n) if var > 0 else 1e-9
            if mean > -PRUNE_Z * se:
                keep.append(i)
        return keep

    def reward(self, state, seats: int) -> list[float]:
        if not state.is_terminal() and self._evaluate is not None:
            return self._evaluate(state, seats)
        return rewards(state, seats)

    def iterate(self, root: Node, state, seats: int, rng: random.Random) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            player = state.current_player()
            if node is root and self._root is not None:
                everything = state.legal_actions()
                legal, priors = [everything[i] for i in self._root[0]], self._root[1]
            else:
                legal, priors = self.candidates(state)
            untried = None
            best, best_value = None, -1.0
            for action, prior in zip(legal, priors):
                child = node.children.get(str(action))
                if child is None:
                    if untried is None:
                        untried = action  # the best untried one by the heuristic
                    continue
                child.avail += 1
                visits = child.visits
                # UCB1 over the times the action was available, plus a progressive bias towards the heuristic
                # that fades as visits accumulate (Chaslot et al. 2008): with few iterations the search plays
                # like the heuristic, with many like the rollouts' verdict
                value = (child.totals[player] / visits + EXPLORATION * math.sqrt(math.log(child.avail) / visits)
                         + PRIOR_WEIGHT * prior / (visits + 1))
                if value > best_value:
                    best, best_value = action, value
            if untried is not None:
                action = untried
                child = node.children[str(action)] = Node(seats)
                child.avail = 1
                state.apply(action)
                path.append(child)
                break
            state.apply(best)
            node = node.children[str(best)]
            path.append(node)
        self.rollout(state, rng)
        reward = rewards(state, seats)
        for n in path:
            n.visits += 1
            totals = n.totals
            for s in range(seats):
                totals[s] += reward[s]

    def root_candidates(self, sampler, state=None, width: int = 0) -> tuple[list[int], list[float]] | None:
        """At the decision itself: the `width` (default `WIDTH`) best legal actions (their indices) with priors,
        ranked by the engine's greedy policy on the request's observation (Thebes: better informed than the
        rollout heuristic, and affordable once a decision; Minos: the greedy text scores). Every sample has the
        request's legal actions, in its order."""
        if state is None:
            if self.game != "thebes":
                return None
            state = sampler.sample(random.Random(0))
        legal = state.legal_actions()
        if self.game == "thebes":
            from arena.games.thebes.policies import GreedyPolicy
            obs = sampler.observation
            me = obs["seats"][obs["current_player"]]
            values = [GreedyPolicy().value(obs, me, a.to_dict()) for a in legal]
        elif self._greedy is not None:
            values = [self._greedy(str(a)) for a in legal]
        else:
            values = [0.0] * len(legal)
        ranked = sorted(range(len(legal)), key=lambda i: -values[i])
        if self.game == "thebes" and width:
            ranked = diverse(ranked, [_family(legal[i]) for i in range(len(legal))])
        order = ranked[:width or WIDTH]
        top, low = values[order[0]], values[order[-1]]
        span = top - low
        return order, [(values[i] - low) / span if span > 0 else 1.0 for i in order]

    def candidates(self, state) -> tuple[list, list[float]]:
        """The actions the tree considers, best first by the rollout heuristic, with their prior in [0, 1]
        (the heuristic's value scaled to the best one): the `WIDTH` best, since Thebes offers 50+ digs and trips
        a turn and a few hundred iterations cannot tell them apart, while the heuristic ranks them well."""
        legal = state.legal_actions()
        if self._thebes is not None:
            values = self._thebes.values(state, legal)
        elif self._greedy is not None:
            values = [self._greedy(str(a)) for a in legal]
        else:
            return legal, [0.0] * len(legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])[:WIDTH]
        top, low = values[order[0]], values[order[-1]]
        span = top - low
        return [legal[i] for i in order], [(values[i] - low) / span if span > 0 else 1.0 for i in order]

    def rollout(self, state, rng: random.Random) -> None:
        """Play `state` on with the game's rollout policy (`arena_bot.rollout`: the whole loop in the compiled
        engine) to the end, or for `rollout_decisions`; uniformly random moves for a game without one."""
        limit = self.rollout_decisions
        rand = rng.random
        if self._thebes is not None:
            self._thebes.playout(state, rand, -1 if limit is None else limit, THEBES_RANDOM_SHARE)
            return
        if self._minos is not None:
            self._minos.playout(state, rand, -1 if limit is None else limit)
            return
        k = 0
        while not state.is_terminal() and (limit is None or k < limit):
            legal = state.legal_actions()
            state.apply(legal[int(rand() * len(legal))])  # random() is ~3x cheaper than randrange()
            k += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=0.1, help="seconds of search per decision at most")
    args = parser.parse_args()
    run(SearchBot(args.think))


if __name__ == "__main__":
    main()
