//go:build race

package statefulset

const raceEnabled = true
