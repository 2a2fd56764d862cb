package batchrelease

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
	"pgregory.net/rapid"
)

// clonesetUpdated is how many pods a CloneSet of all replicas updates
// under the partition the CloneSet partition style writes when it wants
// stable pods kept old with a percent batch.
func clonesetUpdated(t testing.TB, stable, all int32, batch intorpercent.IntOrString) int32 {
	p := PercentPartition(stable, all, batch)
	kept, err := cloneset.CalculatePartitionReplicas(&p, all)
	if err != nil {
		t.Fatalf("CalculatePartitionReplicas(%v, %d): %v", p, all, err)
	}
	return all - kept
}

// TestPercentPartitionRoundTripWithinOnePercent measures, for every
// replica count R <= 1,000 and every stable count 0 < s < R, how far the
// pods CloneSet keeps old under PercentPartition(s, R) are from s, and
// checks the documented bound (docs/batchrelease.md): exact for R <= 100,
// strictly less than R/100 pods for every R <= 1,000 (upstream's claim
// in its unit test), and never more pods kept old than wanted except
// through the "1%" fallback. It logs the largest error found.
func TestPercentPartitionRoundTripWithinOnePercent(t *testing.T) {
	batch := intorpercent.FromString("50%")
	var maxErr int64
	var worstR, worstS int32
	var maxRel float64
	for all := int32(1); all <= 1000; all++ {
		for s := int32(1); s < all; s++ {
			p := PercentPartition(s, all, batch)
			kept, err := cloneset.CalculatePartitionReplicas(&p, all)
			if err != nil {
				t.Fatal(err)
			}
			d := int64(kept) - int64(s)
			if d < 0 {
				d = -d
			}
			if d > maxErr {
				maxErr, worstR, worstS = d, all, s
			}
			if rel := float64(d) / float64(all); rel > maxRel {
				maxRel = rel
			}
			if 100*d >= int64(all) {
				t.Errorf("R=%d s=%d: kept %d, error %d not below R/100", all, s, kept, d)
			}
			if kept > s && (p.Str != "1%" || 100*int64(s) >= int64(all)) {
				t.Errorf("R=%d s=%d: kept %d old pods, more than wanted, without the 1%% fallback (%s)", all, s, kept, p.Str)
			}
			if all <= 100 && d != 0 {
				t.Errorf("R=%d s=%d: kept %d, want exactly %d for R <= 100", all, s, kept, s)
			}
		}
	}
	t.Logf("max error %d pod(s) (first at R=%d, s=%d); max error relative to R %.4f%%", maxErr, worstR, worstS, 100*maxRel)
}

// TestUpdatedAtEndOfBatchMatchesBatchReplicas checks, for random
// percent plans and replica counts, that the pods a CloneSet updates
// under the batch's desired partition equal BatchReplicas within the
// percent round trip (one pod), and exactly for count batches.
func TestUpdatedAtEndOfBatchMatchesBatchReplicas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(1, 1000).Draw(t, "replicas")
		percent := rapid.Bool().Draw(t, "percent")
		var b intorpercent.IntOrString
		if percent {
			b = intorpercent.FromString(itoa(rapid.Int32Range(1, 100).Draw(t, "batch")) + "%")
		} else {
			b = intorpercent.FromInt(rapid.Int32Range(1, 1200).Draw(t, "batch"))
		}
		rel := &Release{Batches: []Batch{{CanaryReplicas: b}}}
		c, err := CloneSetBatchContext(rel, &Workload{Kind: CloneSet, Replicas: replicas})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := cloneset.CalculatePartitionReplicas(&c.DesiredPartition, replicas)
		if err != nil {
			t.Fatal(err)
		}
		updated := replicas - kept
		d := int64(updated) - int64(c.PlannedUpdatedReplicas)
		if (!percent || replicas <= 100) && d != 0 {
			t.Fatalf("batch %v of %d: CloneSet updates %d, planned %d", b, replicas, updated, c.PlannedUpdatedReplicas)
		}
		if 100*max(d, -d) >= int64(replicas) {
			t.Fatalf("percent batch %v of %d: CloneSet updates %d, planned %d", b, replicas, updated, c.PlannedUpdatedReplicas)
		}
	})
}

