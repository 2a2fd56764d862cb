// Command resize shows how kube-controller-manager spreads a resize of a
// Deployment over its ReplicaSets in the middle of a rollout (the
// proportional split), and where the library's Conserving mode differs
// from upstream's.
//
//	go run ./examples/resize
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/proportion"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "resize: %v\n", err)
		os.Exit(1)
	}
}

// scenario is one resize: the ReplicaSets as they are, with the
// annotations of their last scaling, and the deployment's new size.
type scenario struct {
	title    string
	from, to int32 // spec.replicas before and after the resize
	surge    func(replicas int32) int32
	rss      []proportion.ReplicaSet
	newRS    int
}

// run prints every scenario with the targets of both modes.
func run(w io.Writer) error {
	for i, s := range scenarios() {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := s.print(w); err != nil {
			return err
		}
	}
	return nil
}

// scenarios returns the cases the program prints: the two mid-rollout
// resizes of the classic nginx rollout, and a scale-down over many small
// ReplicaSets where upstream's leftover rule keeps one pod too many.
func scenarios() []scenario {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	percent25 := func(r int32) int32 { return (r*25 + 99) / 100 } // 25% of r, rounded up as maxSurge is
	nginx := func() []proportion.ReplicaSet {
		return []proportion.ReplicaSet{
			{Name: "nginx-deployment-6d8f7c9b5d", CreationTime: t0, Replicas: 8, DesiredReplicas: "10", MaxReplicas: "13"},
			{Name: "nginx-deployment-7c5ddbdf54", CreationTime: t0.Add(time.Minute), Replicas: 5, DesiredReplicas: "10", MaxReplicas: "13"},
		}
	}
	var small []proportion.ReplicaSet
	for i := range 5 {
		small = append(small, proportion.ReplicaSet{
			Name:         fmt.Sprintf("web-rev%d", i+1),
			CreationTime: t0.Add(time.Duration(i) * time.Hour),
			Replicas:     2, DesiredReplicas: "10", MaxReplicas: "10",
		})
	}
	return []scenario{
		{title: "scale up mid-rollout", from: 10, to: 20, surge: percent25, rss: nginx(), newRS: 1},
		{title: "scale down mid-rollout", from: 10, to: 4, surge: percent25, rss: nginx(), newRS: 1},
		{title: "scale down over five small ReplicaSets (maxSurge 0)", from: 10, to: 3,
			surge: func(int32) int32 { return 0 }, rss: small, newRS: 4},
	}
}

// print runs proportion.Scale on s in both modes and prints the targets
// side by side.
func (s *scenario) print(w io.Writer) error {
	d := proportion.Deployment{Replicas: s.to, MaxSurge: s.surge(s.to), StatusReplicas: sum(s.rss), RollingUpdate: true}
	up, err := proportion.Scale(d, s.rss, s.newRS, proportion.Upstream)
	if err != nil {
		return err
	}
	cons, err := proportion.Scale(d, s.rss, s.newRS, proportion.Conserving)
	if err != nil {
		return err
	}
	p := rstable.NewPrinter(w)
	p.Printf("%s: %d -> %d replicas\n", s.title, s.from, s.to)
	p.Printf("  allowed = R + maxSurge = %d + %d = %d pods; the ReplicaSets hold %d, so %+d (rule: %v)\n",
		d.Replicas, d.MaxSurge, up.Allowed, sum(s.rss), up.Allowed-sum(s.rss), up.Rule)
	p.Printf("  every ReplicaSet carries the annotations of the last scaling: desired-replicas %s, max-replicas %s\n",
		s.rss[0].DesiredReplicas, s.rss[0].MaxReplicas)
	p.Printf("  %-36s%-8s%-10s%s\n", "NAME", "BEFORE", "UPSTREAM", "CONSERVING")
	for i, rs := range s.rss {
		name := rs.Name
		if i == s.newRS {
			name += " (new)"
		}
		p.Printf("  %-36s%-8d%-10d%d\n", name, rs.Replicas, up.Targets[i].Replicas, cons.Targets[i].Replicas)
	}
	p.Printf("  %-36s%-8d%-10d%d\n", "total", sum(s.rss), total(up), total(cons))
	if up.Clamped {
		p.Printf("  upstream gave the rounding leftover to %s and clamped it at 0, so it ends %d above the allowed %d;\n"+
			"  Conserving apportions by largest remainder and always ends exactly at the allowed total\n",
			s.rss[up.Order[0]].Name, total(up)-up.Allowed, up.Allowed)
	} else {
		p.Printf("  both modes agree\n")
	}
	return p.Err()
}

// sum returns the total spec.replicas of rss.
func sum(rss []proportion.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += rs.Replicas
	}
	return n
}

// total returns the total of the targets in r.
func total(r proportion.Result) int32 {
	var n int32
	for _, t := range r.Targets {
		n += t.Replicas
	}
	return n
}
