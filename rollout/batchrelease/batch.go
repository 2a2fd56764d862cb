package batchrelease

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// BatchReplicas returns how many pods of a workload of replicas pods batch
// currentBatch of release plans to have at the update revision:
// batches[currentBatch].canaryReplicas read strictly (a count as is, a
// percent rounded up), clamped to [0, replicas]. Text the strict reader
// rejects ("abc", "20", "2.5%") counts as 0, silently, as upstream.
//
// BatchReplicas returns an error only for bad input: a nil release,
// negative replicas, or a currentBatch outside release.Batches (upstream
// panics). It does not allocate on success.
// Upstream: CalculateBatchReplicas, pkg/controller/batchrelease/control/util.go.
func BatchReplicas(release *Release, replicas, currentBatch int32) (int32, error) {
	if err := checkBatchArgs(release, replicas, currentBatch); err != nil {
		return 0, err
	}
	return batchReplicas(release.Batches, replicas, currentBatch), nil
}

// batchReplicas is BatchReplicas on checked arguments.
func batchReplicas(batches []Batch, replicas, currentBatch int32) int32 {
	return int32(batchReplicas64(batches, int64(replicas), currentBatch))
}

// batchReplicas64 is upstream's CalculateBatchReplicas on any total,
// negative included: above total gives total, else below 0 gives 0.
func batchReplicas64(batches []Batch, total int64, currentBatch int32) int64 {
	b, _ := strictScaled(&batches[currentBatch].CanaryReplicas, total, true)
	if b > total {
		return total
	}
	if b < 0 {
		return 0
	}
	return b
}

func checkBatchArgs(release *Release, replicas, currentBatch int32) error {
	switch {
	case release == nil:
		return &field.Error{Prefix: "batchrelease", Field: "release", Detail: "must not be nil", Err: field.ErrRequired}
	case replicas < 0:
		return &field.Error{Prefix: "batchrelease", Field: "replicas", Value: strconv.Itoa(int(replicas)), Detail: "must not be negative", Err: field.ErrNegative}
	case currentBatch < 0 || int(currentBatch) >= len(release.Batches):
		return &field.Error{Prefix: "batchrelease", Field: "currentBatch", Value: strconv.Itoa(int(currentBatch)),
			Detail: "must index spec.releasePlan.batches (" + strconv.Itoa(len(release.Batches)) + " batches)", Err: field.ErrIndex}
	}
	return nil
}

// percentText holds "0%" ... "100%", so that PercentPartition does not
// allocate.
var percentText = func() (t [101]string) {
	for i := range t {
		t[i] = strconv.Itoa(i) + "%"
	}
	return t
}()

// PercentPartition turns a count of pods to keep at the stable revision
// into the percent partition kruise-rollout writes to a CloneSet whose
// batch is a percent, so that the partition keeps its ratio when an HPA
// rescales the CloneSet:
//
//	stable >= all: "100%";  stable <= 0: "0%"
//	p = floor(stable*100/all)
//	ceil(p*all/100) <= 0 and batch is not the string "100%": "1%"
//	otherwise "p%"
//
// CloneSet turns the percent back into pods with ceil, so the pods kept
// old are ceil(p*all/100), which can differ from stable: the percent
// round trip. For every all <= 1,000 and 0 < stable < all the difference
// is at most 1 pod (see docs/batchrelease.md). Upstream's doc comment
// gives (98, 99) as "97%"; the code, and PercentPartition, return "98%".
//
// stable*100 is computed in int64; upstream's int32 product wraps when
// stable exceeds 21,474,836. PercentPartition does not allocate.
// Upstream: ParseIntegerAsPercentageIfPossible, pkg/controller/batchrelease/control/util.go.
func PercentPartition(stable, all int32, batch intorpercent.IntOrString) intorpercent.IntOrString {
	if stable >= all {
		return intorpercent.FromString(percentText[100])
	}
	if stable <= 0 {
		return intorpercent.FromString(percentText[0])
	}
	p := int64(stable) * 100 / int64(all) // 0 <= p < 100
	restored := ceilDiv(p*int64(all), 100)
	if restored <= 0 && batch.Str != "100%" {
		return intorpercent.FromString(percentText[1])
	}
	return intorpercent.FromString(percentText[p])
}

// ceilDiv is ceil(a/b) for a >= 0, b > 0.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// IsCurrentMoreThanOrEqualToDesired reports whether the Deployment
// partition current already reaches desired. Both are read strictly on a
// base of 10,000,000 with ceil, so a percent and a count are compared as
// if the count were of 10,000,000 pods: "50%" (5,000,000) reaches 8.
// Unreadable text counts as 0. It does not allocate.
// Upstream: IsCurrentMoreThanOrEqualToDesired, pkg/controller/batchrelease/control/util.go.
func IsCurrentMoreThanOrEqualToDesired(current, desired intorpercent.IntOrString) bool {
	c, _ := strictScaled(&current, 10_000_000, true)
	d, _ := strictScaled(&desired, 10_000_000, true)
	return c >= d
}

