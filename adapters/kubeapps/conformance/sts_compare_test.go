package conformance

// The whole-controller differential for StatefulSets: every sync of the
// real StatefulSetController in the random traces of runStsTraces is
// compared with statefulset.PlanWith given the same StatefulSet, pods,
// ControllerRevisions, instant and gate. See
// TestPlanMatchesStatefulSetControllerSyncBySync.

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// stsPlanOf runs PlanWith on the inputs of step s.
func stsPlanOf(s *stsStep, opts statefulset.Options) (statefulset.Sync[kubeapps.Template], error) {
	set := kubeapps.StatefulSet(s.before.set)
	return statefulset.PlanWith(&set, kubeapps.StatefulSetPods(s.before.sortedPods()),
		kubeapps.StatefulSetRevisions(s.before.sortedRevisions()), s.now, opts)
}

// planStsWrites returns the writes of a Sync in the harness's form.
func planStsWrites(sync *statefulset.Sync[kubeapps.Template]) []stsWrite {
	var out []stsWrite
	for _, a := range sync.Actions {
		w := stsWrite{Step: -1}
		switch a.Stage {
		case statefulset.StageReplicas:
			w.Step = 0
		case statefulset.StageCondemned:
			w.Step = 1
		case statefulset.StageUpdate:
			w.Step = 2
		}
		switch a.Kind {
		case statefulset.CreateRevision:
			w.Kind, w.Verb, w.Name, w.Collisions = "revision", "create", a.Revision, a.Collisions
			w.Rev = &appsv1.ControllerRevision{Revision: a.Number}
		case statefulset.RenumberRevision:
			w.Kind, w.Verb, w.Name = "revision", "update", a.Revision
			w.Rev = &appsv1.ControllerRevision{Revision: a.Number}
		case statefulset.DeleteRevision:
			w.Kind, w.Verb, w.Name = "revision", "delete", a.Revision
		case statefulset.CreatePod:
			w.Kind, w.Verb, w.Name = "pod", "create", a.Pod
		case statefulset.UpdatePod:
			w.Kind, w.Verb, w.Name = "pod", "update", a.Pod
		case statefulset.DeletePod:
			w.Kind, w.Verb, w.Name = "pod", "delete", a.Pod
		case statefulset.AdoptPod:
			w.Kind, w.Verb, w.Name = "pod", "adopt", a.Pod
		case statefulset.ReleasePod:
			w.Kind, w.Verb, w.Name = "pod", "release", a.Pod
		case statefulset.WriteStatus:
			st := kubeapps.StatefulSetStatusObject(&sync.Status)
			w.Kind, w.Verb, w.Name, w.Status = "status", "update", stsName, &st
		default:
			w.Kind, w.Verb, w.Name = "unknown", a.Kind.String(), a.Pod
		}
		if a.Kind == statefulset.CreatePod {
			w.Pod = podAtRevision(a.Pod, a.Revision)
		}
		w.Refused = a.Rejected != ""
		out = append(out, w)
	}
	return out
}

// podAtRevision is a pod named name labelled at revision rev: what
// writeKey reads of a created pod.
func podAtRevision(name, rev string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{appsv1.StatefulSetRevisionLabel: rev}}}
}

// writeKey is what two writes must agree on: verb, object, the revision
// a pod is created at, the number a revision gets, the status written
// and whether it was refused.
func writeKey(w stsWrite) string {
	s := w.Verb + " " + w.Kind + " " + w.Name
	switch {
	case w.Kind == "pod" && w.Verb == "create" && w.Pod != nil:
		s += " revision=" + w.Pod.Labels[appsv1.StatefulSetRevisionLabel]
	case w.Kind == "revision" && w.Verb != "delete" && w.Rev != nil:
		s += fmt.Sprintf(" number=%d", w.Rev.Revision)
		if w.Collisions > 0 {
			s += fmt.Sprintf(" after %d collisions", w.Collisions)
		}
	case w.Status != nil:
		s += " " + stsStatusString(w.Status)
	}
	if w.Refused {
		s += " refused"
	}
	return s
}

// podView is a pod after a sync, as compared.
type podView struct {
	Revision, PodNameLabel, ControllerUID string
	Phase                                 statefulset.PodPhase
	Ready, Terminating                    bool
}

