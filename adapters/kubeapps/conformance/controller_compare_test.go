package conformance

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	core "k8s.io/client-go/testing"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// clock maps between a trace's virtual time and the real time of one
// sync. The controller stamps new conditions with metav1.Now(), which the
// harness cannot set, so every stored timestamp is moved by shift =
// real - virtual before the sync (the controller and Plan compare only
// differences of timestamps, which the move keeps), the controller's
// nowFn and Plan's now are the real instant start, and afterwards a
// timestamp at or after start is one the sync wrote "now" and maps back
// to the virtual now; any other maps back by -shift ("kept").
type clock struct {
	virtual, start time.Time
	shift          time.Duration
	// took is how long the controller's sync ran.
	took time.Duration
}

func (c clock) toReal(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(c.shift)
}

func (c clock) toVirtual(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	if !t.Before(c.start) {
		return c.virtual
	}
	return t.Add(-c.shift)
}

// retime applies f to every timestamp of d and rss.
func retime(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, f func(time.Time) time.Time) {
	mt := func(t *metav1.Time) {
		if t != nil {
			t.Time = f(t.Time)
		}
	}
	if d != nil {
		mt(&d.CreationTimestamp)
		mt(d.DeletionTimestamp)
		for i := range d.Status.Conditions {
			mt(&d.Status.Conditions[i].LastUpdateTime)
			mt(&d.Status.Conditions[i].LastTransitionTime)
		}
	}
	for _, rs := range rss {
		mt(&rs.CreationTimestamp)
		mt(rs.DeletionTimestamp)
	}
}

// rsWrite is one ReplicaSet write as the API server receives it.
type rsWrite struct {
	Verb            string // create, update or delete
	Name            string
	Replicas        int32
	MinReadySeconds int32
	Annotations     map[string]string
	Labels          map[string]string
	Template        corev1.PodTemplateSpec
}

func (w rsWrite) String() string {
	if w.Verb == "delete" {
		return "delete " + w.Name
	}
	return fmt.Sprintf("%s %s replicas=%d minReadySeconds=%d annotations=%s image=%s hash=%s",
		w.Verb, w.Name, w.Replicas, w.MinReadySeconds, mapString(w.Annotations), image(&w.Template), w.Template.Labels[appsv1.DefaultDeploymentUniqueLabelKey])
}

func sameWrite(a, b rsWrite) bool {
	if a.Verb != b.Verb || a.Name != b.Name {
		return false
	}
	if a.Verb == "delete" {
		return true
	}
	return a.Replicas == b.Replicas && a.MinReadySeconds == b.MinReadySeconds &&
		equality.Semantic.DeepEqual(a.Annotations, b.Annotations) &&
		equality.Semantic.DeepEqual(a.Template, b.Template) &&
		(a.Verb != "create" || equality.Semantic.DeepEqual(a.Labels, b.Labels))
}

func writeOf(verb string, rs *appsv1.ReplicaSet) rsWrite {
	w := rsWrite{Verb: verb, Name: rs.Name, Annotations: rs.Annotations, Labels: rs.Labels, Template: rs.Spec.Template, MinReadySeconds: rs.Spec.MinReadySeconds}
	if rs.Spec.Replicas != nil {
		w.Replicas = *rs.Spec.Replicas
	}
	return w
}

// upstreamWrites returns the ReplicaSet writes and the Deployment spec
// updates (not status) in the clientset's recorded actions, in order.
// A write the API server refused is left out and its name returned in
// refused (a create that met a hash collision).
func upstreamWrites(actions []core.Action, failed []bool) (rsw []rsWrite, dUpdates []*appsv1.Deployment, statusWrites int, refused []string) {
	for i, a := range actions {
		if failed[i] {
			if a.GetVerb() == "create" {
				refused = append(refused, a.(core.CreateAction).GetObject().(*appsv1.ReplicaSet).Name)
			} else {
				refused = append(refused, a.GetVerb()+" "+a.GetResource().Resource)
			}
			continue
		}
		switch a.GetResource().Resource {
		case "replicasets":
			switch a.GetVerb() {
			case "create":
				rsw = append(rsw, writeOf("create", a.(core.CreateAction).GetObject().(*appsv1.ReplicaSet)))
			case "update":
				rsw = append(rsw, writeOf("update", a.(core.UpdateAction).GetObject().(*appsv1.ReplicaSet)))
			case "delete":
				rsw = append(rsw, rsWrite{Verb: "delete", Name: a.(core.DeleteAction).GetName()})
			}
		case "deployments":
			if a.GetVerb() != "update" {
				continue
			}
			if a.GetSubresource() == "status" {
				statusWrites++
				continue
			}
			dUpdates = append(dUpdates, a.(core.UpdateAction).GetObject().(*appsv1.Deployment))
		}
	}
	return rsw, dUpdates, statusWrites, refused
}

