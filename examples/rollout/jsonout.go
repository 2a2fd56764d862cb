package main

import (
	"io"

	"github.com/rolloutmath/rolloutmath/internal/report"
)

// writeJSON prints t as indented JSON for scripts, in the schema
// adapters/kubeapps/cmd/rolloutplan shares (examples/internal/report):
// the deployment, its strategy, every step with its events, the
// controller's path, actions and reasons, the ReplicaSets and the bounds,
// the outcome, and with -f the capacity the rollout needs.
func writeJSON(w io.Writer, t *trace) error {
	return report.Write(w, t)
}
