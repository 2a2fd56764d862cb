package conformance

import (
	"cmp"
	"flag"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/adapters/kubeapps/internal/fixture"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// realisticTemplate is the production-like pod template the adapter
// module's benchmarks use too: three containers with env, resources,
// probes and volume mounts.
func realisticTemplate() corev1.PodTemplateSpec { return fixture.PodTemplate() }

// benchDeployment is a 10-replica RollingUpdate Deployment (25%/25%) on
// the realistic template, mid-rollout: a new ReplicaSet of 5 and nine old
// ones, the last of which still has 8 pods.
func benchDeployment() (*appsv1.Deployment, []*appsv1.ReplicaSet) {
	r := int32(10)
	quarter := intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", UID: "d-uid", Generation: 3},
		Spec: appsv1.DeploymentSpec{
			Replicas: &r,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "shop"}},
			Template: realisticTemplate(),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{Replicas: 13},
	}
	var rss []*appsv1.ReplicaSet
	for i := 0; i < 10; i++ {
		tmpl := realisticTemplate()
		spec := int32(0)
		switch i {
		case 8:
			spec = 8
		case 9:
			spec = 5 // the new one: same template
		}
		if i < 9 {
			tmpl.Spec.Containers[0].Image = fmt.Sprintf("registry.example.com/shop/web:2.3.%d", i)
		}
		hash := controller.ComputeHash(&tmpl, nil)
		tmpl.Labels[revision.HashLabel] = hash
		rss = append(rss, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name:              "shop-" + hash,
				UID:               types.UID(fmt.Sprint("uid-", i)),
				CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC)),
				Annotations: map[string]string{
					revision.RevisionAnnotation:        fmt.Sprint(i + 1),
					revision.DesiredReplicasAnnotation: "10",
					revision.MaxReplicasAnnotation:     "13",
				},
			},
			Spec:   appsv1.ReplicaSetSpec{Replicas: &spec, Template: tmpl},
			Status: appsv1.ReplicaSetStatus{Replicas: spec, ReadyReplicas: spec, AvailableReplicas: spec},
		})
	}
	return d, rss
}

// A benchmark pair runs the same input through upstream and rolloutmath.
// Each function is one call: the benchmarks loop over it. Input says what
// the rolloutmath side is given: "adapt" means it converts the apps/v1
// objects with kubeapps.Deployment / kubeapps.ReplicaSets inside the call, as a
// controller using the kubeapps package does on every sync; "minimal" means
// it converts, inside the call, only the fields the function reads;
// "pre-converted" means the conversion was done once, outside the timing.
// Upstream always reads the apps/v1 objects (so it parses "25%" and the
// replica annotations inside its call).
type benchPair struct {
	name, input           string
	upstream, rolloutmath func()
}

const (
	inputSame         = "the same apps/v1 objects"
	inputAdapt        = "apps/v1, adapt in the loop"
	inputMinimal      = "apps/v1, minimal conversion in the loop"
	inputPreConverted = "pre-converted"

	// inputReflection: the same templates in a wrapper type, for which no
	// comparator is registered, so that revision compares them by
	// reflection (see reflectiveTemplate).
	inputReflection = "the same objects, by reflection"
)

// sink keeps results alive so the compiler cannot drop the calls.
var sink any

// benchNow is the clock Plan is given in the benchmarks.
var benchNow = time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)