// planWrites returns the same for kubeapps.Changes of a Plan.
func planWrites(changes []kubeapps.Change) (rsw []rsWrite, dUpdates []*appsv1.Deployment) {
	for _, c := range changes {
		switch c.Verb {
		case kubeapps.CreateReplicaSet:
			rsw = append(rsw, writeOf("create", c.ReplicaSet))
		case kubeapps.UpdateReplicaSet:
			rsw = append(rsw, writeOf("update", c.ReplicaSet))
		case kubeapps.DeleteReplicaSet:
			rsw = append(rsw, rsWrite{Verb: "delete", Name: c.ReplicaSet.Name})
		case kubeapps.UpdateDeployment:
			dUpdates = append(dUpdates, c.Deployment)
		}
	}
	return rsw, dUpdates
}

// rsView is a ReplicaSet after a sync, as compared.
type rsView struct {
	Name            string
	Replicas        int32
	MinReadySeconds int32
	Generation      int64
	Annotations     map[string]string
	Template        corev1.PodTemplateSpec
}

// dView is the Deployment after a sync, as compared: times virtual.
type dView struct {
	Generation  int64
	Annotations map[string]string
	Template    corev1.PodTemplateSpec
	Status      appsv1.DeploymentStatus
}

func viewDeployment(d *appsv1.Deployment, c clock) dView {
	v := dView{Generation: d.Generation, Annotations: d.Annotations, Template: d.Spec.Template, Status: *d.Status.DeepCopy()}
	for i := range v.Status.Conditions {
		cd := &v.Status.Conditions[i]
		cd.LastUpdateTime.Time = c.toVirtual(cd.LastUpdateTime.Time)
		cd.LastTransitionTime.Time = c.toVirtual(cd.LastTransitionTime.Time)
	}
	return v
}

// syncCase is one sync's inputs and both sides' answers, for a report.
type syncCase struct {
	trace, sync int
	seed        uint64
	log         []string
	clock       clock
	in          *appsv1.Deployment
	inRSs       []*appsv1.ReplicaSet // in the order Plan got them
	upWrites    []rsWrite
	upDUpdates  []*appsv1.Deployment
	upErr       error
	upRefused   []string // writes the API server refused
	upRequeues  []requeue
	upEvents    []string // reasons of the events the controller recorded
	planWrites  []rsWrite
	planDUpd    []*appsv1.Deployment
	planErr     error
	plan        *rollout.Sync[kubeapps.Template]
	diffs       []difference
	// documented are the documented differences the sync fell in.
	documented []string
}

// difference is one disagreement: a class (what differs) and details.
type difference struct {
	class, detail string
}

// size orders cases for "smallest example" reporting.
func (c *syncCase) size() int {
	n := len(c.inRSs)*10 + int(*c.in.Spec.Replicas)
	for _, rs := range c.inRSs {
		n += int(*rs.Spec.Replicas) + int(rs.Status.Replicas)
	}
	return n
}

// comparePlanner is the Planner compare runs beside Plan, reused from
// one sync to the next as a controller reuses it.
var comparePlanner rollout.Planner[kubeapps.Template]

