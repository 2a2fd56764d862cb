package rollout

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// drawSimulation draws a starting state (valid or not, as drawState does,
// with some pods of each ReplicaSet ready but not yet available and some
// not ready), a cluster and a script of every kind of event.
func drawSimulation(t *rapid.T) (*Deployment[tmpl], []ReplicaSet[tmpl], Config[tmpl]) {
	d, rss, _ := drawState(t)
	for i := range rss {
		r := &rss[i]
		r.ReadyReplicas += rapid.Int32Range(0, 5).Draw(t, fmt.Sprintf("readyNotAvailable%d", i))
		r.StatusReplicas = max(r.StatusReplicas, r.ReadyReplicas) + rapid.Int32Range(0, 5).Draw(t, fmt.Sprintf("notReady%d", i))
	}
	d.MinReadySeconds = rapid.SampledFrom([]int32{0, 5, 30}).Draw(t, "simMinReadySeconds")
	if rapid.IntRange(0, 9).Draw(t, "keepInvalid") > 0 {
		// Mostly a valid deployment, so that most draws run many syncs.
		d.Replicas = max(d.Replicas, 0)
		d.ProgressDeadlineSeconds = rapid.SampledFrom([]*int32{nil, ptr(int32(60)), ptr(int32(600))}).Draw(t, "simProgressDeadlineSeconds")
		if d.Strategy = rapid.SampledFrom([]StrategyType{RollingUpdate, RollingUpdate, Recreate}).Draw(t, "simStrategy"); d.Strategy == Recreate {
			d.MaxSurge, d.MaxUnavailable = nil, nil
		}
		if Validate(d) != nil {
			d.MaxUnavailable = num(1)
		}
		if Validate(d) != nil {
			d.Status = Status{ObservedGeneration: d.Generation}
		}
	}
	seconds := func(label string, from ...int) time.Duration {
		return time.Duration(rapid.SampledFrom(from).Draw(t, label)) * time.Second
	}
	cfg := Config[tmpl]{
		Start:            t0,
		Interval:         seconds("intervalSeconds", 1, 10, 30),
		ReadyDelay:       seconds("readyDelaySeconds", 0, 0, 5, 10, 25, -3),
		TerminationDelay: seconds("terminationDelaySeconds", 0, 0, 10, 45),
		NeverReady:       rapid.Int32Range(0, 3).Draw(t, "neverReady"),
		MaxSyncs:         rapid.IntRange(1, 300).Draw(t, "maxSyncs"),
		Options:          Options{},
	}
	n := rapid.IntRange(0, 8).Draw(t, "events")
	for i := 0; i < n; i++ {
		ev := Event[tmpl]{
			Sync: rapid.IntRange(0, 60).Draw(t, fmt.Sprintf("eventSync%d", i)),
			Kind: rapid.SampledFrom([]EventKind{SetTemplate, SetReplicas, SetReplicas, Pause, Resume, Rollback}).Draw(t, fmt.Sprintf("eventKind%d", i)),
		}
		switch ev.Kind {
		case SetTemplate:
			ev.Template = image(fmt.Sprintf("v%d", rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("eventImage%d", i))))
		case SetReplicas:
			ev.Replicas = rapid.Int32Range(0, 80).Draw(t, fmt.Sprintf("eventReplicas%d", i))
		case Rollback:
			ev.Revision = rapid.Int64Range(0, 4).Draw(t, fmt.Sprintf("eventRevision%d", i))
		}
		cfg.Events = append(cfg.Events, ev)
	}
	return d, rss, cfg
}

// TestSimulateEqualsReference: the incremental cluster (settled pods merged
// into one count, pod groups filtered in place) gives exactly the trace,
// final state and error of the straightforward one it replaced
// (refSimulate in simulate_ref_test.go), on random states, clusters and
// event scripts.
func TestSimulateEqualsReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, cfg := drawSimulation(t)
		got, gotErr := Simulate(d, rss, cfg)
		want, wantErr := refSimulate(d, rss, cfg)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("Simulate error %v, reference %v", gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Simulate and the reference differ:\n%s\nreference:\n%s\nfinal ReplicaSets %+v\nreference %+v",
				got.String(), want.String(), got.ReplicaSets, want.ReplicaSets)
		}
	})
}

// TestSimulateEqualsReferenceLongRollouts: the same on long rollouts whose
// pods become available one group per sync and are then deleted by a
// resize, a second template or a rollback, so that settled pods are
// deleted (and stay terminating) while newer groups are pending.
func TestSimulateEqualsReferenceLongRollouts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(20, 400).Draw(t, "replicas")
		d, rss := settled(replicas, "v0")
		d.MaxSurge, d.MaxUnavailable = num(rapid.Int32Range(1, 4).Draw(t, "maxSurge")), num(rapid.Int32Range(0, 2).Draw(t, "maxUnavailable"))
		d.MinReadySeconds = rapid.SampledFrom([]int32{0, 10}).Draw(t, "minReadySeconds")
		cfg := Config[tmpl]{
			Start:            t0,
			Interval:         10 * time.Second,
			ReadyDelay:       time.Duration(rapid.SampledFrom([]int{0, 10, 15, 40}).Draw(t, "readyDelaySeconds")) * time.Second,
			TerminationDelay: time.Duration(rapid.SampledFrom([]int{0, 20}).Draw(t, "terminationDelaySeconds")) * time.Second,
			NeverReady:       rapid.Int32Range(0, 2).Draw(t, "neverReady"),
			MaxSyncs:         3000,
			Events:           []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("v1")}},
		}
		second := Event[tmpl]{Sync: rapid.IntRange(5, 200).Draw(t, "secondSync")}
		switch rapid.IntRange(0, 2).Draw(t, "secondKind") {
		case 0:
			second.Kind, second.Replicas = SetReplicas, rapid.Int32Range(0, replicas).Draw(t, "resizeTo")
		case 1:
			second.Kind, second.Template = SetTemplate, image("v2")
		default:
			second.Kind = Rollback
		}
		cfg.Events = append(cfg.Events, second)
		got, gotErr := Simulate(&d, rss, cfg)
		want, wantErr := refSimulate(&d, rss, cfg)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("Simulate error %v, reference %v", gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Simulate and the reference differ:\n%s\nreference:\n%s", got.String(), want.String())
		}
	})
}
