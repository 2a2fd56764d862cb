package main

import (
	"encoding/json"
	"io"
)

// writeJSON prints t as indented JSON for scripts: the deployment, its
// strategy, every step with its events, the controller's path, actions
// and reasons, the ReplicaSets and the bounds, and the outcome.
func writeJSON(w io.Writer, t *trace) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "->" readable
	return enc.Encode(t)
}
