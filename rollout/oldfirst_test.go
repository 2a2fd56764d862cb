package rollout

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// nextOldest returns the index of the oldest ReplicaSet other than skip
// that sorts after prev (prev == -1: the oldest of all), or -1. Iterating
// with it visits rss oldest first in O(n) per step: the order the
// reference implementations below and the slow references of the other
// tests use.
func nextOldest[T any](rss []ReplicaSet[T], prev, skip int) int {
	best := -1
	for i := range rss {
		if i == skip || (prev >= 0 && !older(rss, prev, i)) {
			continue
		}
		if best < 0 || older(rss, i, best) {
			best = i
		}
	}
	return best
}

// quadraticCleanupUnhealthy is CleanupUnhealthy as it was before it sorted:
// it finds the next oldest ReplicaSet with nextOldest at every step,
// O(n^2). It is the reference the sorting implementation must match.
func quadraticCleanupUnhealthy[T any](rss []ReplicaSet[T], newRS int, maxCleanup int32, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	var cleaned int32
	for i := nextOldest(rss, -1, newRS); i >= 0; i = nextOldest(rss, i, newRS) {
		if cleaned >= maxCleanup {
			break
		}
		if rss[i].Replicas == 0 || sizes[i] == 0 || sizes[i] == rss[i].AvailableReplicas {
			continue
		}
		n := min(int64(maxCleanup)-int64(cleaned), int64(sizes[i])-int64(rss[i].AvailableReplicas))
		to := int64(sizes[i]) - n
		if to > int64(sizes[i]) {
			return cleaned, &StaleStatusError{ReplicaSet: rss[i].Name, From: sizes[i], To: sat(to)}
		}
		sizes[i] = int32(to)
		cleaned += int32(n)
	}
	return cleaned, nil
}

// quadraticScaleDownOld is ScaleDownOld as it was before it sorted (see
// quadraticCleanupUnhealthy).
func quadraticScaleDownOld[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	var available int64
	for i := range rss {
		if i == newRS || rss[i].Replicas > 0 {
			available += int64(rss[i].AvailableReplicas)
		}
	}
	budget := available - int64(MinAvailable(d))
	if budget <= 0 {
		return 0, nil
	}
	var removed int64
	for i := nextOldest(rss, -1, newRS); i >= 0; i = nextOldest(rss, i, newRS) {
		if removed >= budget {
			break
		}
		if rss[i].Replicas == 0 || sizes[i] == 0 {
			continue
		}
		n := min(int64(sizes[i]), budget-removed)
		sizes[i] -= int32(n)
		removed += n
	}
	return sat(removed), nil
}

// genOldFirstInput draws ReplicaSets whose creation times and names often
// tie (names may repeat: the step functions do not reject them), sizes
// that may lag or lead the ReplicaSets' available pods, and any newRS,
// also out of range.
func genOldFirstInput(t *rapid.T) (rss []ReplicaSet[tmpl], newRS int, sizes []int32) {
	n := rapid.IntRange(0, 80).Draw(t, "n")
	for i := range n {
		spec := rapid.Int32Range(0, 20).Draw(t, fmt.Sprintf("spec%d", i))
		avail := rapid.Int32Range(0, 20).Draw(t, fmt.Sprintf("available%d", i))
		rss = append(rss, rs(rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, fmt.Sprintf("name%d", i)),
			rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("age%d", i)), spec, avail))
		sizes = append(sizes, rapid.Int32Range(0, 20).Draw(t, fmt.Sprintf("size%d", i)))
	}
	newRS = rapid.IntRange(-2, n).Draw(t, "newRS")
	return rss, newRS, sizes
}

func TestCleanupUnhealthyMatchesQuadraticReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss, newRS, sizes := genOldFirstInput(t)
		maxCleanup := rapid.Int32Range(-5, 200).Draw(t, "maxCleanup")
		before := cloneReplicaSets(rss)
		want := slices.Clone(sizes)
		wantCleaned, wantErr := quadraticCleanupUnhealthy(rss, newRS, maxCleanup, want)
		got := slices.Clone(sizes)
		cleaned, err := CleanupUnhealthy(rss, newRS, maxCleanup, got)
		if cleaned != wantCleaned || fmt.Sprint(err) != fmt.Sprint(wantErr) || !slices.Equal(got, want) {
			t.Fatalf("CleanupUnhealthy(newRS %d, max %d, sizes %v) = (%d, %v) sizes %v, reference (%d, %v) sizes %v",
				newRS, maxCleanup, sizes, cleaned, err, got, wantCleaned, wantErr, want)
		}
		if !replicaSetsEqual(rss, before) {
			t.Fatalf("CleanupUnhealthy modified rss")
		}
	})
}

func TestScaleDownOldMatchesQuadraticReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss, newRS, sizes := genOldFirstInput(t)
		d := dep(rapid.Int32Range(0, 200).Draw(t, "replicas"), num(0), num(rapid.Int32Range(1, 200).Draw(t, "maxUnavailable")))
		before := cloneReplicaSets(rss)
		want := slices.Clone(sizes)
		wantRemoved, wantErr := quadraticScaleDownOld(d, rss, newRS, want)
		got := slices.Clone(sizes)
		removed, err := ScaleDownOld(d, rss, newRS, got)
		if removed != wantRemoved || fmt.Sprint(err) != fmt.Sprint(wantErr) || !slices.Equal(got, want) {
			t.Fatalf("ScaleDownOld(R %d, newRS %d, sizes %v) = (%d, %v) sizes %v, reference (%d, %v) sizes %v",
				d.Replicas, newRS, sizes, removed, err, got, wantRemoved, wantErr, want)
		}
		if !replicaSetsEqual(rss, before) {
			t.Fatalf("ScaleDownOld modified rss")
		}
	})
}

// cloneReplicaSets copies rss deeply enough for replicaSetsEqual.
func cloneReplicaSets(rss []ReplicaSet[tmpl]) []ReplicaSet[tmpl] {
	out := slices.Clone(rss)
	for i := range out {
		if p := out[i].TerminatingReplicas; p != nil {
			out[i].TerminatingReplicas = ptr(*p)
		}
	}
	return out
}

// replicaSetsEqual compares the fields the step functions read.
func replicaSetsEqual(a, b []ReplicaSet[tmpl]) bool {
	return slices.EqualFunc(a, b, func(x, y ReplicaSet[tmpl]) bool {
		return x.Name == y.Name && x.CreationTime.Equal(y.CreationTime) && x.Replicas == y.Replicas &&
			x.AvailableReplicas == y.AvailableReplicas && terminating(&x) == terminating(&y)
	})
}

// manyOld returns n ReplicaSets, the last one new, whose old ones have
// unavailable pods and creation times in reverse order of their index
// (the worst case for a search of the next oldest from the start).
func manyOld(n int) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d := dep(int32(n), num(0), num(int32(n)))
	rss := make([]ReplicaSet[tmpl], n)
	for i := range rss {
		rss[i] = rs("web-"+strconv.Itoa(i), i, 2, 1)
	}
	rss[n-1].CreationTime = t0.Add(time.Minute)
	return d, rss
}

func BenchmarkCleanupUnhealthy(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run("ReplicaSets="+strconv.Itoa(n), func(b *testing.B) {
			_, rss := manyOld(n)
			sizes := sizesOf(rss)
			b.ReportAllocs()
			for b.Loop() {
				sizesOfInto(sizes, rss)
				if _, err := CleanupUnhealthy(rss, n-1, int32(n), sizes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScaleDownOld(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run("ReplicaSets="+strconv.Itoa(n), func(b *testing.B) {
			d, rss := manyOld(n)
			sizes := sizesOf(rss)
			b.ReportAllocs()
			for b.Loop() {
				sizesOfInto(sizes, rss)
				if _, err := ScaleDownOld(d, rss, n-1, sizes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sizesOfInto sets sizes[i] to rss[i].Replicas and returns sizes.
func sizesOfInto(sizes []int32, rss []ReplicaSet[tmpl]) []int32 {
	for i := range rss {
		sizes[i] = rss[i].Replicas
	}
	return sizes
}

// TestStepFunctionsWithManyReplicaSetsAllocateOnlyTheOrder checks that the
// order sorted for more than smallOrder ReplicaSets is the only allocation,
// and that too few sizes for that many ReplicaSets is still ErrIndex.
func TestStepFunctionsWithManyReplicaSetsAllocateOnlyTheOrder(t *testing.T) {
	d, rss := manyOld(1000)
	sizes := sizesOf(rss)
	for name, f := range map[string]func(){
		"CleanupUnhealthy": func() { CleanupUnhealthy(rss, len(rss)-1, 10, sizesOfInto(sizes, rss)) },
		"ScaleDownOld":     func() { ScaleDownOld(d, rss, len(rss)-1, sizesOfInto(sizes, rss)) },
	} {
		if raceEnabled {
			break // allocation counts mean nothing under the race detector
		}
		if got := testing.AllocsPerRun(20, f); got != 1 {
			t.Errorf("%s on %d ReplicaSets allocates %v times per call, want 1", name, len(rss), got)
		}
	}
	_, err := CleanupUnhealthy(rss, 0, 1, sizes[:1])
	if !errors.Is(err, field.ErrIndex) {
		t.Errorf("CleanupUnhealthy with 1 size for %d ReplicaSets: error %v, want field.ErrIndex", len(rss), err)
	}
}
