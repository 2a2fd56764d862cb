package statefulset

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// nonNegative is the API server's detail for a negative count.
const nonNegative = "must be greater than or equal to 0"

// percentDetail is the API server's detail for a malformed percent,
// verbatim (two spaces after the first comma).
const percentDetail = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// Validate checks set as the API server checks a StatefulSet's spec and
// status, in its order and words:
//
//	spec.podManagementPolicy: Invalid value: "Foo": must be 'OrderedReady' or 'Parallel'
//	spec.updateStrategy: Invalid value: {"Type":"Foo","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'
//	spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":null}: only allowed for updateStrategy 'RollingUpdate'
//	spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0
//	spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0
//	spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%
//	spec.replicas, spec.minReadySeconds, spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0
//	status.currentReplicas: Invalid value: -1: must be greater than or equal to 0
//	status.readyReplicas: Invalid value: 4: cannot be greater than status.replicas
//
// An empty policy or strategy type is what the API server's defaulting
// fills in (OrderedReady, RollingUpdate), not the "Required value" it
// reports when defaulting is skipped. maxUnavailable is validated
// whether or not the gate is on (an API server with the gate off drops
// the field instead). The pod template, selector, service name,
// volumeClaimTemplates and the immutability of fields on update are not
// checked: the template is the caller's type. The result is empty when
// set is valid; a nil set is one Required error.
// Upstream: ValidateStatefulSetSpec, validateRollingUpdateStatefulSet and
// ValidateStatefulSetStatus, pkg/apis/apps/validation/validation.go.
func Validate[T any](set *StatefulSet[T]) field.ErrorList {
	if set == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "statefulset", Err: field.ErrRequired}}
	}
	var list field.ErrorList
	switch set.PodManagementPolicy {
	case "", OrderedReady, Parallel:
	default:
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "spec.podManagementPolicy", Value: strconv.Quote(string(set.PodManagementPolicy)),
			Detail: "must be 'OrderedReady' or 'Parallel'", Err: field.ErrUnsupported})
	}
	us := set.UpdateStrategy
	switch us.Type {
	case OnDelete:
		if us.RollingUpdate != nil {
			list = append(list, &field.Error{Type: field.TypeInvalid, Field: "spec.updateStrategy.rollingUpdate", Value: rollingUpdateText(us.RollingUpdate),
				Detail: "only allowed for updateStrategy 'RollingUpdate'"})
		}
	case "", RollingUpdate:
		if us.RollingUpdate != nil {
			list = append(list, validateRollingUpdate(us.RollingUpdate)...)
		}
	default:
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "spec.updateStrategy", Value: strategyText(us),
			Detail: "must be 'RollingUpdate' or 'OnDelete'", Err: field.ErrUnsupported})
	}
	list = appendNonNegative(list, "spec.replicas", int64(set.Replicas))
	list = appendNonNegative(list, "spec.minReadySeconds", int64(set.MinReadySeconds))
	list = appendNonNegative(list, "spec.ordinals.start", int64(set.Ordinals.Start))
	return append(list, ValidateStatus(&set.Status)...)
}

// ValidateStatus checks a status as the API server does when it is
// written: every counter, observedGeneration and collisionCount at
// least 0; readyReplicas, currentReplicas, updatedReplicas and
// availableReplicas at most replicas; availableReplicas at most
// readyReplicas. A nil status is valid (nothing to check).
// Upstream: ValidateStatefulSetStatus, pkg/apis/apps/validation/validation.go.
func ValidateStatus(s *Status) field.ErrorList {
	if s == nil {
		return nil
	}
	var list field.ErrorList
	list = appendNonNegative(list, "status.replicas", int64(s.Replicas))
	list = appendNonNegative(list, "status.readyReplicas", int64(s.ReadyReplicas))
	list = appendNonNegative(list, "status.currentReplicas", int64(s.CurrentReplicas))
	list = appendNonNegative(list, "status.updatedReplicas", int64(s.UpdatedReplicas))
	list = appendNonNegative(list, "status.availableReplicas", int64(s.AvailableReplicas))
	list = appendNonNegative(list, "status.observedGeneration", s.ObservedGeneration)
	if s.CollisionCount != nil {
		list = appendNonNegative(list, "status.collisionCount", int64(*s.CollisionCount))
	}
	over := func(path string, v int32) {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.FormatInt(int64(v), 10), Detail: "cannot be greater than status.replicas"})
	}
	if s.ReadyReplicas > s.Replicas {
		over("status.readyReplicas", s.ReadyReplicas)
	}
	if s.CurrentReplicas > s.Replicas {
		over("status.currentReplicas", s.CurrentReplicas)
	}
	if s.UpdatedReplicas > s.Replicas {
		over("status.updatedReplicas", s.UpdatedReplicas)
	}
	if s.AvailableReplicas > s.Replicas {
		over("status.availableReplicas", s.AvailableReplicas)
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "status.availableReplicas", Value: strconv.FormatInt(int64(s.AvailableReplicas), 10),
			Detail: "cannot be greater than status.readyReplicas"})
	}
	return list
}

