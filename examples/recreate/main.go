// Command recreate updates the same Deployment three ways and prints the
// pods sync by sync: with the Recreate strategy (every old pod stops,
// terminating included, before any new pod starts), with a rolling update
// (old and new pods run together, and pods still terminating can push the
// total above R + maxSurge), and with the library's terminating-aware
// surge option, which keeps them within it.
//
//	go run ./examples/recreate
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "recreate: %v\n", err)
		os.Exit(1)
	}
}

var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// The cluster all three runs share: 4 replicas, pods ready 10 s after
// they are created, deleted pods terminating for 25 s, a sync every 10 s.
const (
	replicas    = 4
	readyDelay  = 10 * time.Second
	termination = 25 * time.Second
)

// variant is one way to run the update.
type variant struct {
	title    string
	strategy rollout.StrategyType
	opts     rollout.Options
}

// run prints the three runs.
func run(w io.Writer) error {
	p := rstable.NewPrinter(w)
	p.Printf("%d replicas, web:1 -> web:2; pods are ready %v after they start and terminate for %v\n",
		replicas, readyDelay, termination)
	variants := []variant{
		{title: "Recreate", strategy: rollout.Recreate},
		{title: "RollingUpdate, maxSurge 1, maxUnavailable 0 (upstream)", strategy: rollout.RollingUpdate},
		{title: "RollingUpdate, maxSurge 1, maxUnavailable 0, terminating pods count against maxSurge",
			strategy: rollout.RollingUpdate, opts: rollout.Options{Surge: rollout.SurgeCountsTerminating}},
	}
	for _, v := range variants {
		p.Printf("\n%s\n", v.title)
		if err := v.print(p); err != nil {
			return err
		}
	}
	return p.Err()
}

// print simulates v and prints its syncs and a summary.
func (v *variant) print(p *rstable.Printer) error {
	d := rollout.Deployment[cluster.Template]{Name: "web", Replicas: replicas, Strategy: v.strategy,
		Template: cluster.Image("web", "web:1")}
	if v.strategy == rollout.RollingUpdate {
		surge, unavailable := intorpercent.Int(1), intorpercent.Int(0)
		d.MaxSurge, d.MaxUnavailable = &surge, &unavailable
	}
	d, rs := cluster.Settled(d, start)
	tr, err := rollout.Simulate(&d, []rollout.ReplicaSet[cluster.Template]{rs}, rollout.Config[cluster.Template]{
		Start: start, ReadyDelay: readyDelay, TerminationDelay: termination, Options: v.opts,
		Events: []rollout.Event[cluster.Template]{{Sync: 1, Kind: rollout.SetTemplate, Template: cluster.Image("web", "web:2")}},
	})
	if err != nil {
		return err
	}
	p.Printf("  %-6s%-8s%-5s%-5s%-13s%-11s%s\n", "SYNC", "TIME", "OLD", "NEW", "TERMINATING", "AVAILABLE", "WHAT THE SYNC DID")
	var overlap, down []string
	peak, peakSync := int32(0), 0
	for _, s := range tr.Steps {
		old, cur, term, avail := count(&s)
		p.Printf("  %-6d%-8s%-5d%-5d%-13d%-11d%s\n", s.Sync, "+"+s.Elapsed.String(), old, cur, term, avail, short(s.Reason))
		if old > 0 && cur > 0 {
			overlap = append(overlap, fmt.Sprint(s.Sync))
		}
		if avail == 0 {
			down = append(down, fmt.Sprint(s.Sync))
		}
		if s.Pods > peak {
			peak, peakSync = s.Pods, s.Sync
		}
	}
	p.Printf("  %s after %d syncs\n", tr.Outcome, tr.Syncs)
	limit := fmt.Sprintf("R + maxSurge = %d", replicas+rollout.MaxSurge(&d))
	if v.strategy == rollout.Recreate {
		limit = fmt.Sprintf("R = %d: Recreate has no surge", replicas)
	}
	p.Printf("  most pods at once, terminating ones included: %d at sync %d (%s)\n", peak, peakSync, limit)
	p.Printf("  old and new pods running at the same sync: %s\n", listOrNever(overlap))
	p.Printf("  syncs with no pod available: %s\n", listOrNever(down))
	return nil
}

// count returns the pods one sync saw: old (current pods of the old
// ReplicaSets, terminating ones not included), new, terminating (all
// ReplicaSets) and available.
func count(s *rollout.Step) (old, cur, term, avail int32) {
	for _, rs := range s.ReplicaSets {
		if rs.New {
			cur += rs.Current
		} else {
			old += rs.Current
		}
		term += rs.Terminating
		avail += rs.Available
	}
	return old, cur, term, avail
}

// short returns the first clause of a sync's reason, so the table stays
// narrow: the part before the first ':' or ';'.
func short(reason string) string {
	if i := strings.IndexAny(reason, ":;"); i >= 0 {
		return reason[:i]
	}
	return reason
}

// listOrNever renders the sync numbers, or "never".
func listOrNever(syncs []string) string {
	if len(syncs) == 0 {
		return "never"
	}
	return strings.Join(syncs, ", ")
}