func podViews(pods []statefulset.Pod) map[string]podView {
	out := make(map[string]podView, len(pods))
	for _, p := range pods {
		out[p.Name] = podView{Revision: p.Revision, PodNameLabel: p.PodNameLabel, ControllerUID: p.ControllerUID, Phase: p.Phase, Ready: p.Ready, Terminating: p.Terminating}
	}
	return out
}

// revView is a revision after a sync, as compared.
type revView struct {
	Number int64
	Data   string
}

func revViews(revs []statefulset.ControllerRevision) map[string]revView {
	out := make(map[string]revView, len(revs))
	for _, r := range revs {
		out[r.Name] = revView{Number: r.Number, Data: string(r.Data)}
	}
	return out
}

// stsRefusedPodWrites returns the pod writes of upstream's sync s that
// the API server refused for a reason Plan does not model, by pod name
// (the verb): the identity fix of a pod adopted earlier in the same
// sync, sent from the controller's cache with the resourceVersion the
// adoption replaced, which is a Conflict (UpdateStatefulPod retries from
// the same stale cache and fails; in a cluster the informer may catch up
// between the retries, so the outcome depends on timing). A creation
// whose name a pod the set does not own holds (AlreadyExists) is not
// here: Plan models it (BlockRefused) and it is compared exactly.
func stsRefusedPodWrites(s *stsStep) map[string]string {
	var out map[string]string
	adopted := map[string]bool{}
	for _, w := range s.writes {
		if w.Kind != "pod" {
			continue
		}
		if w.Verb == "adopt" && !w.Refused {
			adopted[w.Name] = true
		}
		if w.Refused && w.Verb == "update" && adopted[w.Name] {
			if out == nil {
				out = map[string]string{}
			}
			out[w.Name] = w.Verb
		}
	}
	return out
}

// slowStartEnd returns the slot index one past the end of the
// slow-start batch holding slot k: batches of 1, 2, 4, ... slots, at
// most 500 (slowStartBatch in stateful_set_control.go).
func slowStartEnd(k int) int {
	end, size := 0, 1
	for end <= k {
		end += size
		size = min(2*size, 500)
	}
	return end
}

// refusedWriteModel is the documented difference of stsRefusedPodWrites:
// Plan makes those writes as if they succeeded (and may go on to a
// refused creation of its own beyond them). Upstream's write fails,
// the slot's processReplica returns the error, and runForAll stops: under
// OrderedReady at once, under Parallel once the slow-start batch holding
// the slot finishes; the condemned and update steps do not run; the
// status (without the update step's decrements of currentReplicas) is
// written and the history truncated as usual, and the sync returns the
// error. The model returns Plan's sync cut the same way.
func refusedWriteModel(s *stsStep, sync *statefulset.Sync[kubeapps.Template], refused map[string]string) (writes []stsWrite, pods map[string]podView, status appsv1.StatefulSetStatus) {
	set := s.before.set
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	cut := -1 // slot index from which pod writes are dropped
	for name := range refused {
		k := podOrdinal(name) - start
		end := k + 1
		if set.Spec.PodManagementPolicy == appsv1.ParallelPodManagement {
			end = slowStartEnd(k)
		}
		if cut < 0 || end < cut {
			cut = end
		}
	}
	pods = podViews(sync.Pods)
	for name := range refused {
		v := pods[name]
		v.PodNameLabel = s.before.pods[name].Labels[appsv1.StatefulSetPodNameLabel]
		pods[name] = v
	}
	st := sync.Status
	dropped := 0
	var deletes []stsWrite // revision deletions (the history, after the status)
	// Pods whose deletion is dropped, and pods deleted by a write kept (a
	// failed pod may be deleted twice: by the replica and update steps).
	undeleted, deleted := map[string]bool{}, map[string]bool{}
	for _, w := range canonicalOrder(planStsWrites(sync), s.before) {
		modelled := w.Kind == "pod" && refused[w.Name] == w.Verb
		if modelled {
			w.Refused = true
		}
		if w.Kind == "pod" && !isClaim(w) && !modelled {
			if ph := w.Step; ph != 0 || podOrdinal(w.Name)-start >= cut {
				dropped++
				switch w.Verb {
				case "create":
					delete(pods, w.Name)
				case "update":
					v := pods[w.Name]
					v.PodNameLabel = s.before.pods[w.Name].Labels[appsv1.StatefulSetPodNameLabel]
					pods[w.Name] = v
				case "delete":
					undeleted[w.Name] = true
					if ph == 2 {
						st.CurrentReplicas++
					}
				}
				continue
			}
		}
		if w.Kind == "pod" && w.Verb == "delete" {
			deleted[w.Name] = true
		}
		switch {
		case w.Kind == "status":
		case w.Kind == "revision" && w.Verb == "delete":
			deletes = append(deletes, w)
		default:
			writes = append(writes, w)
		}
	}
	for name := range undeleted {
		if !deleted[name] {
			v := pods[name]
			v.Terminating = false
			pods[name] = v
		}
	}
	// The status upstream computes, written when it differs from the
	// stored one (inconsistentStatus) and kept when the API server
	// accepts it.
	status = s.before.set.Status
	input := kubeapps.StatefulSetStatus(&s.before.set.Status)
	if statefulset.StatusChanged(&input, &st) {
		obj := kubeapps.StatefulSetStatusObject(&st)
		refused := checkStatefulSetStatus(&obj) != nil
		writes = append(writes, stsWrite{Kind: "status", Verb: "update", Name: stsName, Status: &obj, Refused: refused})
		if !refused {
			status = obj
		}
	}
	return append(writes, deletes...), pods, status
}

