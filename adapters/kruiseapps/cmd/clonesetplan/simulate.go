package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	apifield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// fallbackNow is "now" for manifests that hold no timestamp (written by
// hand) when --now is not given. The program never reads the clock, so
// that its output is reproducible.
var fallbackNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// trace is a simulated rollout as the output prints it.
type trace struct {
	cs        cloneset.CloneSet[kruiseapps.Template] // before the update
	from, to  string                                 // container images before and after
	partition *intorpercent.IntOrString              // set with the update, or nil
	initial   initialState
	// initialPods are the pods before reconcile 1, as the table's pod map
	// shows them.
	initialPods []cloneset.PodState
	t           cloneset.Trace[kruiseapps.Template]
	// now is when reconcile 1 runs, on the objects as the manifests show
	// them; nowFrom says where it came from.
	now      time.Time
	nowFrom  string
	interval time.Duration // between reconciles
}

// initialState is the CloneSet's state before reconcile 1, as `kubectl
// get cloneset` shows it.
type initialState struct {
	Status         cloneset.Status `json:"status"`
	Replicas       int32           `json:"replicas"`
	Partition      int32           `json:"partition"`
	MaxSurge       int64           `json:"maxSurge"`
	MaxUnavailable int64           `json:"maxUnavailable"`
	Active         int32           `json:"active"`
	Terminating    int32           `json:"terminating,omitempty"`
}

// simulate validates the manifests' CloneSet, builds the starting state
// and runs the rollout.
func simulate(cfg *config, objs *objects, stderr io.Writer) (*trace, error) {
	if n := len(objs.cloneSets); n != 1 {
		return nil, fmt.Errorf("clonesetplan: the manifests hold %d CloneSets, want exactly 1", n)
	}
	obj := objs.cloneSets[0]
	cs, err := kruiseapps.CloneSet(obj)
	if err != nil {
		return nil, fmt.Errorf("The CloneSet %q is invalid: %v", obj.Name, err)
	}
	if err := validate(obj, &cs); err != nil {
		return nil, fmt.Errorf("The CloneSet %q is invalid: %v", obj.Name, err)
	}
	if int64(cs.Replicas) > int64(cfg.maxPods) {
		return nil, fmt.Errorf("clonesetplan: spec.replicas %d is more than -max-pods %d: raise -max-pods to simulate it", cs.Replicas, cfg.maxPods)
	}
	owned := kruiseapps.Owned(obj, objs.pods)
	if n := len(objs.pods) - len(owned); n > 0 {
		fmt.Fprintf(stderr, "clonesetplan: ignoring %d pods not controlled by CloneSet %q\n", n, obj.Name)
	}
	pods := make([]cloneset.Pod, 0, len(owned))
	for _, p := range owned {
		c, err := kruiseapps.Pod(p)
		if err != nil {
			return nil, fmt.Errorf("clonesetplan: %s: %w", objs.where[p], err)
		}
		pods = append(pods, c)
	}
	var revObjs []*appsv1.ControllerRevision
	for _, r := range objs.revisions {
		if owns(obj, r) {
			revObjs = append(revObjs, r)
		} else {
			fmt.Fprintf(stderr, "clonesetplan: ignoring ControllerRevision %q: not controlled by CloneSet %q\n", r.Name, obj.Name)
		}
	}
	revisions := kruiseapps.Revisions(revObjs)
	newTemplate, err := setImages(&cs.Template, cfg.images)
	if err != nil {
		return nil, err
	}
	now, nowFrom, err := manifestNow(cfg, obj, owned, revObjs)
	if err != nil {
		return nil, err
	}
	// Reconcile 1 runs at now, on the pods as the manifests show them: a
	// pod that is not ready becomes ready -ready-delay after now.
	readyAt := map[string]time.Time{}
	for i := range pods {
		if !pods[i].Ready {
			readyAt[pods[i].Name] = now.Add(cfg.readyDelay)
		}
	}
	sim := cloneset.Config[kruiseapps.Template]{
		Start:        now.Add(-cfg.interval),
		ReadyAt:      readyAt,
		Interval:     cfg.interval,
		ReadyDelay:   cfg.readyDelay,
		InPlaceDelay: cfg.inPlaceDelay,
		MaxSyncs:     cfg.maxSyncs,
		MaxPods:      cfg.maxPods,
		RecordPods:   true,
	}
	if len(pods) == 0 && (newTemplate != nil || cfg.partition != nil) {
		if cs, pods, revisions, err = settle(cs, sim, now); err != nil {
			return nil, err
		}
	}
	t := &trace{cs: cs, from: images(&cs.Template), partition: cfg.partition, now: now, nowFrom: nowFrom, interval: cfg.interval}
	t.to = t.from
	if newTemplate != nil {
		t.to = images(newTemplate)
		sim.Events = append(sim.Events, cloneset.Event[kruiseapps.Template]{Sync: 1, Kind: cloneset.SetTemplate, Template: *newTemplate})
	}
	if cfg.partition != nil {
		sim.Events = append(sim.Events, cloneset.Event[kruiseapps.Template]{Sync: 1, Kind: cloneset.SetPartition, Partition: cfg.partition})
	}
	if t.initial, err = initial(&cs, pods, revisions, now); err != nil {
		return nil, fmt.Errorf("clonesetplan: %w", err)
	}
	t.initialPods = podStates(pods, cs.MinReadySeconds, now)
	if t.t, err = cloneset.Simulate(&cs, pods, revisions, sim); err != nil {
		return nil, fmt.Errorf("clonesetplan: simulating: %w", err)
	}
	// Times are counted from now, when reconcile 1 runs.
	for i := range t.t.Steps {
		t.t.Steps[i].Elapsed = t.t.Steps[i].Time.Sub(now)
	}
	return t, nil
}

