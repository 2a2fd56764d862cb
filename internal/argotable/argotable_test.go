package argotable

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

func ptr[T any](v T) *T { return &v }

// canary is a Rollout of 4 replicas at step 0 (setWeight 25) of a canary
// with ReplicaSets old (stable, 3 ready pods) and new (canary, 2 pods, 1
// ready).
func canary() (argo.Rollout[string], []argo.ReplicaSet[string]) {
	ro := argo.Rollout[string]{Name: "web", Replicas: ptr(int32(4)), Template: "v2"}
	ro.Strategy.Canary = &argo.Canary{Steps: []argo.CanaryStep{{SetWeight: ptr(int32(25))}, {Pause: &argo.RolloutPause{}}}}
	ro.Status = argo.Status{StableRS: "old", CurrentPodHash: "new", CurrentStepIndex: ptr(int32(0)), AvailableReplicas: 4}
	rss := []argo.ReplicaSet[string]{
		{Name: "web-old", PodTemplateHash: "old", Revision: 1, Template: "v1", Replicas: 3, StatusReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
		{Name: "web-new", PodTemplateHash: "new", Revision: 2, Template: "v2", Replicas: 2, StatusReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1},
	}
	return ro, rss
}

func TestFromSyncAndBlock(t *testing.T) {
	ro, rss := canary()
	s := FromSync(&ro, rss, []argo.Action{{Kind: argo.ScaleReplicaSet, ReplicaSet: "web-new", From: 1, Replicas: 2, Reason: "1 → 2: why"}}, "1 write")
	var b strings.Builder
	Block(&b, true, 0, &s)
	// Newest first; the canary's share of the 4 available pods is 1/4.
	want := `  Status: ◌ Progressing  Step: 0/2 (setWeight: 25)  SetWeight: 25  ActualWeight: 25
  # revision:2  web-new                canary         desired 2   pods ✔◌
  # revision:1  web-old                stable         desired 3   pods ✔✔✔
  - ScaleReplicaSet web-new: 1 → 2: why
`
	if b.String() != want {
		t.Errorf("Block =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestStatus(t *testing.T) {
	ro, rss := canary()
	for _, tt := range []struct {
		name string
		edit func(*argo.Rollout[string], []argo.ReplicaSet[string])
		want string
	}{
		{"mid-rollout", func(*argo.Rollout[string], []argo.ReplicaSet[string]) {}, "◌ Progressing"},
		{"aborted", func(ro *argo.Rollout[string], _ []argo.ReplicaSet[string]) { ro.Status.Abort = true }, "✖ Degraded (RolloutAborted)"},
		{"paused", func(ro *argo.Rollout[string], _ []argo.ReplicaSet[string]) {
			ro.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseCanaryStep, StartTime: time.Unix(0, 0)}}
		}, "॥ Paused (CanaryPauseStep)"},
		{"promoted, old pods gone", func(ro *argo.Rollout[string], rss []argo.ReplicaSet[string]) {
			ro.Status.StableRS = "new"
			rss[0] = argo.ReplicaSet[string]{Name: "web-old", PodTemplateHash: "old", Revision: 1}
			rss[1].Replicas, rss[1].StatusReplicas, rss[1].ReadyReplicas, rss[1].AvailableReplicas = 4, 4, 4, 4
		}, "✔ Healthy"},
		{"promoted, old pods left", func(ro *argo.Rollout[string], rss []argo.ReplicaSet[string]) {
			ro.Status.StableRS = "new"
			rss[1].Replicas, rss[1].StatusReplicas, rss[1].ReadyReplicas, rss[1].AvailableReplicas = 4, 4, 4, 4
		}, "◌ Progressing"},
		{"stable current but a newer ReplicaSet exists", func(ro *argo.Rollout[string], rss []argo.ReplicaSet[string]) {
			ro.Status.CurrentPodHash = "old"
			rss[1].Replicas, rss[1].StatusReplicas, rss[1].ReadyReplicas, rss[1].AvailableReplicas = 0, 0, 0, 0
			rss[0].Replicas, rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 4, 4, 4, 4
		}, "◌ Progressing"},
		{"the phase the controller wrote", func(ro *argo.Rollout[string], _ []argo.ReplicaSet[string]) {
			ro.Status.Phase, ro.Status.Message = argo.PhasePaused, "CanaryPauseStep"
		}, "॥ Paused (CanaryPauseStep)"},
	} {
		r, x := ro, append([]argo.ReplicaSet[string](nil), rss...)
		tt.edit(&r, x)
		s := FromSync(&r, x, nil, "")
		if got := Status(&s, 0); got != tt.want {
			t.Errorf("%s: Status = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestReconciles(t *testing.T) {
	if got := Reconciles(1) + ", " + Reconciles(25); got != "1 reconcile, 25 reconciles" {
		t.Errorf("Reconciles = %q", got)
	}
}

func TestPodMap(t *testing.T) {
	for _, tt := range []struct {
		pods, ready int32
		want        string
	}{
		{0, 0, "-"}, {3, 1, "✔◌◌"}, {2, 5, "✔✔"}, {41, 40, "40✔ 1◌"},
	} {
		if got := PodMap(&argo.ReplicaSetState{Pods: tt.pods, Ready: tt.ready}); got != tt.want {
			t.Errorf("PodMap(pods %d, ready %d) = %q, want %q", tt.pods, tt.ready, got, tt.want)
		}
	}
}

func TestStrategyAndSteps(t *testing.T) {
	ro, _ := canary()
	ro.Strategy.Canary.MaxSurge = ptr(intorpercent.FromInt(1))
	if got, want := Strategy(&ro), "basic canary (maxSurge 1 = 1 pod, maxUnavailable 25% (default) = 1 pod)"; got != want {
		t.Errorf("Strategy = %q, want %q", got, want)
	}
	if got, want := Steps(&ro), "Steps: 0 setWeight: 25, 1 pause"; got != want {
		t.Errorf("Steps = %q, want %q", got, want)
	}
	bg := argo.Rollout[string]{Replicas: ptr(int32(4))}
	bg.Strategy.BlueGreen = &argo.BlueGreen{ActiveService: "a", PreviewReplicaCount: ptr(int32(2)), AutoPromotionSeconds: 30}
	if got, want := Strategy(&bg), "blue-green (preview 2, auto-promotion after 30s)"; got != want {
		t.Errorf("Strategy = %q, want %q", got, want)
	}
	if Steps(&bg) != "" {
		t.Errorf("Steps of a blue-green = %q, want \"\"", Steps(&bg))
	}
}

// TestStatusWaitsForTheGeneration: a spec the controller has not yet
// observed is Progressing whatever the phase says, as kubectl shows it.
func TestStatusWaitsForTheGeneration(t *testing.T) {
	ro, rss := canary()
	ro.Generation = 3
	ro.Status.Phase, ro.Status.ObservedGeneration = argo.PhaseHealthy, "2"
	s := FromSync(&ro, rss, nil, "")
	if got, want := Status(&s, 3), "◌ Progressing (waiting for rollout spec update to be observed)"; got != want {
		t.Errorf("Status = %q, want %q", got, want)
	}
	if got, want := Status(&s, 2), "✔ Healthy"; got != want {
		t.Errorf("Status at the observed generation = %q, want %q", got, want)
	}
}
