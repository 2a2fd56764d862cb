package proportion_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/proportion"
)

// A deployment of 10 with 25% surge (3) is mid-rollout when it is
// resized to 20 (surge 5): both ReplicaSets grow in proportion.
func ExampleScale() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 5, DesiredReplicas: "10", MaxReplicas: "13"},
		{Name: "web-old", CreationTime: t0.Add(1 * time.Hour), Replicas: 8, DesiredReplicas: "10", MaxReplicas: "13"},
	}
	d := proportion.Deployment{Replicas: 20, MaxSurge: 5, RollingUpdate: true}
	res, err := proportion.Scale(d, rss, 0, proportion.Upstream)
	if err != nil {
		fmt.Println(err)
		return
	}
	var total int32
	for i, t := range res.Targets {
		fmt.Printf("%s %d -> %d", rss[i].Name, rss[i].Replicas, t.Replicas)
		if t.Annotate {
			fmt.Printf(" (annotate %s/%s)", proportion.FormatReplicas(res.DesiredReplicas), proportion.FormatReplicas(res.MaxReplicas))
		}
		fmt.Println()
		total += t.Replicas
	}
	fmt.Printf("rule %v, total %d, allowed %d, clamped %v\n", res.Rule, total, res.Allowed, res.Clamped)
	fmt.Println("visited:", res.Order)
	// Output:
	// web-new 5 -> 10 (annotate 20/25)
	// web-old 8 -> 15 (annotate 20/25)
	// rule Proportional, total 25, allowed 25, clamped false
	// visited: [1 0]
}

// Scaling 8 pods down to 4 across a new ReplicaSet of 2 and six old ones
// of 1: upstream rounds every old share of 0.5 up to 1, hands the
// leftover -3 to the largest ReplicaSet (the new one) and clamps it at 0,
// ending with 6 pods instead of 4 and the new ReplicaSet empty
// (docs/deployment.md#b1-leftover-clamp).
// Conserving hits 4 exactly: the new one keeps its exact share of 1 and
// the three oldest halves round up.
func ExampleScale_conserving() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{{Name: "new", CreationTime: t0.Add(9 * time.Hour), Replicas: 2, DesiredReplicas: "8", MaxReplicas: "8"}}
	for i, name := range []string{"old-a", "old-b", "old-c", "old-d", "old-e", "old-f"} {
		rss = append(rss, proportion.ReplicaSet{Name: name, CreationTime: t0.Add(time.Duration(i) * time.Hour), Replicas: 1, DesiredReplicas: "8", MaxReplicas: "8"})
	}
	d := proportion.Deployment{Replicas: 4, RollingUpdate: true}
	for _, mode := range []proportion.Mode{proportion.Upstream, proportion.Conserving} {
		res, err := proportion.Scale(d, rss, 0, mode)
		if err != nil {
			fmt.Println(err)
			return
		}
		var sizes []int32
		var total int32
		for _, t := range res.Targets {
			sizes = append(sizes, t.Replicas)
			total += t.Replicas
		}
		fmt.Printf("%-10v %v total %d (allowed %d, clamped %v)\n", mode, sizes, total, res.Allowed, res.Clamped)
	}
	// Output:
	// Upstream   [0 1 1 1 1 1 1] total 6 (allowed 4, clamped true)
	// Conserving [1 1 1 1 0 0 0] total 4 (allowed 4, clamped false)
}

// With a single ReplicaSet holding pods, it takes all of R and the empty
// new ReplicaSet is left alone (a paused rollout resized from 5 to 8).
func ExampleScale_singleActive() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 0, DesiredReplicas: "5", MaxReplicas: "5"},
		{Name: "web-old", CreationTime: t0.Add(1 * time.Hour), Replicas: 5, DesiredReplicas: "5", MaxReplicas: "5"},
	}
	d := proportion.Deployment{Replicas: 8, MaxSurge: 2, RollingUpdate: true}
	res, _ := proportion.Scale(d, rss, 0, proportion.Upstream)
	var total int32
	for i, t := range res.Targets {
		fmt.Printf("%s %d -> %d", rss[i].Name, rss[i].Replicas, t.Replicas)
		if t.Annotate {
			fmt.Printf(" (annotate %s/%s)", proportion.FormatReplicas(res.DesiredReplicas), proportion.FormatReplicas(res.MaxReplicas))
		}
		fmt.Println()
		total += t.Replicas
	}
	fmt.Printf("rule %v, total %d, allowed %d, clamped %v\n", res.Rule, total, res.Allowed, res.Clamped)
	// Output:
	// web-new 0 -> 0
	// web-old 5 -> 8 (annotate 8/10)
	// rule ActiveOrLatest, total 8, allowed 10, clamped false
}