// compare runs Plan on the inputs the controller saw and lists every
// difference between the controller's writes and state after the sync
// and Plan's.
func compare(c *syncCase, outD *appsv1.Deployment, outRSs []*appsv1.ReplicaSet, perturb func(*rollout.Sync[kubeapps.Template])) {
	add := func(class, format string, args ...any) {
		c.diffs = append(c.diffs, difference{class, fmt.Sprintf(format, args...)})
	}
	conv, err := kubeapps.Deployment(c.in)
	if err != nil {
		c.planErr = err
		add("Plan error", "kubeapps.Deployment: %v", err)
		return
	}
	s, err := rollout.Plan(&conv, kubeapps.ReplicaSets(c.inRSs), c.clock.start)
	if err != nil {
		c.planErr = err
		add("Plan error", "rollout.Plan: %v", err)
		return
	}
	// The Planner, its memory reused from sync to sync across traces and
	// the new ReplicaSet named when one existed, gives the very same
	// Sync once explained.
	named := ""
	if s.NewReplicaSet >= 0 && s.Hash == "" {
		named = s.ReplicaSets[s.NewReplicaSet].Name
	}
	if ps, err := comparePlanner.Plan(&conv, kubeapps.ReplicaSets(c.inRSs), c.clock.start, named); err != nil {
		add("Planner", "Planner.Plan (new ReplicaSet %q) failed where Plan did not: %v", named, err)
	} else if comparePlanner.Explain(); !reflect.DeepEqual(*ps, s) {
		add("Planner", "Planner.Plan (new ReplicaSet %q) differs from Plan:\n  Plan:    %+v\n  Planner: %+v", named, s, *ps)
	}
	if perturb != nil {
		perturb(&s)
	}
	c.plan = &s
	changes, err := kubeapps.Changes(c.in, c.inRSs, &s)
	if err != nil {
		c.planErr = err
		add("Plan error", "kubeapps.Changes: %v", err)
		return
	}
	c.planWrites, c.planDUpd = planWrites(changes)

	// The documented difference needs the new ReplicaSet: the one Plan
	// found (not one it created).
	newName := ""
	if s.NewReplicaSet >= 0 {
		newName = s.ReplicaSets[s.NewReplicaSet].Name
	}

	// A refused create is a hash collision: Plan must count it.
	var collided []string
	for _, a := range s.Actions {
		if a.Kind == rollout.CountCollision {
			collided = append(collided, a.ReplicaSet)
		}
	}
	if !slices.Equal(c.upRefused, collided) {
		add("hash collision", "upstream's refused writes %v, Plan's collisions %v", c.upRefused, collided)
	}

	// The selector that selects everything: upstream's SelectingAll event
	// is Plan's PathSelectingAll (the writes, the status and the requeue
	// are compared below like any other sync's).
	if up, pl := slices.Contains(c.upEvents, "SelectingAll"), s.Path == rollout.PathSelectingAll; up != pl {
		add("selecting all", "upstream's SelectingAll event %v, Plan's path %s", up, s.Path)
	}

	// Looking at the Deployment again without an event.
	var planRequeues []requeue
	if s.Requeue {
		planRequeues = []requeue{{after: s.RequeueAfter, rateLimited: s.RequeueAfter == 0}}
	}
	if !slices.EqualFunc(c.upRequeues, planRequeues, func(u, p requeue) bool {
		// A delay counted from a condition the sync stamped with
		// metav1.Now() is longer upstream by at most the sync's own
		// duration (Plan's "now" is the instant the sync started).
		d := u.after - p.after
		return u.rateLimited == p.rateLimited && d >= 0 && d <= c.clock.took
	}) {
		add("requeue", "upstream %v, Plan %v", c.upRequeues, planRequeues)
	}

	// ReplicaSet writes, in order.
	if !slices.EqualFunc(c.upWrites, c.planWrites, sameWrite) {
		collapsed, repeated := collapseRepeat(c.upWrites, newName)
		switch {
		case repeated && s.Path != rollout.PathPaused && s.Path != rollout.PathRollback && s.Path != rollout.PathDeleting &&
			slices.EqualFunc(collapsed, c.planWrites, sameWrite):
			c.documented = append(c.documented, docRepeat)
		case sameMultiset(c.upWrites, c.planWrites):
			add("ReplicaSet write order", "upstream %d writes, Plan %d", len(c.upWrites), len(c.planWrites))
		default:
			add("ReplicaSet writes", "upstream %d writes, Plan %d", len(c.upWrites), len(c.planWrites))
		}
	}
	// Deployment spec updates (rollback, clearing the rollback annotation).
	if len(c.upDUpdates) != len(c.planDUpd) {
		add("Deployment updates", "upstream %d spec updates, Plan %d", len(c.upDUpdates), len(c.planDUpd))
	} else {
		for i := range c.upDUpdates {
			u, p := c.upDUpdates[i], c.planDUpd[i]
			if !equality.Semantic.DeepEqual(u.Annotations, p.Annotations) || !equality.Semantic.DeepEqual(u.Spec.Template, p.Spec.Template) {
				add("Deployment updates", "update %d: upstream annotations=%s image=%s, Plan annotations=%s image=%s",
					i, mapString(u.Annotations), image(&u.Spec.Template), mapString(p.Annotations), image(&p.Spec.Template))
			}
		}
	}

	// Every ReplicaSet after the sync.
	planRS := map[string]rsView{}
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		t := *rs.Template.DeepCopy()
		if s.Hash != "" && rs.Name == revision.ReplicaSetName(conv.Name, s.Hash) && rs.UID == "" {
			t.Labels = maps.Clone(t.Labels)
			if t.Labels == nil {
				t.Labels = map[string]string{}
			}
			t.Labels[revision.HashLabel] = s.Hash
		}
		minReady := int32(-1) // not known: reported as a difference
		if rs.MinReadySeconds != nil {
			minReady = *rs.MinReadySeconds
		}
		planRS[rs.Name] = rsView{rs.Name, rs.Replicas, minReady, rs.Generation, rs.Annotations, t}
	}
	upRS := map[string]rsView{}
	for _, rs := range outRSs {
		upRS[rs.Name] = rsView{rs.Name, *rs.Spec.Replicas, rs.Spec.MinReadySeconds, rs.Generation, rs.Annotations, rs.Spec.Template}
	}
	for _, name := range sortedKeys(upRS, planRS) {
		u, uok := upRS[name]
		p, pok := planRS[name]
		switch {
		case !uok:
			add("ReplicaSet set", "%s: only in Plan's result", name)
		case !pok:
			add("ReplicaSet set", "%s: only in upstream's result", name)
		default:
			if u.Replicas != p.Replicas {
				add("ReplicaSet replicas", "%s: upstream %d, Plan %d", name, u.Replicas, p.Replicas)
			}
			if u.MinReadySeconds != p.MinReadySeconds {
				add("ReplicaSet minReadySeconds", "%s: upstream %d, Plan %d", name, u.MinReadySeconds, p.MinReadySeconds)
			}
			if u.Generation != p.Generation {
				add("ReplicaSet generation", "%s: upstream %d, Plan %d", name, u.Generation, p.Generation)
			}
			if !equality.Semantic.DeepEqual(u.Annotations, p.Annotations) {
				add("ReplicaSet annotations", "%s: upstream %s, Plan %s", name, mapString(u.Annotations), mapString(p.Annotations))
			}
			if !equality.Semantic.DeepEqual(u.Template, p.Template) {
				add("ReplicaSet template", "%s: upstream %s %s, Plan %s %s", name, image(&u.Template), mapString(u.Template.Labels), image(&p.Template), mapString(p.Template.Labels))
			}
		}
	}

	// The Deployment after the sync.
	up := viewDeployment(outD, c.clock)
	pd := kubeapps.DeploymentObject(&s.Deployment, c.in)
	pl := viewDeployment(pd, c.clock)
	if up.Generation != pl.Generation {
		add("Deployment generation", "upstream %d, Plan %d", up.Generation, pl.Generation)
	}
	if !equality.Semantic.DeepEqual(up.Annotations, pl.Annotations) {
		add("Deployment annotations", "upstream %s, Plan %s", mapString(up.Annotations), mapString(pl.Annotations))
	}
	if !equality.Semantic.DeepEqual(up.Template, pl.Template) {
		add("Deployment template", "upstream %s, Plan %s", image(&up.Template), image(&pl.Template))
	}
	us, ps := up.Status, pl.Status
	uc, pc := us.Conditions, ps.Conditions
	us.Conditions, ps.Conditions = nil, nil
	if !equality.Semantic.DeepEqual(us, ps) {
		add("Deployment status", "upstream %s, Plan %s", statusString(&us), statusString(&ps))
	}
	if !equality.Semantic.DeepEqual(uc, pc) {
		add("Deployment conditions", "upstream %s, Plan %s", conditionsString(uc, c.clock.virtual), conditionsString(pc, c.clock.virtual))
	}
}

