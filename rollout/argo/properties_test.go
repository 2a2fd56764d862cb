package argo

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// TestSplitKeepsAPodOnEachSide: for 0 < w < max and replicas >= 2 the
// split never puts 0 pods on either side, and it totals replicas, or
// replicas+1 only when surge is allowed.
func TestSplitKeepsAPodOnEachSide(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.SampledFrom([]int32{100, 100, 1000, 7}).Draw(t, "maxWeight")
		r := rapid.Int32Range(0, 10_000).Draw(t, "replicas")
		w := rapid.Int32Range(0, m).Draw(t, "weight")
		s := rapid.Int32Range(-1, 3).Draw(t, "maxSurge")
		c, st := SplitForWeight(r, w, m, s)
		total := int64(c) + int64(st)
		if c < 0 || st < 0 {
			t.Fatalf("SplitForWeight(%d, %d, %d, %d) = %d/%d: negative", r, w, m, s, c, st)
		}
		if r == 0 {
			if c != 0 || st != 0 {
				t.Fatalf("SplitForWeight(0, ...) = %d/%d, want 0/0", c, st)
			}
			return
		}
		if total != int64(r) && !(s > 0 && total == int64(r)+1) {
			t.Fatalf("SplitForWeight(%d, %d, %d, %d) = %d/%d: total %d", r, w, m, s, c, st, total)
		}
		if r >= 2 && w > 0 && w < m && (c == 0 || st == 0) {
			t.Fatalf("SplitForWeight(%d, %d, %d, %d) = %d/%d: a side is empty", r, w, m, s, c, st)
		}
		if w == 0 && c != 0 || w == m && st != 0 && total == int64(r) {
			t.Fatalf("SplitForWeight(%d, %d, %d, %d) = %d/%d: weight at an end", r, w, m, s, c, st)
		}
	})
}

// drawCanary draws a basic or traffic-routed canary rollout, settled at
// a stable template, with steps; the script changes its template at
// sync 1 and may abort, promote or resize it.
func drawCanary(t *rapid.T, routedOK bool) (*Rollout[tmpl], []ReplicaSet[tmpl], Config[tmpl]) {
	r := rapid.Int32Range(1, 12).Draw(t, "replicas")
	c := &Canary{}
	if routedOK && rapid.Bool().Draw(t, "trafficRouting") {
		c.TrafficRouting = &TrafficRouting{Nginx: &Router{}}
		c.CanaryService, c.StableService = "canary", "stable"
		c.DynamicStableScale = rapid.Bool().Draw(t, "dynamicStableScale")
		if rapid.Bool().Draw(t, "minPods") {
			c.MinPodsPerReplicaSet = i32(rapid.Int32Range(1, 3).Draw(t, "minPodsPerReplicaSet"))
		}
	} else {
		fence := func(name string) *intorpercent.IntOrString {
			switch rapid.IntRange(0, 3).Draw(t, name+"Kind") {
			case 0:
				return nil
			case 1:
				return ioi(rapid.Int32Range(0, 3).Draw(t, name))
			case 2:
				return ios(fmt.Sprintf("%d%%", rapid.IntRange(0, 60).Draw(t, name+"Percent")))
			}
			return ios(fmt.Sprintf("%d", rapid.IntRange(0, 60).Draw(t, name+"Legacy")))
		}
		c.MaxSurge, c.MaxUnavailable = fence("maxSurge"), fence("maxUnavailable")
	}
	n := rapid.IntRange(0, 5).Draw(t, "steps")
	for i := range n {
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("stepKind%d", i)) {
		case 0, 1:
			c.Steps = append(c.Steps, setWeight(rapid.Int32Range(0, 100).Draw(t, fmt.Sprintf("weight%d", i))))
		case 2:
			c.Steps = append(c.Steps, pauseFor(fmt.Sprintf("%ds", rapid.IntRange(0, 40).Draw(t, fmt.Sprintf("pause%d", i)))))
		default:
			if c.TrafficRouting != nil {
				c.Steps = append(c.Steps, CanaryStep{SetCanaryScale: &SetCanaryScale{Replicas: i32(rapid.Int32Range(0, r).Draw(t, fmt.Sprintf("scale%d", i)))}})
			} else {
				c.Steps = append(c.Steps, setWeight(100))
			}
		}
	}
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(r), Template: tmpl{Image: "v1"}, Strategy: Strategy{Canary: c}}
	hash, _ := PodTemplateHash(&ro.Template, nil)
	stable := ReplicaSet[tmpl]{Name: "web-" + hash, PodTemplateHash: hash, Revision: 1, DesiredReplicas: i32(r), CreationTime: t0.Add(-time.Hour),
		Template: ro.Template, Replicas: r, StatusReplicas: r, ReadyReplicas: r, AvailableReplicas: r}
	ro.Status = Status{StableRS: hash, CurrentPodHash: hash, CurrentStepHash: StepsHash(ro), ObservedGeneration: "1"}
	if len(c.Steps) > 0 {
		ro.Status.CurrentStepIndex = i32(int32(len(c.Steps)))
	}
	if err := Validate(ro).ToError(); err != nil {
		t.Skip("invalid spec: " + err.Error())
	}
	cfg := Config[tmpl]{Start: t0, MaxSyncs: 400,
		ReadyDelay: time.Duration(rapid.IntRange(0, 25).Draw(t, "readyDelaySeconds")) * time.Second,
		Events:     []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}}
	return ro, []ReplicaSet[tmpl]{stable}, cfg
}

