package conformance

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
)

func TestPlaceholder(t *testing.T) {
	_ = controller.ComputeHash
	_ = deploymentutil.ResolveFenceposts
	_ = intstr.FromInt32
	_ = rapid.Int
	_ = rollout.Fenceposts
}
