package cloneset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

const nonNegative = "must be greater than or equal to 0"

// updateStrategyField is the path of spec.updateStrategy, under which
// intorpercent's kruise rules name partition, maxUnavailable and
// maxSurge.
const updateStrategyField = "spec.updateStrategy"

// Validate checks cs as kruise v1.9.1's validating webhook checks a
// CloneSet on create and update, after its defaulting webhook (so a nil
// field is its default: partition 0, maxUnavailable "20%", maxSurge 0,
// type ReCreate), in the webhook's order, and returns nil or a
// [field.ErrorList] in the webhook's words:
//
//	spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly
//
// Rules, in order (docs/cloneset.md#validation):
//
//   - replicas >= 0;
//   - podsToDelete has no duplicates ("duplicated items [a]"; the webhook
//     then skips its other podsToDelete checks);
//   - the update strategy type is ReCreate, InPlaceIfPossible or
//     InPlaceOnly (V1: OnDelete is rejected although the controller
//     implements it, docs/cloneset.md#s13-ondelete-unreachable);
//   - the partition, by intorpercent.ValidateKruisePartition (V2, V3):
//     read with kruise's fractional parser rounded up against replicas,
//     it must be readable and >= 0 (above replicas or 100% is fine);
//   - the priority strategy (V8) has not both weight and order terms,
//     weights in [0, 100] (kruise's message says 1-100), no empty weight
//     selector and no empty order key; only the first broken rule is
//     reported, as a Required error;
//   - scatter terms (V9) have keys and no duplicate key=value; the first
//     broken rule only, as a Required error;
//   - maxUnavailable and maxSurge, by
//     intorpercent.ValidateKruiseRollingUpdate (V4 to V7): both readable
//     by the same parser ("33.3%" passes, "25" does not), with
//     InPlaceOnly maxSurge reads <= 0, and when replicas > 0 they do not
//     both read < 1;
//   - progressDeadlineSeconds, when set, is >= 0 and, unless
//     math.MaxInt32, > minReadySeconds (V10).
//
// Not checked, as kruise does not: percentages above 100% ("120%"),
// negative percentages for maxUnavailable and maxSurge, anything about
// scaleStrategy.maxUnavailable, minReadySeconds, revisionHistoryLimit.
// Not modelled, because this package does not see them: the selector and
// template rules, the syntax of weight selectors, that each newly added
// podsToDelete name is an existing, non-terminating pod of this CloneSet,
// which spec fields an update may change, and InPlaceOnly's images-only
// rule. A nil cs is reported as a Required error.
//
// One deliberate difference from kruise, documented on
// intorpercent.ValidateKruisePartition: a partition, maxUnavailable or
// maxSurge percentage whose scaled value kruise converts to an int in a
// CPU-dependent way (NaN, ±Inf, beyond int64) is rejected on that field
// with our words, where kruise on amd64 reads it as math.MinInt64 and on
// arm64 saturates it.
//
// Validate does not modify cs.
// Upstream: validating.CloneSetCreateUpdateHandler.validateCloneSetSpec,
// validateScaleStrategy and validateUpdateStrategy.
func Validate[T any](cs *CloneSet[T]) error {
	if cs == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "cloneset", Err: field.ErrRequired}}
	}
	var list field.ErrorList
	add := func(t field.ErrorType, path, value, detail string, kind error) {
		list = append(list, &field.Error{Type: t, Field: path, Value: value, Detail: detail, Err: kind})
	}
	if cs.Replicas < 0 {
		add(field.TypeInvalid, "spec.replicas", strconv.FormatInt(int64(cs.Replicas), 10), nonNegative, field.ErrNegative)
	}
	if dups := duplicates(cs.ScaleStrategy.PodsToDelete); len(dups) > 0 {
		add(field.TypeInvalid, "spec.scaleStrategy.podsToDelete", goStrings(cs.ScaleStrategy.PodsToDelete), "duplicated items "+fmt.Sprint(dups), field.ErrDuplicate)
	}

	us := &cs.UpdateStrategy
	updateType := us.Type
	if updateType == "" {
		updateType = ReCreate
	}
	list = append(list, validateUpdateType(string(updateType), updateStrategyField+".type")...)
	partition := us.Partition
	if partition == nil {
		partition = &intorpercent.IntOrString{}
	}
	list = append(list, intorpercent.ValidateKruisePartition(partition, cs.Replicas, updateStrategyField)...)
	if msg := priorityProblem(us.PriorityStrategy); msg != "" {
		add(field.TypeRequired, "spec.updateStrategy.priorityStrategy", "", msg, nil)
	}
	if msg := scatterProblem(us.ScatterStrategy); msg != "" {
		add(field.TypeRequired, "spec.updateStrategy.scatterStrategy", "", msg, nil)
	}
	maxUnavailable, maxSurge := us.MaxUnavailable, us.MaxSurge
	if maxUnavailable == nil {
		d := DefaultMaxUnavailable()
		maxUnavailable = &d
	}
	if maxSurge == nil {
		maxSurge = &intorpercent.IntOrString{}
	}
	list = append(list, intorpercent.ValidateKruiseRollingUpdate(string(updateType), maxUnavailable, maxSurge, cs.Replicas, updateStrategyField)...)

	list = append(list, validateProgressDeadline(cs.ProgressDeadlineSeconds, cs.MinReadySeconds, "spec.progressDeadlineSeconds")...)
	return list.ToError()
}