// Scaling to 0 empties every ReplicaSet; the max-replicas annotation
// still records R + maxSurge.
func ExampleScale_toZero() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 3, DesiredReplicas: "7", MaxReplicas: "8"},
		{Name: "web-old", CreationTime: t0.Add(1 * time.Hour), Replicas: 4, DesiredReplicas: "7", MaxReplicas: "8"},
	}
	d := proportion.Deployment{Replicas: 0, MaxSurge: 1, RollingUpdate: true}
	res, _ := proportion.Scale(d, rss, 0, proportion.Upstream)
	var total int32
	for i, t := range res.Targets {
		fmt.Printf("%s %d -> %d", rss[i].Name, rss[i].Replicas, t.Replicas)
		if t.Annotate {
			fmt.Printf(" (annotate %s/%s)", proportion.FormatReplicas(res.DesiredReplicas), proportion.FormatReplicas(res.MaxReplicas))
		}
		fmt.Println()
		total += t.Replicas
	}
	fmt.Printf("rule %v, total %d, allowed %d, clamped %v\n", res.Rule, total, res.Allowed, res.Clamped)
	// Output:
	// web-new 3 -> 0 (annotate 0/1)
	// web-old 4 -> 0 (annotate 0/1)
	// rule Proportional, total 0, allowed 0, clamped false
}

// A maxSurge of MaxInt32 passes validation. Upstream's R + maxSurge
// wraps to -2147483639 and the rollout sticks; here it saturates.
func ExampleScale_hugeSurge() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 3, DesiredReplicas: "10", MaxReplicas: "13"},
		{Name: "web-old", CreationTime: t0.Add(1 * time.Hour), Replicas: 10, DesiredReplicas: "10", MaxReplicas: "13"},
	}
	d := proportion.Deployment{Replicas: 10, MaxSurge: math.MaxInt32, RollingUpdate: true}
	res, _ := proportion.Scale(d, rss, 0, proportion.Upstream)
	var total int32
	for i, t := range res.Targets {
		fmt.Printf("%s %d -> %d", rss[i].Name, rss[i].Replicas, t.Replicas)
		if t.Annotate {
			fmt.Printf(" (annotate %s/%s)", proportion.FormatReplicas(res.DesiredReplicas), proportion.FormatReplicas(res.MaxReplicas))
		}
		fmt.Println()
		total += t.Replicas
	}
	fmt.Printf("rule %v, total %d, allowed %d, clamped %v\n", res.Rule, total, res.Allowed, res.Clamped)
	// Output:
	// web-new 3 -> 495573149 (annotate 10/2147483647)
	// web-old 10 -> 1651910498 (annotate 10/2147483647)
	// rule Proportional, total 2147483647, allowed 2147483647, clamped false
}

func ExampleScale_errors() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{{Name: "web", CreationTime: t0.Add(1 * time.Hour), Replicas: 3}, {Name: "web", CreationTime: t0.Add(2 * time.Hour), Replicas: 2}}
	_, err := proportion.Scale(proportion.Deployment{Replicas: 5, RollingUpdate: true}, rss, 1, proportion.Upstream)
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrDuplicate))
	_, err = proportion.Scale(proportion.Deployment{Replicas: 5}, rss[:1], 1, proportion.Upstream)
	fmt.Println(err)
	// Output:
	// proportion: rss[1].Name: "web" duplicates rss[0].Name
	// true
	// proportion: newRS: 1 is out of range [-1, 1)
}