// minimalProportionInputs is the minimal conversion proportion.Of needs
// on each sync: the deployment's R, its maxSurge resolved from the
// apps/v1 IntOrStrings (the 25% defaults for nil ones), status.replicas,
// and the ReplicaSet's replicas, availability and raw annotations. The boolean is
// false when a bound cannot be converted.
func minimalProportionInputs(d *appsv1.Deployment, rs *appsv1.ReplicaSet) (proportion.Deployment, proportion.ReplicaSet, bool) {
	pd := proportion.Deployment{Replicas: 1, StatusReplicas: d.Status.Replicas,
		RollingUpdate: d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType}
	if d.Spec.Replicas != nil {
		pd.Replicas = *d.Spec.Replicas
	}
	if pd.RollingUpdate {
		surge, unavailable := rollout.DefaultMaxSurge(), rollout.DefaultMaxUnavailable()
		ok := true
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			if ru.MaxSurge != nil {
				surge, ok = benchValue(ru.MaxSurge)
			}
			if ru.MaxUnavailable != nil && ok {
				unavailable, ok = benchValue(ru.MaxUnavailable)
			}
		}
		if !ok {
			return proportion.Deployment{}, proportion.ReplicaSet{}, false
		}
		pd.MaxSurge, _, _ = rollout.Fenceposts(surge, unavailable, pd.Replicas)
	}
	prs := proportion.ReplicaSet{Name: rs.Name, CreationTime: rs.CreationTimestamp.Time, Replicas: 1,
		AvailableReplicas: rs.Status.AvailableReplicas,
		DesiredReplicas:   rs.Annotations[revision.DesiredReplicasAnnotation],
		MaxReplicas:       rs.Annotations[revision.MaxReplicasAnnotation]}
	if rs.Spec.Replicas != nil {
		prs.Replicas = *rs.Spec.Replicas
	}
	return pd, prs, true
}

// benchValue converts an apps/v1 IntOrString as the API server reads it.
func benchValue(v *intstr.IntOrString) (intorpercent.Value, bool) {
	return intorpercent.IntOrString{IsString: v.Type == intstr.String, Int: v.IntVal, Str: v.StrVal}.Value()
}

// minimalNewReplicasInputs is the minimal conversion rollout.NewReplicas
// needs on each sync: the deployment's R, strategy and bounds, and each
// ReplicaSet's spec.replicas (nil is 1), in a fresh slice. The boolean is
// false when a bound cannot be converted.
func minimalNewReplicasInputs(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (rollout.Deployment[struct{}], []rollout.ReplicaSet[struct{}], bool) {
	od := rollout.Deployment[struct{}]{Replicas: 1, Strategy: rollout.StrategyType(d.Spec.Strategy.Type)}
	if d.Spec.Replicas != nil {
		od.Replicas = *d.Spec.Replicas
	}
	ok := true
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			v, vok := benchValue(ru.MaxSurge)
			od.MaxSurge, ok = &v, ok && vok
		}
		if ru.MaxUnavailable != nil {
			v, vok := benchValue(ru.MaxUnavailable)
			od.MaxUnavailable, ok = &v, ok && vok
		}
	}
	ors := make([]rollout.ReplicaSet[struct{}], len(rss))
	for i, rs := range rss {
		ors[i].Replicas = 1
		if rs.Spec.Replicas != nil {
			ors[i].Replicas = *rs.Spec.Replicas
		}
	}
	return od, ors, ok
}

// ourProportion is proportion.Of on the apps/v1 objects, converted with
// minimalProportionInputs; -1 when the conversion fails.
func ourProportion(rs *appsv1.ReplicaSet, d *appsv1.Deployment, toAdd, added int32) int32 {
	pd, prs, ok := minimalProportionInputs(d, rs)
	if !ok {
		return -1
	}
	return proportion.Of(prs, pd, toAdd, added)
}

// pureSync is what upstream's pure parts compute for one sync.
type pureSync struct {
	newRS          *appsv1.ReplicaSet
	newReplicas    int32
	proportionSum  int32
	status         appsv1.DeploymentStatus
	newReplicasErr error
}

