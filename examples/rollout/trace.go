package main

import "github.com/rolloutmath/rolloutmath/internal/report"

// trace is a finished rollout as this program prints and draws it, in the
// JSON shape adapters/kubeapps/cmd/rolloutplan shares (see
// examples/internal/report). It is built from the simulator's result (see
// simulate.go), so the table printer, the JSON output and the chart do
// not depend on how the simulator shapes its own types.
type (
	trace = report.Trace
	step  = report.Step
	rsRow = report.ReplicaSet
)