// syncRecord is one sync's input and result.
type syncRecord struct {
	k   int
	ro  Rollout[tmpl]
	rss []ReplicaSet[tmpl]
	s   Sync[tmpl]
}

// record runs a simulation and keeps every sync.
func record(t *rapid.T, ro *Rollout[tmpl], rss []ReplicaSet[tmpl], cfg Config[tmpl]) (Trace[tmpl], []syncRecord) {
	var recs []syncRecord
	tr, err := simulate(ro, rss, cfg, func(k int, in *Rollout[tmpl], rss []ReplicaSet[tmpl], s *Sync[tmpl]) {
		c := *s
		c.Actions = slices.Clone(s.Actions)
		c.ReplicaSets = slices.Clone(s.ReplicaSets)
		recs = append(recs, syncRecord{k: k, ro: *in, rss: slices.Clone(rss), s: c})
	})
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	return tr, recs
}

// TestPlanNeverExceedsMaxSurgeAndKeepsAvailability checks, after every
// sync of random basic canaries (pods that never become ready, a resize,
// an abort included): a sync that starts with at most
// replicas + maxSurge pods of spec ends with at most that many, and a
// sync that starts with at least replicas - maxUnavailable pods that
// stay available (a ReplicaSet scaled down loses its unavailable pods
// first) keeps at least that many.
func TestPlanNeverExceedsMaxSurgeAndKeepsAvailability(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro, rss, cfg := drawCanary(t, false)
		cfg.NeverReady = rapid.Int32Range(0, 2).Draw(t, "neverReady")
		if rapid.Bool().Draw(t, "resize") {
			cfg.Events = append(cfg.Events, Event[tmpl]{Sync: rapid.IntRange(2, 20).Draw(t, "resizeAt"), Kind: SetReplicas, Replicas: rapid.Int32Range(1, 12).Draw(t, "resizeTo")})
		}
		if rapid.Bool().Draw(t, "abort") {
			cfg.Events = append(cfg.Events, Event[tmpl]{Sync: rapid.IntRange(2, 20).Draw(t, "abortAt"), Kind: Abort})
		}
		_, recs := record(t, ro, rss, cfg)
		for _, rec := range recs {
			r := int64(ReplicasOrDefault(rec.ro.Replicas))
			maxTotal := r + int64(MaxSurge(&rec.ro))
			minAvail := r - int64(MaxUnavailable(&rec.ro))
			var before, after, availBefore, availAfter int64
			avail := map[string]int32{}
			for _, x := range rec.rss {
				before += int64(x.Replicas)
				availBefore += int64(min(x.Replicas, x.AvailableReplicas))
				avail[x.Name] = x.AvailableReplicas
			}
			for _, x := range rec.s.ReplicaSets {
				after += int64(x.Replicas)
				availAfter += int64(min(x.Replicas, avail[x.Name]))
			}
			if before <= maxTotal && after > maxTotal {
				t.Fatalf("sync %d: %d pods of spec became %d, above replicas+maxSurge %d\n%s", rec.k, before, after, maxTotal, dump(rec.s))
			}
			if availBefore >= minAvail && availAfter < minAvail {
				t.Fatalf("sync %d: %d available pods kept became %d, below replicas-maxUnavailable %d\n%s", rec.k, availBefore, availAfter, minAvail, dump(rec.s))
			}
		}
	})
}