// The documented difference, by tally class.
const docRepeat = "upstream repeats its new-ReplicaSet update (isScalingEvent, then the branch taken)"

// collapseRepeat returns ws without the second of two consecutive
// identical updates of the ReplicaSet name, and whether there was one.
func collapseRepeat(ws []rsWrite, name string) ([]rsWrite, bool) {
	for i := 1; i < len(ws); i++ {
		if ws[i].Verb == "update" && ws[i].Name == name && sameWrite(ws[i-1], ws[i]) {
			return slices.Delete(slices.Clone(ws), i, i+1), true
		}
	}
	return ws, false
}

func sameMultiset(a, b []rsWrite) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
next:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && sameWrite(x, y) {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

func sortedKeys[V any](ms ...map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func mapString(m map[string]string) string {
	if m == nil {
		return "{}"
	}
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		short := strings.TrimPrefix(strings.TrimPrefix(k, "deployment.kubernetes.io/"), "deprecated.deployment.")
		parts[i] = fmt.Sprintf("%s:%q", short, m[k])
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func image(t *corev1.PodTemplateSpec) string {
	if len(t.Spec.Containers) == 0 {
		return "<none>"
	}
	return t.Spec.Containers[0].Image
}

func i32(p *int32) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func statusString(s *appsv1.DeploymentStatus) string {
	return fmt.Sprintf("{observedGeneration:%d replicas:%d updated:%d ready:%d available:%d unavailable:%d terminating:%s collisionCount:%s}",
		s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas, i32(s.TerminatingReplicas), i32(s.CollisionCount))
}

// at prints a virtual time relative to the sync's now.
func at(t, now time.Time) string {
	if t.Equal(now) {
		return "now"
	}
	return fmt.Sprintf("now-%ds", int(now.Sub(t).Seconds()))
}

func conditionsString(cs []appsv1.DeploymentCondition, now time.Time) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s=%s/%s %q (updated %s, transitioned %s)", c.Type, c.Status, c.Reason, c.Message, at(c.LastUpdateTime.Time, now), at(c.LastTransitionTime.Time, now))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// report prints a case in full: the inputs in virtual time, both sides'
// writes and the differences.
func (c *syncCase) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace %d (-traces.seed=%d -traces.only=%d), sync %d\n", c.trace, c.seed, c.trace, c.sync)
	if len(c.log) > 0 {
		fmt.Fprintf(&b, "  since the previous sync: %s\n", strings.Join(c.log, "; "))
	}
	d := c.in.DeepCopy()
	retime(d, nil, c.clock.toVirtual)
	fmt.Fprintf(&b, "  Deployment: generation=%d %s annotations=%s", d.Generation, describeSpec(d), mapString(d.Annotations))
	if d.DeletionTimestamp != nil {
		b.WriteString(" (being deleted)")
	}
	fmt.Fprintf(&b, "\n    status %s conditions %s\n", statusString(&d.Status), conditionsString(d.Status.Conditions, c.clock.virtual))
	fmt.Fprintf(&b, "  ReplicaSets (in the order Plan got them):\n")
	for _, rs := range c.inRSs {
		fmt.Fprintf(&b, "    %s created %s image=%s spec=%d status=%d ready=%d available=%d terminating=%s generation=%d observed=%d annotations=%s\n",
			rs.Name, at(c.clock.toVirtual(rs.CreationTimestamp.Time), c.clock.virtual), image(&rs.Spec.Template), *rs.Spec.Replicas,
			rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas, i32(rs.Status.TerminatingReplicas),
			rs.Generation, rs.Status.ObservedGeneration, mapString(rs.Annotations))
	}
	fmt.Fprintf(&b, "  upstream writes:")
	writesString(&b, c.upWrites, c.upDUpdates)
	if c.upErr != nil {
		fmt.Fprintf(&b, "    (sync error: %v)\n", c.upErr)
	}
	fmt.Fprintf(&b, "  Plan's writes:")
	writesString(&b, c.planWrites, c.planDUpd)
	if c.plan != nil {
		fmt.Fprintf(&b, "    (path %s: %s)\n", c.plan.Path, c.plan.Reason)
	}
	for _, df := range c.diffs {
		fmt.Fprintf(&b, "  differs: %s: %s\n", df.class, df.detail)
	}
	return b.String()
}

func writesString(b *strings.Builder, rsw []rsWrite, dUpd []*appsv1.Deployment) {
	if len(rsw) == 0 && len(dUpd) == 0 {
		b.WriteString(" none\n")
		return
	}
	b.WriteString("\n")
	for _, w := range rsw {
		fmt.Fprintf(b, "    %s\n", w)
	}
	for _, d := range dUpd {
		fmt.Fprintf(b, "    update Deployment annotations=%s image=%s\n", mapString(d.Annotations), image(&d.Spec.Template))
	}
}

// classTally collects, per set of difference classes, how many syncs and
// the smallest case.
type classTally struct {
	syncs    int
	smallest *syncCase
}

// TestPlanMatchesDeploymentControllerSyncBySync drives the real
// DeploymentController of k8s.io/kubernetes v1.36.3 (NewDeploymentController
// with a fake clientset, informer stores filled by the harness, its
// syncHandler called once per sync) through -traces random whole rollouts
// and compares each sync with rollout.Plan given exactly the Deployment
// and ReplicaSets the controller saw (converted by kubeapps, in a random
// order) and kubeapps.Changes: whether and when the controller queues the
// Deployment again (Sync.Requeue; an error is a rate-limited requeue), a
// hash collision, the selector that selects everything (upstream's
// SelectingAll event against PathSelectingAll), the ReplicaSet writes
// in order (verb, name, replicas, minReadySeconds, annotations, template
// with the hash label, labels of a created one), the Deployment spec updates, every
// ReplicaSet after the sync (replicas, minReadySeconds, generation,
// annotations, template) and the Deployment after it (generation, annotations,
// template, status counters, collision count, conditions with type,
// status, reason, message and both timestamps as kept or now). Each sync
// is also planned by one rollout.Planner reused across every sync, given
// the new ReplicaSet's name when one exists, and its explained Sync must
// equal Plan's (difference class "Planner").
//
// Between syncs the harness plays the user (image changes, resizes,
// pauses and resumes, rollbacks, strategy and bound changes, history
// limits, progress deadlines, annotations, minReadySeconds, a hash
// collision, a hand-edited revision annotation, deletion, now and then
// an empty selector and its restoration: see selectorEvent), the ReplicaSet
// controller and kubelets (pods toward spec, readiness, terminating pods)
// and lets time pass. The controller's result is the trace's truth: the
// next sync starts from what the API server holds after it.
//
// Clock: the controller's nowFn variables are frozen at the instant Plan
// gets; see clock for the timestamps metav1.Now() writes.
func TestPlanMatchesDeploymentControllerSyncBySync(t *testing.T) {
	first, n := 0, *traceCount
	var logf func(string)
	if *traceOnly >= 0 {
		first, n = *traceOnly, 1
		logf = func(s string) { t.Log(s) }
	}
	start := time.Now()
	r, err := runTraces(*traceSeed, first, n, nil, logf)
	if err != nil {
		t.Fatal(err)
	}
	for key, v := range r.classes {
		for range v {
			count("DeploymentController sync (rollout.Plan, whole-controller differential)", key)
		}
	}
	t.Logf("%d traces, %d syncs in %v; %d syncs wrote the Deployment more than once (a real API server would reject the later writes as conflicts)",
		n, r.syncs, time.Since(start).Round(time.Millisecond), r.multiWrite)
	t.Logf("reached: %s", r.coverage())
	for _, key := range slices.Sorted(maps.Keys(r.unexplained)) {
		tl := r.unexplained[key]
		t.Errorf("%d syncs differ in %s; smallest:\n%s", tl.syncs, key, tl.smallest.report())
	}
}

// traceResult sums up a run of traces.
type traceResult struct {
	syncs, multiWrite int
	// classes counts syncs by tally class: "agree", documented
	// differences, or the unexplained differences' classes.
	classes map[string]int
	// unexplained holds, per set of difference classes, the count and the
	// smallest case.
	unexplained map[string]*classTally
	// reached counts what the traces exercised: Plan's paths and action
	// kinds (per sync), and the rarer scripted events (per trace).
	reached map[string]int
}

// coverage prints reached in a stable order.
func (r traceResult) coverage() string {
	keys := slices.Sorted(maps.Keys(r.reached))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, r.reached[k])
	}
	return strings.Join(parts, ", ")
}