// validateUpdateType applies the webhook's rule for
// spec.updateStrategy.type (rule V1, docs/cloneset.md#validation) at
// path: only ReCreate, InPlaceIfPossible and InPlaceOnly are accepted, so
// OnDelete, which the controller implements, is rejected, and so is ""
// (Validate applies the default ReCreate first, as kruise's defaulting
// does). The message quotes the three names unevenly, as kruise's does.
func validateUpdateType(t, path string) field.ErrorList {
	switch UpdateStrategyType(t) {
	case ReCreate, InPlaceIfPossible, InPlaceOnly:
		return nil
	}
	return field.ErrorList{{Type: field.TypeInvalid, Field: path, Value: strconv.Quote(t),
		Detail: "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'", Err: field.ErrUnsupported}}
}

// validateProgressDeadline applies the webhook's rules for
// spec.progressDeadlineSeconds (rule V10, docs/cloneset.md#validation)
// at path: nil is valid; otherwise it must not be negative, and unless it
// is math.MaxInt32 (no deadline) it must be greater than
// minReadySeconds. A negative deadline usually breaks both rules.
func validateProgressDeadline(deadline *int32, minReadySeconds int32, path string) field.ErrorList {
	if deadline == nil {
		return nil
	}
	var errs field.ErrorList
	value := strconv.FormatInt(int64(*deadline), 10)
	if *deadline < 0 {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path, Value: value, Detail: nonNegative, Err: field.ErrNegative})
	}
	if *deadline != math.MaxInt32 && *deadline <= minReadySeconds {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path, Value: value,
			Detail: "must be greater than minReadySeconds"})
	}
	return errs
}

// goStrings renders a []string in Go syntax, as the API server renders it
// in an error.
func goStrings(list []string) string {
	return fmt.Sprintf("%#v", list)
}

// duplicates returns each name that occurs again after its first
// occurrence, once per extra occurrence. Upstream: util.CheckDuplicate.
func duplicates(list []string) []string {
	var dups []string
	seen := make(map[string]struct{}, len(list))
	for _, name := range list {
		if _, ok := seen[name]; ok {
			dups = append(dups, name)
			continue
		}
		seen[name] = struct{}{}
	}
	return dups
}

// priorityProblem returns kruise's complaint about a priority strategy,
// or "". Upstream: UpdatePriorityStrategy.FieldsValidation.
func priorityProblem(p *PriorityStrategy) string {
	if p == nil {
		return ""
	}
	if len(p.WeightPriority) > 0 && len(p.OrderPriority) > 0 {
		return "only one of weightPriority and orderPriority can be used"
	}
	for _, w := range p.WeightPriority {
		if w.Weight < 0 || w.Weight > 100 {
			return "weight must be valid number in the range 1-100"
		}
		if len(w.MatchSelector.MatchLabels) == 0 && len(w.MatchSelector.MatchExpressions) == 0 {
			return "selector can not be empty"
		}
	}
	for _, o := range p.OrderPriority {
		if o.OrderedKey == "" {
			return "order key can not be empty"
		}
	}
	return ""
}

// scatterProblem returns kruise's complaint about a scatter strategy, or
// "". Upstream: UpdateScatterStrategy.FieldsValidation.
func scatterProblem(terms []ScatterTerm) string {
	seen := make(map[string]struct{}, len(terms))
	for _, t := range terms {
		if t.Key == "" {
			return "key should not be empty"
		}
		// As kruise, terms are told apart by key + ":" + value, so key
		// "a:b" value "c" duplicates key "a" value "b:c".
		id := t.Key + ":" + t.Value
		if _, ok := seen[id]; ok {
			return "duplicated key=" + t.Key + " value=" + t.Value
		}
		seen[id] = struct{}{}
	}
	return ""
}
