// Package consumer checks, from a nested module's tests, that a user's
// module can depend on that nested module with plain `go mod tidy`: no
// replace lines but the ones pointing at this repository's own,
// unpublished, modules.
package consumer

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Module describes the throwaway consumer module.
type Module struct {
	// Nested is the module under test, as its path and its directory.
	NestedPath, NestedDir string
	// RootDir is the directory of the root module,
	// github.com/rolloutmath/rolloutmath.
	RootDir string
	// Main is the consumer's main.go: a program that uses the nested
	// module the way a controller would.
	Main string
	// Banned are module paths the consumer's go.mod must not name after
	// go mod tidy (followed by a space, so "x/y " does not match "x/y-api").
	Banned []string
}

// Check writes the consumer module to a temporary directory, runs
// `go mod tidy`, `go build` and `go list -m all` there, and fails t if any
// of them fails, if the consumer's go.mod then names a banned module, or
// if it has replace lines other than the two this package writes (the
// root module and the nested one). `go list -m all` is what catches a
// nested go.mod that requires Kubernetes staging modules at v0.0.0:
// tidy and build can pass without resolving them. Check skips in -short
// mode.
func Check(t *testing.T, m Module) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go mod tidy and go build")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
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
	`+m.NestedPath+` v0.0.0
)

replace (
	github.com/rolloutmath/rolloutmath => `+m.RootDir+`
	`+m.NestedPath+` => `+m.NestedDir+`
)
`)
	write("main.go", m.Main)
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		// The consumer is a module of its own: no workspace, and the
		// module graph may be updated.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "tidy")
	run("build", "-o", os.DevNull, ".")
	run("list", "-m", "all")
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, banned := range m.Banned {
		if strings.Contains(string(mod), banned+" ") {
			t.Errorf("the consumer's go.mod requires %s after go mod tidy:\n%s", banned, mod)
		}
	}
	if n := strings.Count(string(mod), "=>"); n != 2 {
		t.Errorf("the consumer's go.mod has %d replacements after go mod tidy, want only the 2 for this repository:\n%s", n, mod)
	}
}