// compareStsSync returns the differences between the controller's sync
// s and Plan's answer sync: the writes in order (made canonical where
// upstream's order is not fixed, see canonicalOrder), every pod and
// revision after the sync, the status stored, whether the sync failed
// and its requeue.
func compareStsSync(s *stsStep, sync *statefulset.Sync[kubeapps.Template]) []string {
	var diffs []string
	up, ours := canonicalOrder(foldRetries(foldCollisions(s.writes)), s.before), canonicalOrder(planStsWrites(sync), s.before)
	ourPods := podViews(sync.Pods)
	ourStatus := kubeapps.StatefulSetStatusObject(&sync.StatefulSet.Status)
	refused := stsRefusedPodWrites(s)
	if refused != nil {
		ours, ourPods, ourStatus = refusedWriteModel(s, sync, refused)
	}
	upKeys, ourKeys := make([]string, len(up)), make([]string, len(ours))
	for i, w := range up {
		upKeys[i] = writeKey(w)
	}
	for i, w := range ours {
		ourKeys[i] = writeKey(w)
	}
	if !reflect.DeepEqual(upKeys, ourKeys) {
		diffs = append(diffs, fmt.Sprintf("writes:\n      upstream %s\n      Plan     %s", strings.Join(upKeys, "; "), strings.Join(ourKeys, "; ")))
	}
	// Sync.Pods are the pods the set claims; upstream's are those the
	// API server holds after the sync with the set as their controller,
	// a member's name and the selector's labels (a set being deleted
	// neither releases nor claims an owned pod the selector misses).
	var owned []statefulset.Pod
	for _, p := range kubeapps.StatefulSetPods(s.res.after.sortedPods()) {
		if parent, _ := statefulset.ParseOrdinal(p.Name); p.ControllerUID == string(stsUID) && parent == stsName && p.Labels["app"] == "web" {
			owned = append(owned, p)
		}
	}
	upPods := podViews(owned)
	if !reflect.DeepEqual(upPods, ourPods) {
		diffs = append(diffs, fmt.Sprintf("pods after:\n      upstream %v\n      Plan     %v", upPods, ourPods))
	}
	upRevs := revViews(kubeapps.StatefulSetRevisions(s.res.after.sortedRevisions()))
	if ourRevs := revViews(sync.Revisions); !reflect.DeepEqual(upRevs, ourRevs) {
		diffs = append(diffs, fmt.Sprintf("revisions after:\n      upstream %v\n      Plan     %v", upRevs, ourRevs))
	}
	upStatus := s.res.after.set.Status
	if !equality.Semantic.DeepEqual(upStatus, ourStatus) {
		diffs = append(diffs, fmt.Sprintf("status after:\n      upstream %s\n      Plan     %s", stsStatusString(&upStatus), stsStatusString(&ourStatus)))
	}
	// A sync fails only when the API server refuses a write; the worker
	// then requeues the key rate-limited. A successful sync may ask for a
	// look after a delay (AddAfter).
	upAfter := time.Duration(-1)
	for _, r := range s.res.requeues {
		if !r.rateLimited {
			upAfter = r.after
		}
	}
	switch {
	case refused != nil && s.res.err == nil:
		diffs = append(diffs, "failure: upstream has no error for a refused write")
	case refused != nil:
		// The model: the refused write fails the sync.
	case (s.res.err != nil) != (sync.Requeue && sync.RequeueAfter == 0):
		diffs = append(diffs, fmt.Sprintf("failure: upstream error %v, Plan requeue=%v after %s", s.res.err, sync.Requeue, sync.RequeueAfter))
	case s.res.err == nil && upAfter >= 0 && (!sync.Requeue || sync.RequeueAfter != upAfter):
		diffs = append(diffs, fmt.Sprintf("requeue: upstream after %s, Plan requeue=%v after %s", upAfter, sync.Requeue, sync.RequeueAfter))
	case s.res.err == nil && upAfter < 0 && sync.Requeue:
		diffs = append(diffs, fmt.Sprintf("requeue: upstream none, Plan after %s", sync.RequeueAfter))
	}
	return diffs
}

