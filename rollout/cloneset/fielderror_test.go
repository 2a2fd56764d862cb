package cloneset

import (
	"errors"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// checkFieldError fails unless err (from call) unwraps to field.ErrInvalid
// and to a *field.Error naming a field.
func checkFieldError(t *rapid.T, call string, err error) {
	if !errors.Is(err, field.ErrInvalid) {
		t.Fatalf("%s error %v does not wrap field.ErrInvalid", call, err)
	}
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Field == "" {
		t.Fatalf("%s error %v: errors.As found %#v, want a *field.Error with a Field", call, err, fe)
	}
}

func TestEveryBadInputErrorIsAFieldError(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	count := func(t *rapid.T, label string) int32 { return rapid.Int32Range(-3, 12).Draw(t, label) }
	ios := func(t *rapid.T, label string) *intorpercent.IntOrString {
		switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
		case 0:
			return nil
		case 1:
			return &intorpercent.IntOrString{Int: count(t, label)}
		}
		return &intorpercent.IntOrString{IsString: true, Str: rapid.SampledFrom([]string{"25%", "99", "x%", "-5%", "150%", "33.3%"}).Draw(t, label)}
	}
	rapid.Check(t, func(t *rapid.T) {
		var cs *CloneSet[podTemplate]
		if rapid.IntRange(0, 20).Draw(t, "nilCloneSet") > 0 {
			cs = &CloneSet[podTemplate]{Name: "demo", Replicas: count(t, "replicas"), MinReadySeconds: count(t, "minReadySeconds"),
				Template: templateOf("nginx:1")}
			cs.UpdateStrategy = UpdateStrategy{
				Type:           rapid.SampledFrom([]UpdateStrategyType{"", ReCreate, InPlaceIfPossible, InPlaceOnly, "Blue"}).Draw(t, "type"),
				Partition:      ios(t, "partition"),
				MaxUnavailable: ios(t, "maxUnavailable"),
				MaxSurge:       ios(t, "maxSurge"),
			}
			if rapid.Bool().Draw(t, "setDeadline") {
				pds := count(t, "progressDeadlineSeconds")
				cs.ProgressDeadlineSeconds = &pds
			}
			cs.ScaleStrategy.PodsToDelete = rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b"}), 0, 3).Draw(t, "podsToDelete")
		}
		pods := make([]Pod, rapid.IntRange(0, 4).Draw(t, "pods"))
		for i := range pods {
			pods[i] = Pod{Name: rapid.SampledFrom([]string{"", "demo-a", "demo-b", "demo-c"}).Draw(t, "name"), Restarts: count(t, "restarts")}
		}
		if err := Validate(cs); err != nil {
			checkFieldError(t, "Validate", err)
		}
		if _, err := Plan(cs, pods, nil, now); err != nil {
			checkFieldError(t, "Plan", err)
		}
	})
}
