package main

import (
	"encoding/json"
	"io"
)

// writeJSON prints t as indented JSON for scripts: the deployment, its
// strategy, every step with its events, reasons, ReplicaSets and bounds,
// and the outcome.
func writeJSON(w io.Writer, t *trace) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}