// stsClasses names what a sync exercised, for the closing counts.
func stsClasses(s *stsStep, sync *statefulset.Sync[kubeapps.Template]) []string {
	set := s.before.set
	out := []string{string(set.Spec.PodManagementPolicy)}
	gate := "gate off"
	if s.gate {
		gate = "gate on"
	}
	out = append(out, gate)
	switch {
	case set.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType:
		out = append(out, "OnDelete")
	case set.Spec.UpdateStrategy.RollingUpdate == nil:
		out = append(out, "RollingUpdate without rollingUpdate")
	case *set.Spec.UpdateStrategy.RollingUpdate.Partition > 0:
		out = append(out, "partition > 0")
	}
	if set.Spec.Ordinals != nil && set.Spec.Ordinals.Start > 0 {
		out = append(out, "ordinals.start > 0")
	}
	if set.Spec.MinReadySeconds > 0 {
		out = append(out, "minReadySeconds > 0")
	}
	if set.DeletionTimestamp != nil {
		out = append(out, "StatefulSet deleting")
	}
	if len(stsRefusedPodWrites(s)) > 0 {
		what := "identity fix of a pod adopted in the same sync"
		out = append(out, "documented: "+what, "documented: "+what+", "+string(set.Spec.PodManagementPolicy))
	}
	if cur := set.Status.CurrentRevision; cur != "" && s.before.revs[cur] == nil {
		out = append(out, "current revision missing")
	}
	refusedCreate := false
	for _, a := range sync.Actions {
		out = append(out, a.Kind.String())
		if a.Kind == statefulset.CreateRevision && a.Collisions > 0 {
			out = append(out, "revision name collision")
		}
		switch {
		case a.Rejected != "" && a.Kind == statefulset.CreatePod:
			refusedCreate = true
		case a.Rejected != "":
			out = append(out, "status rejected")
		}
	}
	if refusedCreate {
		out = append(out, "sync failed: pod name held", "sync failed: pod name held, "+string(set.Spec.PodManagementPolicy))
	}
	return out
}

