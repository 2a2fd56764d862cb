package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// fallbackNow is "now" for manifests that hold no timestamp (written by
// hand) when --now is not given. The program never reads the clock, so
// its output is reproducible.
var fallbackNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// trace is a simulated rollout as the table prints it.
type trace struct {
	d        rollout.Deployment[kubeapps.Template] // before the update
	from, to string                                // the images that change, before and after (see changedImages)
	initial  []rollout.ReplicaSetState             // step 0
	t        rollout.Trace[kubeapps.Template]
	assumed  bool // no ReplicaSets were given: revision numbers assume none exist
	// now is the time of the initial state (step 0), from which sync k
	// runs k * -interval later; nowFrom says where it came from.
	now      time.Time
	nowFrom  string
	capacity *capacity.Report // what the rollout needs beyond its steady state
}

// simulate validates the manifests' Deployment and ReplicaSets, builds
// the starting state and runs the rollout.
func simulate(cfg *config, objs *objects, stderr io.Writer) (*trace, error) {
	if n := len(objs.deployments); n != 1 {
		return nil, fmt.Errorf("rolloutplan: the manifests hold %d Deployments, want exactly 1", n)
	}
	obj := objs.deployments[0]
	if err := kubeapps.Validate(obj); err != nil {
		return nil, fmt.Errorf("The Deployment %q is invalid: %v", obj.Name, err)
	}
	d, err := kubeapps.Deployment(obj)
	if err != nil {
		return nil, fmt.Errorf("The Deployment %q is invalid: %v", obj.Name, err)
	}
	var rss []rollout.ReplicaSet[kubeapps.Template]
	seen := make(map[string]bool, len(objs.replicaSets))
	for _, rs := range objs.replicaSets {
		if seen[rs.Name] {
			return nil, fmt.Errorf("rolloutplan: ReplicaSet %q appears twice in the manifests; a namespace holds one ReplicaSet per name", rs.Name)
		}
		seen[rs.Name] = true
		if !controls(obj, rs) {
			fmt.Fprintf(stderr, "rolloutplan: ignoring ReplicaSet %q: not controlled by Deployment %q\n", rs.Name, obj.Name)
			continue
		}
		r := kubeapps.ReplicaSet(rs)
		if err := rollout.ValidateReplicaSet(&r); err != nil {
			return nil, fmt.Errorf("The ReplicaSet %q is invalid: %v", rs.Name, err)
		}
		rss = append(rss, r)
	}
	newTemplate, err := setImages(&d.Template, cfg.images)
	if err != nil {
		return nil, err
	}
	now, nowFrom, err := manifestNow(cfg, obj, objs.replicaSets)
	if err != nil {
		return nil, err
	}
	sim := rollout.Config[kubeapps.Template]{
		Start:      now,
		Interval:   cfg.interval,
		ReadyDelay: cfg.readyDelay,
		MaxSyncs:   cfg.maxSyncs,
	}
	assumed := len(rss) == 0
	if len(rss) == 0 && newTemplate != nil {
		if d, rss, err = settle(d, sim); err != nil {
			return nil, err
		}
	}
	t := &trace{d: d, initial: states(&d, rss), assumed: assumed, now: now, nowFrom: nowFrom}
	t.from, t.to = changedImages(&d.Template, &d.Template)
	rolledOut := &d.Template
	if newTemplate != nil {
		t.from, t.to = changedImages(&d.Template, newTemplate)
		rolledOut = newTemplate
		sim.Events = []rollout.Event[kubeapps.Template]{{Sync: 1, Kind: rollout.SetTemplate, Template: *newTemplate}}
	}
	if t.t, err = rollout.Simulate(&d, rss, sim); err != nil {
		return nil, fmt.Errorf("rolloutplan: simulating: %w", err)
	}
	if t.capacity, err = peaks(t, templates(rss, t.t.ReplicaSets), rolledOut); err != nil {
		return nil, fmt.Errorf("rolloutplan: capacity: %w", err)
	}
	return t, nil
}

// manifestNow returns the time of the initial state: --now, or else the
// latest timestamp (manifesttime.Fields) of the Deployment and the
// ReplicaSets in the manifests, or else fallbackNow; and a note saying
// which.
func manifestNow(cfg *config, d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (time.Time, string, error) {
	if cfg.now != nil {
		return *cfg.now, "--now", nil
	}
	objs := []any{d}
	for _, rs := range rss {
		objs = append(objs, rs)
	}
	now, ok, err := manifesttime.Latest(objs...)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("rolloutplan: %w", err)
	}
	if !ok {
		return fallbackNow, "the manifests hold no timestamp; set one with --now", nil
	}
	return now, "the latest timestamp in the manifests", nil
}

// controls reports whether d's controller manages rs: rs's controller
// owner reference is d, or rs has none (an orphan d would adopt) and d's
// selector matches its labels.
func controls(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if ref := metav1.GetControllerOf(rs); ref != nil {
		return ref.UID == d.UID && ref.Kind == "Deployment" && ref.Name == d.Name
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	return err == nil && !sel.Empty() && sel.Matches(labels.Set(rs.Labels))
}

// setImages returns a copy of t with the images changes set, or nil
// when there are none. A container name that t lacks is an error, as
// with kubectl set image.
func setImages(t *kubeapps.Template, changes []setimage.Change) (*kubeapps.Template, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	names := make([]string, len(t.Spec.Containers))
	for i := range t.Spec.Containers {
		names[i] = t.Spec.Containers[i].Name
	}
	images, err := setimage.Apply(names, changes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", "rolloutplan", err)
	}
	out := t.DeepCopy()
	for i, image := range images {
		out.Spec.Containers[i].Image = image
	}
	return out, nil
}

// settle returns d and its ReplicaSets once the controller has rolled
// out d's template from nothing, an hour before sim.Start: the state a
// Deployment is in long after its last rollout. -max-syncs limits the
// rollout shown, not this one.
func settle(d rollout.Deployment[kubeapps.Template], sim rollout.Config[kubeapps.Template]) (rollout.Deployment[kubeapps.Template], []rollout.ReplicaSet[kubeapps.Template], error) {
	d.Status = rollout.Status{}
	sim.Start = sim.Start.Add(-time.Hour)
	sim.MaxSyncs = 1000
	t, err := rollout.Simulate(&d, nil, sim)
	if err != nil {
		return d, nil, fmt.Errorf("rolloutplan: settling the Deployment before the update: %w", err)
	}
	return t.Deployment, t.ReplicaSets, nil
}

// states returns rss as the table shows them, oldest revision first.
func states(d *rollout.Deployment[kubeapps.Template], rss []rollout.ReplicaSet[kubeapps.Template]) []rollout.ReplicaSetState {
	newRS, _ := revision.FindNew(&d.Template, rss)
	out := make([]rollout.ReplicaSetState, len(rss))
	for i := range rss {
		rs := &rss[i]
		rev, _ := revision.Revision(rs.Annotations)
		out[i] = rollout.ReplicaSetState{Name: rs.Name, Revision: rev, New: i == newRS,
			Desired: rs.Replicas, Current: rs.StatusReplicas, Ready: rs.ReadyReplicas, Available: rs.AvailableReplicas}
		if rs.TerminatingReplicas != nil {
			out[i].Terminating = *rs.TerminatingReplicas
		}
	}
	slices.SortStableFunc(out, func(a, b rollout.ReplicaSetState) int { return cmp.Compare(a.Revision, b.Revision) })
	return out
}