// upstreamPureSync runs the side-effect-free functions upstream's sync of
// a RollingUpdate Deployment calls, on the apps/v1 objects:
// FindNewReplicaSet, NewRSNewReplicas, GetReplicaSetProportion for every
// ReplicaSet (as a scaling event does, with toAdd 12 and added 3), and
// calculateStatus's exported pieces (the replica counters with
// terminating replicas, on by default since 1.35, MaxUnavailable, the
// conditions copied and Available set). It leaves out what needs the
// client or the informer (listing, adoption, DeepCopy before writes,
// annotations, cleanup, progress), so it is a lower bound on upstream's
// CPU per sync. Like upstream, it sorts rss in place.
func upstreamPureSync(logger klog.Logger, d *appsv1.Deployment, rss []*appsv1.ReplicaSet) pureSync {
	var out pureSync
	out.newRS = deploymentutil.FindNewReplicaSet(d, rss)
	if out.newRS != nil {
		out.newReplicas, out.newReplicasErr = deploymentutil.NewRSNewReplicas(d, rss, out.newRS)
	}
	for _, rs := range rss {
		out.proportionSum += deploymentutil.GetReplicaSetProportion(logger, rs, *d, 12, 3)
	}
	available := deploymentutil.GetAvailableReplicaCountForReplicaSets(rss)
	total := deploymentutil.GetReplicaCountForReplicaSets(rss)
	out.status = appsv1.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            deploymentutil.GetActualReplicaCountForReplicaSets(rss),
		UpdatedReplicas:     deploymentutil.GetActualReplicaCountForReplicaSets([]*appsv1.ReplicaSet{out.newRS}),
		ReadyReplicas:       deploymentutil.GetReadyReplicaCountForReplicaSets(rss),
		AvailableReplicas:   available,
		UnavailableReplicas: max(total-available, 0),
		CollisionCount:      d.Status.CollisionCount,
		TerminatingReplicas: deploymentutil.GetTerminatingReplicaCountForReplicaSets(rss),
	}
	out.status.Conditions = append(out.status.Conditions, d.Status.Conditions...)
	cond := deploymentutil.NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse,
		deploymentutil.MinimumReplicasUnavailable, "Deployment does not have minimum availability.")
	if available >= *d.Spec.Replicas-deploymentutil.MaxUnavailable(*d) {
		cond = deploymentutil.NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue,
			deploymentutil.MinimumReplicasAvailable, "Deployment has minimum availability.")
	}
	deploymentutil.SetDeploymentCondition(&out.status, *cond)
	return out
}

