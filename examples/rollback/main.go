// Command rollback rolls a Deployment through two updates, rolls it back
// to its first revision, and prints what `kubectl rollout history` would
// list before and after: the rolled-back ReplicaSet becomes the newest
// revision, and its old number moves into its revision-history
// annotation.
//
//	go run ./examples/rollback
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "rollback: %v\n", err)
		os.Exit(1)
	}
}

// The script: two image updates, each left time to complete, then a
// rollback to revision 1 (what `kubectl rollout undo --to-revision=1`
// asks for).
const (
	secondUpdate = 15 // sync before which the image becomes nginx:1.10
	rollbackAt   = 30 // sync before which the rollback is requested
)

var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// run simulates the script and prints the syncs, then the history before
// and after the rollback.
func run(w io.Writer) error {
	d := rollout.Deployment[cluster.Template]{Name: "nginx-deployment", Replicas: 4, Template: cluster.Image("nginx", "nginx:1.9")}
	d, rs := cluster.Settled(d, start)
	script := []rollout.Event[cluster.Template]{
		{Sync: 1, Kind: rollout.SetTemplate, Template: cluster.Image("nginx", "nginx:1.9.3")},
		{Sync: secondUpdate, Kind: rollout.SetTemplate, Template: cluster.Image("nginx", "nginx:1.10")},
	}
	before, err := rollout.Simulate(&d, []rollout.ReplicaSet[cluster.Template]{rs}, rollout.Config[cluster.Template]{
		Start: start, ReadyDelay: 10 * time.Second, Events: script,
	})
	if err != nil {
		return err
	}
	after, err := rollout.Simulate(&before.Deployment, before.ReplicaSets, rollout.Config[cluster.Template]{
		Start: start.Add(time.Duration(before.Syncs) * 10 * time.Second), ReadyDelay: 10 * time.Second,
		Events: []rollout.Event[cluster.Template]{{Sync: 1, Kind: rollout.Rollback, Revision: 1}},
	})
	if err != nil {
		return err
	}
	p := rstable.NewPrinter(w)
	p.Printf("Two updates of %s (%d replicas): nginx:1.9 -> nginx:1.9.3 -> nginx:1.10\n", d.Name, d.Replicas)
	writeSyncs(p, &before, 0)
	p.Printf("\nkubectl rollout history, before the rollback:\n")
	writeHistory(p, before.ReplicaSets)
	p.Printf("\nRoll back to revision 1 (kubectl rollout undo --to-revision=1):\n")
	writeSyncs(p, &after, before.Syncs)
	p.Printf("\nkubectl rollout history, after the rollback:\n")
	writeHistory(p, after.ReplicaSets)
	p.Printf("\nRevision 1 is gone from the list: its ReplicaSet is revision %d now, and\n"+
		"rolling back to 1 again finds nothing (%s).\n",
		revision.MaxRevision(after.ReplicaSets), undoAgain(&after))
	return p.Err()
}

// writeSyncs prints each recorded sync of tr on one line, numbered from
// offset + 1, with the image each ReplicaSet runs.
func writeSyncs(p *rstable.Printer, tr *rollout.Trace[cluster.Template], offset int) {
	for _, s := range tr.Steps {
		var sizes []string
		for _, rs := range s.ReplicaSets {
			sizes = append(sizes, fmt.Sprintf("rev %d: %d", rs.Revision, rs.Desired))
		}
		p.Printf("  sync %2d  [%s]  %s\n", offset+s.Sync, strings.Join(sizes, ", "), s.Reason)
	}
	p.Printf("  %s after %d syncs\n", tr.Outcome, tr.Syncs)
}

// writeHistory prints the ReplicaSets by revision, like `kubectl rollout
// history` with each revision's image, size and revision-history.
func writeHistory(p *rstable.Printer, rss []rollout.ReplicaSet[cluster.Template]) {
	order := make([]int, len(rss))
	for i := range order {
		order[i] = i
	}
	rev := func(i int) int64 {
		r, _ := revision.Revision(rss[i].Annotations)
		return r
	}
	slices.SortFunc(order, func(a, b int) int { return int(rev(a) - rev(b)) })
	p.Printf("  %-9s%-30s%-13s%-9s%s\n", "REVISION", "REPLICASET", "IMAGE", "PODS", "REVISION-HISTORY")
	for _, i := range order {
		rs := &rss[i]
		history := rs.Annotations[revision.RevisionHistoryAnnotation]
		if history == "" {
			history = "-"
		}
		p.Printf("  %-9d%-30s%-13s%-9d%s\n", rev(i), rs.Name, cluster.FirstImage(&rs.Template), rs.Replicas, history)
	}
}

// undoAgain describes what a second request for revision 1 resolves to.
func undoAgain(tr *rollout.Trace[cluster.Template]) string {
	r := revision.RollbackTarget(&tr.Deployment.Template, tr.ReplicaSets, 1)
	return fmt.Sprintf("%s: %s", r.Outcome.Reason(), r.Message(tr.Deployment.Name))
}