// runTraces runs traces first to first+n-1 of seed. perturb, when not
// nil, changes Plan's answer before the comparison (to check that the
// comparison sees it); logf, when not nil, gets every sync's report.
func runTraces(seed uint64, first, n int, perturb func(*rollout.Sync[kubeapps.Template]), logf func(string)) (traceResult, error) {
	res := traceResult{classes: map[string]int{}, unexplained: map[string]*classTally{}, reached: map[string]int{}}
	live, err := newLiveController()
	if err != nil {
		return res, err
	}
	for i := first; i < first+n; i++ {
		w := newWorld(seed + uint64(i))
		steps := 15 + w.r.IntN(30)
		for step := 0; step < steps; step++ {
			if step > 0 {
				w.log = nil
				w.advance()
				if w.r.IntN(4) != 0 {
					w.tick()
				}
				if w.r.IntN(10) < 3 {
					w.event()
				}
				w.selectorEvent()
			}
			c, outD, outRSs, writes := runSync(live, w, perturb)
			c.trace, c.sync, c.seed = i, step, seed
			res.syncs++
			if writes > 1 {
				res.multiWrite++
			}
			if logf != nil {
				logf(c.report())
			}
			key := "agree"
			if len(c.documented) > 0 {
				key = strings.Join(c.documented, "; ")
			}
			if len(c.diffs) > 0 {
				classes := make([]string, 0, len(c.diffs))
				for _, df := range c.diffs {
					if !slices.Contains(classes, df.class) {
						classes = append(classes, df.class)
					}
				}
				sort.Strings(classes)
				key = strings.Join(classes, " + ")
				tl := res.unexplained[key]
				if tl == nil {
					tl = &classTally{}
					res.unexplained[key] = tl
				}
				tl.syncs++
				if tl.smallest == nil || c.size() < tl.smallest.size() {
					tl.smallest = c
				}
			}
			res.classes[key]++
			for _, cd := range outD.Status.Conditions {
				if cd.Type == appsv1.DeploymentProgressing {
					res.reached["Progressing/"+cd.Reason]++
				}
			}
			for _, q := range c.upRequeues {
				if q.rateLimited {
					res.reached["requeue rate-limited"]++
				} else {
					res.reached["requeue after a delay"]++
				}
			}
			if c.plan != nil {
				res.reached["path "+c.plan.Path.String()]++
				for _, a := range c.plan.Actions {
					res.reached[a.Kind.String()]++
				}
			}
			// The controller's result is the truth the trace goes on from.
			retime(outD, outRSs, c.clock.toVirtual)
			w.d, w.rss = outD, outRSs
		}
		for event, ok := range map[string]bool{"traces with a collision": w.collided, "traces with an edited revision": w.tampered,
			"traces with the Deployment deleted": w.deleted, "traces with a ReplicaSet deleted": w.deleting,
			"traces with an empty selector": w.emptied} {
			if ok {
				res.reached[event]++
			}
		}
	}
	return res, nil
}

