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
// imports adapt the way a controller would, and checks that `go mod tidy`,
// `go build` and `go list -m all` succeed with no replace line but the two
// pointing at this repository's own, unpublished, modules: none of the
// Kubernetes staging replaces that k8s.io/kubernetes needs. It fails if
// this module's go.mod requires k8s.io/kubernetes's staging modules at
// v0.0.0 again (as it must while any of its files, tests included,
// imports k8s.io/kubernetes): listing the consumer's module graph then
// has to resolve versions that do not exist.
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
	github.com/rolloutmath/rolloutmath/examples/kubernetes v0.0.0
)

replace (
	github.com/rolloutmath/rolloutmath => `+root+`
	github.com/rolloutmath/rolloutmath/examples/kubernetes => `+here+`
)
`)
	write("main.go", `package main

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
	if strings.Contains(string(mod), "k8s.io/kubernetes") {
		t.Errorf("the consumer's go.mod requires k8s.io/kubernetes after go mod tidy:\n%s", mod)
	}
	if n := strings.Count(string(mod), "=>"); n != 2 {
		t.Errorf("the consumer's go.mod has %d replacements after go mod tidy, want only the 2 for this repository:\n%s", n, mod)
	}
}
