package cloneset

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// inPlaceWorld is a tiny cluster for the update step alone: an
// InPlaceOnly CloneSet whose template change is images only, so no pod is
// ever created or deleted, and a kubelet that finishes an in-place update
// a few rounds after it starts.
type inPlaceWorld struct {
	cs     *CloneSet[struct{}]
	pods   []Pod
	finish map[string]int // rounds left before the kubelet finishes a pod's update
	delay  func() int
	now    time.Time
}

// apply carries out Update's actions as the API server and kruise would.
func (w *inPlaceWorld) apply(t *rapid.T, d UpdateDecision) {
	for _, a := range d.Actions {
		var p *Pod
		for i := range w.pods {
			if w.pods[i].Name == a.Pod {
				p = &w.pods[i]
			}
		}
		switch a.Kind {
		case SetPodLifecycle:
			p.Lifecycle = a.To
		case SetPodInPlaceUpdateReady:
			p.InPlaceUpdateReady = ConditionTrue
		case UpdatePodInPlace:
			p.Revision, p.Lifecycle = a.Revision, Updating
			p.InPlaceUpdateReady = ConditionFalse
			p.InPlaceUpdate = &InPlaceUpdateState{Revision: a.Revision, UpdateTime: w.now}
			w.finish[p.Name] = w.delay()
		default:
			t.Fatalf("unexpected action %v in an in-place rollout", a)
		}
	}
}

// kubelet advances in-place updates by one round.
func (w *inPlaceWorld) kubelet() {
	for i := range w.pods {
		p := &w.pods[i]
		if p.InPlaceUpdate != nil && !p.InPlaceUpdate.Done {
			if w.finish[p.Name] <= 0 {
				p.InPlaceUpdate.Done = true
			}
			w.finish[p.Name]--
		}
	}
}

func (w *inPlaceWorld) available() int32 {
	var n int32
	for i := range w.pods {
		if IsPodAvailable(&w.pods[i], w.cs.MinReadySeconds, w.now) {
			n++
		}
	}
	return n
}

// TestInPlaceUpdateNeverExceedsMaxUnavailableAndCompletes drives Update
// round after round on random CloneSets (replicas 1-60, partition and
// maxUnavailable as counts or percentages, kubelet delays 0-3 rounds):
// available pods never fall below replicas - maxUnavailable (maxUnavailable
// as kruise resolves it, at least 1 here since maxSurge is 0), and the
// rollout reaches rest with exactly replicas - partition pods at the update
// revision within (ceil(toUpdate/U) + 1) * (maxDelay + 3) rounds: a batch of
// at most U pods takes one round to start, up to maxDelay+1 rounds to
// finish, and one round of bookkeeping.
func TestInPlaceUpdateNeverExceedsMaxUnavailableAndCompletes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(1, 60).Draw(t, "replicas")
		cs := &CloneSet[struct{}]{Name: "demo", Replicas: replicas, UpdateStrategy: UpdateStrategy{Type: InPlaceOnly}}
		if rapid.Bool().Draw(t, "percentUnavailable") {
			cs.UpdateStrategy.MaxUnavailable = str(fmt.Sprintf("%d%%", rapid.IntRange(1, 100).Draw(t, "maxUnavailablePercent")))
		} else {
			cs.UpdateStrategy.MaxUnavailable = num(rapid.Int32Range(1, replicas).Draw(t, "maxUnavailable"))
		}
		if rapid.Bool().Draw(t, "percentPartition") {
			cs.UpdateStrategy.Partition = str(fmt.Sprintf("%d%%", rapid.IntRange(0, 100).Draw(t, "partitionPercent")))
		} else {
			cs.UpdateStrategy.Partition = num(rapid.Int32Range(0, replicas+2).Draw(t, "partition"))
		}
		maxDelay := rapid.IntRange(0, 3).Draw(t, "maxDelay")
		w := &inPlaceWorld{cs: cs, finish: map[string]int{}, now: ut0,
			delay: func() int { return rapid.IntRange(0, maxDelay).Draw(t, "delay") }}
		for i := range replicas {
			w.pods = append(w.pods, upod(fmt.Sprintf("demo-%03d", i), "cs-r1"))
		}
		revs := Revisions{Current: "cs-r1", Update: "cs-r2"}
		res, err := Resolve(cs)
		if err != nil {
			t.Fatal(err)
		}
		partition, unavail := res.Partition, int32(res.MaxUnavailable)
		toUpdate := replicas - partition
		bound := (int((toUpdate+unavail-1)/unavail) + 1) * (maxDelay + 3)
		for round := 0; ; round++ {
			d, err := Update(cs, w.pods, []ControllerRevision{r1, r2}, revs, w.now, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Branch == UpdateFailed {
				t.Fatalf("round %d: update failed: %s", round, d.Failure)
			}
			w.apply(t, d)
			if got := w.available(); got < replicas-unavail {
				t.Fatalf("round %d: %d pods available, below %d - %d", round, got, replicas, unavail)
			}
			settled := true
			for i := range w.pods {
				settled = settled && w.pods[i].Lifecycle == Normal
			}
			if len(d.Actions) == 0 && d.Branch == UpdateNothing && settled {
				var updated int32
				for i := range w.pods {
					if IsPodAtRevision(&w.pods[i], revs.Update) {
						updated++
					}
				}
				if updated != toUpdate {
					t.Fatalf("at rest %d pods updated, want replicas %d - partition %d", updated, replicas, partition)
				}
				if round > bound {
					t.Fatalf("rollout took %d rounds, bound %d", round, bound)
				}
				return
			}
			if round > bound {
				t.Fatalf("no rest after %d rounds (bound %d); last decision %v", round, bound, d.Branch)
			}
			w.kubelet()
			w.now = w.now.Add(time.Second)
		}
	})
}
