package batchrelease

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// referenceStrict is the strict reader written out plainly, for the
// fuzz target to compare against: an int as is, a string "<Atoi>%".
func referenceStrict(s intorpercent.IntOrString, total int64) (int64, bool) {
	if !s.IsString {
		return int64(s.Int), true
	}
	if !strings.HasSuffix(s.Str, "%") {
		return 0, false
	}
	p, err := strconv.Atoi(s.Str[:len(s.Str)-1])
	if err != nil {
		return 0, false
	}
	return floatToInt(math.Ceil(float64(p) * float64(total) / 100)), true
}

// FuzzPercentConversion checks the percent conversion on any text and
// any replica count: no panic, the strict reader agrees with its plain
// reference, BatchReplicas stays in [0, R], and PercentPartition of a
// stable count in (0, R) lands within R/100 pods of it when read back.
func FuzzPercentConversion(f *testing.F) {
	for _, s := range []string{"20%", "100%", "200%", "abc", "1%", "33%", "-1%", "+5%", "05%", "", "%", "2.5%", "99999999999999999999%"} {
		f.Add(s, int32(10), int32(3))
	}
	f.Add("99%", int32(2), int32(1))
	f.Add("1%", int32(201), int32(1))
	f.Fuzz(func(t *testing.T, text string, replicas, stable int32) {
		v := intorpercent.FromString(text)
		got, ok := strictScaled(&v, int64(replicas), true)
		want, wok := referenceStrict(v, int64(replicas))
		if got != want || ok != wok {
			t.Fatalf("strictScaled(%q, %d) = %d, %v; reference %d, %v", text, replicas, got, ok, want, wok)
		}
		if replicas < 0 {
			return
		}
		rel := &Release{Batches: []Batch{{CanaryReplicas: v}}}
		b, err := BatchReplicas(rel, replicas, 0)
		if err != nil || b < 0 || b > replicas {
			t.Fatalf("BatchReplicas(%q, %d) = %d, %v", text, replicas, b, err)
		}
		if replicas == 0 || stable <= 0 || stable >= replicas {
			return
		}
		p := PercentPartition(stable, replicas, v)
		n, ok := strictScaled(&p, int64(replicas), true)
		if !ok {
			t.Fatalf("PercentPartition(%d, %d) = %q, unreadable", stable, replicas, p.Str)
		}
		if d := max(n-int64(stable), int64(stable)-n); 100*d >= max(int64(replicas), 100) {
			t.Fatalf("PercentPartition(%d, %d) = %q reads back as %d", stable, replicas, p.Str, n)
		}
	})
}

// FuzzValidateSteps checks that ValidateSteps never panics, returns at
// most one error, always worded under the steps' path and wrapping
// field.ErrInvalid, and accepts exactly the steps the rules accept.
func FuzzValidateSteps(f *testing.F) {
	f.Add("0%", "", uint8(0), "20%", false)
	f.Add("150", "", uint8(0), "", true)
	f.Add("101%", "", uint8(0), "", false)
	f.Add("60%", "10%", uint8(1), "", false)
	f.Add("20%", "0%", uint8(3), "", false)
	f.Add("3", "", uint8(1), "2", true)
	f.Add("50%", "", uint8(1), "2", true)
	f.Fuzz(func(t *testing.T, first, traffic string, style uint8, second string, counts bool) {
		read := func(s string) *intorpercent.IntOrString {
			if s == "" {
				return nil
			}
			if counts {
				if n, err := strconv.ParseInt(s, 10, 32); err == nil {
					return ptr(intorpercent.FromInt(int32(n)))
				}
			}
			return ptr(intorpercent.FromString(s))
		}
		steps := []CanaryStep{{Replicas: read(first)}}
		if traffic != "" {
			steps[0].Traffic = &traffic
		}
		if second != "" {
			steps = append(steps, CanaryStep{Replicas: read(second)})
		}
		err := ValidateSteps(steps, RollingStyle(style%4), "Spec.Strategy.Canary.Steps")
		if err == nil {
			// Every accepted step has readable, positive replicas.
			for _, s := range steps {
				n, ok := strictScaled(s.Replicas, 100, true)
				if s.Replicas == nil || !ok || n <= 0 || (s.Replicas.IsString && n > 100) {
					t.Fatalf("accepted steps %+v with replicas %v", steps, s.Replicas)
				}
			}
			return
		}
		if !errors.Is(err, field.ErrInvalid) || !strings.HasPrefix(err.Error(), "Spec.Strategy.Canary.Steps") {
			t.Fatalf("error %v", err)
		}
	})
}

// FuzzPlan checks that Plan never panics on states that pass its checks
// and that what it writes passes them again.
func FuzzPlan(f *testing.F) {
	f.Add(int32(10), int32(2), int32(1), uint8(1), uint8(2), uint8(1), "20%", int32(0))
	f.Add(int32(0), int32(0), int32(0), uint8(0), uint8(0), uint8(4), "abc", int32(5))
	f.Fuzz(func(t *testing.T, replicas, updated, ready int32, phase, state, kind uint8, batch string, current int32) {
		w := workload(Kind(kind%5), replicas, updated, ready)
		rel := &Release{Name: "demo", Batches: []Batch{{CanaryReplicas: intorpercent.FromString(batch)}, {CanaryReplicas: intorpercent.FromInt(current)}}}
		rel.Status = ReleaseStatus{Phase: Phase(phase % 5), BatchState: BatchState(state % 4), CurrentBatch: current % 3}
		rel.BatchPartition = ptr(int32(1))
		s, err := Plan(rel, w, simStart)
		if err != nil {
			if !errors.Is(err, field.ErrInvalid) {
				t.Fatalf("Plan error %v is not a field error", err)
			}
			return
		}
		if err := checkPlanInput(&s.Release, &s.Workload); err != nil {
			t.Fatalf("Plan left %v", err)
		}
	})
}
