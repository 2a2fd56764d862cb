package adapt_test

import (
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/consumer"
)

// TestConsumerModuleTidiesWithoutReplaces builds a throwaway module that
// imports adapt the way a controller would, and checks that `go mod tidy`,
// `go build` and `go list -m all` succeed with no replace line but the two
// pointing at this repository's own, unpublished, modules: none of the
// Kubernetes staging replaces that k8s.io/kubernetes needs. It fails if
// this module's go.mod requires k8s.io/kubernetes's staging modules at
// v0.0.0 again (as it must while any of its files, tests included,
// imports k8s.io/kubernetes): listing the consumer's module graph then
// has to resolve versions that do not exist.
func TestConsumerModuleTidiesWithoutReplaces(t *testing.T) {
	here, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	consumer.Check(t, consumer.Module{
		NestedPath: "github.com/rolloutmath/rolloutmath/examples/kubernetes",
		NestedDir:  here,
		RootDir:    filepath.Join(here, "..", ".."),
		Banned:     []string{"k8s.io/kubernetes"},
		Main: `package main

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutmath/rolloutmath/examples/kubernetes/adapt"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func main() {
	var d appsv1.Deployment
	deployment, err := adapt.Deployment(&d)
	if err != nil {
		panic(err)
	}
	plan, err := rollout.Plan(&deployment, adapt.ReplicaSets(adapt.Owned(&d, nil)), time.Now())
	fmt.Println(plan.Reason, err)
}
`,
	})
}