// A controller that syncs many deployments can keep one Result and pass
// it back in, so a sync allocates nothing once the slices are big enough.
func ExampleScaleInto() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 2, DesiredReplicas: "7", MaxReplicas: "7"},
		{Name: "web-mid", CreationTime: t0.Add(1 * time.Hour), Replicas: 3, DesiredReplicas: "7", MaxReplicas: "7"},
		{Name: "web-old", CreationTime: t0, Replicas: 2, DesiredReplicas: "7", MaxReplicas: "7"},
	}
	var res proportion.Result
	for _, r := range []int32{10, 12} {
		var err error
		res, err = proportion.ScaleInto(res, proportion.Deployment{Replicas: r, RollingUpdate: true}, rss, 0, proportion.Upstream)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r, res.Targets)
	}
	// Output:
	// 10 [{3 true} {4 true} {3 true}]
	// 12 [{3 true} {6 true} {3 true}]
}

func ExampleShare() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Resizing 7 -> 10 visits v2 (3), then v3 (2, new), then v1 (2).
	d := proportion.Deployment{Replicas: 10, RollingUpdate: true}
	toAdd, added := int32(3), int32(0)
	for _, r := range []proportion.ReplicaSet{{Name: "v2", CreationTime: t0.Add(1 * time.Hour), Replicas: 3, DesiredReplicas: "7", MaxReplicas: "7"}, {Name: "v3", CreationTime: t0.Add(2 * time.Hour), Replicas: 2, DesiredReplicas: "7", MaxReplicas: "7"}, {Name: "v1", CreationTime: t0, Replicas: 2, DesiredReplicas: "7", MaxReplicas: "7"}} {
		p := proportion.Share(r, d, toAdd, added)
		added += p
		fmt.Printf("%s +%d\n", r.Name, p)
	}
	// Capped by what is left: the fraction is +5 but only 2 remain.
	fmt.Println(proportion.Share(proportion.ReplicaSet{Name: "big", CreationTime: t0, Replicas: 5, DesiredReplicas: "5", MaxReplicas: "5"}, d, 3, 1))
	// Output:
	// v2 +1
	// v3 +1
	// v1 +1
	// 2
}

func ExampleOf() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Deprecated name of Share.
	d := proportion.Deployment{Replicas: 10, RollingUpdate: true}
	fmt.Println(proportion.Of(proportion.ReplicaSet{Name: "v2", CreationTime: t0.Add(1 * time.Hour), Replicas: 3, DesiredReplicas: "7", MaxReplicas: "7"}, d, 3, 0))
	// Output:
	// 1
}

func ExampleFraction() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Sized under R 100 + maxSurge 10 = 110; now R 120 + 10 = 130.
	d := proportion.Deployment{Replicas: 120, MaxSurge: 10}
	fmt.Println(proportion.Fraction(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 50, DesiredReplicas: "100", MaxReplicas: "110"}, d)) // 50*130/110 = 59.09
	// Without the annotation the deployment's status.replicas is used.
	d.StatusReplicas = 100
	fmt.Println(proportion.Fraction(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 50}, d)) // 50*130/100 = 65
	// Halves round away from zero: 5*1/2 = 2.5 -> 3.
	fmt.Println(proportion.Fraction(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 5, MaxReplicas: "2"}, proportion.Deployment{Replicas: 1}))
	// R 0 empties the ReplicaSet.
	fmt.Println(proportion.Fraction(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 5, MaxReplicas: "2"}, proportion.Deployment{}))
	// Output:
	// 9
	// 15
	// -2
	// -5
}

func ExampleIsScalingEvent() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{{Name: "web-new", CreationTime: t0.Add(1 * time.Hour), Replicas: 3, DesiredReplicas: "10", MaxReplicas: "13"}, {Name: "web-old", CreationTime: t0, Replicas: 8, DesiredReplicas: "10", MaxReplicas: "13"}}
	fmt.Println(proportion.IsScalingEvent(proportion.Deployment{Replicas: 10}, rss))
	fmt.Println(proportion.IsScalingEvent(proportion.Deployment{Replicas: 20}, rss))
	// Output:
	// false
	// true
}

