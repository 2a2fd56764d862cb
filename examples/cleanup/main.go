// Command cleanup shows how spec.revisionHistoryLimit prunes old
// ReplicaSets: which ones upstream's cleanup deletes, why more than the
// limit can remain, what the library's substituting mode deletes instead,
// and a Deployment with a limit of 1 going through three updates.
//
//	go run ./examples/cleanup
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "cleanup: %v\n", err)
		os.Exit(1)
	}
}

var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// run prints both parts.
func run(w io.Writer) error {
	p := rstable.NewPrinter(w)
	writeModes(p)
	p.Printf("\n")
	if err := writeRollouts(p); err != nil {
		return err
	}
	return p.Err()
}

// history returns a Deployment's ReplicaSets for revisions 1 to 7, 7 being
// the new one; revision 2 still has a pod (it is not idle).
func history() []rollout.ReplicaSet[cluster.Template] {
	var rss []rollout.ReplicaSet[cluster.Template]
	for rev := 1; rev <= 7; rev++ {
		rs := rollout.ReplicaSet[cluster.Template]{
			Name:               fmt.Sprintf("web-rev%d", rev),
			CreationTime:       start.Add(time.Duration(rev) * time.Hour),
			Annotations:        map[string]string{revision.RevisionAnnotation: strconv.Itoa(rev)},
			Template:           cluster.Image("web", fmt.Sprintf("web:%d", rev)),
			Generation:         1,
			ObservedGeneration: 1,
		}
		switch rev {
		case 2:
			rs.Replicas, rs.StatusReplicas = 1, 1
		case 7:
			rs.Replicas, rs.StatusReplicas = 3, 3
		}
		rss = append(rss, rs)
	}
	return rss
}

// writeModes prints which old ReplicaSets revision.ToCleanUp selects with
// a limit of 2, upstream's way and the substituting way.
func writeModes(p *rstable.Printer) {
	rss := history()
	newRS := len(rss) - 1
	limit := int32(2)
	upstream := selected(revision.ToCleanUp(rss, newRS, &limit, revision.CleanupUpstream))
	substitute := selected(revision.ToCleanUp(rss, newRS, &limit, revision.CleanupSubstitute))
	p.Printf("revisionHistoryLimit %d, six old ReplicaSets: %d must go (6 - %d)\n", limit, 6-limit, limit)
	p.Printf("  %-10s%-9s%-6s%-10s%s\n", "NAME", "REVISION", "PODS", "UPSTREAM", "SUBSTITUTE")
	for i, rs := range rss {
		rev := rs.Annotations[revision.RevisionAnnotation]
		if i == newRS {
			p.Printf("  %-10s%-9s%-6d%s\n", rs.Name, rev, rs.Replicas, "(new: never deleted)")
			continue
		}
		p.Printf("  %-10s%-9s%-6d%-10s%s\n", rs.Name, rev, rs.Replicas, verdict(upstream[i]), verdict(substitute[i]))
	}
	p.Printf("  upstream examines only the %d lowest revisions and skips web-rev2, which still has a pod,\n"+
		"  so %d old ReplicaSets remain; CleanupSubstitute deletes the next idle one instead and keeps %d\n",
		6-limit, 6-len(upstream), 6-len(substitute))
}

// selected returns the set of indices in idx.
func selected(idx []int) map[int]bool {
	m := map[int]bool{}
	for _, i := range idx {
		m[i] = true
	}
	return m
}

// verdict renders whether a ReplicaSet is deleted.
func verdict(deleted bool) string {
	if deleted {
		return "delete"
	}
	return "keep"
}

// writeRollouts simulates a Deployment with revisionHistoryLimit 1 going
// through three image updates and prints the syncs that deleted a
// ReplicaSet, then what is left.
func writeRollouts(p *rstable.Printer) error {
	limit := int32(1)
	d := rollout.Deployment[cluster.Template]{Name: "web", Replicas: 2, RevisionHistoryLimit: &limit,
		Template: cluster.Image("web", "web:1")}
	d, rs := cluster.Settled(d, start)
	var events []rollout.Event[cluster.Template]
	for i, image := range []string{"web:2", "web:3", "web:4"} {
		events = append(events, rollout.Event[cluster.Template]{Sync: 1 + 10*i, Kind: rollout.SetTemplate, Template: cluster.Image("web", image)})
	}
	tr, err := rollout.Simulate(&d, []rollout.ReplicaSet[cluster.Template]{rs}, rollout.Config[cluster.Template]{
		Start: start, ReadyDelay: 10 * time.Second, Events: events,
	})
	if err != nil {
		return err
	}
	p.Printf("revisionHistoryLimit %d, updates web:1 -> web:2 -> web:3 -> web:4 (before syncs 1, 11 and 21):\n", limit)
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if a.Kind == rollout.DeleteReplicaSet {
				p.Printf("  sync %2d: %s\n", s.Sync, a.Reason)
			}
		}
	}
	var left []string
	for _, rs := range tr.ReplicaSets {
		rev, _ := revision.Revision(rs.Annotations)
		left = append(left, fmt.Sprintf("%s (revision %d, %s, %d pods)", rs.Name, rev, cluster.FirstImage(&rs.Template), rs.Replicas))
	}
	p.Printf("  %s after %d syncs; left: %s\n", tr.Outcome, tr.Syncs, strings.Join(left, ", "))
	p.Printf("  cleanup runs once a rollout is complete (as the status last written says), so each old\n" +
		"  revision goes at the end of the rollout after the one that made it old; the limit keeps\n" +
		"  one old ReplicaSet, web:3's, to roll back to\n")
	return nil
}
