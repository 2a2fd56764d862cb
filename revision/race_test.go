//go:build race

package revision

// raceEnabled is true under the race detector, which makes sync.Pool drop
// items at random, so allocation counts mean nothing there.
const raceEnabled = true
