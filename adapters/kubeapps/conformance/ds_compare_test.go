package conformance

// The whole-controller differential for DaemonSets: every sync of the
// real DaemonSetsController in random traces is compared with
// daemonset.Plan given the same DaemonSet, nodes (answered by
// kubeapps.DaemonSetNodes), pods, ControllerRevisions and instant. See
// TestPlanMatchesDaemonSetControllerSyncBySync.

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	_ "unsafe" // for go:linkname

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	core "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	dscontroller "k8s.io/kubernetes/pkg/controller/daemon"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

var (
	dsTraceCount = flag.Int("ds.traces", 300, "random DaemonSet rollouts TestPlanMatchesDaemonSetControllerSyncBySync drives through the real DaemonSetsController")
	dsTraceSyncs = flag.Int("ds.syncs", 40, "syncs per DaemonSet trace")
	dsTraceSeed  = flag.Uint64("ds.seed", 1, "seed of the first DaemonSet trace; trace i uses seed+i")
	dsTraceOnly  = flag.Int("ds.only", -1, "run only DaemonSet trace number N (0-based, with -ds.seed) and log every sync")
)

// upstreamFindUpdatedPodsOnNode is findUpdatedPodsOnNode
// (pkg/controller/daemon/update.go), which the choice classes read.
//
//go:linkname upstreamFindUpdatedPodsOnNode k8s.io/kubernetes/pkg/controller/daemon.findUpdatedPodsOnNode
func upstreamFindUpdatedPodsOnNode(ds *appsv1.DaemonSet, podsOnNode []*corev1.Pod, hash string) (newPod, oldPod *corev1.Pod, ok bool)

// dsWrite is one write of a sync, as compared: its key says what it
// writes (pods by node when created, the API server names them), and
// choice says it belongs to a set upstream picks from in map order.
type dsWrite struct {
	key    string
	kind   string // the verb and resource, for the order check
	choice bool
}

func statusKey(s *appsv1.DaemonSetStatus) string {
	cc := "nil"
	if s.CollisionCount != nil {
		cc = fmt.Sprint(*s.CollisionCount)
	}
	return fmt.Sprintf("observedGeneration=%d desired=%d current=%d misscheduled=%d ready=%d updated=%d available=%d unavailable=%d collisionCount=%s",
		s.ObservedGeneration, s.DesiredNumberScheduled, s.CurrentNumberScheduled, s.NumberMisscheduled, s.NumberReady,
		s.UpdatedNumberScheduled, s.NumberAvailable, s.NumberUnavailable, cc)
}

// dsUpstreamWrites reads the writes of a sync from the clientset's
// actions (reads and events are not writes).
func dsUpstreamWrites(actions []core.Action, failed []bool) []dsWrite {
	var out []dsWrite
	for i, a := range actions {
		res, verb := a.GetResource().Resource, a.GetVerb()
		if verb == "get" || verb == "list" || verb == "watch" || res == "events" {
			continue
		}
		w := dsWrite{kind: verb + " " + res}
		switch {
		case res == "pods" && verb == "create":
			p := a.(core.CreateAction).GetObject().(*corev1.Pod)
			w.key = fmt.Sprintf("create pod on %s hash=%s gen=%s", affinityNodeOf(p), p.Labels[daemonset.HashLabel], p.Labels[daemonset.TemplateGenerationLabel])
		case res == "pods" && verb == "delete":
			w.key = "delete pod " + a.(core.DeleteAction).GetName()
		case res == "pods" && verb == "patch":
			w.key = "relabel pod " + a.(core.PatchAction).GetName()
		case res == "controllerrevisions" && verb == "create":
			r := a.(core.CreateAction).GetObject().(*appsv1.ControllerRevision)
			w.key = fmt.Sprintf("create revision %s number=%d hash=%s", r.Name, r.Revision, r.Labels[daemonset.HashLabel])
		case res == "controllerrevisions" && verb == "update":
			r := a.(core.UpdateAction).GetObject().(*appsv1.ControllerRevision)
			w.key = fmt.Sprintf("update revision %s number=%d hash=%s", r.Name, r.Revision, r.Labels[daemonset.HashLabel])
		case res == "controllerrevisions" && verb == "delete":
			w.key = "delete revision " + a.(core.DeleteAction).GetName()
		case res == "daemonsets" && verb == "update":
			w.key = "status " + statusKey(&a.(core.UpdateAction).GetObject().(*appsv1.DaemonSet).Status)
		default:
			w.key = fmt.Sprintf("%s %s/%s", verb, res, a.GetSubresource())
		}
		if failed[i] {
			w.key += " (refused)"
		}
		out = append(out, w)
	}
	return out
}

