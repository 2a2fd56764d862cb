package statefulset

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestNegativeCurrentReplicasIsRejected is S33's status: upstream's
// status write is refused by the API server, the stored status stays
// and the set is requeued; CurrentReplicasCountCurrentOnly writes 0.
func TestNegativeCurrentReplicasIsRejected(t *testing.T) {
	w := newWorld(3, true, "0:x:r", "1:x:r", "2:x:r")
	w.set.Status.Replicas, w.set.Status.ReadyReplicas, w.set.Status.AvailableReplicas = 3, 3, 3
	s := w.plan(t)
	var ws *Action
	for i := range s.Actions {
		if s.Actions[i].Kind == WriteStatus {
			ws = &s.Actions[i]
		}
	}
	const want = "status.currentReplicas: Invalid value: -1: must be greater than or equal to 0"
	if ws == nil || ws.Rejected != want {
		t.Fatalf("WriteStatus = %+v, want rejected with %q", ws, want)
	}
	if s.StatefulSet.Status.CurrentReplicas != 0 || s.StatefulSet.Status.ObservedGeneration != 1 {
		t.Errorf("stored status = %+v, want the input's", s.StatefulSet.Status)
	}
	if !s.Requeue || s.RequeueAfter != 0 {
		t.Errorf("requeue = %v after %v, want at once", s.Requeue, s.RequeueAfter)
	}
	if want := "deleted 1 pod, the status write is refused (requeued)"; s.Reason != want {
		t.Errorf("reason = %q, want %q", s.Reason, want)
	}

	w.opts.CurrentReplicas = CurrentReplicasCountCurrentOnly
	s = w.plan(t)
	if got := s.StatefulSet.Status.CurrentReplicas; got != 0 || s.StatefulSet.Status.ObservedGeneration != 2 {
		t.Errorf("with CurrentReplicasCountCurrentOnly: stored status %+v, want written with currentReplicas 0", s.StatefulSet.Status)
	}
}

// TestBudgetReplaceUnavailableFirst is S20 with the #137409 fix: the
// old broken pods are replaced although they use up the budget.
func TestBudgetReplaceUnavailableFirst(t *testing.T) {
	w := newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:u", "4:o:u").parallel().gate().maxUnavailable(intorpercent.FromInt(2))
	if got := podWrites(w.plan(t)); got != "nothing" {
		t.Fatalf("upstream: %s, want nothing (#137409)", got)
	}
	w.opts.Budget = BudgetReplaceUnavailableFirst
	if got := podWrites(w.plan(t)); got != "delete 4, delete 3" {
		t.Errorf("BudgetReplaceUnavailableFirst: %s, want delete 4, delete 3", got)
	}
	// One broken old pod: it is replaced first, and the budget (2 - 1)
	// takes one healthy old pod more.
	w = newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:u", "4:o:r").parallel().gate().maxUnavailable(intorpercent.FromInt(2))
	w.opts.Budget = BudgetReplaceUnavailableFirst
	if got := podWrites(w.plan(t)); got != "delete 3, delete 4" {
		t.Errorf("BudgetReplaceUnavailableFirst, one broken: %s, want delete 3, delete 4", got)
	}
	// OrderedReady: the option changes nothing (the replica step stops
	// at the broken pod).
	w = newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:u", "4:o:u").gate().maxUnavailable(intorpercent.FromInt(2))
	w.opts.Budget = BudgetReplaceUnavailableFirst
	if got := podWrites(w.plan(t)); got != "nothing" {
		t.Errorf("OrderedReady with the option: %s, want nothing", got)
	}
}

// TestZeroReplicasKeepsCurrent is S31 with the #121534 option: scaling
// to zero with a partition does not complete the update.
func TestZeroReplicasKeepsCurrent(t *testing.T) {
	w := newWorld(0, true).partition(2)
	if got := short(w.plan(t).Status.CurrentRevision); got != "n" {
		t.Fatalf("upstream: currentRevision %s, want n (#121534)", got)
	}
	w.opts.ZeroReplicas = ZeroReplicasKeepsCurrent
	if got := short(w.plan(t).Status.CurrentRevision); got != "o" {
		t.Errorf("ZeroReplicasKeepsCurrent: currentRevision %s, want o", got)
	}
	// Partition 0: nothing to keep, the update completes either way.
	w = newWorld(0, true)
	w.opts.ZeroReplicas = ZeroReplicasKeepsCurrent
	if got := short(w.plan(t).Status.CurrentRevision); got != "n" {
		t.Errorf("ZeroReplicasKeepsCurrent at partition 0: currentRevision %s, want n", got)
	}
}
