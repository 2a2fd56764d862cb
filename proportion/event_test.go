package proportion

import "testing"

func TestIsScalingEvent(t *testing.T) {
	d := Deployment{Replicas: 10, RollingUpdate: true}
	tests := []struct {
		name string
		rss  []ReplicaSet
		want bool
	}{
		{name: "nil", rss: nil, want: false},
		{name: "annotations match", rss: []ReplicaSet{{Replicas: 7, DesiredReplicas: "10"}, {Replicas: 3, DesiredReplicas: "10"}}, want: false},
		{name: "one differs", rss: []ReplicaSet{{Replicas: 7, DesiredReplicas: "10"}, {Replicas: 3, DesiredReplicas: "8"}}, want: true},
		{name: "inactive ReplicaSet ignored", rss: []ReplicaSet{{Replicas: 10, DesiredReplicas: "10"}, {Replicas: 0, DesiredReplicas: "8"}}, want: false},
		{name: "missing annotation skipped", rss: []ReplicaSet{{Replicas: 10}}, want: false},
		{name: "invalid annotation skipped", rss: []ReplicaSet{{Replicas: 10, DesiredReplicas: "+8"}}, want: false},
		{name: "out of range annotation skipped", rss: []ReplicaSet{{Replicas: 10, DesiredReplicas: "4294967306"}}, want: false},
	}
	for _, tt := range tests {
		if got := IsScalingEvent(d, tt.rss); got != tt.want {
			t.Errorf("%s: IsScalingEvent(%+v, %+v) = %v, want %v", tt.name, d, tt.rss, got, tt.want)
		}
	}
}

func TestIsSaturated(t *testing.T) {
	d := Deployment{Replicas: 3, MaxSurge: 1, RollingUpdate: true}
	tests := []struct {
		name   string
		rs     ReplicaSet
		want   bool
		reason string
	}{
		{name: "saturated", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 3, DesiredReplicas: "3"}, want: true},
		{name: "not all available", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 2, DesiredReplicas: "3"}, want: false},
		{name: "size differs", rs: ReplicaSet{Replicas: 4, AvailableReplicas: 3, DesiredReplicas: "3"}, want: false},
		{name: "annotation differs", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 3, DesiredReplicas: "4"}, want: false},
		{name: "no annotation", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 3}, want: false},
		{name: "signed annotation", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 3, DesiredReplicas: "+3"}, want: true,
			reason: "upstream reads it with Atoi, which accepts a sign"},
		{name: "annotation beyond int32 is not truncated", rs: ReplicaSet{Replicas: 3, AvailableReplicas: 3, DesiredReplicas: "4294967299"}, want: false,
			reason: "read whole, 2^32+3 is not 3; upstream's int32(desired) would truncate it to 3 (documented difference)"},
	}
	for _, tt := range tests {
		if got := IsSaturated(d, tt.rs); got != tt.want {
			t.Errorf("%s: IsSaturated(%+v, %+v) = %v, want %v %s", tt.name, d, tt.rs, got, tt.want, tt.reason)
		}
	}
}
