package statefulset

import (
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// planInvariants is the property FuzzPlan explores: on any snapshot
// drawWorld draws, Plan succeeds and keeps checkSync's invariants.
func planInvariants(t *rapid.T) {
	w := drawWorld(t)
	s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
	if err != nil {
		t.Fatalf("PlanWith: %v", err)
	}
	checkSync(t, &w.set, w.pods, w.opts, t0, &s)
}

func FuzzPlan(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(planInvariants))
}

// FuzzValidate: any spec fields and status counters, as written, never
// panic Validate or Plan; Plan rejects exactly what Validate rejects
// (with the set named first), and a set Validate accepts is planned.
func FuzzValidate(f *testing.F) {
	f.Add("OrderedReady", "RollingUpdate", true, int32(0), false, "", int32(1), int32(3), int32(0), int32(0), int32(0), int32(0))
	f.Add("Foo", "Foo", false, int32(-1), true, "101%", int32(-1), int32(-1), int32(-1), int32(-1), int32(4), int32(3))
	f.Add("Parallel", "OnDelete", true, int32(1), true, "abc", int32(0), int32(2), int32(5), int32(30), int32(-1), int32(0))
	f.Fuzz(func(t *testing.T, policy, typ string, hasRU bool, partition int32, muIsString bool, muStr string, muInt, replicas, start, minReady, current, ready int32) {
		w := newWorld(0, false)
		w.set.PodManagementPolicy = PodManagementPolicy(policy)
		w.set.UpdateStrategy.Type = UpdateStrategyType(typ)
		if hasRU {
			mu := intorpercent.IntOrString{IsString: muIsString, Str: muStr, Int: muInt}
			w.set.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{Partition: partition, MaxUnavailable: &mu}
		}
		w.set.Replicas = replicas % 50
		w.set.Ordinals.Start = start
		w.set.MinReadySeconds = minReady
		w.set.Status.Replicas, w.set.Status.ReadyReplicas, w.set.Status.CurrentReplicas = 3, ready, current
		errs := Validate(&w.set)
		for _, e := range errs {
			if !errors.Is(e, field.ErrInvalid) {
				t.Fatalf("Validate error %v does not wrap field.ErrInvalid", e)
			}
		}
		_, err := PlanWith(&w.set, nil, w.revisions, t0, Options{Gates: Gates{MaxUnavailableStatefulSet: true}})
		switch {
		case len(errs) > 0 && (err == nil || err.Error() != "statefulset: invalid StatefulSet \"web\": "+errs.Error()):
			t.Fatalf("Validate = %v but PlanWith = %v", errs, err)
		case len(errs) == 0 && err != nil && !errors.Is(err, field.ErrRange):
			t.Fatalf("Validate accepts the set but PlanWith = %v", err)
		}
	})
}
