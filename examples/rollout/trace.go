package main

import "github.com/rolloutmath/rolloutmath/rollout"

// trace is a finished rollout as this program prints and draws it. It is
// built from the simulator's result (see simulate.go), so the table
// printer, the JSON output and the chart do not depend on how the
// simulator shapes its own types.
type trace struct {
	Deployment string `json:"deployment"`
	// Strategy is "RollingUpdate" or "Recreate".
	Strategy string `json:"strategy"`
	// MaxSurge and MaxUnavailable are the values as written in the spec
	// ("25%"), empty for Recreate.
	MaxSurge       string `json:"maxSurge,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	// FromImage and ToImage are the first container's image before and
	// after the update.
	FromImage string `json:"fromImage"`
	ToImage   string `json:"toImage"`
	// Steps are the states after each sync that changed something;
	// Steps[0] is the state before the update.
	Steps []step `json:"steps"`
	// Syncs is the number of syncs the simulation ran, idle ones included.
	Syncs int `json:"syncs"`
	// Outcome says in words how the simulation ended: "complete",
	// "paused", "timed out ...", "stalled: ..." or "stopped at the step
	// limit ...".
	Outcome string `json:"outcome"`
}

// step is the cluster after one sync of the deployment controller.
type step struct {
	// N is the sync number, from 1; 0 is the state before the update.
	// Syncs that changed nothing are left out, so numbers may skip.
	N int `json:"sync"`
	// Elapsed is the simulated time since the state before the update,
	// as a Go duration ("20s").
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
	ReplicaSets []rsRow `json:"replicaSets"`
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

// rsRow is one ReplicaSet as `kubectl get rs` shows it.
type rsRow struct {
	Name      string `json:"name"`
	Revision  int64  `json:"revision"`
	Desired   int32  `json:"desired"`
	Current   int32  `json:"current"`
	Ready     int32  `json:"ready"`
	Available int32  `json:"available"`
}

// pods returns the number of pods running in s: every ReplicaSet's
// current pods plus the terminating ones. Sums are 64-bit: they can pass
// math.MaxInt32.
func (s *step) pods() int64 {
	n := int64(s.Terminating)
	for _, rs := range s.ReplicaSets {
		n += int64(rs.Current)
	}
	return n
}

// available returns the number of available pods in s.
func (s *step) available() int64 {
	var n int64
	for _, rs := range s.ReplicaSets {
		n += int64(rs.Available)
	}
	return n
}

// row returns the ReplicaSet called name in s, and false when s has none.
func (s *step) row(name string) (rsRow, bool) {
	for _, rs := range s.ReplicaSets {
		if rs.Name == name {
			return rs, true
		}
	}
	return rsRow{}, false
}

// names returns every ReplicaSet name that appears in t, in order of
// first appearance.
func (t *trace) names() []string {
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

// extremes returns the step with the most pods and the step with the
// fewest available pods; ties go to the earliest step. t has at least one
// step.
func (t *trace) extremes() (peak, low *step) {
	peak, low = &t.Steps[0], &t.Steps[0]
	for i := range t.Steps {
		s := &t.Steps[i]
		if s.pods() > peak.pods() {
			peak = s
		}
		if s.available() < low.available() {
			low = s
		}
	}
	return peak, low
}