func ExampleIsSaturated() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := proportion.Deployment{Replicas: 3}
	r := proportion.ReplicaSet{Name: "web-new", CreationTime: t0.Add(1 * time.Hour), Replicas: 3, DesiredReplicas: "3", MaxReplicas: "4"}
	r.AvailableReplicas = 3
	fmt.Println(proportion.IsSaturated(d, r))
	r.AvailableReplicas = 2
	fmt.Println(proportion.IsSaturated(d, r))
	// Upstream reads this annotation with Atoi, so a sign is accepted.
	r.AvailableReplicas, r.DesiredReplicas = 3, "+3"
	fmt.Println(proportion.IsSaturated(d, r))
	// Output:
	// true
	// false
	// true
}

func ExampleActiveOrLatest() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{{Name: "web-new", CreationTime: t0.Add(2 * time.Hour), Replicas: 0}, {Name: "web-old", CreationTime: t0.Add(1 * time.Hour), Replicas: 5}, {Name: "web-older", CreationTime: t0, Replicas: 0}}
	fmt.Println(proportion.ActiveOrLatest(rss, 0))
	rss[1].Replicas = 0
	fmt.Println(proportion.ActiveOrLatest(rss, 0))  // none active: the new one
	fmt.Println(proportion.ActiveOrLatest(rss, -1)) // none active, no new one: the newest
	rss[0].Replicas, rss[1].Replicas = 1, 1
	fmt.Println(proportion.ActiveOrLatest(rss, 0))
	// Output:
	// 1 true <nil>
	// 0 true <nil>
	// 0 true <nil>
	// -1 false <nil>
}

func ExampleByCreation() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "x", CreationTime: t0.Add(1 * time.Hour), Replicas: 2},
		{Name: "y", CreationTime: t0.Add(2 * time.Hour), Replicas: 5},
		{Name: "z", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
		{Name: "w", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
	}
	slices.SortFunc(rss, proportion.ByCreation)
	var names []string
	for _, r := range rss {
		names = append(names, r.Name)
	}
	fmt.Println(names)
	// Output: [x y w z]
}

func ExampleBySizeNewer() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "x", CreationTime: t0.Add(1 * time.Hour), Replicas: 2},
		{Name: "y", CreationTime: t0.Add(2 * time.Hour), Replicas: 5},
		{Name: "z", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
		{Name: "w", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
	}
	slices.SortFunc(rss, proportion.BySizeNewer)
	var names []string
	for _, r := range rss {
		names = append(names, r.Name)
	}
	fmt.Println(names)
	// Output: [y z w x]
}

func ExampleBySizeOlder() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []proportion.ReplicaSet{
		{Name: "x", CreationTime: t0.Add(1 * time.Hour), Replicas: 2},
		{Name: "y", CreationTime: t0.Add(2 * time.Hour), Replicas: 5},
		{Name: "z", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
		{Name: "w", CreationTime: t0.Add(3 * time.Hour), Replicas: 2},
	}
	slices.SortFunc(rss, proportion.BySizeOlder)
	var names []string
	for _, r := range rss {
		names = append(names, r.Name)
	}
	fmt.Println(names)
	// Output: [y x w z]
}

func ExampleParseReplicas() {
	for _, s := range []string{"10", "007", "2147483647"} {
		fmt.Println(proportion.ParseReplicas(s))
	}
	// Output:
	// 10 <nil>
	// 7 <nil>
	// 2147483647 <nil>
}

func ExampleParseReplicas_errors() {
	for _, s := range []string{"", "+3", "-2147483639", "2147483648"} {
		_, err := proportion.ParseReplicas(s)
		fmt.Println(err)
	}
	// Output:
	// proportion: parsing "": invalid syntax
	// proportion: parsing "+3": invalid syntax
	// proportion: parsing "-2147483639": invalid syntax
	// proportion: parsing "2147483648": value out of range (higher than 2147483647)
}