// TestBatchesNeverGoBackwardsUnlessRollingBack drives Plan on random
// states and checks that the current batch never decreases, except when
// the release starts over (no status yet, or a batch beyond the plan) or
// prepares a rollback.
func TestBatchesNeverGoBackwardsUnlessRollingBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rel, w := drawState(t)
		s, err := Plan(rel, w, simStart)
		if err != nil {
			t.Fatal(err)
		}
		if s.Release.Status.CurrentBatch < rel.Status.CurrentBatch {
			if !s.why.reset && s.why.special != specialUnhealthy && s.why.special != specialRollback {
				t.Fatalf("batch went from %d to %d (%s)", rel.Status.CurrentBatch, s.Release.Status.CurrentBatch, s.Reason)
			}
		}
		if s.Release.Status.CurrentBatch > rel.Status.CurrentBatch+1 {
			t.Fatalf("batch jumped from %d to %d", rel.Status.CurrentBatch, s.Release.Status.CurrentBatch)
		}
	})
}

// drawState draws a BatchRelease and workload that pass Plan's checks.
func drawState(t *rapid.T) (*Release, *Workload) {
	n := rapid.IntRange(1, 5).Draw(t, "batches")
	rel := &Release{Name: "demo"}
	for i := range n {
		var b intorpercent.IntOrString
		if rapid.Bool().Draw(t, "percent") {
			b = intorpercent.FromString(itoa(rapid.Int32Range(0, 120).Draw(t, "batch")) + "%")
		} else {
			b = intorpercent.FromInt(rapid.Int32Range(-2, 30).Draw(t, "batch"))
		}
		_ = i
		rel.Batches = append(rel.Batches, Batch{CanaryReplicas: b})
	}
	if rapid.Bool().Draw(t, "hasBatchPartition") {
		rel.BatchPartition = ptr(rapid.Int32Range(0, int32(n)).Draw(t, "batchPartition"))
	}
	if rapid.Bool().Draw(t, "rolloutID") {
		rel.RolloutID = "r1"
	}
	if rapid.Bool().Draw(t, "failureThreshold") {
		rel.FailureThreshold = ptr(intorpercent.FromString(itoa(rapid.Int32Range(0, 100).Draw(t, "threshold")) + "%"))
	}
	rel.RollingStyle = RollingStyle(rapid.IntRange(0, 3).Draw(t, "style"))
	rel.RollbackInBatch = rapid.Bool().Draw(t, "rollbackInBatch")
	st := &rel.Status
	st.Phase = Phase(rapid.IntRange(0, 4).Draw(t, "phase"))
	st.BatchState = BatchState(rapid.IntRange(0, 3).Draw(t, "state"))
	st.CurrentBatch = rapid.Int32Range(0, int32(n)).Draw(t, "currentBatch")
	st.ObservedWorkloadReplicas = rapid.Int32Range(-1, 30).Draw(t, "observedWorkloadReplicas")
	if rapid.Bool().Draw(t, "noNeedUpdate") {
		st.NoNeedUpdateReplicas = ptr(rapid.Int32Range(0, 30).Draw(t, "noNeedUpdateReplicas"))
	}
	revs := []string{"", "v1", "v2"}
	st.UpdateRevision = rapid.SampledFrom(revs).Draw(t, "statusUpdateRevision")
	st.StableRevision = rapid.SampledFrom(revs).Draw(t, "statusStableRevision")
	w := &Workload{Kind: Kind(rapid.IntRange(1, 4).Draw(t, "kind")), Name: "demo"}
	w.Replicas = rapid.Int32Range(0, 30).Draw(t, "replicas")
	w.Generation = rapid.Int64Range(1, 3).Draw(t, "generation")
	w.ObservedGeneration = rapid.Int64Range(1, 3).Draw(t, "observedGeneration")
	w.Controlled = rapid.Bool().Draw(t, "controlled")
	w.UnorderedUpdate = rapid.Bool().Draw(t, "unorderedUpdate")
	if rapid.Bool().Draw(t, "hasPartition") {
		w.Partition = ptr(intorpercent.FromInt(rapid.Int32Range(0, 40).Draw(t, "partition")))
	}
	if rapid.Bool().Draw(t, "hasSurge") {
		w.MaxSurge = ptr(intorpercent.FromString(itoa(rapid.Int32Range(0, 100).Draw(t, "surge")) + "%"))
	}
	ws := &w.Status
	ws.Replicas = rapid.Int32Range(0, 30).Draw(t, "statusReplicas")
	ws.UpdatedReplicas = rapid.Int32Range(0, 30).Draw(t, "updated")
	ws.UpdatedReadyReplicas = rapid.Int32Range(0, 30).Draw(t, "updatedReady")
	ws.UpdateRevision = rapid.SampledFrom(revs[1:]).Draw(t, "updateRevision")
	ws.StableRevision = rapid.SampledFrom(revs[1:]).Draw(t, "stableRevision")
	if rapid.Bool().Draw(t, "pods") {
		ws.Pods = &PodCounts{Listed: rapid.Int32Range(0, 30).Draw(t, "listed"), RolloutIDLabeled: rapid.Int32Range(0, 30).Draw(t, "labelled"),
			NoNeedUpdate: rapid.Int32Range(0, 30).Draw(t, "noNeedUpdateLabelled")}
	}
	if rapid.Bool().Draw(t, "canary") {
		w.Canary = &CanaryDeployment{Name: "demo-canary", Replicas: rapid.Int32Range(0, 30).Draw(t, "canaryReplicas"),
			StatusReplicas: rapid.Int32Range(0, 30).Draw(t, "canaryStatusReplicas"), AvailableReplicas: rapid.Int32Range(0, 30).Draw(t, "canaryAvailable")}
	}
	return rel, w
}