// TestRolloutWithReadyPodsReachesLastStep: a canary (basic or
// traffic-routed) whose pods all become ready, with valid fenceposts
// and only timed pauses, completes, within 12 + (steps+2)*(2*replicas+6)
// syncs plus its pause time in syncs.
func TestRolloutWithReadyPodsReachesLastStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro, rss, cfg := drawCanary(t, true)
		if Validate(ro).ToError() != nil {
			t.Skip("invalid spec")
		}
		if c := ro.Strategy.Canary; c.TrafficRouting == nil {
			s, u := MaxSurgeOrDefault(ro), MaxUnavailableOrDefault(ro)
			if _, _, err := ResolveFenceposts(&s, &u, *ro.Replicas); err != nil {
				t.Skip("fenceposts do not parse")
			}
		}
		cfg.Interval = 10 * time.Second
		tr, _ := record(t, ro, rss, cfg)
		var pause time.Duration
		for _, s := range ro.Strategy.Canary.Steps {
			if s.Pause != nil {
				pause += time.Duration(DurationSeconds(*s.Pause)) * time.Second
			}
		}
		r := int(*ro.Replicas)
		ready := int(cfg.ReadyDelay/cfg.Interval) + 1
		bound := 12 + (len(ro.Strategy.Canary.Steps)+2)*(2*r+6)*ready + int(pause/cfg.Interval) + len(ro.Strategy.Canary.Steps)
		if tr.Outcome != OutcomeComplete {
			t.Fatalf("outcome %v after %d syncs, want Complete\n%s", tr.Outcome, tr.Syncs, tr.String())
		}
		if tr.Syncs > bound {
			t.Fatalf("complete after %d syncs, bound %d\n%s", tr.Syncs, bound, tr.String())
		}
	})
}

// TestPlanIgnoresInputOrder and purity: on every state of random
// rollouts, Plan gives the same sync whatever the order of the
// ReplicaSets, and never modifies its inputs.
func TestPlanIgnoresInputOrderAndIsPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro, rss, cfg := drawCanary(t, true)
		_, recs := record(t, ro, rss, cfg)
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 1))
		for _, rec := range recs {
			want, err := Plan(&rec.ro, rec.rss, t0.Add(time.Duration(rec.k)*10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			roBefore := mustJSON(t, rec.ro)
			shuffled := slices.Clone(rec.rss)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			rssBefore := mustJSON(t, shuffled)
			got, err := Plan(&rec.ro, shuffled, t0.Add(time.Duration(rec.k)*10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("sync %d: Plan depends on the order of the ReplicaSets:\n%s\nvs\n%s", rec.k, dump(got), dump(want))
			}
			if mustJSON(t, rec.ro) != roBefore || mustJSON(t, shuffled) != rssBefore {
				t.Fatalf("sync %d: Plan modified its input", rec.k)
			}
		}
	})
}

func mustJSON(t interface{ Fatal(...any) }, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlannerMatchesPlan: a reused Planner gives Plan's syncs.
func TestPlannerMatchesPlan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro, rss, cfg := drawCanary(t, true)
		_, recs := record(t, ro, rss, cfg)
		var pl Planner[tmpl]
		for _, rec := range recs {
			now := t0.Add(time.Duration(rec.k) * 10 * time.Second)
			want, err := Plan(&rec.ro, rec.rss, now)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pl.Plan(&rec.ro, rec.rss, now); err != nil {
				t.Fatal(err)
			}
			if got := *pl.Explain(); !reflect.DeepEqual(got, want) {
				t.Fatalf("sync %d: Planner differs from Plan:\n%s\nvs\n%s", rec.k, dump(got), dump(want))
			}
		}
	})
}

// TestSimulatedSyncsPassValidate: whatever Plan writes passes Validate.
func TestSimulatedSyncsPassValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro, rss, cfg := drawCanary(t, true)
		if Validate(ro).ToError() != nil {
			t.Skip("invalid spec")
		}
		_, recs := record(t, ro, rss, cfg)
		for _, rec := range recs {
			if err := Validate(&rec.s.Rollout).ToError(); err != nil {
				t.Fatalf("sync %d wrote a Rollout Validate rejects: %v", rec.k, err)
			}
			for _, x := range rec.s.ReplicaSets {
				if x.Replicas < 0 {
					t.Fatalf("sync %d: %s has %d replicas", rec.k, x.Name, x.Replicas)
				}
			}
		}
	})
}