// ourPlan is what a controller using rolloutmath does on each sync: convert
// the apps/v1 objects and call rollout.Plan.
func ourPlan(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (rollout.Sync[kubeapps.Template], error) {
	od, err := kubeapps.Deployment(d)
	if err != nil {
		return rollout.Sync[kubeapps.Template]{}, err
	}
	return rollout.Plan(&od, kubeapps.ReplicaSets(rss), benchNow)
}

func benchPairs() []benchPair {
	d, rss := benchDeployment()
	ours, err := kubeapps.Deployment(d)
	if err != nil {
		panic(err)
	}
	ourRSs := kubeapps.ReplicaSets(rss)
	a, b2 := realisticTemplate(), realisticTemplate()
	b2.Labels[revision.HashLabel] = "6b966d6b4"
	wa, wb := reflectiveTemplate{a}, reflectiveTemplate{b2}
	newRS := 9
	pd := proportion.Deployment{Replicas: 20, MaxSurge: 5, StatusReplicas: 13, RollingUpdate: true}
	d20 := d.DeepCopy()
	twenty := int32(20)
	d20.Spec.Replicas = &twenty
	prs := proportion.ReplicaSet{Name: rss[8].Name, CreationTime: rss[8].CreationTimestamp.Time, Replicas: 8,
		AvailableReplicas: 8, DesiredReplicas: "10", MaxReplicas: "13"}
	logger := klog.Background()
	// Plan gets a state of its own, so that FindNewReplicaSet's in-place
	// sort elsewhere cannot change what it is given.
	pdep, prss := benchDeployment()
	upNewReplicas := func() {
		n, _ := deploymentutil.NewRSNewReplicas(d, rss, rss[newRS])
		sink = n
	}
	upProportion := func() { sink = deploymentutil.GetReplicaSetProportion(logger, rss[8], *d20, 12, 3) }
	// FindNewReplicaSet sorts its argument in place: after the first call
	// the slice is already in order (the index of the new one, 9, stays).
	upFindNew := func() { sink = deploymentutil.FindNewReplicaSet(d, rss) }
	return []benchPair{
		{"EqualIgnoreHash", inputSame,
			func() { sink = deploymentutil.EqualIgnoreHash(&a, &b2) },
			func() { sink = revision.EqualIgnoreHash(&a, &b2) }},
		{"EqualIgnoreHash", inputReflection,
			func() { sink = deploymentutil.EqualIgnoreHash(&a, &b2) },
			func() { sink = revision.EqualIgnoreHash(&wa, &wb) }},
		{"Hash", inputSame,
			func() { sink = controller.ComputeHash(&a, nil) },
			func() { sink = revision.Hash(&a, nil) }},
		{"NewRSNewReplicas", inputAdapt, upNewReplicas,
			func() {
				od, _ := kubeapps.Deployment(d)
				n, _ := rollout.NewReplicas(&od, kubeapps.ReplicaSets(rss), newRS)
				sink = n
			}},
		{"NewRSNewReplicas", inputMinimal, upNewReplicas,
			func() {
				od, ors, ok := minimalNewReplicasInputs(d, rss)
				n, _ := rollout.NewReplicas(&od, ors, newRS)
				if !ok {
					n = -1
				}
				sink = n
			}},
		{"NewRSNewReplicas", inputPreConverted, upNewReplicas,
			func() {
				n, _ := rollout.NewReplicas(&ours, ourRSs, newRS)
				sink = n
			}},
		{"GetReplicaSetProportion", inputMinimal, upProportion,
			func() { sink = ourProportion(rss[8], d20, 12, 3) }},
		{"GetReplicaSetProportion", inputPreConverted, upProportion,
			func() { sink = proportion.Of(prs, pd, 12, 3) }},
		{"FindNewReplicaSet/10", inputAdapt, upFindNew,
			func() {
				i, _ := revision.FindNew(&d.Spec.Template, kubeapps.ReplicaSets(rss))
				sink = i
			}},
		{"FindNewReplicaSet/10", inputPreConverted, upFindNew,
			func() {
				i, _ := revision.FindNew(&ours.Template, ourRSs)
				sink = i
			}},
		{"Plan/10 vs upstream pure parts", inputAdapt,
			func() { sink = upstreamPureSync(logger, pdep, prss) },
			func() {
				s, _ := ourPlan(pdep, prss)
				sink = s.Path
			}},
		{"Planner/10 vs upstream pure parts", inputAdapt,
			func() { sink = upstreamPureSync(logger, pdep, prss) },
			func() {
				s, _ := ourPlanner(pdep, prss)
				sink = s.Path
			}},
	}
}

// benchPlanner is the Planner ourPlanner reuses, and benchNewRS the new
// ReplicaSet it names: the one benchDeployment's ReplicaSets hold, which
// a controller knows from its previous sync.
var (
	benchPlanner rollout.Planner[kubeapps.Template]
	benchNewRS   string
)

// ourPlanner is ourPlan for a controller that keeps a Planner and the
// name of the new ReplicaSet from sync to sync: the conversion is still
// inside the call, the reasons are not written.
func ourPlanner(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (*rollout.Sync[kubeapps.Template], error) {
	od, err := kubeapps.Deployment(d)
	if err != nil {
		return nil, err
	}
	if benchNewRS == "" {
		s, err := rollout.Plan(&od, kubeapps.ReplicaSets(rss), benchNow)
		if err != nil || s.NewReplicaSet < 0 {
			return nil, fmt.Errorf("no new ReplicaSet: %v", err)
		}
		benchNewRS = s.ReplicaSets[s.NewReplicaSet].Name
	}
	return benchPlanner.Plan(&od, kubeapps.ReplicaSets(rss), benchNow, benchNewRS)
}

// benchName is a pair's sub-benchmark name: the function, and "adapt",
// "minimal" or "preconverted" for how the rolloutmath side gets its input.
func benchName(p benchPair) string {
	switch p.input {
	case inputAdapt:
		return p.name + "/adapt"
	case inputMinimal:
		return p.name + "/minimal"
	case inputPreConverted:
		return p.name + "/preconverted"
	}
	return p.name
}

// Benchmark runs each side of each pair on its own, one after the other:
// the usual benchstat-friendly form. Under a varying load the two sides
// see different machines; BenchmarkInterleaved does not have that problem.
func Benchmark(b *testing.B) {
	for _, p := range benchPairs() {
		b.Run(benchName(p)+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.upstream()
			}
		})
		b.Run(benchName(p)+"/rolloutmath", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.rolloutmath()
			}
		})
	}
}