// TestPlanMatchesStatefulSetControllerSyncBySync drives the real
// StatefulSetController of k8s.io/kubernetes v1.36.3 through random
// whole rollouts (-sts.traces of -sts.syncs syncs; template changes and
// rollbacks, partition steps, scale up and down to zero, OrderedReady and
// Parallel, ordinals.start, minReadySeconds, maxUnavailable with the
// MaxUnavailableStatefulSet gate toggled, OnDelete and RollingUpdate
// without a rollingUpdate block, pods deleted by hand, pods that fail,
// never become ready or stop being ready) and compares every sync with
// statefulset.PlanWith on the same inputs: the writes in order (the
// order inside a Parallel slow-start batch made canonical), every pod
// and revision after the sync, the stored status with
// observedGeneration, failure and requeue; a creation the API server
// refuses because a pod the set does not own holds the name is among
// them (Plan records it refused and fails the sync as upstream does).
// One difference is tolerated, documented and checked against its model
// (refusedWriteModel): Plan fixes the identity of a pod it adopted in
// the same sync, where upstream sends the fix from its stale cache, gets
// a Conflict and the sync fails.
func TestPlanMatchesStatefulSetControllerSyncBySync(t *testing.T) {
	classes := map[string]int{}
	writes, tolerated := 0, 0
	traces, syncs := runStsTraces(t, func(t *testing.T, s *stsStep) {
		sync, err := stsPlanOf(s, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: s.gate}})
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		if diffs := compareStsSync(s, &sync); len(diffs) > 0 {
			t.Errorf("Plan differs from the controller:\n    %s\n  Plan actions: %+v", strings.Join(diffs, "\n    "), sync.Actions)
			return
		}
		writes += len(s.writes)
		if stsRefusedPodWrites(s) != nil {
			tolerated++
		}
		for _, c := range stsClasses(s, &sync) {
			classes[c]++
		}
	})
	names := make([]string, 0, len(classes))
	for k := range classes {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "\n  %-40s %d", k, classes[k])
	}
	t.Logf("%d traces, %d syncs, %d writes compared with the real StatefulSetController, 0 differences, %d syncs matched through the documented difference (identity fix of a pod adopted in the same sync); syncs by class:%s",
		traces, syncs, writes, tolerated, b.String())
}

// TestStatefulSetComparisonCatchesPlantedDefects shows the comparison is
// not vacuous: Plan run with a defect planted (the gate read inverted;
// the OrderedReady policy read as Parallel and back; the last write
// dropped; a refused pod creation read as made; currentReplicas counted
// the fixed way) must be caught on the first traces.
func TestStatefulSetComparisonCatchesPlantedDefects(t *testing.T) {
	planted := []struct {
		name string
		plan func(s *stsStep) (statefulset.Sync[kubeapps.Template], error)
	}{
		{"gate inverted", func(s *stsStep) (statefulset.Sync[kubeapps.Template], error) {
			return stsPlanOf(s, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: !s.gate}})
		}},
		{"policy swapped", func(s *stsStep) (statefulset.Sync[kubeapps.Template], error) {
			set := kubeapps.StatefulSet(s.before.set)
			set.PodManagementPolicy = map[statefulset.PodManagementPolicy]statefulset.PodManagementPolicy{
				statefulset.OrderedReady: statefulset.Parallel, statefulset.Parallel: statefulset.OrderedReady}[set.PodManagementPolicy]
			return statefulset.PlanWith(&set, kubeapps.StatefulSetPods(s.before.sortedPods()),
				kubeapps.StatefulSetRevisions(s.before.sortedRevisions()), s.now, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: s.gate}})
		}},
		{"last write dropped", func(s *stsStep) (statefulset.Sync[kubeapps.Template], error) {
			sync, err := stsPlanOf(s, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: s.gate}})
			if n := len(sync.Actions); n > 0 {
				sync.Actions = sync.Actions[:n-1]
			}
			return sync, err
		}},
		{"refused creation read as made", func(s *stsStep) (statefulset.Sync[kubeapps.Template], error) {
			sync, err := stsPlanOf(s, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: s.gate}})
			for i := range sync.Actions {
				if sync.Actions[i].Kind == statefulset.CreatePod {
					sync.Actions[i].Rejected = ""
				}
			}
			return sync, err
		}},
		{"currentReplicas counted the fixed way", func(s *stsStep) (statefulset.Sync[kubeapps.Template], error) {
			return stsPlanOf(s, statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: s.gate},
				CurrentReplicas: statefulset.CurrentReplicasCountCurrentOnly})
		}},
	}
	saved := *stsTraceCount
	defer func() { *stsTraceCount = saved }()
	*stsTraceCount = min(saved, 100)
	for _, p := range planted {
		caught := 0
		runStsTraces(t, func(t *testing.T, s *stsStep) {
			sync, err := p.plan(s)
			if err != nil || len(compareStsSync(s, &sync)) > 0 {
				caught++
			}
		})
		if caught == 0 {
			t.Errorf("planted defect %q: no sync of %d traces differs", p.name, *stsTraceCount)
		} else {
			t.Logf("planted defect %q: %d syncs differ", p.name, caught)
		}
	}
}