// dsPlanWrites reads the writes of Plan's sync in the same form.
func dsPlanWrites(before *dsObjects, sync *daemonset.Sync[kubeapps.Template]) []dsWrite {
	var out []dsWrite
	gen := before.ds.Annotations[appsv1.DeprecatedTemplateGeneration]
	for _, a := range sync.Actions {
		var w dsWrite
		switch a.Kind {
		case daemonset.CreatePod:
			w.kind, w.key = "create pods", fmt.Sprintf("create pod on %s hash=%s gen=%s", a.Node, a.Hash, gen)
		case daemonset.DeletePod:
			w.kind, w.key = "delete pods", "delete pod "+a.Pod
		case daemonset.RelabelPod:
			w.kind, w.key = "patch pods", "relabel pod "+a.Pod
		case daemonset.LabelRevision:
			w.kind = "update controllerrevisions"
			w.key = fmt.Sprintf("update revision %s number=%d hash=%s", a.Revision, before.revs[a.Revision].Revision, a.Hash)
		case daemonset.WriteRevision:
			if _, ok := before.revs[a.Revision]; ok {
				w.kind = "update controllerrevisions"
				w.key = fmt.Sprintf("update revision %s number=%d hash=%s", a.Revision, a.Number, a.Hash)
			} else {
				w.kind = "create controllerrevisions"
				w.key = fmt.Sprintf("create revision %s number=%d hash=%s", a.Revision, a.Number, a.Hash)
			}
		case daemonset.DeleteRevision:
			w.kind, w.key = "delete controllerrevisions", "delete revision "+a.Revision
		case daemonset.BumpCollisionCount:
			// Upstream finds the collision by trying to create the
			// revision, which the API server refuses; the action stands
			// for that attempt (numbered after the highest revision, named
			// by its hash) and the status write that follows.
			var number int64
			for _, r := range before.revs {
				number = max(number, r.Revision)
			}
			hash := strings.TrimPrefix(a.Revision, before.ds.Name+"-")
			out = append(out, dsWrite{kind: "create controllerrevisions",
				key: fmt.Sprintf("create revision %s number=%d hash=%s (refused)", a.Revision, number+1, hash)})
			st := kubeapps.DaemonSetStatusObject(&sync.DaemonSet.Status)
			w.kind, w.key = "update daemonsets", "status "+statusKey(&st)
		case daemonset.WriteStatus:
			st := kubeapps.DaemonSetStatusObject(&sync.DaemonSet.Status)
			w.kind, w.key = "update daemonsets", "status "+statusKey(&st)
		default:
			w.kind, w.key = "unknown", a.Kind.String()
		}
		out = append(out, w)
	}
	return out
}

// choiceClasses returns what upstream's rolling update picks from in Go
// map order on the world before the sync, with the sync's hash: the
// old, available pods a rolling update without surge may delete (it
// deletes as many as the budget allows, any of them), and with surge the
// nodes whose old available pod may get a new one beside it and the old
// available pods on nodes that should no longer run one (deleted as the
// number available exceeds the desired number, any of them). The classes
// are read with upstream's own functions (findUpdatedPodsOnNode,
// NodeShouldRunDaemonPod, IsPodAvailable).
func choiceClasses(o *dsObjects, hash string, now time.Time) (surgeNodes, deletePods map[string]bool) {
	surgeNodes, deletePods = map[string]bool{}, map[string]bool{}
	ds := o.ds
	byNode := map[string][]*corev1.Pod{}
	for _, p := range sortedValues(o.pods) {
		if podutil.IsPodTerminal(p) && p.DeletionTimestamp != nil {
			continue
		}
		node := p.Spec.NodeName
		if node == "" {
			node = affinityNodeOf(p)
		}
		if node != "" {
			byNode[node] = append(byNode[node], p)
		}
	}
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	surge := ru != nil && ru.MaxSurge != nil && ru.MaxSurge.String() != "0" && ru.MaxSurge.String() != "0%"
	at := metav1.Time{Time: now}
	for node, pods := range byNode {
		newPod, oldPod, ok := upstreamFindUpdatedPodsOnNode(ds, pods, hash)
		if !ok || oldPod == nil || newPod != nil || !podutil.IsPodAvailable(oldPod, ds.Spec.MinReadySeconds, at) {
			continue
		}
		if !surge {
			deletePods[oldPod.Name] = true
			continue
		}
		n, exists := o.nodes[node]
		if !exists {
			continue
		}
		if shouldRun, _ := dscontroller.NodeShouldRunDaemonPod(klog.Background(), n, ds); shouldRun {
			surgeNodes[node] = true
		} else {
			deletePods[oldPod.Name] = true
		}
	}
	return surgeNodes, deletePods
}