// BenchmarkInterleaved runs upstream and rolloutmath alternately inside
// one benchmark, a batch of each per iteration (which goes first
// alternates too), and times each side, so that the machine's load falls
// on both alike. A batch is as many calls as take about 50 µs (at least
// one), on each side, so both sides are exposed for about the same time
// per iteration. Each iteration is a paired measurement; a preempted
// batch is an outlier, so the figures are medians over the iterations:
// up-ns/op and rm-ns/op (per call), and x, the median of the iterations'
// ratios of upstream's time per call to rolloutmath's. up-allocs/op and
// rm-allocs/op come from testing.AllocsPerRun. The benchmark's own ns/op
// is the time of one iteration, a batch of each side, and means little.
//
// Garbage collection is off while the batches run and is done between
// iterations, outside the timing, every 32 MiB or so of garbage:
// otherwise a collection started by one side's garbage runs during the
// other side's batch (it halved EqualIgnoreHash's ratio, charging
// upstream's 606 allocations to rolloutmath). So these times leave out
// the cost of collecting; that flatters the side that allocates more,
// upstream everywhere except where the library converts in the loop.
// Benchmark, one side at a time, includes each side's own collections.
func BenchmarkInterleaved(b *testing.B) {
	for _, p := range benchPairs() {
		b.Run(benchName(p), func(b *testing.B) { interleaved(b, p) })
	}
}

// interleaved is one pair of BenchmarkInterleaved.
func interleaved(b *testing.B, p benchPair) {
	p.upstream() // warm up (and let FindNewReplicaSet sort its input)
	p.rolloutmath()
	upAllocs := testing.AllocsPerRun(20, p.upstream)
	rmAllocs := testing.AllocsPerRun(20, p.rolloutmath)
	sides := [2]func(){p.upstream, p.rolloutmath}
	batch := [2]int{batchSize(p.upstream), batchSize(p.rolloutmath)}
	gcEvery := int(max(1, (32<<20)/max(1, allocatedBy(func() {
		for s := range sides {
			for range batch[s] {
				sides[s]()
			}
		}
	}))))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	b.ResetTimer()
	var per [2][]float64 // ns per call, per iteration and side
	var ratios []float64
	iter := 0
	for b.Loop() {
		var took [2]time.Duration
		for j := range 2 {
			s := (iter + j) % 2
			f, k := sides[s], batch[s]
			t0 := time.Now()
			for range k {
				f()
			}
			took[s] = time.Since(t0)
		}
		iter++
		up := float64(took[0].Nanoseconds()) / float64(batch[0])
		rm := float64(took[1].Nanoseconds()) / float64(batch[1])
		per[0], per[1] = append(per[0], up), append(per[1], rm)
		ratios = append(ratios, up/max(rm, 1e-3))
		if iter%gcEvery == 0 {
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
		}
	}
	b.ReportMetric(median(per[0]), "up-ns/op")
	b.ReportMetric(median(per[1]), "rm-ns/op")
	b.ReportMetric(upAllocs, "up-allocs/op")
	b.ReportMetric(rmAllocs, "rm-allocs/op")
	b.ReportMetric(median(ratios), "x")
}

// allocatedBy returns how many bytes f allocates on the heap.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// median returns the median of xs (sorting it), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// batchSize returns how many calls of f take at least 50 µs (1 if one
// call does), so that a batch is long against the clock's resolution and
// the cost of reading it.
func batchSize(f func()) int {
	for k := 1; ; k *= 2 {
		t0 := time.Now()
		for range k {
			f()
		}
		if time.Since(t0) >= 50*time.Microsecond || k >= 1<<20 {
			return k
		}
	}
}

