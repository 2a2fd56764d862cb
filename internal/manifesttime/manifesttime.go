// Package manifesttime finds the instant a set of Kubernetes manifests
// describes, for the planning programs (adapters/kruiseapps/cmd/clonesetplan,
// adapters/kubeapps/cmd/rolloutplan, examples/rollout): the latest time
// the API server or the kubelet wrote into them. A simulation that starts
// there sees the objects as they were when they were read (kubectl get -o
// yaml), rather than at a fixed instant that may lie before them.
//
// The programs take "now" from [Latest] unless the user gives one with
// --now, read by [Parse].
package manifesttime

import (
	"encoding/json"
	"fmt"
	"time"
)

// Fields names the timestamps [Latest] reads, as the -h texts and READMEs
// list them. Every field of these names counts, wherever it is in an
// object (metadata, status conditions, container states), except "time",
// which counts only inside metadata.managedFields.
// metadata.deletionTimestamp is left out: it is the end of a pod's grace
// period, which lies in the future while the pod terminates.
var Fields = []string{
	"metadata.creationTimestamp",
	"metadata.managedFields[].time",
	"status.conditions[].lastTransitionTime",
	"status.conditions[].lastUpdateTime",
	"status.conditions[].lastProbeTime",
	"status.startTime",
	"status.containerStatuses[].state.*.startedAt",
	"status.containerStatuses[].state.terminated.finishedAt",
}

// keys are the JSON keys of Fields, besides "time".
var keys = map[string]bool{
	"creationTimestamp":  true,
	"lastTransitionTime": true,
	"lastUpdateTime":     true,
	"lastProbeTime":      true,
	"startTime":          true,
	"startedAt":          true,
	"finishedAt":         true,
}

// Latest returns the latest of the timestamps named by [Fields] in objs,
// each an API object (a typed struct or a map) that encoding/json can
// encode; ok is false when none holds one. Values that are not RFC 3339
// strings (null, a hand-written number) are skipped. Error: an object
// encoding/json cannot encode; t and ok are then zero.
func Latest(objs ...any) (t time.Time, ok bool, err error) {
	for i, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			return time.Time{}, false, fmt.Errorf("manifesttime: object %d: %w", i, err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return time.Time{}, false, fmt.Errorf("manifesttime: object %d: %w", i, err)
		}
		walk(v, false, &t, &ok)
	}
	return t, ok, nil
}

// walk visits v, raising *t to every timestamp of Fields it holds;
// managed is set inside metadata.managedFields.
func walk(v any, managed bool, t *time.Time, ok *bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, isString := x.(string); isString && (keys[k] || managed && k == "time") {
				if at, err := time.Parse(time.RFC3339, s); err == nil && (!*ok || at.After(*t)) {
					*t, *ok = at.UTC(), true
				}
				continue
			}
			walk(x, managed || k == "managedFields", t, ok)
		}
	case []any:
		for _, x := range v {
			walk(x, managed, t, ok)
		}
	}
}

// Parse reads the value of a --now flag: an RFC 3339 time such as
// 2026-11-20T09:30:00Z, returned in UTC. The error names the flag and
// quotes s.
func Parse(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: want an RFC 3339 time such as 2026-11-20T09:30:00Z", s)
	}
	return t.UTC(), nil
}
