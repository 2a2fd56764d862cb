package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
	"github.com/rolloutmath/rolloutmath/internal/ststable"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// fallbackNow is "now" for manifests that hold no timestamp (written by
// hand) when --now is not given. The program never reads the clock, so
// that its output is reproducible.
var fallbackNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// input is the state the first sync runs on, and the changes applied
// just before it.
type input struct {
	set       statefulset.StatefulSet[kubeapps.Template]
	pods      []statefulset.Pod
	revisions []statefulset.ControllerRevision
	// newTemplate is the template after --set-image, or nil.
	newTemplate *kubeapps.Template
	partition   *int32
	from, to    string // container images before and after
	settled     bool   // the pods were made up: the manifests held none
	// now is when the first sync runs; nowFrom says where it came from.
	now     time.Time
	nowFrom string
	opts    statefulset.Options
}

// prepare validates the manifests' StatefulSet and builds the state the
// first sync runs on.
func prepare(cfg *config, objs *objects, stderr io.Writer) (*input, error) {
	if n := len(objs.sets); n != 1 {
		return nil, fmt.Errorf("statefulsetplan: the manifests hold %d StatefulSets, want exactly 1", n)
	}
	obj := objs.sets[0]
	set := kubeapps.StatefulSet(obj)
	if err := validate(obj, &set); err != nil {
		return nil, fmt.Errorf("The StatefulSet %q is invalid: %v", obj.Name, err)
	}
	if int64(set.Replicas) > int64(cfg.maxPods) {
		return nil, fmt.Errorf("statefulsetplan: spec.replicas %d is more than -max-pods %d: raise -max-pods to simulate it", set.Replicas, cfg.maxPods)
	}
	if set.UID == "" {
		// A hand-written manifest: the set's pods name it by kind and
		// name only, and Plan claims pods by UID.
		set.UID = "statefulsetplan-" + obj.Name
	}
	var podObjs []*corev1.Pod
	for _, p := range objs.pods {
		if why := foreign(obj, p); why != "" {
			fmt.Fprintf(stderr, "statefulsetplan: ignoring pod %q: %s\n", p.Name, why)
			continue
		}
		podObjs = append(podObjs, p)
	}
	in := &input{set: set, partition: cfg.partition}
	for _, p := range podObjs {
		pod := kubeapps.StatefulSetPod(p)
		if ref := metav1.GetControllerOfNoCopy(p); ref != nil && ref.UID == "" {
			pod.ControllerUID = set.UID
		}
		in.pods = append(in.pods, pod)
	}
	var revObjs []*appsv1.ControllerRevision
	for _, r := range objs.revisions {
		if owns(obj, r) {
			revObjs = append(revObjs, r)
		} else {
			fmt.Fprintf(stderr, "statefulsetplan: ignoring ControllerRevision %q: not controlled by StatefulSet %q\n", r.Name, obj.Name)
		}
	}
	in.revisions = kubeapps.StatefulSetRevisions(revObjs)
	var err error
	if in.newTemplate, err = setImages(&set.Template, cfg.images); err != nil {
		return nil, err
	}
	if in.now, in.nowFrom, err = manifestNow(cfg, obj, podObjs, revObjs); err != nil {
		return nil, err
	}
	in.opts.Gates.MaxUnavailableStatefulSet = cfg.gate
	in.from = images(&set.Template)
	in.to = in.from
	if in.newTemplate != nil {
		in.to = images(in.newTemplate)
	}
	if len(in.pods) > 0 {
		// Mid-rollout, the pods below the update come from the current
		// revision: name its images as the rollout's starting point.
		if imgs, ok := revisionImages(revObjs, obj.Status.CurrentRevision); ok {
			in.from = imgs
		}
	}
	if len(in.pods) == 0 && (in.newTemplate != nil || in.partition != nil) {
		if err := in.settle(cfg); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// validate checks set, converted from obj, as the API server checks a
// StatefulSet, for what the controller reads: statefulset.Validate
// (policy, strategy, replicas, minReadySeconds, ordinals, status), then
// the selector (required, not empty, matching the template's labels),
// the template's containers and its restartPolicy (absent reads as the
// default, Always).
// Upstream: ValidateStatefulSetSpec, pkg/apis/apps/validation/validation.go.
func validate(obj *appsv1.StatefulSet, set *statefulset.StatefulSet[kubeapps.Template]) error {
	errs := statefulset.Validate(set)
	switch sel := obj.Spec.Selector; {
	case sel == nil:
		errs = append(errs, &field.Error{Type: field.TypeRequired, Field: "spec.selector"})
	case len(sel.MatchLabels)+len(sel.MatchExpressions) == 0:
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.selector", Value: jsonText(sel), Detail: "empty selector is invalid for statefulset"})
	}
	if s, err := metav1.LabelSelectorAsSelector(obj.Spec.Selector); err != nil {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.selector", Value: jsonText(obj.Spec.Selector)})
	} else if !s.Empty() && !s.Matches(labels.Set(obj.Spec.Template.Labels)) {
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

// foreign says why pod p is not the set's to plan ("" when it is): it
// is in another namespace, or another object is its controller. Orphans
// are the set's to claim.
func foreign(set *appsv1.StatefulSet, p *corev1.Pod) string {
	if p.Namespace != set.Namespace {
		return fmt.Sprintf("in namespace %q, not %q", p.Namespace, set.Namespace)
	}
	ref := metav1.GetControllerOfNoCopy(p)
	switch {
	case ref == nil:
		return ""
	case set.UID != "" && ref.UID != "" && ref.UID == set.UID:
		return ""
	case (set.UID == "" || ref.UID == "") && ref.Kind == "StatefulSet" && ref.Name == set.Name:
		return ""
	}
	return fmt.Sprintf("controlled by %s %q, not StatefulSet %q", ref.Kind, ref.Name, set.Name)
}

// owns reports whether set controls the revision r: r's controller owner
// reference names set (by UID, or by kind and name when either has no
// UID, as in a hand-written manifest). The controller adopts orphan
// revisions too; the program ignores them.
func owns(set *appsv1.StatefulSet, r *appsv1.ControllerRevision) bool {
	ref := metav1.GetControllerOf(r)
	if ref == nil || r.Namespace != set.Namespace {
		return false
	}
	if set.UID != "" && ref.UID != "" {
		return ref.UID == set.UID
	}
	return ref.Kind == "StatefulSet" && ref.Name == set.Name
}

// manifestNow returns the time the first sync runs: --now, or else the
// latest timestamp (manifesttime.Fields) of the set, its pods and its
// revisions, or else fallbackNow; and a note saying which.
func manifestNow(cfg *config, set *appsv1.StatefulSet, pods []*corev1.Pod, revs []*appsv1.ControllerRevision) (time.Time, string, error) {
	if cfg.now != nil {
		return *cfg.now, "--now", nil
	}
	objs := []any{set}
	for _, p := range pods {
		objs = append(objs, p)
	}
	for _, r := range revs {
		objs = append(objs, r)
	}
	now, ok, err := manifesttime.Latest(objs...)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("statefulsetplan: %w", err)
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
		return nil, fmt.Errorf("statefulsetplan: %w", err)
	}
	out := t.DeepCopy()
	for i, image := range imgs {
		out.Spec.Containers[i].Image = image
	}
	return out, nil
}

// revisionImages returns the images of the template the revision called
// name records (data.raw is the controller's patch, {"spec":{"template":
// ...}}), and whether revs hold such a revision with a readable template.
func revisionImages(revs []*appsv1.ControllerRevision, name string) (string, bool) {
	for _, r := range revs {
		if r.Name != name || name == "" {
			continue
		}
		var patch struct {
			Spec struct {
				Template kubeapps.Template `json:"template"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(r.Data.Raw, &patch); err != nil || len(patch.Spec.Template.Spec.Containers) == 0 {
			return "", false
		}
		return images(&patch.Spec.Template), true
	}
	return "", false
}

// images returns the images of t's containers, comma-separated.
func images(t *kubeapps.Template) string {
	var s []string
	for _, c := range t.Spec.Containers {
		s = append(s, c.Image)
	}
	return strings.Join(s, ",")
}

// settle replaces the set's pods and revisions by those the controller
// leaves when it creates every pod of the template from nothing, an hour
// before now, and they are all ready: the state of a set long after its
// last rollout.
func (in *input) settle(cfg *config) error {
	set := in.set
	set.Status = statefulset.Status{}
	t, err := statefulset.Simulate(&set, nil, nil, statefulset.Config[kubeapps.Template]{
		Start: in.now.Add(-time.Hour), Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: 100000, Options: in.opts})
	if err != nil {
		return fmt.Errorf("statefulsetplan: settling the StatefulSet before the update: %w", err)
	}
	if t.Outcome != statefulset.OutcomeComplete && t.Outcome != statefulset.OutcomePartitioned {
		return fmt.Errorf("statefulsetplan: settling the StatefulSet before the update: %v after %d syncs", t.Outcome, t.Syncs)
	}
	in.set, in.pods, in.revisions, in.settled = t.StatefulSet, t.Pods, t.Revisions, true
	return nil
}

// events are the changes applied just before sync 1.
func (in *input) events() []statefulset.Event[kubeapps.Template] {
	var ev []statefulset.Event[kubeapps.Template]
	if in.newTemplate != nil {
		ev = append(ev, statefulset.Event[kubeapps.Template]{Sync: 1, Kind: statefulset.SetTemplate, Template: *in.newTemplate})
	}
	if in.partition != nil {
		ev = append(ev, statefulset.Event[kubeapps.Template]{Sync: 1, Kind: statefulset.SetPartition, Partition: *in.partition})
	}
	return ev
}

// readyAt gives every pod that is not Ready the time it becomes ready:
// -ready-delay after now.
func (in *input) readyAt(cfg *config) map[string]time.Time {
	at := map[string]time.Time{}
	for i := range in.pods {
		if p := &in.pods[i]; !p.Ready && !p.Terminating {
			at[p.Name] = in.now.Add(cfg.readyDelay)
		}
	}
	return at
}

// partitionOf is the set's partition (0 without a rollingUpdate block).
func partitionOf(set *statefulset.StatefulSet[kubeapps.Template]) int32 {
	if ru := set.UpdateStrategy.RollingUpdate; ru != nil {
		return ru.Partition
	}
	return 0
}

// describe returns the heading line, such as "StatefulSet prod/web: 5
// replicas, OrderedReady, RollingUpdate (partition 3), image web:1.4 ->
// web:1.5".
func describe(in *input, cfg *config) string {
	set := &in.set
	policy := set.PodManagementPolicy
	if policy == "" {
		policy = statefulset.OrderedReady
	}
	strategy := string(set.UpdateStrategy.Type)
	if strategy == "" {
		strategy = string(statefulset.RollingUpdate)
	}
	var details []string
	if set.UpdateStrategy.Type != statefulset.OnDelete {
		p := fmt.Sprintf("partition %d", partitionOf(set))
		if in.partition != nil {
			p += fmt.Sprintf(" -> %d", *in.partition)
		}
		details = append(details, p)
		if ru := set.UpdateStrategy.RollingUpdate; ru != nil && ru.MaxUnavailable != nil {
			mu := "maxUnavailable " + ru.MaxUnavailable.String()
			if !cfg.gate {
				mu += " (ignored: gate off)"
			}
			details = append(details, mu)
		}
	}
	if set.MinReadySeconds > 0 {
		details = append(details, fmt.Sprintf("minReadySeconds %d", set.MinReadySeconds))
	}
	ords := ""
	if set.Ordinals.Start != 0 {
		ords = fmt.Sprintf(", ordinals from %d", set.Ordinals.Start)
	}
	image := in.from
	if in.to != in.from {
		image += " -> " + in.to
	}
	gate := "off"
	if cfg.gate {
		gate = "on"
	}
	return fmt.Sprintf("StatefulSet %s/%s: %d replicas%s, %s, %s (%s), image %s\nkube-controller-manager v1.36, MaxUnavailableStatefulSet gate %s",
		set.Namespace, set.Name, set.Replicas, ords, policy, strategy, strings.Join(details, ", "), image, gate)
}

// nowLine is the heading's line about now.
func nowLine(in *input, what string) string {
	s := "now " + in.now.Format(time.RFC3339) + " (" + in.nowFrom + "): " + what
	if in.settled {
		s += "; the manifests hold no pods: they start created and ready at the set's template"
	}
	return s
}

// podStates returns pods as a statefulset.Step records them, by
// ordinal, at now.
func podStates(pods []statefulset.Pod, minReadySeconds int32, now time.Time) []statefulset.PodState {
	out := make([]statefulset.PodState, 0, len(pods))
	for i := range pods {
		p := &pods[i]
		out = append(out, statefulset.PodState{Name: p.Name, Revision: p.Revision, Phase: p.Phase, Ready: p.Ready,
			Available: statefulset.IsAvailable(p, minReadySeconds, now), Terminating: p.Terminating})
	}
	slices.SortFunc(out, func(a, b statefulset.PodState) int {
		_, oa := statefulset.ParseOrdinal(a.Name)
		_, ob := statefulset.ParseOrdinal(b.Name)
		if oa != ob {
			return int(oa) - int(ob)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// members keeps the pods the set's status counts: those whose name is
// the set's name, a dash and an ordinal.
func members(name string, pods []statefulset.Pod) []statefulset.Pod {
	var out []statefulset.Pod
	for _, p := range pods {
		if parent, ord := statefulset.ParseOrdinal(p.Name); parent == name && ord >= 0 {
			out = append(out, p)
		}
	}
	return out
}

// beforeRow is the table's first row: the set as the manifests show it,
// its status counted from its pods at now (the stored status may be
// older than the pods), with the stored observedGeneration.
func beforeRow(in *input, comment string) ststable.Row {
	set := &in.set
	pods := members(set.Name, in.pods)
	st := statefulset.ComputeStatus(pods, set.MinReadySeconds, set.Status.CurrentRevision, set.Status.UpdateRevision, in.now)
	st.ObservedGeneration = set.Status.ObservedGeneration
	return ststable.Row{Comment: comment, Replicas: set.Replicas, Partition: partitionOf(set), Status: st,
		Pods: podStates(pods, set.MinReadySeconds, in.now)}
}

// rollout simulates the rollout to its end and prints it.
func rollout(w io.Writer, cfg *config, in *input) error {
	sim := statefulset.Config[kubeapps.Template]{
		Start: in.now.Add(-cfg.interval), Interval: cfg.interval, ReadyDelay: cfg.readyDelay, ReadyAt: in.readyAt(cfg),
		TerminationDelay: cfg.terminating, MaxSyncs: cfg.maxSyncs, Events: in.events(), Options: in.opts, RecordPods: true,
	}
	t, err := statefulset.Simulate(&in.set, in.pods, in.revisions, sim)
	if err != nil {
		return fmt.Errorf("simulating: %w", err)
	}
	// Times are counted from now, when sync 1 runs.
	for i := range t.Steps {
		t.Steps[i].Elapsed = t.Steps[i].Time.Sub(in.now)
	}
	before := beforeRow(in, "before sync 1: the set as the manifests show it")
	elapsed := time.Duration(t.Syncs-1) * cfg.interval
	if cfg.output == "json" {
		out := struct {
			Heading string                 `json:"heading"`
			Now     time.Time              `json:"now"`
			NowFrom string                 `json:"nowFrom"`
			Initial statefulset.Status     `json:"initial"`
			Pods    []statefulset.PodState `json:"pods"`
			Steps   []statefulset.Step     `json:"steps"`
			Outcome statefulset.Outcome    `json:"outcome"`
			Syncs   int                    `json:"syncs"`
		}{describe(in, cfg), in.now, in.nowFrom, before.Status, before.Pods, t.Steps, t.Outcome, t.Syncs}
		return writeJSON(w, out)
	}
	tab := ststable.Table{Heading: describe(in, cfg) + "\n" + nowLine(in, "sync 1 runs then, sync k (k-1) * "+cfg.interval.String()+" later"),
		Name: in.set.Name, Start: in.set.Ordinals.Start, Update: t.StatefulSet.Status.UpdateRevision,
		Outcome: t.Outcome.String(), Syncs: t.Syncs, Elapsed: elapsed}
	tab.Rows = append(tab.Rows, before)
	for i := range t.Steps {
		s := &t.Steps[i]
		tab.Rows = append(tab.Rows, ststable.Row{Comment: ststable.Comment(s), Replicas: s.Replicas, Partition: s.Partition,
			Status: s.Status, Pods: s.Pods, Actions: s.Actions})
	}
	return ststable.Write(w, &tab)
}

// once plans one sync at now and prints it: the table's two rows, then
// every write in the controller's order with its reason.
func once(w io.Writer, cfg *config, in *input) error {
	set := in.set
	var changes []string
	if in.newTemplate != nil {
		set.Template = *in.newTemplate
		set.Generation++
		changes = append(changes, "template changed")
	}
	if in.partition != nil {
		ru := statefulset.RollingUpdateStrategy{}
		if set.UpdateStrategy.RollingUpdate != nil {
			ru = *set.UpdateStrategy.RollingUpdate
		}
		changes = append(changes, fmt.Sprintf("partition %d -> %d", ru.Partition, *in.partition))
		ru.Partition = *in.partition
		set.UpdateStrategy.RollingUpdate = &ru
		set.Generation++
	}
	if list := statefulset.Validate(&set); len(list) > 0 {
		return fmt.Errorf("The StatefulSet %q is invalid: %v", set.Name, list.ToError())
	}
	sync, err := statefulset.PlanWith(&set, in.pods, in.revisions, in.now, in.opts)
	if err != nil {
		return fmt.Errorf("planning: %w", err)
	}
	before := beforeRow(in, "before the sync: the set as the manifests show it")
	if cfg.output == "json" {
		out := struct {
			Heading      string                 `json:"heading"`
			Now          time.Time              `json:"now"`
			NowFrom      string                 `json:"nowFrom"`
			Changes      []string               `json:"changes,omitempty"`
			Initial      statefulset.Status     `json:"initial"`
			Pods         []statefulset.PodState `json:"pods"`
			Actions      []statefulset.Action   `json:"actions"`
			Status       statefulset.Status     `json:"status"`
			After        []statefulset.PodState `json:"podsAfter"`
			Reason       string                 `json:"reason"`
			Requeue      bool                   `json:"requeue,omitempty"`
			RequeueAfter time.Duration          `json:"requeueAfter,omitempty"`
		}{describe(in, cfg), in.now, in.nowFrom, changes, before.Status, before.Pods, sync.Actions, sync.Status,
			podStates(members(set.Name, sync.Pods), set.MinReadySeconds, in.now), sync.Reason, sync.Requeue, sync.RequeueAfter}
		return writeJSON(w, out)
	}
	comment := "the sync at now"
	if len(changes) > 0 {
		comment += " after " + strings.Join(changes, ", ")
	}
	after := podStates(members(set.Name, sync.Pods), set.MinReadySeconds, in.now)
	tab := ststable.Table{Heading: describe(in, cfg) + "\n" + nowLine(in, "the sync runs then"),
		Name: set.Name, Start: set.Ordinals.Start, Update: sync.UpdateRevision}
	tab.Rows = []ststable.Row{before, {Comment: comment + ": " + sync.Reason, Replicas: set.Replicas, Partition: partitionOf(&set),
		Status: sync.Status, Pods: after, Actions: sync.Actions}}
	if err := ststable.WriteRows(w, &tab); err != nil {
		return err
	}
	return writeActions(w, &sync)
}

// writeActions lists a sync's writes in the controller's order, then
// when the controller looks again.
func writeActions(w io.Writer, s *statefulset.Sync[kubeapps.Template]) error {
	var b strings.Builder
	b.WriteString("\nWrites, in the controller's order:\n")
	if len(s.Actions) == 0 {
		b.WriteString("  none\n")
	}
	for i, a := range s.Actions {
		target := a.Pod
		if target == "" {
			target = a.Revision
		}
		if a.Kind == statefulset.WriteStatus {
			target = "status"
		}
		fmt.Fprintf(&b, "%3d. %-16s %-22s %s\n", i+1, a.Kind, target, a.Reason)
	}
	switch {
	case s.Requeue && s.RequeueAfter > 0:
		fmt.Fprintf(&b, "The controller syncs the set again after %s, or on the next change of the set or its pods.\n", s.RequeueAfter)
	case s.Requeue:
		b.WriteString("The controller syncs the set again at once (rate-limited).\n")
	default:
		b.WriteString("The controller syncs the set again on the next change of the set or its pods.\n")
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