// validateRollingUpdate is validateRollingUpdateStatefulSet.
func validateRollingUpdate(ru *RollingUpdateStrategy) field.ErrorList {
	const path = "spec.updateStrategy.rollingUpdate"
	list := appendNonNegative(nil, path+".partition", int64(ru.Partition))
	mu := ru.MaxUnavailable
	if mu == nil {
		return list
	}
	const muPath = path + ".maxUnavailable"
	text := intOrStringText(*mu)
	if mu.IsString {
		if !percentPattern(mu.Str) {
			list = append(list, &field.Error{Type: field.TypeInvalid, Field: muPath, Value: text, Detail: percentDetail, Err: field.ErrSyntax})
		}
	} else if mu.Int < 0 {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: muPath, Value: text, Detail: nonNegative, Err: field.ErrNegative})
	}
	if intOrPercentValue(*mu) == 0 {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: muPath, Value: text, Detail: "cannot be 0"})
	}
	if mu.IsString && percentPattern(mu.Str) {
		if n, err := strconv.Atoi(mu.Str[:len(mu.Str)-1]); err != nil || n > 100 {
			list = append(list, &field.Error{Type: field.TypeInvalid, Field: muPath, Value: text, Detail: "must not be greater than 100%", Err: field.ErrRange})
		}
	}
	return list
}

// percentPattern reports whether s matches ^[0-9]+%$.
func percentPattern(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// intOrPercentValue is upstream's getIntOrPercentValue: a percent's
// number, else the count, else the string's strconv.Atoi value (0 when
// it has none).
func intOrPercentValue(v intorpercent.IntOrString) int {
	if !v.IsString {
		return int(v.Int)
	}
	if percentPattern(v.Str) {
		n, err := strconv.Atoi(v.Str[:len(v.Str)-1])
		if err != nil {
			return 1 // beyond int: not 0
		}
		return n
	}
	n, _ := strconv.Atoi(v.Str)
	return n
}

// appendNonNegative appends the API server's error for a negative v.
func appendNonNegative(list field.ErrorList, path string, v int64) field.ErrorList {
	if v >= 0 {
		return list
	}
	return append(list, &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.FormatInt(v, 10), Detail: nonNegative, Err: field.ErrNegative})
}

// intOrStringText renders v as the API server prints it: a count bare,
// a string quoted as JSON.
func intOrStringText(v intorpercent.IntOrString) string {
	if v.IsString {
		b, _ := json.Marshal(v.Str)
		return string(b)
	}
	return strconv.FormatInt(int64(v.Int), 10)
}

// rollingUpdateText renders ru as the API server prints the internal
// type: {"Partition":1,"MaxUnavailable":null}.
func rollingUpdateText(ru *RollingUpdateStrategy) string {
	if ru == nil {
		return "null"
	}
	mu := "null"
	if ru.MaxUnavailable != nil {
		mu = intOrStringText(*ru.MaxUnavailable)
	}
	return `{"Partition":` + strconv.FormatInt(int64(ru.Partition), 10) + `,"MaxUnavailable":` + mu + `}`
}

// strategyText renders s as the API server prints the internal type:
// {"Type":"Foo","RollingUpdate":null}.
func strategyText(s UpdateStrategy) string {
	t, _ := json.Marshal(string(s.Type))
	var b strings.Builder
	b.WriteString(`{"Type":`)
	b.Write(t)
	b.WriteString(`,"RollingUpdate":`)
	b.WriteString(rollingUpdateText(s.RollingUpdate))
	b.WriteString(`}`)
	return b.String()
}
