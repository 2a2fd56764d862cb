package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/dstable"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// fallbackNow is "now" for manifests that hold no timestamp (written by
// hand) when --now is not given. The program never reads the clock, so
// that its output is reproducible.
var fallbackNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// input is the state the first sync runs on, and the changes applied
// just before it.
type input struct {
	ds        daemonset.DaemonSet[kubeapps.Template]
	nodes     []daemonset.Node
	pods      []daemonset.Pod
	revisions []daemonset.ControllerRevision
	// newTemplate is the template after --set-image, or nil.
	newTemplate *kubeapps.Template
	// maxUnavailable and maxSurge are the budgets after the flags, when
	// a flag changes one; nil values are unset.
	budgetChange             bool
	maxUnavailable, maxSurge *intorpercent.IntOrString
	from, to                 string // container images before and after
	settled                  bool   // the pods were made up: the manifests held none
	now                      time.Time
	nowFrom                  string
}

// prepare validates the manifests' DaemonSet and builds the state the
// first sync runs on.
func prepare(cfg *config, objs *objects, stderr io.Writer) (*input, error) {
	if n := len(objs.sets); n != 1 {
		return nil, fmt.Errorf("daemonsetplan: the manifests hold %d DaemonSets, want exactly 1", n)
	}
	obj := objs.sets[0]
	ds := kubeapps.DaemonSet(obj)
	if err := validate(obj, &ds); err != nil {
		return nil, fmt.Errorf("The DaemonSet %q is invalid: %v", obj.Name, err)
	}
	if len(objs.nodes) == 0 {
		return nil, errors.New("daemonsetplan: the manifests hold no Nodes: add them (kubectl get nodes -o yaml)")
	}
	if len(objs.nodes) > cfg.maxNodes {
		return nil, fmt.Errorf("daemonsetplan: the manifests hold %d Nodes, more than -max-nodes %d: raise -max-nodes to simulate them", len(objs.nodes), cfg.maxNodes)
	}
	in := &input{ds: ds}
	nodes, err := kubeapps.DaemonSetNodes(obj, objs.nodes)
	if errors.Is(err, kubeapps.ErrNodeAffinity) {
		return nil, fmt.Errorf("daemonsetplan: DaemonSet %q has a required node affinity, which daemonsetplan does not evaluate: %w", obj.Name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("daemonsetplan: %w", err)
	}
	known := map[string]bool{}
	for _, n := range nodes {
		if known[n.Name] {
			return nil, fmt.Errorf("daemonsetplan: the manifests hold node %q twice", n.Name)
		}
		known[n.Name] = true
	}
	in.nodes = nodes
	var podObjs []*corev1.Pod
	for _, p := range objs.pods {
		if why := foreign(obj, p); why != "" {
			fmt.Fprintf(stderr, "daemonsetplan: ignoring pod %q: %s\n", p.Name, why)
			continue
		}
		pod := kubeapps.DaemonSetPod(p)
		if pod.Node != "" && !known[pod.Node] {
			return nil, fmt.Errorf("daemonsetplan: pod %q (%s) is on node %q, which the manifests do not hold: add the node (kubectl get nodes -o yaml)", p.Name, objs.where[p], pod.Node)
		}
		podObjs = append(podObjs, p)
		in.pods = append(in.pods, pod)
	}
	var revObjs []*appsv1.ControllerRevision
	for _, r := range objs.revisions {
		if owns(obj, r) {
			revObjs = append(revObjs, r)
		} else {
			fmt.Fprintf(stderr, "daemonsetplan: ignoring ControllerRevision %q: not controlled by DaemonSet %q\n", r.Name, obj.Name)
		}
	}
	in.revisions = kubeapps.DaemonSetRevisions(revObjs)
	if in.newTemplate, err = setImages(&ds.Template, cfg.images); err != nil {
		return nil, err
	}
	if err := in.budgets(cfg); err != nil {
		return nil, err
	}
	if in.now, in.nowFrom, err = manifestNow(cfg, obj, podObjs, objs.nodes, revObjs); err != nil {
		return nil, err
	}
	in.from = images(&ds.Template)
	in.to = in.from
	if in.newTemplate != nil {
		in.to = images(in.newTemplate)
	}
	// The DaemonSet as the changes leave it must pass the API server.
	after := in.ds
	in.apply(&after)
	if list := daemonset.Validate(&after); len(list) > 0 {
		return nil, fmt.Errorf("The DaemonSet %q is invalid: %v", obj.Name, list.ToError())
	}
	if len(in.pods) == 0 && (in.newTemplate != nil || in.budgetChange) {
		if err := in.settle(cfg); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// budgets reads --max-unavailable and --max-surge into in.
func (in *input) budgets(cfg *config) error {
	if cfg.maxUnavailable == nil && cfg.maxSurge == nil {
		return nil
	}
	if t := in.ds.UpdateStrategy.Type; t != "" && t != daemonset.RollingUpdate {
		return fmt.Errorf("daemonsetplan: --max-unavailable and --max-surge need the RollingUpdate strategy; DaemonSet %q has %s", in.ds.Name, t)
	}
	in.budgetChange = true
	if ru := in.ds.UpdateStrategy.RollingUpdate; ru != nil {
		in.maxUnavailable, in.maxSurge = ru.MaxUnavailable, ru.MaxSurge
	}
	read := func(s *string) *intorpercent.IntOrString {
		if *s == "" {
			return nil
		}
		var v intorpercent.IntOrString
		_ = v.UnmarshalText([]byte(*s)) // never fails: text that is no count is kept as written, for Validate to judge
		return &v
	}
	if cfg.maxUnavailable != nil {
		in.maxUnavailable = read(cfg.maxUnavailable)
	}
	if cfg.maxSurge != nil {
		in.maxSurge = read(cfg.maxSurge)
	}
	return nil
}

// apply makes the flags' changes to ds as `kubectl apply` and the API
// server do: a new template raises the generation and the template
// generation, new budgets raise the generation. It returns the changes
// in words.
func (in *input) apply(ds *daemonset.DaemonSet[kubeapps.Template]) []string {
	var out []string
	if in.newTemplate != nil {
		ds.Template = *in.newTemplate
		if g := ds.TemplateGeneration; g != nil {
			n := *g + 1
			ds.TemplateGeneration = &n
		}
		out = append(out, "template changed")
	}
	if in.budgetChange {
		ru := daemonset.RollingUpdateParams{MaxUnavailable: in.maxUnavailable, MaxSurge: in.maxSurge}
		old := daemonset.RollingUpdateParams{}
		if r := ds.UpdateStrategy.RollingUpdate; r != nil {
			old = *r
		}
		if !same(old.MaxUnavailable, ru.MaxUnavailable) {
			out = append(out, "maxUnavailable "+text(old.MaxUnavailable)+" -> "+text(ru.MaxUnavailable))
		}
		if !same(old.MaxSurge, ru.MaxSurge) {
			out = append(out, "maxSurge "+text(old.MaxSurge)+" -> "+text(ru.MaxSurge))
		}
		ds.UpdateStrategy.Type = daemonset.RollingUpdate
		ds.UpdateStrategy.RollingUpdate = &ru
	}
	if len(out) > 0 {
		ds.Generation++
	}
	return out
}

// same reports whether two budget values are equal (nil is unset).
func same(a, b *intorpercent.IntOrString) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// text renders a budget value, "unset" for nil.
func text(v *intorpercent.IntOrString) string {
	if v == nil {
		return "unset"
	}
	return v.String()
}

// validate checks ds, converted from obj, as the API server checks a
// DaemonSet, for what the controller reads, in the API server's order:
// the selector (daemonset.Validate), that it matches the template's
// labels, the template's containers and its restartPolicy (absent reads
// as the default, Always), then the rest of daemonset.Validate
// (minReadySeconds, templateGeneration, the update strategy,
// revisionHistoryLimit).
// Upstream: ValidateDaemonSetSpec, pkg/apis/apps/validation/validation.go.
func validate(obj *appsv1.DaemonSet, ds *daemonset.DaemonSet[kubeapps.Template]) error {
	all := daemonset.Validate(ds)
	var errs field.ErrorList
	for _, e := range all {
		if strings.HasPrefix(e.Field, "spec.selector") {
			errs = append(errs, e)
		}
	}
	if s, err := metav1.LabelSelectorAsSelector(obj.Spec.Selector); err == nil && !s.Empty() && !s.Matches(labels.Set(obj.Spec.Template.Labels)) {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.template.metadata.labels",
			Value: jsonText(obj.Spec.Template.Labels), Detail: "`selector` does not match template `labels`"})
	}
	if len(obj.Spec.Template.Spec.Containers) == 0 {
		errs = append(errs, &field.Error{Type: field.TypeRequired, Field: "spec.template.spec.containers"})
	}
	if rp := obj.Spec.Template.Spec.RestartPolicy; rp != "" && rp != corev1.RestartPolicyAlways {
		// "" is what the API server's defaulting makes Always.
		errs = append(errs, &field.Error{Type: field.TypeNotSupported, Field: "spec.template.spec.restartPolicy",
			Value: jsonText(rp), Detail: `supported values: "Always"`})
	}
	for _, e := range all {
		if !strings.HasPrefix(e.Field, "spec.selector") {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs.ToError()
}

// jsonText renders a value as the API server's errors quote it.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// foreign says why pod p is not the DaemonSet's to plan ("" when it is):
// it is in another namespace, another object is its controller, or it
// is an orphan the selector does not match. Orphans the selector
// matches are the DaemonSet's to claim.
func foreign(ds *appsv1.DaemonSet, p *corev1.Pod) string {
	if p.Namespace != ds.Namespace {
		return fmt.Sprintf("in namespace %q, not %q", p.Namespace, ds.Namespace)
	}
	ref := metav1.GetControllerOfNoCopy(p)
	switch {
	case ref == nil:
		s, err := metav1.LabelSelectorAsSelector(ds.Spec.Selector)
		if err != nil || !s.Matches(labels.Set(p.Labels)) {
			return fmt.Sprintf("an orphan that the selector of DaemonSet %q does not match", ds.Name)
		}
		return ""
	case ds.UID != "" && ref.UID != "" && ref.UID == ds.UID:
		return ""
	case (ds.UID == "" || ref.UID == "") && ref.Kind == "DaemonSet" && ref.Name == ds.Name:
		return ""
	}
	return fmt.Sprintf("controlled by %s %q, not DaemonSet %q", ref.Kind, ref.Name, ds.Name)
}

// owns reports whether ds controls the revision r: r's controller owner
// reference names ds (by UID, or by kind and name when either has no
// UID, as in a hand-written manifest). The controller adopts orphan
// revisions too; the program ignores them.
func owns(ds *appsv1.DaemonSet, r *appsv1.ControllerRevision) bool {
	ref := metav1.GetControllerOf(r)
	if ref == nil || r.Namespace != ds.Namespace {
		return false
	}
	if ds.UID != "" && ref.UID != "" {
		return ref.UID == ds.UID
	}
	return ref.Kind == "DaemonSet" && ref.Name == ds.Name
}

// manifestNow returns the time the first sync runs: --now, or else the
// latest timestamp (manifesttime.Fields) of the DaemonSet, its pods, the
// nodes and its revisions, or else fallbackNow; and a note saying which.
func manifestNow(cfg *config, ds *appsv1.DaemonSet, pods []*corev1.Pod, nodes []*corev1.Node, revs []*appsv1.ControllerRevision) (time.Time, string, error) {
	if cfg.now != nil {
		return *cfg.now, "--now", nil
	}
	objs := []any{ds}
	for _, p := range pods {
		objs = append(objs, p)
	}
	for _, n := range nodes {
		objs = append(objs, n)
	}
	for _, r := range revs {
		objs = append(objs, r)
	}
	now, ok, err := manifesttime.Latest(objs...)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("daemonsetplan: %w", err)
	}
	if !ok {
		return fallbackNow, "the manifests hold no timestamp; set one with --now", nil
	}
	return now, "the latest timestamp in the manifests", nil
}

// setImages returns a copy of t with the image changes set, or nil when
// there are none. A container name that t lacks is an error, as with
// kubectl set image.
func setImages(t *kubeapps.Template, changes []setimage.Change) (*kubeapps.Template, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	names := make([]string, len(t.Spec.Containers))
	for i := range t.Spec.Containers {
		names[i] = t.Spec.Containers[i].Name
	}
	imgs, err := setimage.Apply(names, changes)
	if err != nil {
		return nil, fmt.Errorf("daemonsetplan: %w", err)
	}
	out := t.DeepCopy()
	for i, image := range imgs {
		out.Spec.Containers[i].Image = image
	}
	return out, nil
}

// images returns the images of t's containers, comma-separated.
func images(t *kubeapps.Template) string {
	var s []string
	for _, c := range t.Spec.Containers {
		s = append(s, c.Image)
	}
	return strings.Join(s, ",")
}

// settle replaces the DaemonSet's pods and revisions by those the
// controller leaves when it creates every pod of the template from
// nothing, an hour before now, and they are all ready: the state of a
// DaemonSet long after its last rollout.
func (in *input) settle(cfg *config) error {
	ds := in.ds
	ds.Status = daemonset.Status{}
	t, err := daemonset.Simulate(&ds, in.nodes, nil, nil, daemonset.Config[kubeapps.Template]{
		Start: in.now.Add(-time.Hour), Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: 100000})
	if err != nil {
		return fmt.Errorf("daemonsetplan: settling the DaemonSet before the update: %w", err)
	}
	if t.Outcome != daemonset.OutcomeComplete {
		return fmt.Errorf("daemonsetplan: settling the DaemonSet before the update: %v after %d syncs", t.Outcome, t.Syncs)
	}
	in.ds, in.pods, in.revisions, in.settled = t.DaemonSet, t.Pods, t.Revisions, true
	return nil
}

// describe returns the heading's first lines, such as "DaemonSet
// kube-system/fluentd on 6 nodes (5 should run the pod): RollingUpdate
// (maxUnavailable 1 -> 25% = 2 nodes, maxSurge unset = 0 nodes), image
// fluentd:1.16 -> fluentd:1.17".
func describe(in *input) string {
	after := in.ds
	in.apply(&after)
	var should int
	for _, n := range in.nodes {
		if n.ShouldRun {
			should++
		}
	}
	strategy := string(after.UpdateStrategy.Type)
	if strategy == "" {
		strategy = string(daemonset.RollingUpdate)
	}
	if after.UpdateStrategy.Type != daemonset.OnDelete {
		var before, now daemonset.RollingUpdateParams
		if r := in.ds.UpdateStrategy.RollingUpdate; r != nil {
			before = *r
		}
		if r := after.UpdateStrategy.RollingUpdate; r != nil {
			now = *r
		}
		b, err := daemonset.Budgets(&after, in.nodes)
		value := func(old, cur *intorpercent.IntOrString, unset string, n int32) string {
			s := text(cur)
			if cur == nil {
				s = "unset (" + unset + ")"
			}
			if !same(old, cur) {
				s = text(old) + " -> " + s
			}
			if err == nil {
				s += fmt.Sprintf(" = %d %s", n, plural(int(n), "node"))
			}
			return s
		}
		strategy += " (maxUnavailable " + value(before.MaxUnavailable, now.MaxUnavailable, "1", b.MaxUnavailable) +
			", maxSurge " + value(before.MaxSurge, now.MaxSurge, "0", b.MaxSurge) + ")"
	}
	if after.MinReadySeconds > 0 {
		strategy += fmt.Sprintf(", minReadySeconds %d", after.MinReadySeconds)
	}
	image := in.from
	if in.to != in.from {
		image += " -> " + in.to
	}
	return fmt.Sprintf("DaemonSet %s/%s on %d %s (%d should run the pod): %s, image %s\nkube-controller-manager v1.36; nodes visited by name (upstream: Go's map order)",
		in.ds.Namespace, in.ds.Name, len(in.nodes), plural(len(in.nodes), "node"), should, strategy, image)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// nowLine is the heading's line about now.
func nowLine(in *input, what string) string {
	s := "now " + in.now.Format(time.RFC3339) + " (" + in.nowFrom + "): " + what
	if in.settled {
		s += "; the manifests hold no pods: they start created and ready at the DaemonSet's template"
	}
	return s
}

// beforeRow is the table's first row: the DaemonSet as the manifests
// show it, its status counted from its pods at now (the stored status
// may be older than the pods), with the stored observedGeneration.
func beforeRow(in *input, comment string) (dstable.Row, error) {
	ds := &in.ds
	hash := hashOf(&ds.Template, ds.Status.CollisionCount, in.revisions)
	st, err := daemonset.CalculateStatus(ds, in.nodes, in.pods, hash, in.now)
	if err != nil {
		return dstable.Row{}, err
	}
	st.ObservedGeneration = ds.Status.ObservedGeneration
	return dstable.Row{Comment: comment, Status: st, Nodes: in.nodes, Pods: in.pods, Now: in.now}, nil
}

// hashOf is the hash of the revision holding template t: an existing
// revision's hash label when one of revs holds it, else the hash the
// controller gives a new one.
func hashOf(t *kubeapps.Template, collisionCount *int32, revs []daemonset.ControllerRevision) string {
	data, err := daemonset.RevisionData(t)
	if err == nil {
		for _, r := range revs {
			if string(r.Data) == string(data) && r.Hash != "" {
				return r.Hash
			}
		}
	}
	return daemonset.Hash(t, collisionCount)
}

// simulate runs daemonset.Simulate from now, every -interval, with the
// flags' changes applied to the DaemonSet just before sync 1 (as one
// write, so the generation goes up by one), until the rollout completes,
// stalls or -max-syncs syncs ran. New pods become Ready -ready-delay
// after their creation and deleted pods are gone -terminating after
// their deletion; the pods the manifests hold keep their own times: one
// that is not Ready becomes Ready -ready-delay after now (Config.ReadyAt),
// one that is terminating is gone -terminating after now.
func simulate(in *input, cfg *config) (daemonset.Trace[kubeapps.Template], error) {
	ds := in.ds
	events := in.apply(&ds)
	readyAt := map[string]time.Time{}
	for i := range in.pods {
		if p := &in.pods[i]; !p.Ready && !p.Terminating && !terminal(p) {
			readyAt[p.Name] = in.now.Add(cfg.readyDelay)
		}
	}
	t, err := daemonset.Simulate(&ds, in.nodes, in.pods, in.revisions, daemonset.Config[kubeapps.Template]{
		Start: in.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, TerminationDelay: cfg.terminating,
		MaxSyncs: cfg.maxSyncs, ReadyAt: readyAt, RecordPods: true})
	if err != nil || len(events) == 0 {
		return t, err
	}
	// The changes raised the generation, so sync 1 writes the status and
	// is recorded; it carries the changes in words.
	if len(t.Steps) == 0 || t.Steps[0].Sync != 1 {
		return t, fmt.Errorf("daemonsetplan: sync 1 wrote nothing after %s", strings.Join(events, ", "))
	}
	t.Steps[0].Events = events
	return t, nil
}

// terminal reports whether p has failed or succeeded: it never becomes
// ready.
func terminal(p *daemonset.Pod) bool {
	return p.Phase == daemonset.PodFailed || p.Phase == daemonset.PodSucceeded
}

// rollout simulates the rollout to its end and prints it.
func rollout(w io.Writer, cfg *config, in *input) error {
	before, err := beforeRow(in, "before sync 1: the DaemonSet as the manifests show it")
	if err != nil {
		return fmt.Errorf("counting the pods: %w", err)
	}
	t, err := simulate(in, cfg)
	if err != nil {
		return fmt.Errorf("simulating: %w", err)
	}
	hash := hashOf(&t.DaemonSet.Template, t.DaemonSet.Status.CollisionCount, t.Revisions)
	elapsed := time.Duration(t.Syncs-1) * cfg.interval
	if cfg.output == "json" {
		out := struct {
			Heading string            `json:"heading"`
			Now     time.Time         `json:"now"`
			NowFrom string            `json:"nowFrom"`
			Nodes   []daemonset.Node  `json:"nodes"`
			Initial daemonset.Status  `json:"initial"`
			Pods    []daemonset.Pod   `json:"pods"`
			Steps   []daemonset.Step  `json:"steps"`
			Outcome daemonset.Outcome `json:"outcome"`
			Syncs   int               `json:"syncs"`
		}{describe(in), in.now, in.nowFrom, in.nodes, before.Status, in.pods, t.Steps, t.Outcome, t.Syncs}
		return writeJSON(w, out)
	}
	tab := dstable.Table{Heading: describe(in) + "\n" + nowLine(in, "sync 1 runs then, sync k (k-1) * "+cfg.interval.String()+" later"),
		Name: in.ds.Name, Update: hash, TemplateGeneration: t.DaemonSet.TemplateGeneration, MinReadySeconds: t.DaemonSet.MinReadySeconds,
		Outcome: strings.TrimPrefix(t.Outcome.String(), "Outcome"), Syncs: t.Syncs, Elapsed: elapsed}
	tab.Rows = append(tab.Rows, before)
	for i := range t.Steps {
		s := &t.Steps[i]
		tab.Rows = append(tab.Rows, dstable.Row{Comment: dstable.Comment(s, in.now), Status: s.Status, Nodes: in.nodes, Pods: s.Pods, Now: s.Time, Actions: s.Actions})
	}
	return dstable.Write(w, &tab)
}

// once plans one sync at now and prints it: the table's two rows, then
// every write in the controller's order with its reason.
func once(w io.Writer, cfg *config, in *input) error {
	ds := in.ds
	changes := in.apply(&ds)
	before, err := beforeRow(in, "before the sync: the DaemonSet as the manifests show it")
	if err != nil {
		return fmt.Errorf("counting the pods: %w", err)
	}
	sync, err := daemonset.Plan(&ds, in.nodes, in.pods, in.revisions, in.now)
	if err != nil {
		return fmt.Errorf("planning: %w", err)
	}
	if cfg.output == "json" {
		out := struct {
			Heading      string             `json:"heading"`
			Now          time.Time          `json:"now"`
			NowFrom      string             `json:"nowFrom"`
			Changes      []string           `json:"changes,omitempty"`
			Nodes        []daemonset.Node   `json:"nodes"`
			Initial      daemonset.Status   `json:"initial"`
			Pods         []daemonset.Pod    `json:"pods"`
			Budget       daemonset.Budget   `json:"budget"`
			Actions      []daemonset.Action `json:"actions"`
			Status       daemonset.Status   `json:"status"`
			After        []daemonset.Pod    `json:"podsAfter"`
			Reason       string             `json:"reason"`
			Requeue      bool               `json:"requeue,omitempty"`
			RequeueAfter time.Duration      `json:"requeueAfter,omitempty"`
		}{describe(in), in.now, in.nowFrom, changes, in.nodes, before.Status, in.pods, sync.Budget, sync.Actions, sync.Status,
			sync.Pods, sync.Reason, sync.Requeue, sync.RequeueAfter}
		return writeJSON(w, out)
	}
	comment := "the sync at now"
	if len(changes) > 0 {
		comment += " after " + strings.Join(changes, ", ")
	}
	tab := dstable.Table{Heading: describe(in) + "\n" + nowLine(in, "the sync runs then"),
		Name: ds.Name, Update: sync.Hash, TemplateGeneration: ds.TemplateGeneration, MinReadySeconds: ds.MinReadySeconds}
	tab.Rows = []dstable.Row{before, {Comment: comment + ": " + sync.Reason, Status: sync.Status, Nodes: in.nodes, Pods: sync.Pods, Now: in.now, Actions: sync.Actions}}
	if err := dstable.WriteRows(w, &tab); err != nil {
		return err
	}
	return writeActions(w, &sync)
}

// writeActions lists a sync's writes in the controller's order, then
// when the controller looks again.
func writeActions(w io.Writer, s *daemonset.Sync[kubeapps.Template]) error {
	var b strings.Builder
	b.WriteString("\nWrites, in the controller's order:\n")
	if len(s.Actions) == 0 {
		b.WriteString("  none\n")
	}
	for i, a := range s.Actions {
		target := a.Pod
		switch {
		case a.Kind == daemonset.WriteStatus || a.Kind == daemonset.BumpCollisionCount:
			target = "status"
		case target == "":
			target = a.Revision
		case a.Node != "":
			target += " on " + a.Node
		}
		fmt.Fprintf(&b, "%3d. %-18s %-30s %s\n", i+1, a.Kind, target, a.Reason)
	}
	switch {
	case s.Requeue && s.RequeueAfter > 0:
		fmt.Fprintf(&b, "The controller syncs the DaemonSet again after %s, or on the next change of it, its pods or the nodes.\n", s.RequeueAfter)
	case s.Requeue:
		b.WriteString("The controller syncs the DaemonSet again at once (rate-limited).\n")
	default:
		b.WriteString("The controller syncs the DaemonSet again on the next change of it, its pods or the nodes.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
