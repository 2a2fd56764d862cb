package cloneset

import (
	"errors"
	"hash/fnv"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// referenceNames is the eager naming Plan did before CreatePod actions
// had a count, kept as the clearly correct reference: candidate k is the
// FNV-1a hash of the CloneSet's name, a zero byte and k in decimal,
// written in base 27 with the safe alphabet; a taken candidate is
// skipped.
func referenceNames(cloneSet string, pods []Pod, n int) []string {
	taken := map[string]struct{}{}
	for _, p := range pods {
		taken[p.Name] = struct{}{}
	}
	var out []string
	var k uint64
	for len(out) < n {
		h := fnv.New64a()
		h.Write([]byte(cloneSet))
		h.Write([]byte{0})
		h.Write(strconv.AppendUint(nil, k, 10))
		k++
		v := h.Sum64()
		var suffix [5]byte
		for i := range suffix {
			suffix[i] = safeAlphabet[v%uint64(len(safeAlphabet))]
			v /= uint64(len(safeAlphabet))
		}
		name := cloneSet + "-" + string(suffix[:])
		if _, ok := taken[name]; !ok {
			taken[name] = struct{}{}
			out = append(out, name)
		}
	}
	return out
}

// TestCreatedPodsMatchTheEagerNames: for any CloneSet scaled out from
// any pods, some of them holding names the generator produces, the
// names CreatedPods yields are the reference's, in order, with the
// revisions of the CreatePod actions (current revision first).
func TestCreatedPodsMatchTheEagerNames(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	rapid.Check(t, func(t *rapid.T) {
		existing := rapid.IntRange(0, 40).Draw(t, "existing")
		replicas := existing + rapid.IntRange(0, 60).Draw(t, "created")
		partition := rapid.IntRange(0, replicas).Draw(t, "partition")
		// Existing pods take some of the generator's first names, so
		// that the sequence has to skip them.
		pool := referenceNames("demo", nil, 2*existing+1)
		var pods []Pod
		for i := range existing {
			name := "demo-x" + strconv.Itoa(i)
			if rapid.Bool().Draw(t, "generatedName") {
				name = pool[2*i+1]
			}
			pods = append(pods, Pod{Name: name, Revision: r1.Name, Phase: PodRunning, Ready: true, Lifecycle: Normal, NodeName: "n", CreationTime: t0, ReadySince: t0})
		}
		cs := &CloneSet[podTemplate]{Name: "demo", Replicas: int32(replicas), Template: templateOf("nginx:1.26")}
		cs.UpdateStrategy.Partition = num(int32(partition))
		cs.Status.CurrentRevision = r1.Name
		s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		n := 0
		for _, a := range s.Actions {
			if a.Kind == CreatePod {
				if a.Pod != "" || a.Count < 1 {
					t.Fatalf("Plan wrote CreatePod %+v, want no name and a count", a)
				}
				for range a.Count {
					want = append(want, a.Revision)
				}
				n += int(a.Count)
			}
		}
		if n != int(s.Scale.CreateCurrent+s.Scale.CreateUpdate) {
			t.Fatalf("CreatePod counts sum to %d, the scale step creates %d", n, s.Scale.CreateCurrent+s.Scale.CreateUpdate)
		}
		names := referenceNames("demo", pods, n)
		for i, r := range want {
			want[i] = names[i] + "@" + r
		}
		var got []string
		for p, err := range s.CreatedPods() {
			if err != nil {
				t.Fatal(err)
			}
			if p.CreationTime != t0 || p.Phase != PodPending || p.Lifecycle != PreparingNormal {
				t.Fatalf("created pod %+v, want created at %v, Pending, PreparingNormal", p, t0)
			}
			got = append(got, p.Name+"@"+p.Revision)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("CreatedPods (-reference +got):\n%s", diff)
		}
	})
}

// TestCreatedPodsStopEarly: a caller may stop the sequence after the
// names it needs, at MaxInt32 replicas too; the sequence is the same on
// every call.
func TestCreatedPodsStopEarly(t *testing.T) {
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: math.MaxInt32, Template: templateOf("nginx:1.25")}
	s, err := Plan(cs, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Pods) != 0 || s.Scale.CreateUpdate != math.MaxInt32 {
		t.Fatalf("Plan(MaxInt32 replicas, no pods): %d pods, %d created; want 0 and MaxInt32", len(s.Pods), s.Scale.CreateUpdate)
	}
	take := func() []string {
		var names []string
		for p, err := range s.CreatedPods() {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, p.Name)
			if len(names) == 3 {
				break
			}
		}
		return names
	}
	first := take()
	if diff := cmp.Diff(referenceNames("demo", nil, 3), first); diff != "" {
		t.Errorf("first 3 CreatedPods (-reference +got):\n%s", diff)
	}
	if diff := cmp.Diff(first, take()); diff != "" {
		t.Errorf("CreatedPods differs on a second call (-first +second):\n%s", diff)
	}
}

// TestCreatedPodsNamedAction: a CreatePod a caller writes with a name
// creates that pod, and the generated names avoid it.
func TestCreatedPodsNamedAction(t *testing.T) {
	first := referenceNames("demo", nil, 2)
	s := Sync[podTemplate]{CloneSet: CloneSet[podTemplate]{Name: "demo"}, Time: t0, Actions: []Action{
		{Kind: CreatePod, Pod: first[0], Revision: "demo-1"},
		{Kind: CreatePod, Revision: "demo-2", Count: 1},
	}}
	var got []string
	for p, err := range s.CreatedPods() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.Name+"@"+p.Revision)
	}
	if diff := cmp.Diff([]string{first[0] + "@demo-1", first[1] + "@demo-2"}, got); diff != "" {
		t.Errorf("CreatedPods (-want +got):\n%s", diff)
	}
}