// markChoices marks the writes in the choice classes.
func markChoices(ws []dsWrite, surgeNodes, deletePods map[string]bool) {
	for i := range ws {
		k := ws[i].key
		if name, ok := strings.CutPrefix(k, "delete pod "); ok && deletePods[name] {
			ws[i].choice = true
		}
		if rest, ok := strings.CutPrefix(k, "create pod on "); ok && surgeNodes[strings.Fields(rest)[0]] {
			ws[i].choice = true
		}
	}
}

// kindRuns is the sequence of write kinds with repeats collapsed: the
// order of the sync's steps (pods are created and deleted in parallel
// goroutines upstream, so the order within a run is not compared).
func kindRuns(ws []dsWrite) []string {
	var out []string
	for _, w := range ws {
		if len(out) == 0 || out[len(out)-1] != w.kind {
			out = append(out, w.kind)
		}
	}
	return out
}

// split returns the keys outside the choice classes, sorted, and how
// many writes of each kind fall inside them.
func split(ws []dsWrite) (fixed []string, chosen map[string]int) {
	chosen = map[string]int{}
	for _, w := range ws {
		if w.choice {
			chosen[w.kind]++
		} else {
			fixed = append(fixed, w.key)
		}
	}
	sort.Strings(fixed)
	return fixed, chosen
}

// dsTally counts what the traces compared.
type dsTally struct {
	traces, syncs, writes, rollingSyncs, choiceSyncs, surgeSyncs, failedSyncs, requeueAfter int
	// kinds counts upstream's writes by verb and resource ("refused"
	// marks the ones the API server refused).
	kinds map[string]int
	// tieReruns counts syncs with tied revision numbers where upstream
	// was run again until it made Plan's choice.
	tieReruns int
}

// tiedRevisionNumbers reports whether two revisions have the same
// number. Upstream then orders them at random: dedupCurHistories keeps
// the last current revision with the highest number in its cache's list
// order (Go map order), and cleanupHistory deletes old revisions in an
// unstable sort by number of that list.
func tiedRevisionNumbers(o *dsObjects) bool {
	seen := map[int64]bool{}
	for _, r := range o.revs {
		if seen[r.Revision] {
			return true
		}
		seen[r.Revision] = true
	}
	return false
}

// dsPlanFunc plans one sync from the converted inputs: daemonset.Plan,
// or a planted defect.
type dsPlanFunc func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error)