func deepCopy[T any](t *rapid.T, v *T) *T {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestPlanIsPure checks that Plan modifies neither input and gives the
// same result twice.
func TestPlanIsPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rel, w := drawState(t)
		rel0, w0 := deepCopy(t, rel), deepCopy(t, w)
		a, errA := Plan(rel, w, simStart)
		if !reflect.DeepEqual(rel, rel0) || !reflect.DeepEqual(w, w0) {
			t.Fatalf("Plan modified its inputs")
		}
		b, errB := Plan(rel, w, simStart)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
			t.Fatalf("Plan gave two results:\n%+v\n%+v", a, b)
		}
	})
}

// TestPlanWritesValidWorkloads checks that whatever Plan leaves passes
// Plan's own checks again (its writes are well-formed input).
func TestPlanWritesValidWorkloads(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rel, w := drawState(t)
		s, err := Plan(rel, w, simStart)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkPlanInput(&s.Release, &s.Workload); err != nil {
			t.Fatalf("Plan left input Plan rejects: %v", err)
		}
	})
}

// TestAdvancedRoundInputOrderNeverMatters checks that the advanced
// Deployment round gives the same writes and sizes whatever the order of
// the ReplicaSets passed in.
func TestAdvancedRoundInputOrderNeverMatters(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 20).Draw(t, "replicas")
		n := rapid.IntRange(1, 4).Draw(t, "replicaSets")
		var rss []ReplicaSet
		for i := range n {
			spec := rapid.Int32Range(0, 20).Draw(t, "spec")
			avail := rapid.Int32Range(0, spec).Draw(t, "available")
			rss = append(rss, ReplicaSet{Name: "rs-" + itoa(int32(i)), Revision: itoa(int32(i + 1)),
				CreationTime: simStart.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "created")) * time.Second),
				Replicas:     spec, StatusReplicas: spec, ReadyReplicas: avail, AvailableReplicas: avail, DesiredReplicas: ptr(r)})
		}
		part := intorpercent.FromInt(rapid.Int32Range(0, 20).Draw(t, "partition"))
		if rapid.Bool().Draw(t, "percentPartition") {
			part = intorpercent.FromString(itoa(rapid.Int32Range(0, 100).Draw(t, "partitionPercent")) + "%")
		}
		d := &AdvancedDeployment{Name: "web", Replicas: r, NewReplicaSet: rss[len(rss)-1].Name,
			Strategy: surgeStrategy(0, rapid.IntRange(0, 3).Draw(t, "surge"), rapid.IntRange(0, 3).Draw(t, "unavailable"))}
		d.Strategy.Partition = part
		a, err := SyncAdvancedDeployment(d, rss, simStart)
		if err != nil {
			t.Fatal(err)
		}
		perm := rapid.Permutation(rss).Draw(t, "order")
		b, err := SyncAdvancedDeployment(d, perm, simStart)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Writes, b.Writes) {
			t.Fatalf("writes depend on order:\n%+v\n%+v", a.Writes, b.Writes)
		}
		sizes := func(rs []ReplicaSet) map[string]int32 {
			m := map[string]int32{}
			for _, x := range rs {
				m[x.Name] = x.Replicas
			}
			return m
		}
		if !reflect.DeepEqual(sizes(a.ReplicaSets), sizes(b.ReplicaSets)) {
			t.Fatalf("sizes depend on order")
		}
	})
}

