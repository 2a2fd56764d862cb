package conformance

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

var (
	stsTraceCount = flag.Int("sts.traces", 1000, "random whole rollouts the StatefulSet tests drive through the real StatefulSetController")
	stsTraceSeed  = flag.Uint64("sts.seed", 1, "seed of the first StatefulSet trace; trace i uses seed+i")
	stsTraceOnly  = flag.Int("sts.only", -1, "run only StatefulSet trace number N (0-based, with -sts.seed) and log every sync")
	stsTraceSyncs = flag.Int("sts.syncs", 30, "syncs per StatefulSet trace")
)

// stsStep is one sync of a trace: the objects and instant the
// controller was given, the gate, and what it did.
type stsStep struct {
	trace, index int
	before       *stsObjects
	now          time.Time
	gate         bool
	res          stsSyncResult
	writes       []stsWrite
	log          []string
}

func (s *stsStep) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace %d sync %d at +%s gate=%v\n", s.trace, s.index, s.now.Sub(traceStart), s.gate)
	for _, l := range s.log {
		fmt.Fprintf(&b, "  event: %s\n", l)
	}
	fmt.Fprintf(&b, "  set: generation=%d %s\n  status: %s\n", s.before.set.Generation, describeSts(s.before.set), stsStatusString(&s.before.set.Status))
	for _, p := range s.before.sortedPods() {
		fmt.Fprintf(&b, "  pod %s\n", podString(p, s.before.set.Spec.MinReadySeconds, s.now))
	}
	for _, r := range s.before.sortedRevisions() {
		fmt.Fprintf(&b, "  revision %s %d\n", r.Name, r.Revision)
	}
	fmt.Fprintf(&b, "  upstream (err=%v):\n", s.res.err)
	for _, w := range s.writes {
		fmt.Fprintf(&b, "    %s\n", w)
	}
	return b.String()
}

func podString(p *corev1.Pod, minReady int32, now time.Time) string {
	state := string(p.Status.Phase)
	if isReady(p) {
		state += "+ready"
		for _, c := range p.Status.Conditions {
			if c.Type == "Ready" {
				state += fmt.Sprintf("(since +%s)", c.LastTransitionTime.Sub(traceStart))
			}
		}
	}
	if p.DeletionTimestamp != nil {
		state += " terminating"
	}
	return fmt.Sprintf("%s revision=%s %s", p.Name, p.Labels[appsv1.StatefulSetRevisionLabel], state)
}

// runStsTraces drives every trace of the flags through the real
// controller and calls check after every sync; the gate is restored at
// the end.
func runStsTraces(t *testing.T, check func(t *testing.T, s *stsStep)) (traces, syncs int) {
	saved := utilfeature.DefaultFeatureGate.Enabled(features.MaxUnavailableStatefulSet)
	t.Cleanup(func() {
		_ = utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.MaxUnavailableStatefulSet): saved})
	})
	live := liveStatefulSetController()
	first, n := 0, *stsTraceCount
	if *stsTraceOnly >= 0 {
		first, n = *stsTraceOnly, *stsTraceOnly+1
	}
	for tr := first; tr < n; tr++ {
		w := newStsWorld(*stsTraceSeed + uint64(tr))
		for i := 0; i < *stsTraceSyncs; i++ {
			if i > 0 {
				w.advance()
				w.tick()
				if w.r.IntN(5) < 2 {
					w.event()
				}
			}
			step := &stsStep{trace: tr, index: i, before: w.obj.clone(), now: w.now, gate: w.gate, log: w.log}
			w.log = nil
			step.res = live.syncOnce(step.before, w.now, w.gate)
			step.writes = stsWrites(step.res.actions, step.res.failed)
			if *stsTraceOnly >= 0 {
				t.Log(step.report())
			}
			check(t, step)
			if t.Failed() {
				t.Fatalf("first failing sync:\n%s", step.report())
			}
			w.obj = step.res.after.clone()
			syncs++
		}
		traces++
	}
	return traces, syncs
}

// TestStatefulSetHarnessDrivesTheController checks the harness itself on
// rules every sync of the real controller keeps, so that a harness that
// does not reach the controller, sets the gate wrongly or loses writes
// fails (on the first 300 traces of -sts.traces: the differential
// covers the rest): the writes are only pod, revision and status writes
// and none is refused except a status write with a counter out of range
// a creation whose name is taken (a revision name collision, or a pod
// name held by a pod the set does not claim) and the identity fix of a
// pod adopted in the same sync (a stale resourceVersion); with the
// gate off at most one pod is deleted by the update step; under
// OrderedReady at most one pod is created and at most one deleted
// outside the update step (with the gate on the update step deletes up
// to maxUnavailable pods at once); every
// created pod carries the label of a revision the API server holds; and
// across the traces every kind of write happens.
func TestStatefulSetHarnessDrivesTheController(t *testing.T) {
	saved := *stsTraceCount
	defer func() { *stsTraceCount = saved }()
	*stsTraceCount = min(saved, 300)
	seen := map[string]int{}
	traces, syncs := runStsTraces(t, func(t *testing.T, s *stsStep) {
		creates, deletes, updateDeletes := 0, 0, 0
		for _, w := range s.writes {
			seen[w.Verb+" "+w.Kind]++
			if w.Refused {
				seen["refused "+w.Kind]++
				taken := w.Verb == "create" && (w.Kind == "revision" || w.Kind == "pod" && s.before.pods[w.Name] != nil)
				stale := w.Kind == "pod" && w.Verb == "update" && stsRefusedPodWrites(s)[w.Name] == "update"
				if w.Kind != "status" && !taken && !stale {
					t.Errorf("refused %s", w)
				}
				continue
			}
			if w.Kind == "pod" && w.Verb == "create" {
				creates++
				if _, ok := s.res.after.revs[w.Pod.Labels[appsv1.StatefulSetRevisionLabel]]; !ok {
					t.Errorf("%s: its revision is not held by the API server", w)
				}
			}
			if w.Kind == "pod" && w.Verb == "delete" {
				deletes++
				if stsPhase(w, s.before) == 2 {
					updateDeletes++
				}
			}
		}
		if !s.gate && updateDeletes > 1 {
			t.Errorf("gate off: %d update deletions", updateDeletes)
		}
		if s.before.set.Spec.PodManagementPolicy == appsv1.OrderedReadyPodManagement && (creates > 1 || deletes-updateDeletes > 1) {
			t.Errorf("OrderedReady: %d creations, %d deletions outside the update step", creates, deletes-updateDeletes)
		}
		if s.gate {
			seen["syncs with the gate on"]++
		}
	})
	for _, k := range []string{"create pod", "delete pod", "update pod", "create revision", "update revision", "delete revision", "update status", "refused revision", "refused status", "refused pod", "adopt pod", "release pod", "syncs with the gate on"} {
		if seen[k] == 0 && traces >= 100 {
			t.Errorf("no %q in %d traces", k, traces)
		}
	}
	t.Logf("%d traces, %d syncs of the real StatefulSetController: %v", traces, syncs, seen)
}