// compareDsSync compares one sync of upstream with plan on the same
// inputs and returns the differences, empty when they agree.
func compareDsSync(before *dsObjects, now time.Time, up *dsSyncResult, t *dsTally, plan dsPlanFunc) []string {
	var diffs []string
	ds := kubeapps.DaemonSet(before.ds)
	nodes, err := kubeapps.DaemonSetNodes(before.ds, sortedValues(before.nodes))
	if err != nil {
		return []string{"DaemonSetNodes: " + err.Error()}
	}
	sync, err := plan(&ds, nodes, kubeapps.DaemonSetPods(sortedValues(before.pods)), kubeapps.DaemonSetRevisions(sortedValues(before.revs)), now)
	if err != nil {
		return []string{"Plan: " + err.Error()}
	}
	uw, pw := dsUpstreamWrites(up.actions, up.failed), dsPlanWrites(before, &sync)
	t.writes += len(uw)
	if t.kinds == nil {
		t.kinds = map[string]int{}
	}
	for _, w := range uw {
		k := w.kind
		if strings.HasSuffix(w.key, "(refused)") {
			k += " (refused)"
		}
		t.kinds[k]++
	}
	if sync.RollingUpdate != nil {
		t.rollingSyncs++
		surgeNodes, deletePods := choiceClasses(before, sync.Hash, now)
		markChoices(uw, surgeNodes, deletePods)
		markChoices(pw, surgeNodes, deletePods)
		if len(surgeNodes) > 0 {
			t.surgeSyncs++
		}
	}
	uf, uc := split(uw)
	pf, pc := split(pw)
	if !slices.Equal(uf, pf) {
		diffs = append(diffs, fmt.Sprintf("writes outside the choice classes differ:\n upstream %q\n plan     %q", uf, pf))
	}
	if !reflect.DeepEqual(uc, pc) {
		diffs = append(diffs, fmt.Sprintf("writes inside the choice classes differ in number: upstream %v, plan %v", uc, pc))
	} else if len(uc) > 0 {
		t.choiceSyncs++
	}
	if a, b := kindRuns(uw), kindRuns(pw); !slices.Equal(a, b) {
		diffs = append(diffs, fmt.Sprintf("order of the write kinds differs: upstream %q, plan %q", a, b))
	}
	// The objects after the sync.
	if a, b := statusKey(&up.after.ds.Status), kubeapps.DaemonSetStatusObject(&sync.DaemonSet.Status); a != statusKey(&b) {
		diffs = append(diffs, fmt.Sprintf("status after: upstream %s, plan %s", a, statusKey(&b)))
	}
	var ur, pr []string
	for _, r := range sortedValues(up.after.revs) {
		ur = append(ur, fmt.Sprintf("%s number=%d hash=%s", r.Name, r.Revision, r.Labels[daemonset.HashLabel]))
	}
	for _, r := range sync.Revisions {
		pr = append(pr, fmt.Sprintf("%s number=%d hash=%s", r.Name, r.Number, r.Hash))
	}
	sort.Strings(pr)
	if !slices.Equal(ur, pr) {
		diffs = append(diffs, fmt.Sprintf("revisions after: upstream %q, plan %q", ur, pr))
	}
	// The requeue: a failed sync is retried rate-limited; otherwise an
	// AddAfter(minReadySeconds).
	var after []time.Duration
	for _, r := range up.requeues {
		if !r.rateLimited {
			after = append(after, r.after)
		}
	}
	switch {
	case up.err != nil:
		t.failedSyncs++
		if !sync.Requeue || sync.RequeueAfter != 0 {
			diffs = append(diffs, fmt.Sprintf("upstream failed (%v); plan requeue=%v after %s", up.err, sync.Requeue, sync.RequeueAfter))
		}
	case len(after) > 0:
		t.requeueAfter++
		if !sync.Requeue || sync.RequeueAfter != after[0] || len(after) != 1 {
			diffs = append(diffs, fmt.Sprintf("upstream requeues after %v; plan requeue=%v after %s", after, sync.Requeue, sync.RequeueAfter))
		}
	default:
		if sync.Requeue {
			diffs = append(diffs, fmt.Sprintf("upstream does not requeue; plan requeue after %s", sync.RequeueAfter))
		}
	}
	return diffs
}

// runDsTrace drives one trace and returns the first sync's differences.
func runDsTrace(c *dsLive, seed uint64, syncs int, t *dsTally, plan dsPlanFunc, logf func(string, ...any)) (int, []string, string) {
	w := newDsWorld(seed)
	t.traces++
	for i := range syncs {
		before := w.obj.clone()
		up := c.syncOnce(before, w.now)
		t.syncs++
		if logf != nil {
			var keys []string
			for _, x := range dsUpstreamWrites(up.actions, up.failed) {
				keys = append(keys, x.key)
			}
			logf("sync %d after %q\n%s\nupstream err=%v writes=%q", i, w.log, describeWorld(before, w.now), up.err, keys)
		}
		diffs := compareDsSync(before, w.now, &up, t, plan)
		if len(diffs) > 0 && tiedRevisionNumbers(before) {
			// Upstream orders revisions with the same number at random:
			// run the same sync again until it makes Plan's choice.
			var scratch dsTally
			for range 40 {
				up = c.syncOnce(before, w.now)
				if diffs = compareDsSync(before, w.now, &up, &scratch, plan); len(diffs) == 0 {
					t.tieReruns++
					break
				}
			}
		}
		if len(diffs) > 0 {
			return i, diffs, fmt.Sprintf("events since the last sync: %q\n%s", w.log, describeWorld(before, w.now))
		}
		w.log = w.log[:0]
		w.obj = up.after
		w.advance()
		w.tick()
		w.event()
	}
	return -1, nil, ""
}