// TestSimulatedBatchesEndAtBatchReplicas runs whole CloneSet releases of
// random sizes and plans and checks that each batch becomes ready with
// exactly the updated pods its context wants (BatchReplicas, read back
// through the percent partition, which is exact for R <= 100), that the
// release completes, and that the order of the pods passed in changes
// nothing in the batch table.
func TestSimulatedBatchesEndAtBatchReplicas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 30).Draw(t, "replicas")
		n := rapid.IntRange(1, 4).Draw(t, "batches")
		rel := &Release{Name: "demo", RolloutID: rapid.SampledFrom([]string{"", "v2"}).Draw(t, "rolloutID")}
		prev := int32(0)
		for i := range n {
			p := rapid.Int32Range(prev+1, 100).Draw(t, "percent")
			if i == n-1 {
				p = 100
			}
			prev = p
			if p >= 100 {
				p = 100
			}
			rel.Batches = append(rel.Batches, Batch{CanaryReplicas: intorpercent.FromString(itoa(p) + "%")})
			if p == 100 {
				break
			}
		}
		cs, pods, revs := demoCloneSet(t, replicas)
		cfg := Config{Start: simStart, ReadyDelay: time.Duration(rapid.IntRange(0, 30).Draw(t, "readyDelay")) * time.Second, MaxSyncs: 3000}
		tr, err := Simulate(rel, cs, pods, revs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Outcome != OutcomeComplete {
			t.Fatalf("outcome %v after %d syncs", tr.Outcome, tr.Syncs)
		}
		seen := 0
		for _, s := range tr.Steps {
			if s.State != Ready || s.Phase != Progressing || int(s.Batch) != seen {
				continue
			}
			want, _ := BatchReplicas(rel, int32(replicas), s.Batch)
			if s.Updated != want || s.UpdatedReady != want {
				t.Fatalf("batch %d ready with %d updated (%d ready), BatchReplicas %d", s.Batch, s.Updated, s.UpdatedReady, want)
			}
			seen++
		}
		if seen != len(rel.Batches) {
			t.Fatalf("%d of %d batches seen ready", seen, len(rel.Batches))
		}
		perm := rapid.Permutation(pods).Draw(t, "podOrder")
		tr2, err := Simulate(rel, cs, perm, revs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if table(tr) != table(tr2) {
			t.Fatalf("pod order changed the batch table:\n%s\n%s", table(tr), table(tr2))
		}
	})
}

