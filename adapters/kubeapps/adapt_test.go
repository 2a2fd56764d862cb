package kubeapps_test

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func TestDeploymentRoundTrip(t *testing.T) {
	d := nginxDeployment()
	d.Status.Conditions[0].LastUpdateTime.Time = d.Status.Conditions[0].LastUpdateTime.In(time.FixedZone("CET", 3600))
	ours, err := kubeapps.Deployment(d)
	if err != nil {
		t.Fatalf("Deployment: %v", err)
	}
	if ours.Replicas != 10 || ours.MaxSurge.String() != "25%" || ours.Status.AvailableReplicas != 10 ||
		len(ours.Status.Conditions) != 2 || *ours.ProgressDeadlineSeconds != 600 {
		t.Errorf("Deployment(nginx) = %+v", ours)
	}
	back := kubeapps.DeploymentObject(&ours, d)
	if !equality.Semantic.DeepEqual(back, d) {
		t.Errorf("DeploymentObject(Deployment(d), d) differs from d:\n%#v\n%#v", back, d)
	}
	fresh := kubeapps.DeploymentObject(&ours, nil)
	fresh.Spec.Selector = d.Spec.Selector // not modelled: the rollout math never reads it
	if !equality.Semantic.DeepEqual(fresh.Spec, d.Spec) || !equality.Semantic.DeepEqual(fresh.Status, d.Status) ||
		!equality.Semantic.DeepEqual(fresh.Annotations, d.Annotations) || fresh.Name != d.Name {
		t.Errorf("DeploymentObject(Deployment(d), nil) lost a modelled field:\n%#v", fresh)
	}
	// The conversion shares nothing the library or a caller could modify
	// through the result.
	fresh.Spec.Template.Spec.Containers[0].Image = "changed"
	if d.Spec.Template.Spec.Containers[0].Image == "changed" {
		t.Errorf("DeploymentObject shares the template with its input")
	}
}

func TestReplicaSetRoundTrip(t *testing.T) {
	d := nginxDeployment()
	rs := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	rs.DeletionTimestamp = nil
	rs.Spec.MinReadySeconds = 7
	ours := kubeapps.ReplicaSet(rs)
	if ours.MinReadySeconds == nil || *ours.MinReadySeconds != 7 {
		t.Errorf("ReplicaSet(rs).MinReadySeconds = %v, want 7 (known)", ours.MinReadySeconds)
	}
	if ours.Replicas != 10 || ours.AvailableReplicas != 10 || ours.UID != string(rs.UID) ||
		!ours.CreationTime.Equal(at) || ours.Annotations["deployment.kubernetes.io/max-replicas"] != "13" || ours.Deleting {
		t.Errorf("ReplicaSet(rs) = %+v", ours)
	}
	if back := kubeapps.ReplicaSetObject(&ours, rs); !equality.Semantic.DeepEqual(back, rs) {
		t.Errorf("ReplicaSetObject(ReplicaSet(rs), rs) differs from rs:\n%#v\n%#v", back, rs)
	}
	fresh := kubeapps.ReplicaSetObject(&ours, nil)
	if !equality.Semantic.DeepEqual(fresh.Spec.Template, rs.Spec.Template) || *fresh.Spec.Replicas != 10 || fresh.Spec.MinReadySeconds != 7 ||
		fresh.Status.AvailableReplicas != 10 || fresh.Name != rs.Name {
		t.Errorf("ReplicaSetObject(ReplicaSet(rs), nil) lost a modelled field:\n%#v", fresh)
	}
	ours.MinReadySeconds = nil
	if back := kubeapps.ReplicaSetObject(&ours, rs); back.Spec.MinReadySeconds != 7 {
		t.Errorf("ReplicaSetObject(unknown minReadySeconds, rs) = %d, want base's 7", back.Spec.MinReadySeconds)
	}
}