// A parse error is a *field.Error whose Value is the input, quoted.
func ExampleParseReplicas_fieldError() {
	_, err := proportion.ParseReplicas("3.0")
	var pe *field.Error
	if errors.As(err, &pe) {
		fmt.Printf("%s: %s\n", pe.Value, pe.Detail)
		fmt.Println(pe.Error())
	}
	_, err = proportion.ParseReplicas("4294967296")
	fmt.Println(errors.Is(err, field.ErrRange), errors.Is(err, field.ErrSyntax))
	// Output:
	// "3.0": invalid syntax
	// proportion: parsing "3.0": invalid syntax
	// true false
}

// Bad input to Scale is a *field.Error naming the argument.
func ExampleScale_fieldError() {
	_, err := proportion.Scale(proportion.Deployment{Replicas: 3, MaxSurge: -1}, nil, -1, proportion.Upstream)
	var ie *field.Error
	if errors.As(err, &ie) {
		fmt.Println(ie.Field)
		fmt.Println(ie.Error())
	}
	// Output:
	// d.MaxSurge
	// proportion: d.MaxSurge: -1 must not be negative
}

func ExampleActiveOrLatest_errors() {
	_, _, err := proportion.ActiveOrLatest([]proportion.ReplicaSet{{Name: "web", Replicas: -1}}, -1)
	fmt.Println(errors.Is(err, field.ErrNegative))
	// Output: true
}

func ExampleDesiredAnnotation() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(proportion.DesiredAnnotation(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, DesiredReplicas: "10", MaxReplicas: "13"}))
	fmt.Println(proportion.DesiredAnnotation(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, MaxReplicas: "13"}))
	fmt.Println(proportion.DesiredAnnotation(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, DesiredReplicas: "+10", MaxReplicas: "13"}))
	// Output:
	// 10 true
	// 0 false
	// 0 false
}

func ExampleMaxAnnotation() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(proportion.MaxAnnotation(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, DesiredReplicas: "10", MaxReplicas: "13"}))
	// What upstream writes after R + maxSurge wrapped is rejected.
	fmt.Println(proportion.MaxAnnotation(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, DesiredReplicas: "10", MaxReplicas: "-2147483639"}))
	// Output:
	// 13 true
	// 0 false
}

func ExampleFormatReplicas() {
	d := proportion.Deployment{Replicas: 10, MaxSurge: 3}
	fmt.Println(proportion.FormatReplicas(d.Replicas), proportion.FormatReplicas(d.MaxReplicas()))
	// Output: 10 13
}

func ExampleAnnotationsNeedUpdate() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3, DesiredReplicas: "10", MaxReplicas: "13"}
	fmt.Println(proportion.AnnotationsNeedUpdate(r, 10, 13))
	fmt.Println(proportion.AnnotationsNeedUpdate(r, 10, 12))
	fmt.Println(proportion.AnnotationsNeedUpdate(proportion.ReplicaSet{Name: "web", CreationTime: t0, Replicas: 3}, 10, 13))
	// Output:
	// false
	// true
	// true
}

func ExampleDeployment_MaxReplicas() {
	fmt.Println(proportion.Deployment{Replicas: 10, MaxSurge: 3}.MaxReplicas())
	fmt.Println(proportion.Deployment{Replicas: 10, MaxSurge: math.MaxInt32}.MaxReplicas())
	// Output:
	// 13
	// 2147483647
}

func ExampleDeployment_Allowed() {
	fmt.Println(proportion.Deployment{Replicas: 10, MaxSurge: 3}.Allowed())
	fmt.Println(proportion.Deployment{Replicas: 0, MaxSurge: 3}.Allowed())
	// Output:
	// 13
	// 0
}

func ExampleMode_String() {
	fmt.Println(proportion.Upstream, proportion.Conserving, proportion.Mode(9))
	// Output: Upstream Conserving Mode(9)
}

func ExampleRule_String() {
	fmt.Println(proportion.RuleProportional, proportion.RuleSaturated, proportion.Rule(0))
	// Output: Proportional Saturated Rule(0)
}
