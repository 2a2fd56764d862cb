package argo

import (
	"slices"
	"testing"
	"time"
)

// Tests written for the survivors of a mutation sample (seed 26).

func TestStepListsReplicaSetsNewestFirst(t *testing.T) {
	ro, rss := deployed(t, 2, &Canary{})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: SetTemplate, Template: tmpl{Image: "v3"}},
		{Sync: 20, Kind: SetTemplate, Template: tmpl{Image: "v4"}}}})
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Steps[len(tr.Steps)-1]
	var revs []int64
	for _, x := range last.ReplicaSets {
		revs = append(revs, x.Revision)
	}
	if !slices.Equal(revs, []int64{4, 3, 2, 1}) {
		t.Errorf("revisions %v, want [4 3 2 1]", revs)
	}
}

func TestAbortExpiredReason(t *testing.T) {
	ro, rss := deployed(t, 4, routedCanary(setWeight(50), pauseFor("")))
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: Abort}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if a.Kind == ScaleReplicaSet && a.Hash == hashOf("v2") && a.Replicas == 0 {
				if want := "2 → 0: the abort delay has passed"; a.Reason != want {
					t.Errorf("reason %q, want %q", a.Reason, want)
				}
				return
			}
		}
	}
	t.Errorf("the canary was never scaled to 0\n%s", tr.String())
}

// TestSimulatedReplicaSetRemovesNeverReadyPodsFirst: scaling down keeps
// the pods that will become ready before those that never will.
func TestSimulatedReplicaSetRemovesNeverReadyPodsFirst(t *testing.T) {
	cfg := Config[tmpl]{}
	s := &sim[tmpl]{cfg: &cfg, pods: map[string]*simRS{"web-a": {pods: []time.Time{{}, t0.Add(time.Minute)}}}}
	sync := Sync[tmpl]{ReplicaSets: []ReplicaSet[tmpl]{{Name: "web-a", PodTemplateHash: "a", Replicas: 1}}}
	s.take(&sync, t0)
	if got := s.pods["web-a"].pods; len(got) != 1 || got[0].IsZero() {
		t.Errorf("pods left %v, want the one ready at +1m", got)
	}
}

func TestPhaseWhileUpdatedPodsBecomeAvailable(t *testing.T) {
	ro := synced(basic(2, 100, ioi(1), ioi(0)))
	ro.Status.StableRS = "new"
	rss := steady(2, rs("web-new", "new", 2, 1))
	rss[0].StatusReplicas = 2
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Rollout.Status
	if st.Phase != PhaseProgressing || st.Message != "updated replicas are still becoming available" {
		t.Errorf("phase %s %q, want Progressing \"updated replicas are still becoming available\"\n%s", st.Phase, st.Message, dump(s))
	}
}

// TestDynamicAbortWithoutExplicitDelayHasNoDeadline: dynamicStableScale
// without abortScaleDownDelaySeconds steps the canary down with the
// traffic, with no abort delay.
func TestDynamicAbortWithoutExplicitDelayHasNoDeadline(t *testing.T) {
	c := routedCanary(setWeight(20), setWeight(60), pauseFor(""))
	c.DynamicStableScale = true
	ro, rss := deployed(t, 10, c)
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 15, Kind: Abort}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(tr, AddScaleDownDeadline, ""); n != 0 || tr.Outcome != OutcomeAborted {
		t.Errorf("%d deadlines, outcome %v; want none and Aborted\n%s", n, tr.Outcome, tr.String())
	}
	for _, x := range tr.ReplicaSets {
		want := int32(0)
		if x.PodTemplateHash == hashOf("v1") {
			want = 10
		}
		if x.Replicas != want {
			t.Errorf("%s ends at %d replicas, want %d\n%s", x.Name, x.Replicas, want, tr.String())
		}
	}
}

// TestUnchangedWeightsKeepTheirVerifiedFlag: when the weights do not
// change, the status keeps the recorded object, verified included.
func TestUnchangedWeightsKeepTheirVerifiedFlag(t *testing.T) {
	yes := true
	ro := synced(routed(4, setWeight(50)))
	ro.Status.CurrentStepIndex = i32(1)
	ro.Status.Canary.Weights = &Weights{Canary: WeightDestination{Weight: 100, PodTemplateHash: "new", ServiceName: "canary"},
		Stable: WeightDestination{Weight: 0, PodTemplateHash: "stable", ServiceName: "stable"}, Verified: &yes}
	rss := steady(4, rs("web-stable", "stable", 4, 4), rs("web-new", "new", 4, 4))
	rss[1].Revision = 9
	first, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	w := first.Rollout.Status.Canary.Weights
	if w == nil || w.Verified == nil || !*w.Verified {
		t.Errorf("weights %+v: the recorded verified was dropped\n%s", w, dump(first))
	}
}

func TestPromotedTrafficReason(t *testing.T) {
	ro := synced(routed(4, setWeight(50)))
	ro.Status.StableRS, ro.Status.CurrentPodHash = "new", "new"
	ro.Status.CurrentStepIndex = i32(1)
	ro.Status.Canary.Weights = &Weights{Canary: WeightDestination{Weight: 100, PodTemplateHash: "new"}, Stable: WeightDestination{Weight: 0, PodTemplateHash: "old"}}
	rss := steady(4, rs("web-new", "new", 4, 4))
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(s.Actions, func(a Action) bool { return a.Kind == SetTrafficWeight })
	if i < 0 {
		t.Fatalf("no SetTrafficWeight\n%s", dump(s))
	}
	if want := "send 0% of traffic to the canary (was 100%): fully promoted, all traffic is on stable"; s.Actions[i].Reason != want {
		t.Errorf("reason %q, want %q", s.Actions[i].Reason, want)
	}
}