// TestPodNamerExhausted: once every name of the space is taken, the
// generator fails instead of looking for ever, and the error says so.
func TestPodNamerExhausted(t *testing.T) {
	g := newPodNamer("demo", []Pod{{Name: "demo-bbbbb"}, {Name: "demo-1"}, {Name: "other-bbbbb"}, {Name: "demo-bbbbbb"}})
	if g.used != 1 {
		t.Fatalf("newPodNamer: %d taken names of the space, want 1 (demo-bbbbb)", g.used)
	}
	// Pretend all but two names are taken.
	g.used = PodNameSpace - 2
	for i := range 2 {
		if _, ok := g.next(); !ok {
			t.Fatalf("next() #%d failed with 2 names free", i+1)
		}
	}
	if name, ok := g.next(); ok {
		t.Fatalf("next() = %q with no name free, want a failure", name)
	}
	err := g.exhausted(20000000, 14348908, 20000000)
	const want = `cloneset: spec.replicas: 20000000: pod 14348908 of the 20000000 to create: no free pod name left: all 14348907 names "demo-" + 5 characters are taken`
	if err.Error() != want {
		t.Errorf("exhausted error:\n got %s\nwant %s", err, want)
	}
	if !errors.Is(err, ErrPodNamesExhausted) || !errors.Is(err, field.ErrRange) || !errors.Is(err, field.ErrInvalid) {
		t.Errorf("exhausted error %v does not wrap ErrPodNamesExhausted, field.ErrRange and field.ErrInvalid", err)
	}
	g.used = PodNameSpace - 5
	const wantTries = `cloneset: spec.replicas: 7: pod 3 of the 4 to create: no free pod name left: 57395628 candidates in a row were taken (5 names are free)`
	if got := g.exhausted(7, 3, 4).Error(); got != wantTries {
		t.Errorf("exhausted error after too many tries:\n got %s\nwant %s", got, wantTries)
	}
}

// BenchmarkPlanMaxInt32: Plan of a CloneSet of MaxInt32 replicas and no
// pods costs what any small plan costs: one CreatePod action.
func BenchmarkPlanMaxInt32(b *testing.B) {
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: math.MaxInt32, Template: templateOf("nginx:1.25")}
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for b.Loop() {
		s, err := Plan(cs, nil, nil, t0)
		if err != nil || s.Scale.CreateUpdate != math.MaxInt32 {
			b.Fatal(s.Scale.CreateUpdate, err)
		}
	}
	reportCPU(b, cpu0, ok)
}

// TestSimulateEnforcesMaxPods: a reconcile that would leave more pods
// than Config.MaxPods, or a state that holds more, ends the simulation
// with an error before the pods are built.
func TestSimulateEnforcesMaxPods(t *testing.T) {
	for _, tt := range []struct {
		name     string
		replicas int32
		pods     int
		max      int
		want     string
		syncs    int
	}{
		{name: "MaxInt32 replicas, the default bound", replicas: math.MaxInt32,
			want: "cloneset: spec.replicas: 2147483647: reconcile 1 would leave 2147483647 pods, more than Config.MaxPods 1000000", syncs: 1},
		{name: "one pod too many", replicas: 6, max: 5,
			want: "cloneset: spec.replicas: 6: reconcile 1 would leave 6 pods, more than Config.MaxPods 5", syncs: 1},
		{name: "the pods passed in", replicas: 3, pods: 4, max: 3,
			want: "cloneset: spec.replicas: 3: the pods passed in are 4, more than Config.MaxPods 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[podTemplate]{Name: "demo", Replicas: tt.replicas, Template: templateOf("nginx:1.25")}
			var pods []Pod
			for i := range tt.pods {
				pods = append(pods, Pod{Name: "demo-" + strconv.Itoa(i), Phase: PodRunning, Ready: true, CreationTime: t0, ReadySince: t0})
			}
			tr, err := Simulate(cs, pods, nil, Config[podTemplate]{MaxPods: tt.max})
			if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrRange) {
				t.Fatalf("Simulate: %v, want %s (wrapping field.ErrRange)", err, tt.want)
			}
			// The trace ends before the reconcile: no pods when the
			// state passed in is refused, those passed in otherwise.
			wantPods := tt.pods
			if tt.syncs == 0 {
				wantPods = 0
			}
			if tr.Syncs != tt.syncs || tr.Outcome != 0 || len(tr.Pods) != wantPods {
				t.Errorf("Simulate: trace of %d syncs, outcome %v, %d pods; want %d, 0, %d", tr.Syncs, tr.Outcome, len(tr.Pods), tt.syncs, wantPods)
			}
		})
	}
	// At the bound, the simulation runs.
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 5, Template: templateOf("nginx:1.25")}
	if tr, err := Simulate(cs, nil, nil, Config[podTemplate]{MaxPods: 5}); err != nil || tr.Outcome != OutcomeComplete || len(tr.Pods) != 5 {
		t.Errorf("Simulate(5 replicas, MaxPods 5) = %v with %d pods, %v; want Complete with 5 pods", tr.Outcome, len(tr.Pods), err)
	}
}