func TestDeploymentDefaults(t *testing.T) {
	d := nginxDeployment()
	d.Spec.Replicas = nil
	d.Spec.Strategy.RollingUpdate = nil
	d.Spec.ProgressDeadlineSeconds = nil
	ours, err := kubeapps.Deployment(d)
	if err != nil {
		t.Fatal(err)
	}
	if ours.Replicas != 1 || ours.MaxSurge != nil || ours.MaxUnavailable != nil || rollout.MaxSurge(&ours) != 1 {
		t.Errorf("a nil replicas, rollingUpdate and deadline should read as the apps/v1 defaults: %+v", ours)
	}
	if dl, ok := ours.ProgressDeadline(); !ok || dl != 600*time.Second {
		t.Errorf("ProgressDeadline() = %v, %v, want 10m0s, true", dl, ok)
	}
	d.Annotations["deprecated.deployment.rollback.to"] = "3"
	if ours, _ := kubeapps.Deployment(d); ours.RollbackTo == nil || *ours.RollbackTo != 3 {
		t.Errorf("the rollback annotation should become RollbackTo 3: %v", ours.RollbackTo)
	}
}

func TestDeploymentRejectsUnrepresentableBounds(t *testing.T) {
	tests := []struct {
		name                string
		maxSurge, maxUnavil intstr.IntOrString
		want                string
	}{
		{
			name: "signed percentage", maxSurge: intstr.FromString("+5%"), maxUnavil: intstr.FromInt32(1),
			want: `spec.strategy.rollingUpdate.maxSurge: Invalid value: "+5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
		},
		{
			name: "number as a string", maxSurge: intstr.FromInt32(1), maxUnavil: intstr.FromString("5"),
			want: `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "5": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
		},
		{
			name: "maxSurge beyond int32 percent", maxSurge: intstr.FromString("30000000000%"), maxUnavil: intstr.FromInt32(0),
			want: `spec.strategy.rollingUpdate.maxSurge: Invalid value: "30000000000%": must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)`,
		},
		{
			name: "maxUnavailable beyond int32 percent", maxSurge: intstr.FromInt32(1), maxUnavil: intstr.FromString("30000000000%"),
			want: `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "30000000000%": must not be greater than 100%`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := nginxDeployment()
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &tt.maxSurge, MaxUnavailable: &tt.maxUnavil}
			_, err := kubeapps.Deployment(d)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Deployment(maxSurge %v, maxUnavailable %v) error:\n got %v\nwant %s", tt.maxSurge.String(), tt.maxUnavil.String(), err, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(d *appsv1.Deployment)
		want   string
	}{
		{name: "valid", modify: func(*appsv1.Deployment) {}},
		{name: "no selector", modify: func(d *appsv1.Deployment) { d.Spec.Selector = nil },
			want: "[spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"nginx\"}: `selector` does not match template `labels`]"},
		{name: "selector not matching", modify: func(d *appsv1.Deployment) { d.Spec.Selector.MatchLabels["app"] = "web" },
			want: "spec.template.metadata.labels: Invalid value: {\"app\":\"nginx\"}: `selector` does not match template `labels`"},
		{name: "both bounds zero, as written", modify: func(d *appsv1.Deployment) {
			zero, zeroPercent := intstr.FromInt32(0), intstr.FromString("00%")
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &zero, MaxUnavailable: &zeroPercent}
		}, want: "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"00%\": may not be 0 when `maxSurge` is 0"},
		{name: "unknown strategy", modify: func(d *appsv1.Deployment) { d.Spec.Strategy.Type = "BlueGreen"; d.Spec.Strategy.RollingUpdate = nil },
			want: `spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`},
		{name: "Recreate with an empty rollingUpdate", modify: func(d *appsv1.Deployment) {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}}
		}, want: "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{name: "maxUnavailable over 100%", modify: func(d *appsv1.Deployment) {
			v := intstr.FromString("120%")
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = &v
		}, want: `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%`},
		{name: "negative replicas", modify: func(d *appsv1.Deployment) { d.Spec.Replicas = ptr(int32(-1)) },
			want: "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := nginxDeployment()
			tt.modify(d)
			err := kubeapps.Validate(d)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestStatusRoundTrip(t *testing.T) {
	d := nginxDeployment()
	d.Status.CollisionCount = ptr(int32(2))
	s := kubeapps.Status(&d.Status)
	back := kubeapps.StatusObject(&s)
	if !equality.Semantic.DeepEqual(back, d.Status) {
		t.Errorf("StatusObject(Status(s)) = %#v, want %#v", back, d.Status)
	}
	*back.CollisionCount = 7
	if *d.Status.CollisionCount != 2 {
		t.Errorf("StatusObject shares a pointer with its input")
	}
}