// TestPlanMatchesDaemonSetControllerSyncBySync drives the real
// DaemonSetsController of Kubernetes v1.36.3 through random rollouts
// (-ds.traces, default 300, of -ds.syncs syncs each) and compares every
// sync with daemonset.Plan on the same inputs: the writes (pods created
// by node and revision, pods deleted by name, revisions created,
// renumbered, relabelled and deleted, status), the order of their kinds,
// the revisions and status after the sync, and the requeue.
//
// Upstream walks nodes in Go's map order, so where its rolling update
// picks some of a set it picks different members from run to run: old
// available pods to delete without surge, nodes to surge onto, and pods
// on nodes that no longer should run one with surge (choiceClasses). For
// those, the sync must write the same number on both sides, each a member
// of the set; every other write must be the same. Pods created are
// compared by node, hash and template generation (the API server names
// them). The trace follows upstream's world.
//
// Revisions with the same number (the traces copy revisions) are ordered
// at random upstream too: when several hold the template with the
// highest number, dedupCurHistories keeps the one its cache lists last,
// in Go map order, and cleanupHistory deletes old revisions in an
// unstable sort by number; Plan decides ties by name. For such a sync
// the harness runs upstream again (up to 40 times) until the whole sync
// matches: Plan's choice is shown to be one upstream makes.
func TestPlanMatchesDaemonSetControllerSyncBySync(t *testing.T) {
	c := liveDaemonSetsController()
	var tally dsTally
	first, n := 0, *dsTraceCount
	if *dsTraceOnly >= 0 {
		first, n = *dsTraceOnly, 1
	}
	failures := 0
	for i := first; i < first+n; i++ {
		var logf func(string, ...any)
		if *dsTraceOnly >= 0 {
			logf = t.Logf
		}
		at, diffs, world := runDsTrace(c, *dsTraceSeed+uint64(i), *dsTraceSyncs, &tally, daemonset.Plan[kubeapps.Template], logf)
		if diffs != nil {
			failures++
			if failures <= 3 {
				t.Errorf("trace %d (-ds.seed %d -ds.only %d), sync %d:\n%s\n%s", i, *dsTraceSeed, i, at, strings.Join(diffs, "\n"), world)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d traces differ", failures, n)
	}
	t.Logf("%d traces, %d syncs compared (%d writes; %d syncs ran the rolling update, %d with surge candidates; %d picked from a choice class; %d failed syncs; %d requeued after minReadySeconds)",
		tally.traces, tally.syncs, tally.writes, tally.rollingSyncs, tally.surgeSyncs, tally.choiceSyncs, tally.failedSyncs, tally.requeueAfter)
	t.Logf("upstream writes by kind: %v; %d syncs with tied revision numbers matched on a rerun", tally.kinds, tally.tieReruns)
}

// TestDaemonSetDifferentialCatchesPlantedDefects runs the traces of
// TestPlanMatchesDaemonSetControllerSyncBySync against planners with one
// planted defect each and requires that the comparison reports a
// difference within 100 traces: a comparison that cannot fail would pass
// them all.
func TestDaemonSetDifferentialCatchesPlantedDefects(t *testing.T) {
	c := liveDaemonSetsController()
	type planFn = dsPlanFunc
	defects := []struct {
		name string
		plan planFn
	}{
		{"unavailable old pods replaced within the budget (Options.UnavailableOldPods)", func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error) {
			return daemonset.PlanWith(ds, nodes, pods, revs, now, daemonset.Options{UnavailableOldPods: daemonset.ReplaceWithinBudget})
		}},
		{"the clock one second late", func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error) {
			return daemonset.Plan(ds, nodes, pods, revs, now.Add(-time.Second))
		}},
		{"NoSchedule taints read as NoExecute", func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error) {
			nodes = slices.Clone(nodes)
			for i := range nodes {
				if !nodes[i].ShouldRun {
					nodes[i].ShouldContinueRunning = false
				}
			}
			return daemonset.Plan(ds, nodes, pods, revs, now)
		}},
		{"the template generation ignored", func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error) {
			d := *ds
			d.TemplateGeneration = nil
			return daemonset.Plan(&d, nodes, pods, revs, now)
		}},
		{"maxSurge read as one more node", func(ds *daemonset.DaemonSet[kubeapps.Template], nodes []daemonset.Node, pods []daemonset.Pod, revs []daemonset.ControllerRevision, now time.Time) (daemonset.Sync[kubeapps.Template], error) {
			d := *ds
			if ru := d.UpdateStrategy.RollingUpdate; ru != nil && ru.MaxSurge != nil && !ru.MaxSurge.IsString && ru.MaxSurge.Int > 0 {
				r := *ru
				v := *ru.MaxSurge
				v.Int++
				r.MaxSurge = &v
				d.UpdateStrategy.RollingUpdate = &r
			}
			return daemonset.Plan(&d, nodes, pods, revs, now)
		}},
	}
	for _, d := range defects {
		var tally dsTally
		caught := -1
		for i := range 100 {
			if at, _, _ := runDsTrace(c, *dsTraceSeed+uint64(i), *dsTraceSyncs, &tally, d.plan, nil); at >= 0 {
				caught = i
				break
			}
		}
		if caught < 0 {
			t.Errorf("planted defect %q: no difference in 100 traces (%d syncs)", d.name, tally.syncs)
		} else {
			t.Logf("planted defect %q: caught in trace %d after %d syncs", d.name, caught, tally.syncs)
		}
	}
}