// manifestNow returns the time reconcile 1 runs: --now, or else the
// latest timestamp (manifesttime.Fields) of the CloneSet, its pods and
// its revisions, or else fallbackNow; and a note saying which.
func manifestNow(cfg *config, cs *kruise.CloneSet, pods []*corev1.Pod, revs []*appsv1.ControllerRevision) (time.Time, string, error) {
	if cfg.now != nil {
		return *cfg.now, "--now", nil
	}
	objs := []any{cs}
	for _, p := range pods {
		objs = append(objs, p)
	}
	for _, r := range revs {
		objs = append(objs, r)
	}
	now, ok, err := manifesttime.Latest(objs...)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("clonesetplan: %w", err)
	}
	if !ok {
		return fallbackNow, "the manifests hold no timestamp; set one with --now", nil
	}
	return now, "the latest timestamp in the manifests", nil
}

// validate checks cs, converted from obj, as kruise's webhook does: the
// template checks that need the pod template's type (the selector
// matches the template's labels; the template has a container), then
// cloneset.Validate.
// Upstream: validateCloneSetSpec, pkg/webhook/cloneset/validating/validation.go.
func validate(obj *kruise.CloneSet, cs *cloneset.CloneSet[kruiseapps.Template]) error {
	var msgs []string
	if sel, err := metav1.LabelSelectorAsSelector(obj.Spec.Selector); err == nil && !sel.Empty() && !sel.Matches(labels.Set(obj.Spec.Template.Labels)) {
		msgs = append(msgs, apifield.Invalid(apifield.NewPath("spec", "template", "metadata", "labels"), obj.Spec.Template.Labels, "`selector` does not match template `labels`").Error())
	}
	if len(obj.Spec.Template.Spec.Containers) == 0 {
		msgs = append(msgs, apifield.Required(apifield.NewPath("spec", "template", "spec", "containers"), "").Error())
	}
	err := cloneset.Validate(cs)
	var list field.ErrorList
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			msgs = append(msgs, e.Error())
		}
	case err != nil:
		msgs = append(msgs, err.Error())
	}
	switch len(msgs) {
	case 0:
		return nil
	case 1:
		return errors.New(msgs[0])
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}

// owns reports whether cs controls the revision r: r's controller owner
// reference names cs (by UID, or by kind and name when cs has no UID, as
// in a hand-written manifest). Kruise adopts orphan revisions too; the
// program ignores them.
func owns(cs *kruise.CloneSet, r *appsv1.ControllerRevision) bool {
	ref := metav1.GetControllerOf(r)
	if ref == nil || r.Namespace != cs.Namespace {
		return false
	}
	if cs.UID != "" {
		return ref.UID == cs.UID
	}
	return ref.Kind == "CloneSet" && ref.Name == cs.Name
}