// TestBenchmarkInputsAgree checks that each benchmark pair computes the
// same answer, so the timings compare like with like; the pairs that
// convert inside the loop are checked on what they convert.
func TestBenchmarkInputsAgree(t *testing.T) {
	d, rss := benchDeployment()
	ours, err := kubeapps.Deployment(d)
	if err != nil {
		t.Fatal(err)
	}
	ourRSs := kubeapps.ReplicaSets(rss)
	a := realisticTemplate()
	if got, up := revision.Hash(&a, nil), controller.ComputeHash(&a, nil); got != up {
		t.Errorf("Hash = %q, upstream %q", got, up)
	}
	b2 := realisticTemplate()
	b2.Labels[revision.HashLabel] = "x"
	wa, wb := reflectiveTemplate{a}, reflectiveTemplate{b2}
	if !revision.EqualIgnoreHash(&a, &b2) || !revision.EqualIgnoreHash(&wa, &wb) || !deploymentutil.EqualIgnoreHash(&a, &b2) {
		t.Errorf("the benchmark templates are not equal for all three")
	}
	got, _ := rollout.NewReplicas(&ours, ourRSs, 9)
	up, _ := deploymentutil.NewRSNewReplicas(d, rss, rss[9])
	if got != up {
		t.Errorf("NewReplicas = %d, upstream %d", got, up)
	}
	// The minimal conversion gives the same size for every choice of new
	// ReplicaSet, at R 10 and 20.
	for _, dep := range []*appsv1.Deployment{d, withReplicas(d, 20)} {
		od, ors, ok := minimalNewReplicasInputs(dep, rss)
		for i := range rss {
			got, err := rollout.NewReplicas(&od, ors, i)
			up, uerr := deploymentutil.NewRSNewReplicas(dep, rss, rss[i])
			if !ok || err != nil || uerr != nil || got != up {
				t.Errorf("R %d, new %s: minimal NewReplicas = %d (%v, %v), upstream %d (%v)",
					*dep.Spec.Replicas, rss[i].Name, got, ok, err, up, uerr)
			}
		}
	}
	i, ok := revision.FindNew(&ours.Template, ourRSs)
	if n := deploymentutil.FindNewReplicaSet(d, append([]*appsv1.ReplicaSet(nil), rss...)); !ok || n == nil || n.Name != rss[i].Name {
		t.Errorf("FindNew and FindNewReplicaSet disagree")
	}

	// The proportion pairs: the pre-converted inputs are what the minimal
	// conversion gives, and with it every ReplicaSet gets upstream's share,
	// at R 10 (Plan's state) and R 20 (the benchmark's).
	d20 := withReplicas(d, 20)
	pd, prs, ok := minimalProportionInputs(d20, rss[8])
	wantPD := proportion.Deployment{Replicas: 20, MaxSurge: 5, StatusReplicas: 13, RollingUpdate: true}
	wantPRS := proportion.ReplicaSet{Name: rss[8].Name, CreationTime: rss[8].CreationTimestamp.Time, Replicas: 8,
		AvailableReplicas: 8, DesiredReplicas: "10", MaxReplicas: "13"}
	if !ok || pd != wantPD || prs != wantPRS {
		t.Errorf("minimalProportionInputs = %+v, %+v, %v; the pre-converted pair uses %+v, %+v", pd, prs, ok, wantPD, wantPRS)
	}
	logger := klog.Background()
	for _, dep := range []*appsv1.Deployment{d, d20} {
		for _, rs := range rss {
			for _, args := range [][2]int32{{12, 3}, {-7, 0}, {5, 4}} {
				got := ourProportion(rs, dep, args[0], args[1])
				up := deploymentutil.GetReplicaSetProportion(logger, rs, *dep, args[0], args[1])
				if got != up {
					t.Errorf("R %d, %s, toAdd %d, added %d: proportion %d, upstream %d",
						*dep.Spec.Replicas, rs.Name, args[0], args[1], got, up)
				}
			}
		}
	}

	// The Plan pair: the same new ReplicaSet and size, and the status
	// Plan writes (computed, as upstream's, before the sync's own scaling)
	// is the one upstream's status math gives.
	pdep, prss := benchDeployment()
	s, err := ourPlan(pdep, prss)
	if err != nil {
		t.Fatal(err)
	}
	// The Planner pair computes Plan's very Sync (once explained).
	ps, err := ourPlanner(pdep, prss)
	if err != nil {
		t.Fatal(err)
	}
	if benchPlanner.Explain(); !reflect.DeepEqual(*ps, s) {
		t.Errorf("the Planner pair's Sync differs from Plan's:\n%+v\n%+v", *ps, s)
	}
	pure := upstreamPureSync(logger, pdep, prss)
	if pure.newRS == nil || s.NewReplicaSet < 0 || s.ReplicaSets[s.NewReplicaSet].Name != pure.newRS.Name {
		t.Fatalf("Plan's new ReplicaSet %d, upstream's %v", s.NewReplicaSet, pure.newRS)
	}
	if n := s.ReplicaSets[s.NewReplicaSet].Replicas; pure.newReplicasErr != nil || n != pure.newReplicas {
		t.Errorf("Plan leaves the new ReplicaSet at %d, NewRSNewReplicas = %d (%v)", n, pure.newReplicas, pure.newReplicasErr)
	}
	var sum int32
	for _, rs := range prss {
		sum += ourProportion(rs, pdep, 12, 3)
	}
	if sum != pure.proportionSum {
		t.Errorf("sum of proportions %d, upstream %d", sum, pure.proportionSum)
	}
	st, us := s.Deployment.Status, pure.status
	gotCounts := [6]int64{st.ObservedGeneration, int64(st.Replicas), int64(st.UpdatedReplicas), int64(st.ReadyReplicas),
		int64(st.AvailableReplicas), int64(st.UnavailableReplicas)}
	upCounts := [6]int64{us.ObservedGeneration, int64(us.Replicas), int64(us.UpdatedReplicas), int64(us.ReadyReplicas),
		int64(us.AvailableReplicas), int64(us.UnavailableReplicas)}
	if gotCounts != upCounts {
		t.Errorf("status (generation, replicas, updated, ready, available, unavailable) = %v, upstream %v", gotCounts, upCounts)
	}
	if (st.TerminatingReplicas == nil) != (us.TerminatingReplicas == nil) ||
		(st.TerminatingReplicas != nil && *st.TerminatingReplicas != *us.TerminatingReplicas) {
		t.Errorf("terminating replicas %v, upstream %v", st.TerminatingReplicas, us.TerminatingReplicas)
	}
	var avail *rollout.Condition
	for i := range st.Conditions {
		if st.Conditions[i].Type == rollout.DeploymentAvailable {
			avail = &st.Conditions[i]
		}
	}
	upAvail := deploymentutil.GetDeploymentCondition(us, appsv1.DeploymentAvailable)
	if avail == nil || upAvail == nil || string(avail.Status) != string(upAvail.Status) || avail.Reason != upAvail.Reason {
		t.Errorf("Available condition %+v, upstream %+v", avail, upAvail)
	}
}

