package adapt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
	if testing.Short() {
		t.Skip("runs go mod tidy and go build")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	here, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(here, "..", "..")
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", `module example.com/consumer

go 1.26.0

require (
	github.com/rolloutmath/rolloutmath v0.0.0
	github.com/rolloutmath/rolloutmath/examples/openkruise v0.0.0
)

replace (
	github.com/rolloutmath/rolloutmath => `+root+`
	github.com/rolloutmath/rolloutmath/examples/openkruise => `+here+`
)
`)
	write("main.go", `package main

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
`)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		// The consumer is a module of its own: no workspace, and the
		// module graph may be updated.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "tidy")
	run("build", "-o", os.DevNull, ".")
	run("list", "-m", "all")
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, banned := range []string{"k8s.io/kubernetes", "github.com/openkruise/kruise "} {
		if strings.Contains(string(mod), banned) {
			t.Errorf("the consumer's go.mod requires %s after go mod tidy:\n%s", strings.TrimSpace(banned), mod)
		}
	}
	if n := strings.Count(string(mod), "=>"); n != 2 {
		t.Errorf("the consumer's go.mod has %d replacements after go mod tidy, want only the 2 for this repository:\n%s", n, mod)
	}
}
