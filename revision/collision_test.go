package revision

import (
	"math"
	"testing"
)

func TestIsHashCollision(t *testing.T) {
	deployment := image("nginx:2")
	withHashLabel := rs("web-x", "1", 0, "nginx:2").Template
	other := image("nginx:1")
	tests := []struct {
		name                    string
		deploymentUID, ownerUID string
		existing                *tmpl
		want                    bool
	}{
		{name: "ours: same owner, same template but the hash", deploymentUID: "d1", ownerUID: "d1", existing: &withHashLabel, want: false},
		{name: "another owner", deploymentUID: "d1", ownerUID: "d2", existing: &withHashLabel, want: true},
		{name: "no controller owner", deploymentUID: "d1", ownerUID: "", existing: &withHashLabel, want: true},
		{name: "no owner and no deployment UID", deploymentUID: "", ownerUID: "", existing: &withHashLabel, want: true},
		{name: "same owner, other template", deploymentUID: "d1", ownerUID: "d1", existing: &other, want: true},
		{name: "nil existing template", deploymentUID: "d1", ownerUID: "d1", existing: nil, want: true},
	}
	for _, tt := range tests {
		if got := IsHashCollision(tt.deploymentUID, &deployment, tt.ownerUID, tt.existing); got != tt.want {
			t.Errorf("IsHashCollision(%q, nginx:2, %q, ...) = %v, want %v (%s)", tt.deploymentUID, tt.ownerUID, got, tt.want, tt.name)
		}
	}
}

func TestNextCollisionCount(t *testing.T) {
	tests := []struct {
		in   *int32
		want int32
	}{
		{nil, 1},
		{ptrTo[int32](0), 1},
		{ptrTo[int32](5), 6},
		{ptrTo[int32](-1), 0},
		{ptrTo[int32](math.MaxInt32), math.MinInt32},
	}
	for _, tt := range tests {
		if got := NextCollisionCount(tt.in); got != tt.want {
			t.Errorf("NextCollisionCount(%v) = %d, want %d", deref(tt.in), got, tt.want)
		}
	}
}
