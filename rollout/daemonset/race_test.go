//go:build race

package daemonset

// raceEnabled is true under the race detector, whose instrumentation
// changes what allocates, so allocation counts mean nothing there.
const raceEnabled = true