// setImages returns a copy of t with the image changes set, or nil when
// there are none. A container name that t lacks is an error, as with
// kubectl set image.
func setImages(t *kruiseapps.Template, changes []setimage.Change) (*kruiseapps.Template, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	names := make([]string, len(t.Spec.Containers))
	for i := range t.Spec.Containers {
		names[i] = t.Spec.Containers[i].Name
	}
	images, err := setimage.Apply(names, changes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", "clonesetplan", err)
	}
	out := t.DeepCopy()
	for i, image := range images {
		out.Spec.Containers[i].Image = image
	}
	return out, nil
}

// settle returns cs, its pods and revisions once the controller has
// created every pod of cs's template from nothing, an hour before now,
// and they are all available: the state of a CloneSet long after its
// last rollout.
func settle(cs cloneset.CloneSet[kruiseapps.Template], sim cloneset.Config[kruiseapps.Template], now time.Time) (cloneset.CloneSet[kruiseapps.Template], []cloneset.Pod, []cloneset.ControllerRevision, error) {
	cs.Status = cloneset.Status{}
	sim.Start = now.Add(-time.Hour)
	t, err := cloneset.Simulate(&cs, nil, nil, sim)
	if err != nil {
		return cs, nil, nil, fmt.Errorf("clonesetplan: settling the CloneSet before the update: %w", err)
	}
	if t.Outcome != cloneset.OutcomeComplete {
		return cs, nil, nil, fmt.Errorf("clonesetplan: settling the CloneSet before the update: %v after %d reconciles", t.Outcome, t.Syncs)
	}
	return t.CloneSet, t.Pods, t.Revisions, nil
}

// initial returns the state before reconcile 1: the status kruise would
// compute from the pods, and the resolved settings.
func initial(cs *cloneset.CloneSet[kruiseapps.Template], pods []cloneset.Pod, revisions []cloneset.ControllerRevision, now time.Time) (initialState, error) {
	data, err := kruiseapps.RevisionData(&kruise.CloneSet{Spec: kruise.CloneSetSpec{Template: cs.Template}})
	if err != nil {
		return initialState{}, err
	}
	var collisions int32
	if cs.Status.CollisionCount != nil {
		collisions = *cs.Status.CollisionCount
	}
	active, err := cloneset.ActiveRevisions(cs.Name, revisions, data, cs.Status.CurrentRevision, collisions)
	if err != nil {
		return initialState{}, err
	}
	revs := cloneset.Revisions{Current: active.Current, Update: active.Update.Name}
	st, err := cloneset.CalculateStatus(cs, pods, revs, now)
	if err != nil {
		return initialState{}, err
	}
	res, err := cloneset.Resolve(cs)
	if err != nil {
		return initialState{}, err
	}
	out := initialState{Status: st.Status, Replicas: cs.Replicas, Partition: res.Partition, MaxSurge: res.MaxSurge, MaxUnavailable: res.MaxUnavailable}
	for i := range pods {
		if pods[i].Terminating {
			out.Terminating++
		} else if cloneset.IsPodActive(&pods[i]) {
			out.Active++
		}
	}
	return out, nil
}

// images returns the images of t's containers, comma-separated.
func images(t *kruiseapps.Template) string {
	var s []string
	for _, c := range t.Spec.Containers {
		s = append(s, c.Image)
	}
	return strings.Join(s, ",")
}

// printWarnings prints the warnings of the first recorded sync that has
// any: they are about the input (a pod at a missing revision warns at
// every sync until it is recreated, with fewer pods each time).
func printWarnings(w io.Writer, t *cloneset.Trace[kruiseapps.Template]) {
	for _, s := range t.Steps {
		for _, msg := range s.Warnings {
			fmt.Fprintf(w, "clonesetplan: warning: %s\n", msg)
		}
		if len(s.Warnings) > 0 {
			return
		}
	}
}