// TestDifferentialSeesPlantedDefects checks that the comparison is not
// blind: Plan's answer, changed in one place at a time, must be reported
// in the class that place belongs to.
// (The selecting-all plant claims PathSelectingAll on a paused sync:
// the check against upstream's SelectingAll event must see it.)
func TestDifferentialSeesPlantedDefects(t *testing.T) {
	plants := []struct {
		class   string
		perturb func(*rollout.Sync[kubeapps.Template])
	}{
		{"Deployment generation", func(s *rollout.Sync[kubeapps.Template]) { s.Deployment.Generation++ }},
		{"Deployment conditions", func(s *rollout.Sync[kubeapps.Template]) {
			if len(s.Deployment.Status.Conditions) > 0 {
				s.Deployment.Status.Conditions[0].LastUpdateTime = s.Deployment.Status.Conditions[0].LastUpdateTime.Add(-time.Second)
			}
		}},
		{"Deployment status", func(s *rollout.Sync[kubeapps.Template]) { s.Deployment.Status.ReadyReplicas++ }},
		{"requeue", func(s *rollout.Sync[kubeapps.Template]) {
			if s.Requeue {
				s.RequeueAfter += time.Second
			}
		}},
		{"ReplicaSet write order", func(s *rollout.Sync[kubeapps.Template]) {
			var scales []int
			for i, a := range s.Actions {
				if a.Kind == rollout.ScaleReplicaSet {
					scales = append(scales, i)
				}
			}
			if len(scales) >= 2 {
				s.Actions[scales[0]], s.Actions[scales[1]] = s.Actions[scales[1]], s.Actions[scales[0]]
			}
		}},
		{"ReplicaSet generation", func(s *rollout.Sync[kubeapps.Template]) {
			if len(s.ReplicaSets) > 0 {
				s.ReplicaSets[0].Generation++
			}
		}},
		{"selecting all", func(s *rollout.Sync[kubeapps.Template]) {
			if s.Path == rollout.PathPaused {
				s.Path = rollout.PathSelectingAll
			}
		}},
		{"ReplicaSet minReadySeconds", func(s *rollout.Sync[kubeapps.Template]) {
			if s.NewReplicaSet >= 0 && s.ReplicaSets[s.NewReplicaSet].MinReadySeconds != nil {
				m := *s.ReplicaSets[s.NewReplicaSet].MinReadySeconds + 1
				s.ReplicaSets[s.NewReplicaSet].MinReadySeconds = &m
			}
		}},
	}
	for _, p := range plants {
		r, err := runTraces(1, 0, 40, p.perturb, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for key, tl := range r.unexplained {
			if strings.Contains(key, p.class) {
				seen += tl.syncs
			}
		}
		if seen == 0 {
			t.Errorf("a planted change of %s went unnoticed in 40 traces", p.class)
		}
	}
}

// runSync runs one sync of the world through the controller and Plan.
func runSync(live *liveController, w *world, perturb func(*rollout.Sync[kubeapps.Template])) (c *syncCase, outD *appsv1.Deployment, outRSs []*appsv1.ReplicaSet, dWrites int) {
	wall := time.Now().Round(0)
	clk := clock{virtual: w.now, start: wall, shift: wall.Sub(w.now)}
	d := w.d.DeepCopy()
	rss := make([]*appsv1.ReplicaSet, len(w.rss))
	for i, rs := range w.rss {
		rss[i] = rs.DeepCopy()
	}
	retime(d, rss, clk.toReal)
	upErr, actions, failed, outD, outRSs, uids := live.syncOnce(d, rss, w.uids, clk.start)
	w.uids = uids
	clk.took = time.Since(wall)
	c = &syncCase{log: w.log, clock: clk, in: d, upErr: upErr}
	c.upWrites, c.upDUpdates, dWrites, c.upRefused = upstreamWrites(actions, failed)
	c.upRequeues = slices.Clone(live.queue.requeues)
	c.upEvents = slices.Clone(live.events.reasons)
	if upErr != nil {
		// processNextWorkItem's handleErr queues the key rate-limited.
		c.upRequeues = append(c.upRequeues, requeue{rateLimited: true})
	}
	dWrites += len(c.upDUpdates)
	// Plan gets the same objects, in an order of the trace's choosing.
	c.inRSs = kubeapps.Owned(d, rss)
	w.r.Shuffle(len(c.inRSs), func(i, j int) { c.inRSs[i], c.inRSs[j] = c.inRSs[j], c.inRSs[i] })
	compare(c, outD, outRSs, perturb)
	return c, outD, outRSs, dWrites
}
