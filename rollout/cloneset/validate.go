package cloneset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

const nonNegative = "must be greater than or equal to 0"

// Validate checks cs as kruise v1.9.1's validating webhook checks a
// CloneSet on create and update, after its defaulting webhook (so a nil
// field is its default: partition 0, maxUnavailable "20%", maxSurge 0,
// type ReCreate), in the webhook's order, and returns nil or an
// intorpercent.ErrorList in the webhook's words:
//
//	spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly
//
// Rules: replicas >= 0; podsToDelete has no duplicates; the update
// strategy type is ReCreate, InPlaceIfPossible or InPlaceOnly (OnDelete
// is rejected although the controller implements it, SPEC-cloneset §11
// S13); partition, maxUnavailable and maxSurge are read with kruise's
// fractional parser rounded up against replicas (a string must end in
// '%'; "33.3%" passes, "25" does not); the partition so read is >= 0;
// the priority strategy has not both weight and order terms, weights in
// [0, 100] (kruise's message says 1-100), no empty weight selector and no
// empty order key; scatter terms have keys and no duplicate key=value;
// with InPlaceOnly maxSurge reads <= 0; when replicas > 0, maxUnavailable
// and maxSurge do not both read < 1; progressDeadlineSeconds, when set,
// is >= 0 and, unless math.MaxInt32, > minReadySeconds.
//
// Not checked, as kruise does not: percentages above 100% ("120%"),
// negative percentages for maxUnavailable and maxSurge, anything about
// scaleStrategy.maxUnavailable. Not modelled, because this package does
// not see them: the selector and template rules, the syntax of weight
// selectors, that each newly added podsToDelete name is an existing,
// non-terminating pod of this CloneSet, which spec fields an update may
// change, and InPlaceOnly's images-only rule. A nil cs is reported as a
// Required error.
// Upstream: validating.CloneSetCreateUpdateHandler.validateCloneSetSpec,
// validateScaleStrategy and validateUpdateStrategy.
func Validate[T any](cs *CloneSet[T]) error {
	if cs == nil {
		return intorpercent.ErrorList{{Type: intorpercent.Required, Field: "cloneset"}}
	}
	var list intorpercent.ErrorList
	add := func(t intorpercent.ErrorType, field, value, detail string) {
		list = append(list, &intorpercent.FieldError{Type: t, Field: field, Value: value, Detail: detail})
	}
	if cs.Replicas < 0 {
		add(intorpercent.Invalid, "spec.replicas", strconv.FormatInt(int64(cs.Replicas), 10), nonNegative)
	}
	if dups := duplicates(cs.ScaleStrategy.PodsToDelete); len(dups) > 0 {
		add(intorpercent.Invalid, "spec.scaleStrategy.podsToDelete", goStrings(cs.ScaleStrategy.PodsToDelete), "duplicated items "+fmt.Sprint(dups))
	}

	us := &cs.UpdateStrategy
	switch us.Type {
	case "", ReCreate, InPlaceIfPossible, InPlaceOnly:
	default:
		add(intorpercent.Invalid, "spec.updateStrategy.type", strconv.Quote(string(us.Type)), "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'")
	}
	total := int64(cs.Replicas)
	partition := intorpercent.IntOrString{}
	if us.Partition != nil {
		partition = *us.Partition
	}
	p, err := fractionalScaled(partition, total, true)
	if err != nil {
		add(intorpercent.Invalid, PartitionField, strconv.Quote(asString(partition)), "failed GetScaledValueFromIntOrPercent for partition: "+err.Error())
	}
	if p < 0 {
		add(intorpercent.Invalid, PartitionField, strconv.FormatInt(p, 10), nonNegative)
	}
	if msg := priorityProblem(us.PriorityStrategy); msg != "" {
		add(intorpercent.Required, "spec.updateStrategy.priorityStrategy", "", msg)
	}
	if msg := scatterProblem(us.ScatterStrategy); msg != "" {
		add(intorpercent.Required, "spec.updateStrategy.scatterStrategy", "", msg)
	}
	maxUnavailable := DefaultMaxUnavailable()
	if us.MaxUnavailable != nil {
		maxUnavailable = *us.MaxUnavailable
	}
	u, err := fractionalScaled(maxUnavailable, total, true)
	if err != nil {
		add(intorpercent.Invalid, MaxUnavailableField, strconv.Quote(asString(maxUnavailable)), "failed GetScaledValueFromIntOrPercent for maxUnavailable: "+err.Error())
	}
	maxSurge := intorpercent.IntOrString{}
	if us.MaxSurge != nil {
		maxSurge = *us.MaxSurge
	}
	s, err := fractionalScaled(maxSurge, total, true)
	if err != nil {
		add(intorpercent.Invalid, MaxSurgeField, strconv.Quote(asString(maxSurge)), "failed GetScaledValueFromIntOrPercent for maxSurge: "+err.Error())
	}
	if us.Type == InPlaceOnly && s > 0 {
		add(intorpercent.Invalid, MaxSurgeField, strconv.Quote(asString(maxSurge)), "can not use maxSurge with strategy type InPlaceOnly")
	}
	if total > 0 && u < 1 && s < 1 {
		add(intorpercent.Invalid, MaxUnavailableField, goIntOrString(maxUnavailable), "maxUnavailable and maxSurge should not both be less than 1")
	}

	if pds := cs.ProgressDeadlineSeconds; pds != nil {
		v := strconv.FormatInt(int64(*pds), 10)
		if *pds < 0 {
			add(intorpercent.Invalid, "spec.progressDeadlineSeconds", v, nonNegative)
		}
		if *pds != math.MaxInt32 && *pds <= cs.MinReadySeconds {
			add(intorpercent.Invalid, "spec.progressDeadlineSeconds", v, "must be greater than minReadySeconds")
		}
	}
	return list.ToError()
}

// asString is an IntOrString's String(): the count in decimal, or the
// text.
func asString(v intorpercent.IntOrString) string {
	if v.IsString {
		return v.Str
	}
	return strconv.FormatInt(int64(v.Int), 10)
}

// goIntOrString renders v as the API server renders an intstr.IntOrString
// value in an error (Go syntax).
func goIntOrString(v intorpercent.IntOrString) string {
	if v.IsString {
		return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + strconv.Quote(v.Str) + "}"
	}
	return "intstr.IntOrString{Type:0, IntVal:" + strconv.FormatInt(int64(v.Int), 10) + `, StrVal:""}`
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
