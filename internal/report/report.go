// Package report is the JSON shape in which the example programs
// examples/rollout and adapters/kubeapps/cmd/rolloutplan print a
// simulated rollout with -o json. Both build a [Trace] from the
// simulator's result, so scripts read one schema whichever program ran,
// and [Write] encodes it. The shape does not follow rollout.Trace: it is
// built for reading (the state before the update is step 0, bounds are
// resolved, counts summed), and rollout's types can change without
// changing it.
package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Trace is a finished rollout as the programs print and draw it.
type Trace struct {
	Deployment string `json:"deployment"`
	// Strategy is "RollingUpdate" or "Recreate".
	Strategy string `json:"strategy"`
	// MaxSurge and MaxUnavailable are the values as written in the spec
	// ("25%"), or the apps/v1 defaults when the spec leaves them out;
	// empty for Recreate.
	MaxSurge       string `json:"maxSurge,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	// FromImage and ToImage are the images that change, before and after
	// the update, comma-separated in container order when several
	// containers change. When no image changes, both hold every
	// container's image.
	FromImage string `json:"fromImage"`
	ToImage   string `json:"toImage"`
	// Now is the time of the state before the update (step 0), from
	// which every step's Elapsed counts: --now, or the time the program
	// took from the manifests or its own default.
	Now time.Time `json:"now"`
	// Steps are the states after each sync that changed something;
	// Steps[0] is the state before the update.
	Steps []Step `json:"steps"`
	// Syncs is the number of syncs the simulation ran, idle ones included.
	Syncs int `json:"syncs"`
	// Outcome says in words how the simulation ended: "complete",
	// "paused", "timed out ...", "stalled: ..." or "stopped at the step
	// limit ...".
	Outcome string `json:"outcome"`
	// Capacity is what the rollout needs beyond the steady state; nil
	// when the program has no pod template to read requests from
	// (examples/rollout without -f).
	Capacity *capacity.Report `json:"capacity,omitempty"`
}

// Step is the cluster after one sync of the deployment controller.
type Step struct {
	// N is the sync number, from 1; 0 is the state before the update.
	// Syncs that changed nothing are left out, so numbers may skip.
	N int `json:"sync"`
	// Elapsed is the simulated time since the state before the update,
	// as a Go duration ("20s"); empty for step 0.
	Elapsed string `json:"elapsed,omitempty"`
	// Events are the scripted changes applied before this sync ("image
	// nginx:1.9 -> nginx:1.9.3", "scale to 20", "pause").
	Events []string `json:"events,omitempty"`
	// Path is the branch of the controller's sync that ran
	// ("RollingUpdate", "scaling", "paused", ...); empty for step 0.
	Path string `json:"path,omitempty"`
	// Actions are the writes the sync made, each with its reason.
	Actions []rollout.Action `json:"actions,omitempty"`
	// Reasons say what the sync did and why, one line each.
	Reasons []string `json:"reasons"`
	// ReplicaSets are all ReplicaSets of the deployment after the sync,
	// oldest revision first.
	ReplicaSets []ReplicaSet `json:"replicaSets"`
	// Replicas is the deployment's spec.replicas during this sync (R).
	Replicas int32 `json:"replicas"`
	// MaxSurge and MaxUnavailable are resolved for this step's R (both 0
	// for Recreate).
	MaxSurge       int32 `json:"maxSurge"`
	MaxUnavailable int32 `json:"maxUnavailable"`
	// Ceiling is R + maxSurge and Floor is R - maxUnavailable: the most
	// pods a rolling update may run, and the fewest available pods it
	// keeps. Recreate has no surge and keeps no pods available while it
	// replaces them: its Ceiling is R, its Floor 0. Ceiling is computed in
	// 64 bits, so it can exceed math.MaxInt32 (the library saturates
	// there; upstream would wrap).
	Ceiling int64 `json:"ceiling"`
	Floor   int64 `json:"floor"`
	// Terminating counts pods that were deleted but are still shutting
	// down, summed over all ReplicaSets.
	Terminating int32 `json:"terminating"`
}

// ReplicaSet is one ReplicaSet as `kubectl get rs` shows it, with its
// revision.
type ReplicaSet struct {
	Name      string `json:"name"`
	Revision  int64  `json:"revision"`
	Desired   int32  `json:"desired"`
	Current   int32  `json:"current"`
	Ready     int32  `json:"ready"`
	Available int32  `json:"available"`
}

// Write prints t to w as indented JSON, with "->" and "<" left
// unescaped so that reasons stay readable.
func Write(w io.Writer, t *Trace) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(t)
}

// SetBounds records the resolved maxSurge and maxUnavailable of s and
// derives its Ceiling and Floor from s.Replicas: R + maxSurge and R -
// maxUnavailable for a rolling update, R and 0 for Recreate, which runs
// no extra pods and keeps none available while it replaces them.
func (s *Step) SetBounds(recreate bool, surge, unavailable int32) {
	s.MaxSurge, s.MaxUnavailable = surge, unavailable
	if recreate {
		s.Ceiling, s.Floor = int64(s.Replicas), 0
		return
	}
	s.Ceiling, s.Floor = int64(s.Replicas)+int64(surge), int64(s.Replicas)-int64(unavailable)
}

// Pods returns the number of pods running in s: every ReplicaSet's
// current pods plus the terminating ones. The sum is 64-bit: it can pass
// math.MaxInt32.
func (s *Step) Pods() int64 {
	n := int64(s.Terminating)
	for _, rs := range s.ReplicaSets {
		n += int64(rs.Current)
	}
	return n
}

// AvailablePods returns the number of available pods in s, summed in 64
// bits.
func (s *Step) AvailablePods() int64 {
	var n int64
	for _, rs := range s.ReplicaSets {
		n += int64(rs.Available)
	}
	return n
}

// Row returns the ReplicaSet called name in s, and false when s has none.
func (s *Step) Row(name string) (ReplicaSet, bool) {
	for _, rs := range s.ReplicaSets {
		if rs.Name == name {
			return rs, true
		}
	}
	return ReplicaSet{}, false
}

// Names returns every ReplicaSet name that appears in t, in order of
// first appearance.
func (t *Trace) Names() []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range t.Steps {
		for _, rs := range s.ReplicaSets {
			if !seen[rs.Name] {
				seen[rs.Name] = true
				names = append(names, rs.Name)
			}
		}
	}
	return names
}
