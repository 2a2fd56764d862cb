package kubeapps

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// TestD32DaemonSetHash checks daemonset.Hash on a corev1.PodTemplateSpec
// against the hashes kube-controller-manager v1.36 gave this template (as
// the revision name suffix and the pods' controller-revision-hash label)
// with collisionCount nil, 0 and 1.
func TestD32DaemonSetHash(t *testing.T) {
	tmpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.25"}}},
	}
	zero, one := int32(0), int32(1)
	for _, tt := range []struct {
		name  string
		count *int32
		want  string
	}{{"nil", nil, "5648ff75b6"}, {"0", &zero, "5856b7d5d"}, {"1", &one, "5c4cf6b695"}} {
		if got := daemonset.Hash(&tmpl, tt.count); got != tt.want {
			t.Errorf("daemonset.Hash(template, collisionCount %s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
