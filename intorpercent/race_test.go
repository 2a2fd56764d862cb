//go:build race

package intorpercent

// raceEnabled is true under the race detector, whose instrumentation
// changes what allocates (sync.Pool drops items at random, for one), so
// allocation counts mean nothing there.
const raceEnabled = true