// withReplicas returns a copy of d with spec.replicas r.
func withReplicas(d *appsv1.Deployment, r int32) *appsv1.Deployment {
	out := d.DeepCopy()
	out.Spec.Replicas = &r
	return out
}

var (
	speedups       = flag.Bool("speedups", false, "print the upstream/rolloutmath benchmark table (markdown) and exit the test")
	speedupsRounds = flag.Int("speedups.rounds", 5, "interleaved runs per pair for -speedups; the table shows the median ratio")
)

// ratio formats upstream's time over rolloutmath's: "17.0x", or, when
// rolloutmath is the slower, with three significant digits ("0.00341x").
func ratio(x float64) string {
	if x >= 1 {
		return fmt.Sprintf("%.1fx", x)
	}
	return fmt.Sprintf("%.3gx", x)
}

// TestSpeedups prints, with -speedups, the README's table: each pair run
// interleaved (BenchmarkInterleaved) -speedups.rounds times, with the
// round of median ratio shown, and the lowest and highest ratio.
func TestSpeedups(t *testing.T) {
	if !*speedups {
		t.Skip("run with -speedups to print the benchmark table")
	}
	fmt.Println("| function | rolloutmath input | upstream ns/op | allocs/op | rolloutmath ns/op | allocs/op | upstream / rolloutmath | range |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, p := range benchPairs() {
		var rounds []testing.BenchmarkResult
		for range max(*speedupsRounds, 1) {
			rounds = append(rounds, testing.Benchmark(func(b *testing.B) { interleaved(b, p) }))
		}
		slices.SortFunc(rounds, func(x, y testing.BenchmarkResult) int { return cmp.Compare(x.Extra["x"], y.Extra["x"]) })
		m := rounds[len(rounds)/2]
		fmt.Printf("| %s | %s | %.0f | %.0f | %.1f | %.0f | %s | %s to %s |\n", p.name, p.input,
			m.Extra["up-ns/op"], m.Extra["up-allocs/op"], m.Extra["rm-ns/op"], m.Extra["rm-allocs/op"], ratio(m.Extra["x"]),
			ratio(rounds[0].Extra["x"]), ratio(rounds[len(rounds)-1].Extra["x"]))
	}
}

