package cloneset

import (
	"errors"
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
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
		{name: "§11 S3 33.3% passes the webhook", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("33.3%") }},
		{name: "§11 120% passes", cs: func(cs *CloneSet[struct{}]) { cs.UpdateStrategy.MaxUnavailable = str("120%") }},
		{name: "§11 S15 -10% passes with maxSurge 1", cs: func(cs *CloneSet[struct{}]) {
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
				var fe *intorpercent.FieldError
				if !errors.As(err, &fe) {
					t.Errorf("Validate error %v holds no *intorpercent.FieldError", err)
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
			var list intorpercent.ErrorList
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