// Readiness is what IsBatchReady found: the batch is ready, or the first
// of upstream's checks it fails.
type Readiness uint8

const (
	// BatchReady: every check passed.
	BatchReady Readiness = iota + 1
	// TooFewUpdated: updated < desiredUpdated.
	TooFewUpdated
	// TooFewUpdatedReady: failure tolerance + updatedReady < desiredUpdated.
	TooFewUpdatedReady
	// NoUpdatedReady: desiredUpdated > 0 and no updated pod is ready.
	NoUpdatedReady
	// TooFewLabeled: fewer non-terminating pods carry the rollout-id label
	// than the batch plans.
	TooFewLabeled
)

var readinessNames = [...]string{"", "BatchReady", "TooFewUpdated", "TooFewUpdatedReady", "NoUpdatedReady", "TooFewLabeled"}

// String returns the readiness's name.
func (r Readiness) String() string { return enumString(uint8(r), readinessNames[:], "Readiness") }

// MarshalText returns the readiness's name, "" for the zero value.
func (r Readiness) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(r), readinessNames[:], "Readiness")
}

// UnmarshalText sets r to the readiness named text; "" is the zero value.
func (r *Readiness) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, readinessNames[:], "Readiness")
	if err == nil {
		*r = Readiness(n)
	}
	return err
}

// AllowedUnavailable is how many updated pods may be unready in a ready
// batch: failureThreshold read strictly against updated, rounded up
// (a percent of the updated pods, not of the workload's replicas), 0 when
// nil or unreadable. The result is converted to int32 as upstream
// converts it. Upstream: allowedUnavailable, pkg/controller/batchrelease/context/context.go.
func AllowedUnavailable(failureThreshold *intorpercent.IntOrString, updated int32) int32 {
	if failureThreshold == nil {
		return 0
	}
	v, _ := strictScaled(failureThreshold, int64(updated), true)
	return int32(v)
}

// IsBatchReady reports whether the batch c describes is ready, checking
// in upstream's order:
//
//	updated < desiredUpdated                                   -> TooFewUpdated
//	AllowedUnavailable(threshold, updated) + updatedReady < desiredUpdated -> TooFewUpdatedReady
//	desiredUpdated > 0 and updatedReady == 0                   -> NoUpdatedReady
//	rolloutID != "", pods listed and labelled < planned      -> TooFewLabeled
//	otherwise                                                  -> BatchReady
//
// The tolerance plus updatedReady is summed in int32 as upstream sums
// it. IsBatchReady does not allocate; [Readiness.Message] gives
// upstream's message. Upstream: BatchContext.IsBatchReady and
// batchLabelSatisfied, pkg/controller/batchrelease/context/context.go.
func (c *BatchContext) IsBatchReady() Readiness {
	if c.UpdatedReplicas < c.DesiredUpdatedReplicas {
		return TooFewUpdated
	}
	if AllowedUnavailable(c.FailureThreshold, c.UpdatedReplicas)+c.UpdatedReadyReplicas < c.DesiredUpdatedReplicas {
		return TooFewUpdatedReady
	}
	if c.DesiredUpdatedReplicas > 0 && c.UpdatedReadyReplicas == 0 {
		return NoUpdatedReady
	}
	if c.RolloutID != "" && c.Pods != nil && c.Pods.Listed > 0 && c.Pods.RolloutIDLabeled < c.PlannedUpdatedReplicas {
		return TooFewLabeled
	}
	return BatchReady
}

// Message returns upstream's error text for r on c ("" for BatchReady):
// what the executor logs when a batch is not ready.
func (r Readiness) Message(c *BatchContext) string {
	d := strconv.Itoa(int(c.DesiredUpdatedReplicas))
	switch r {
	case TooFewUpdated:
		return "current batch not ready: updated replicas not satisfied, UpdatedReplicas " + strconv.Itoa(int(c.UpdatedReplicas)) +
			" < DesiredUpdatedReplicas " + d
	case TooFewUpdatedReady:
		return "current batch not ready: updated ready replicas not satisfied, allowedUnavailable + UpdatedReadyReplicas " +
			strconv.Itoa(int(AllowedUnavailable(c.FailureThreshold, c.UpdatedReplicas)+c.UpdatedReadyReplicas)) + " < DesiredUpdatedReplicas " + d
	case NoUpdatedReady:
		return "current batch not ready: no updated ready replicas, DesiredUpdatedReplicas " + d +
			" > 0 and UpdatedReadyReplicas " + strconv.Itoa(int(c.UpdatedReadyReplicas)) + " = 0"
	case TooFewLabeled:
		return "current batch not ready: pods with batch label not satisfied, RolloutID " + c.RolloutID +
			", PlannedUpdatedReplicas " + strconv.Itoa(int(c.PlannedUpdatedReplicas))
	}
	return ""
}