// BenchmarkPlanner is issue 13's Plan target on the real
// corev1.PodTemplateSpec: a Planner reused from sync to sync, on the
// 10-ReplicaSet mid-rollout state of benchDeployment with the status and
// revision annotation its previous sync wrote (so the sync scales one
// ReplicaSet and rewrites the status), the new ReplicaSet named by the caller. "preconverted"
// keeps the rollout types from sync to sync, as a controller holding its
// state in them does ("explained" also writes the reasons, "FindNew"
// leaves the new ReplicaSet unnamed); "adapt" converts the apps/v1
// objects inside the loop, as a controller reading them from an informer
// does; "Plan" is the simple entry point, with reasons written, for
// comparison.
func BenchmarkPlanner(b *testing.B) {
	d, rss := benchDeployment()
	od, err := kubeapps.Deployment(d)
	if err != nil {
		b.Fatal(err)
	}
	ors := kubeapps.ReplicaSets(rss)
	first, err := rollout.Plan(&od, ors, benchNow.Add(-10*time.Second))
	if err != nil {
		b.Fatal(err)
	}
	od.Status, od.Annotations = first.Deployment.Status, first.Deployment.Annotations
	d.Status, d.Annotations = kubeapps.StatusObject(&od.Status), od.Annotations
	newRS := ors[first.NewReplicaSet].Name
	want, err := rollout.Plan(&od, ors, benchNow)
	if err != nil || len(want.Actions) != 1 {
		b.Fatalf("Plan = %d actions, %v; want one write", len(want.Actions), err)
	}
	b.Run("preconverted", func(b *testing.B) {
		var p rollout.Planner[kubeapps.Template]
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Plan(&od, ors, benchNow, newRS); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("explained", func(b *testing.B) {
		var p rollout.Planner[kubeapps.Template]
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Plan(&od, ors, benchNow, newRS); err != nil {
				b.Fatal(err)
			}
			sink = p.Explain().Reason
		}
	})
	b.Run("FindNew", func(b *testing.B) {
		var p rollout.Planner[kubeapps.Template]
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Plan(&od, ors, benchNow, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("adapt", func(b *testing.B) {
		var p rollout.Planner[kubeapps.Template]
		b.ReportAllocs()
		for b.Loop() {
			cd, err := kubeapps.Deployment(d)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Plan(&cd, kubeapps.ReplicaSets(rss), benchNow, newRS); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rollout.Plan(&od, ors, benchNow); err != nil {
				b.Fatal(err)
			}
		}
	})
}