func table(tr Trace) string {
	var b strings.Builder
	for _, s := range tr.Steps {
		fmt.Fprintf(&b, "%d %v %d %v %d %d %d %d %s\n", s.Sync, s.Phase, s.Batch, s.State, s.Pods, s.Updated, s.UpdatedReady, s.Ready, s.Partition)
	}
	return b.String()
}

// TestSimulatedReleasesAlwaysComplete runs CloneSet and Deployment
// releases with any plan (decreasing, unreadable, counts beyond R) and
// checks that they complete with every pod updated and ready: nothing in
// a CloneSet release stalls, nor in a Deployment release whose batches
// are readable, of one kind and at most 100% (the others stall upstream,
// and complete with Options.CompareDeploymentPartitionsOnReplicas).
func TestSimulatedReleasesAlwaysComplete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(0, 15).Draw(t, "replicas")
		n := rapid.IntRange(1, 4).Draw(t, "batches")
		percent := rapid.Bool().Draw(t, "percent")
		rel := &Release{Name: "demo", RolloutID: rapid.SampledFrom([]string{"", "v2"}).Draw(t, "rolloutID")}
		for range n {
			var b intorpercent.IntOrString
			switch {
			case rapid.IntRange(0, 9).Draw(t, "garbage") == 0:
				b = intorpercent.FromString(rapid.SampledFrom([]string{"abc", "20", "2.5%", ""}).Draw(t, "text"))
			case percent:
				b = intorpercent.FromString(itoa(rapid.Int32Range(0, 150).Draw(t, "pct")) + "%")
			default:
				b = intorpercent.FromInt(rapid.Int32Range(-1, 20).Draw(t, "count"))
			}
			rel.Batches = append(rel.Batches, Batch{CanaryReplicas: b})
		}
		cfg := Config{Start: simStart, ReadyDelay: time.Duration(rapid.IntRange(0, 20).Draw(t, "readyDelay")) * time.Second, MaxSyncs: 3000}
		cs, pods, revs := demoCloneSet(t, replicas)
		tr, err := Simulate(rel, cs, pods, revs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Outcome != OutcomeComplete || tr.Workload.Status.UpdatedReadyReplicas != int32(replicas) {
			t.Fatalf("CloneSet: %v after %d syncs, %d of %d updated and ready\n%s", tr.Outcome, tr.Syncs, tr.Workload.Status.UpdatedReadyReplicas, replicas, tr.String())
		}
		r := int32(replicas)
		d := &AdvancedDeployment{Name: "web", Replicas: r, NewReplicaSet: "web-v2",
			Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
		rss := []ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: r, StatusReplicas: r, ReadyReplicas: r, AvailableReplicas: r, DesiredReplicas: &r}}
		// Upstream stalls a Deployment on mixed kinds and on percents
		// above 100% (K3; TestDeploymentStallsUpstream); those plans run
		// with Options.CompareDeploymentPartitionsOnReplicas.
		if !singleKindValid(rel) {
			cfg.Options.CompareDeploymentPartitionsOnReplicas = true
		}
		tr, err = SimulateDeployment(rel, d, rss, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Outcome != OutcomeComplete || tr.Workload.Status.UpdatedReadyReplicas != r {
			t.Fatalf("Deployment: %v after %d syncs, %d of %d updated and ready\n%s", tr.Outcome, tr.Syncs, tr.Workload.Status.UpdatedReadyReplicas, r, tr.String())
		}
	})
}

// singleKindValid reports whether every batch is readable, all of one
// kind, and no percent exceeds 100%.
func singleKindValid(rel *Release) bool {
	for _, b := range rel.Batches {
		v := b.CanaryReplicas
		n, ok := strictScaled(&v, 100, true)
		if !ok || v.IsString != rel.Batches[0].CanaryReplicas.IsString || (v.IsString && n > 100) {
			return false
		}
	}
	return true
}
