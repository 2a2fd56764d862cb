package cloneset

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

func TestValidate(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	tests := []struct {
		name string
		cs   func(cs *CloneSet[struct{}])
		want string
	}{
		{name: "defaults pass", cs: func(*CloneSet[struct{}]) {}},
		{name: "V1 OnDelete", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Type = OnDelete },
			want: `spec.updateStrategy.type: Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`},
		{name: "V2 partition abc", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("abc") },
			want: `spec.updateStrategy.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage`},
		{name: "V2 partition 5%%", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("5%%") },
			want: `spec.updateStrategy.partition: Invalid value: "5%%": failed GetScaledValueFromIntOrPercent for partition: strconv.ParseFloat: parsing "5%": invalid syntax`},
		{name: "V3 partition -1", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = num(-1) },
			want: `spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0`},
		{name: "V3 partition -10% of 10 reads -1", cs: func(cs *CloneSet[struct{}]) { cs.Replicas = 10; cs.UpdateStrategy.Partition = str("-10%") },
			want: `spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0`},
		{name: "-10% of 5 rounds up to 0 and passes", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("-10%") }},
		{name: "partition above replicas passes", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("150%") }},
		{name: "V4 maxUnavailable 5", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.MaxUnavailable = str("5")
			cs.UpdateStrategy.MaxSurge = num(1)
		},
			want: `spec.updateStrategy.maxUnavailable: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`},
		{name: "V5 maxSurge 5", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxSurge = str("5") },
			want: `spec.updateStrategy.maxSurge: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage`},
		{name: "V6 InPlaceOnly with maxSurge 1", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.Type = InPlaceOnly
			cs.UpdateStrategy.MaxSurge = num(1)
		},
			want: `spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly`},
		{name: "V7 R1 U0 S0", cs: func(cs *CloneSet[struct{}]) { cs.Replicas = 1; cs.UpdateStrategy.MaxUnavailable = num(0) },
			want: `spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1`},
		{name: "V7 0%", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("0%") },
			want: `spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: maxUnavailable and maxSurge should not both be less than 1`},
		{name: "V7 not at 0 replicas", cs: func(cs *CloneSet[struct{}]) { cs.Replicas = 0; cs.UpdateStrategy.MaxUnavailable = num(0) }},
		{name: "S3 33.3% passes the webhook", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("33.3%") }},
		{name: "120% passes", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("120%") }},
		{name: "S15 -10% passes with maxSurge 1", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.MaxUnavailable = str("-10%")
			cs.UpdateStrategy.MaxSurge = num(1)
		}},
		{name: "scaleStrategy.maxUnavailable is not checked", cs: func(cs *CloneSet[struct{}]) { cs.ScaleStrategy.MaxUnavailable = str("junk") }},
		{name: "V8 both priorities", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.PriorityStrategy = &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 1, MatchSelector: LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}, OrderPriority: []OrderTerm{{OrderedKey: "k"}}}
		}, want: `spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used`},
		{name: "V8 weight 101", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.PriorityStrategy = &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 101, MatchSelector: LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}}
		}, want: `spec.updateStrategy.priorityStrategy: Required value: weight must be valid number in the range 1-100`},
		{name: "V8 weight 0 passes", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.PriorityStrategy = &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 0, MatchSelector: LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}}
		}},
		{name: "V8 empty selector", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.PriorityStrategy = &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 5}}}
		}, want: `spec.updateStrategy.priorityStrategy: Required value: selector can not be empty`},
		{name: "V8 empty order key", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.PriorityStrategy = &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: ""}}}
		}, want: `spec.updateStrategy.priorityStrategy: Required value: order key can not be empty`},
		{name: "V9 empty key", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.ScatterStrategy = []ScatterTerm{{Value: "v"}} },
			want: `spec.updateStrategy.scatterStrategy: Required value: key should not be empty`},
		{name: "V9 duplicate", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.ScatterStrategy = []ScatterTerm{{"k", "v"}, {"k", "w"}, {"k", "v"}}
		},
			want: `spec.updateStrategy.scatterStrategy: Required value: duplicated key=k value=v`},
		{name: "V9 colon collision", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.ScatterStrategy = []ScatterTerm{{"a:b", "c"}, {"a", "b:c"}}
		},
			want: `spec.updateStrategy.scatterStrategy: Required value: duplicated key=a value=b:c`},
		{name: "V10 deadline = minReady", cs: func(cs *CloneSet[struct{}]) { cs.ProgressDeadlineSeconds = i32(10); cs.MinReadySeconds = 10 },
			want: `spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds`},
		{name: "V10 negative deadline", cs: func(cs *CloneSet[struct{}]) { cs.ProgressDeadlineSeconds = i32(-1) },
			want: `[spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds]`},
		{name: "V10 MaxInt32 passes", cs: func(cs *CloneSet[struct{}]) {
			cs.ProgressDeadlineSeconds = i32(math.MaxInt32)
			cs.MinReadySeconds = math.MaxInt32
		}},
		{name: "V11 duplicated podsToDelete", cs: func(cs *CloneSet[struct{}]) { cs.ScaleStrategy.PodsToDelete = []string{"a", "b", "a", "a"} },
			want: `spec.scaleStrategy.podsToDelete: Invalid value: []string{"a", "b", "a", "a"}: duplicated items [a a]`},
		{name: "negative replicas", cs: func(cs *CloneSet[struct{}]) { cs.Replicas = -1 },
			want: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{name: "several, in the webhook's order", cs: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy.Type = "Rolling"
			cs.UpdateStrategy.Partition = str("x")
			cs.UpdateStrategy.MaxSurge = str("y")
			cs.UpdateStrategy.MaxUnavailable = num(0)
		}, want: `[spec.updateStrategy.type: Invalid value: "Rolling": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly', ` +
			`spec.updateStrategy.partition: Invalid value: "x": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage, ` +
			`spec.updateStrategy.maxSurge: Invalid value: "y": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage, ` +
			`spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[struct{}]{Name: "demo", Replicas: 5}
			tt.cs(cs)
			err := Validate(cs)
			got := ""
			if err != nil {
				got = err.Error()
				var fe *field.Error
				if !errors.As(err, &fe) {
					t.Errorf("Validate error %v holds no *field.Error", err)
				}
			}
			if got != tt.want {
				t.Errorf("Validate:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if err := Validate[struct{}](nil); err == nil || err.Error() != "cloneset: Required value" {
		t.Errorf("Validate(nil) = %v", err)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(int32(5), "abc", "5", "1", "InPlaceOnly", int32(0))
	f.Add(int32(1), "-10%", "0%", "0", "OnDelete", int32(-1))
	f.Add(int32(10), "NaN%", "33.3%", "1e400%", "", int32(10))
	f.Fuzz(func(t *testing.T, replicas int32, partition, maxUnavailable, maxSurge, typ string, pds int32) {
		cs := &CloneSet[struct{}]{Replicas: replicas, ProgressDeadlineSeconds: &pds, UpdateStrategy: UpdateStrategy{
			Type: UpdateStrategyType(typ), Partition: str(partition), MaxUnavailable: str(maxUnavailable), MaxSurge: str(maxSurge),
		}}
		err := Validate(cs)
		if err != nil {
			var list field.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Validate error %v is not a non-empty ErrorList", err)
			}
		}
		// A CloneSet the webhook accepts has a readable partition.
		if err == nil {
			if _, perr := CalculatePartitionReplicas(cs.UpdateStrategy.Partition, max(replicas, 0)); perr != nil {
				t.Fatalf("Validate accepted partition %q that CalculatePartitionReplicas rejects: %v", partition, perr)
			}
		}
	})
}

func validationTexts(l field.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

func i32p(n int32) *int32 { return &n }

func TestValidateUpdateType(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		reason   string
	}{
		{name: "recreate", in: "ReCreate"},
		{name: "in place if possible", in: "InPlaceIfPossible"},
		{name: "in place only", in: "InPlaceOnly"},
		{name: "on delete", in: "OnDelete", reason: "rule V1: rejected although the controller implements it",
			want: []string{`spec.updateStrategy.type: Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
		{name: "empty", in: "", reason: "kruise test invalid-update-type; Validate applies the default ReCreate first",
			want: []string{`spec.updateStrategy.type: Invalid value: "": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
		{name: "case matters", in: "Recreate",
			want: []string{`spec.updateStrategy.type: Invalid value: "Recreate": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
	}
	for _, tt := range tests {
		got := validationTexts(validateUpdateType(tt.in, "spec.updateStrategy.type"))
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("validateUpdateType(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestValidateProgressDeadline(t *testing.T) {
	const f = "spec.progressDeadlineSeconds"
	tests := []struct {
		name     string
		deadline *int32
		minReady int32
		want     []string
		reason   string
	}{
		{name: "nil", deadline: nil, minReady: 10},
		{name: "greater", deadline: i32p(600), minReady: 10},
		{name: "no deadline", deadline: i32p(math.MaxInt32), minReady: math.MaxInt32, reason: "MaxInt32 disables the deadline"},
		{name: "equal", deadline: i32p(10), minReady: 10, reason: "rule V10, kruise test invalid-progressDeadlineSeconds-equals-to-minReadySeconds",
			want: []string{f + `: Invalid value: 10: must be greater than minReadySeconds`}},
		{name: "zero", deadline: i32p(0), minReady: 0,
			want: []string{f + `: Invalid value: 0: must be greater than minReadySeconds`}},
		{name: "negative", deadline: i32p(-1), minReady: 0, reason: "kruise test invalid-negative-progressDeadlineSeconds: both rules",
			want: []string{f + `: Invalid value: -1: must be greater than or equal to 0`, f + `: Invalid value: -1: must be greater than minReadySeconds`}},
		{name: "negative below a negative minReady", deadline: i32p(-1), minReady: -5, reason: "the webhook does not check minReadySeconds",
			want: []string{f + `: Invalid value: -1: must be greater than or equal to 0`}},
	}
	for _, tt := range tests {
		got := validationTexts(validateProgressDeadline(tt.deadline, tt.minReady, f))
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: validateProgressDeadline = %q, want %q (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

// TestValidateMoreCases holds the cases where intorpercent's kruise
// rules decide: values kruise's int conversion leaves to the CPU, the
// Go-syntax value of V7, and every rule at once in the webhook's order.
func TestValidateMoreCases(t *testing.T) {
	const both = "maxUnavailable and maxSurge should not both be less than 1"
	tests := []struct {
		name   string
		edit   func(cs *CloneSet[struct{}])
		want   []string
		reason string
	}{
		{name: "every field set and valid", edit: func(cs *CloneSet[struct{}]) {
			cs.UpdateStrategy = UpdateStrategy{Type: InPlaceIfPossible, Partition: str("60%"), MaxUnavailable: str("33.3%"), MaxSurge: num(2),
				PriorityStrategy: &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 0, MatchSelector: LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}},
				ScatterStrategy:  []ScatterTerm{{Key: "zone", Value: "a"}, {Key: "zone", Value: "b"}}}
			cs.ScaleStrategy.PodsToDelete = []string{"p0", "p1"}
			cs.ProgressDeadlineSeconds = i32p(600)
			cs.MinReadySeconds = 10
		}, reason: "weight 0 passes although the message says 1-100; a fraction passes the webhook (S3)"},
		{name: "V4 without surge also breaks V7", edit: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("5") },
			reason: "an unreadable value counts as 0, and the default maxSurge is 0",
			want: []string{`spec.updateStrategy.maxUnavailable: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`,
				`spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: ` + both}},
		{name: "partition NaN depends on the CPU", edit: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("NaN%") },
			reason: "kruise on amd64 reports -9223372036854775808 under V3; on arm64 it accepts NaN as 0",
			want:   []string{`spec.updateStrategy.partition: Invalid value: "NaN%": must scale to a finite number within int64 (rolloutmath rejects it: kruise's result for it depends on the CPU)`}},
		{name: "surge infinity depends on the CPU", edit: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxSurge = str("Inf%") },
			want: []string{`spec.updateStrategy.maxSurge: Invalid value: "Inf%": must scale to a finite number within int64 (rolloutmath rejects it: kruise's result for it depends on the CPU)`}},
		{name: "partition beyond int32 passes", edit: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.Partition = str("1e12%") },
			reason: "kruise holds 5e10 exactly; CalculatePartitionReplicas clamps it to replicas"},
		{name: "V11 every extra occurrence", edit: func(cs *CloneSet[struct{}]) { cs.ScaleStrategy.PodsToDelete = []string{"a", "b", "a", "b", "a"} },
			want: []string{`spec.scaleStrategy.podsToDelete: Invalid value: []string{"a", "b", "a", "b", "a"}: duplicated items [a b a]`}},
		{name: "every rule in the webhook's order", edit: func(cs *CloneSet[struct{}]) {
			cs.Replicas = -2
			cs.ScaleStrategy.PodsToDelete = []string{"x", "x"}
			cs.UpdateStrategy = UpdateStrategy{Type: "Rolling", Partition: str("x"), MaxUnavailable: str("y"), MaxSurge: str("z"),
				PriorityStrategy: &PriorityStrategy{OrderPriority: []OrderTerm{{}}}, ScatterStrategy: []ScatterTerm{{}}}
			cs.ProgressDeadlineSeconds = i32p(-1)
		}, reason: "replicas, scale strategy, type, partition, priority, scatter, maxUnavailable, maxSurge, deadline; no V7 at negative replicas",
			want: []string{
				`spec.replicas: Invalid value: -2: must be greater than or equal to 0`,
				`spec.scaleStrategy.podsToDelete: Invalid value: []string{"x", "x"}: duplicated items [x]`,
				`spec.updateStrategy.type: Invalid value: "Rolling": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`,
				`spec.updateStrategy.partition: Invalid value: "x": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage`,
				`spec.updateStrategy.priorityStrategy: Required value: order key can not be empty`,
				`spec.updateStrategy.scatterStrategy: Required value: key should not be empty`,
				`spec.updateStrategy.maxUnavailable: Invalid value: "y": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`,
				`spec.updateStrategy.maxSurge: Invalid value: "z": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage`,
				`spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0`,
				`spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[struct{}]{Name: "demo", Replicas: 5}
			tt.edit(cs)
			var got []string
			if err := Validate(cs); err != nil {
				var list field.ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("Validate returned %T, want an field.ErrorList", err)
				}
				got = validationTexts(list)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Validate(%+v) =\n  %s\nwant\n  %s\n(%s)", cs.UpdateStrategy, strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "), tt.reason)
			}
		})
	}
}

// drawValidateCloneSet draws a CloneSet whose strategy fields may or may
// not be valid.
func drawValidateCloneSet(t *rapid.T) *CloneSet[struct{}] {
	field := func(label string) *intorpercent.IntOrString {
		switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
		case 0:
			return nil
		case 1:
			return num(rapid.Int32Range(-2, 30).Draw(t, label+"Count"))
		case 2:
			return str(rapid.SampledFrom([]string{"0%", "20%", "33.3%", "100%", "150%", "-10%", "5", "abc", "NaN%", "1e2%"}).Draw(t, label+"Text"))
		}
		return str(rapid.String().Draw(t, label+"Any"))
	}
	cs := &CloneSet[struct{}]{
		Name:     "demo",
		Replicas: rapid.Int32Range(-1, 50).Draw(t, "replicas"),
		UpdateStrategy: UpdateStrategy{
			Type:           rapid.SampledFrom([]UpdateStrategyType{"", ReCreate, InPlaceIfPossible, InPlaceOnly, OnDelete}).Draw(t, "type"),
			Partition:      field("partition"),
			MaxUnavailable: field("maxUnavailable"),
			MaxSurge:       field("maxSurge"),
		},
		MinReadySeconds: rapid.Int32Range(0, 20).Draw(t, "minReadySeconds"),
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		cs.ProgressDeadlineSeconds = i32p(rapid.Int32Range(-1, 30).Draw(t, "deadline"))
	}
	if rapid.Bool().Draw(t, "hasScatter") {
		cs.UpdateStrategy.ScatterStrategy = []ScatterTerm{{Key: rapid.SampledFrom([]string{"", "zone"}).Draw(t, "scatterKey"), Value: "a"}, {Key: "zone", Value: "a"}}
	}
	cs.ScaleStrategy.PodsToDelete = rapid.SliceOfN(rapid.SampledFrom([]string{"p0", "p1", "p2"}), 0, 4).Draw(t, "podsToDelete")
	return cs
}

func TestValidateDoesNotModifyItsInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs := drawValidateCloneSet(t)
		before, err := json.Marshal(cs)
		if err != nil {
			t.Fatal(err)
		}
		_ = Validate(cs)
		if after, _ := json.Marshal(cs); string(after) != string(before) {
			t.Fatalf("Validate modified its input:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// TestValidateAcceptsCloneSetsWithinTheRules draws CloneSets that keep
// every webhook rule (whole or fractional percentages and counts, at
// least one of maxUnavailable and maxSurge scaling to 1 or more, no
// surge for InPlaceOnly, a deadline beyond minReadySeconds, distinct
// names and scatter terms) and checks that Validate accepts them all.
func TestValidateAcceptsCloneSetsWithinTheRules(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(0, 1000).Draw(t, "replicas")
		nonNegative := func(label string) *intorpercent.IntOrString {
			switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
			case 0:
				return nil
			case 1:
				return num(rapid.Int32Range(0, math.MaxInt32).Draw(t, label+"Count"))
			case 2:
				return str(strconv.Itoa(rapid.IntRange(0, 300).Draw(t, label+"Percent")) + "%")
			}
			return str(rapid.StringMatching(`[0-9]{1,3}\.[0-9]{1,3}%`).Draw(t, label+"Fraction"))
		}
		typ := rapid.SampledFrom([]UpdateStrategyType{"", ReCreate, InPlaceIfPossible, InPlaceOnly}).Draw(t, "type")
		cs := &CloneSet[struct{}]{Replicas: replicas, UpdateStrategy: UpdateStrategy{Type: typ, Partition: nonNegative("partition")}}
		// At least one pod unavailable or one surge pod, as kruise asks.
		if typ == InPlaceOnly || rapid.Bool().Draw(t, "byUnavailable") {
			cs.UpdateStrategy.MaxUnavailable = rapid.SampledFrom([]*intorpercent.IntOrString{nil, num(1), str("100%"), str("0.001%")}).Draw(t, "maxUnavailable")
			if typ == InPlaceOnly {
				cs.UpdateStrategy.MaxSurge = rapid.SampledFrom([]*intorpercent.IntOrString{nil, num(0), str("0%"), str("-5%")}).Draw(t, "maxSurge")
			} else {
				cs.UpdateStrategy.MaxSurge = nonNegative("maxSurge")
			}
		} else {
			cs.UpdateStrategy.MaxUnavailable = rapid.SampledFrom([]*intorpercent.IntOrString{num(0), str("0%"), nonNegative("maxUnavailable")}).Draw(t, "maxUnavailable")
			cs.UpdateStrategy.MaxSurge = rapid.SampledFrom([]*intorpercent.IntOrString{num(1), str("100%"), str("0.5%")}).Draw(t, "maxSurge")
			if cs.UpdateStrategy.MaxUnavailable == nil {
				cs.UpdateStrategy.MaxUnavailable = num(0)
			}
		}
		cs.MinReadySeconds = rapid.Int32Range(0, 100).Draw(t, "minReadySeconds")
		if rapid.Bool().Draw(t, "hasDeadline") {
			cs.ProgressDeadlineSeconds = i32p(rapid.Int32Range(cs.MinReadySeconds+1, math.MaxInt32).Draw(t, "deadline"))
		}
		cs.ScaleStrategy.PodsToDelete = rapid.SliceOfDistinct(rapid.StringMatching(`p[0-9]{1,3}`), func(s string) string { return s }).Draw(t, "podsToDelete")
		cs.UpdateStrategy.ScatterStrategy = rapid.SliceOfDistinct(rapid.Custom(func(t *rapid.T) ScatterTerm {
			return ScatterTerm{Key: rapid.StringMatching(`[a-z]{1,5}`).Draw(t, "key"), Value: rapid.StringMatching(`[a-z0-9]{0,3}`).Draw(t, "value")}
		}), func(s ScatterTerm) string { return s.Key + ":" + s.Value }).Draw(t, "scatter")
		if err := Validate(cs); err != nil {
			t.Fatalf("Validate(%+v) = %v, want nil", cs.UpdateStrategy, err)
		}
	})
}
