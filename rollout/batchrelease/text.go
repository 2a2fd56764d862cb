package batchrelease

import (
	"strconv"
	"strings"
)

// String returns the step on one line, the batch first and the
// workload after it:
//
//	sync 12 (+24s): Progressing batch 0 Ready, planned 2 desired 2 | replicas 10 pods 10 updated 2 updatedReady 2 ready 10 old 8 partition 80% | batch 0 is ready
func (s Step) String() string {
	var b strings.Builder
	b.WriteString("sync " + strconv.Itoa(s.Sync) + " (+" + s.Elapsed.String() + "): " + s.Phase.String() + " batch " + itoa(s.Batch) + " " + stateName(s.State))
	if s.HasContext {
		b.WriteString(", planned " + itoa(s.Planned) + " desired " + itoa(s.Desired))
	}
	b.WriteString(" | replicas " + itoa(s.Replicas) + " pods " + itoa(s.Pods) + " updated " + itoa(s.Updated) + " updatedReady " + itoa(s.UpdatedReady) +
		" ready " + itoa(s.Ready) + " old " + itoa(s.Old))
	if s.Partition != "" {
		b.WriteString(" partition " + s.Partition)
	}
	for _, w := range s.WorkloadWrites {
		b.WriteString("; " + w)
	}
	b.WriteString(" | " + s.Reason)
	return b.String()
}

// String returns the trace, one step a line, then the outcome.
func (t *Trace) String() string {
	var b strings.Builder
	for _, s := range t.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	b.WriteString(t.Outcome.String() + " after " + strconv.Itoa(t.Syncs) + " syncs")
	return b.String()
}
