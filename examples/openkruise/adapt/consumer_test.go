package adapt_test

import (
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/consumer"
)

// TestConsumerModuleTidiesWithoutReplaces builds a throwaway module that
// imports adapt the way a controller would (a kruise-api CloneSet,
// converted, planned and turned into writes), and checks that `go mod
// tidy`, `go build` and `go list -m all` succeed with no replace line but
// the two pointing at this repository's own, unpublished, modules. It
// fails if this module comes to require github.com/openkruise/kruise or
// k8s.io/kubernetes (as it would if any of its files, tests included,
// imported them): kruise's module requires Kubernetes staging modules at
// v0.0.0, which only replace lines resolve, and the check that the
// consumer's go.mod names neither module catches a smaller leak.
func TestConsumerModuleTidiesWithoutReplaces(t *testing.T) {
	here, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	consumer.Check(t, consumer.Module{
		NestedPath: "github.com/rolloutmath/rolloutmath/examples/openkruise",
		NestedDir:  here,
		RootDir:    filepath.Join(here, "..", ".."),
		Banned:     []string{"k8s.io/kubernetes", "github.com/openkruise/kruise"},
		Main: `package main

import (
	"fmt"
	"time"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"

	"github.com/rolloutmath/rolloutmath/examples/openkruise/adapt"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func main() {
	var obj kruise.CloneSet
	cs, err := adapt.CloneSet(&obj)
	if err != nil {
		panic(err)
	}
	plan, err := cloneset.Plan(&cs, nil, nil, time.Now())
	if err != nil {
		panic(err)
	}
	changes, err := adapt.Changes(&obj, nil, nil, &plan, time.Now())
	fmt.Println(plan.Reason, len(changes), err)
}
`,
	})
}
