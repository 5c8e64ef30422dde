// A random Arena bot in Go: plays a uniformly random legal action (any game).
package main

import (
	arenav1 "arena/v1"

	"arena/arenabot"
)

type randomBot struct{}

func (randomBot) Decide(req *arenav1.DecideRequest, m *arenabot.Match) (int, error) {
	return m.Rand.Intn(len(req.LegalActions)), nil
}

func main() { arenabot.Run(randomBot{}) }
