package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
)

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }

// loadFile reads testdata/name and loads it as run does.
func loadFile(t *testing.T, cfg *config, name string) *input {
	t.Helper()
	objs := &kruiserollouts.Objects{}
	if err := readFile(objs, filepath.Join("testdata", name), nil); err != nil {
		t.Fatal(err)
	}
	in, err := load(cfg, objs)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestReadmeExcerpt checks that the -once run the module's README.md
// shows prints what the command prints (its golden file).
func TestReadmeExcerpt(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ go run ./cmd/batchreleaseplan -f cmd/batchreleaseplan/testdata/cloneset-release.yaml -once\n"
	_, block, ok := strings.Cut(string(b), cmd)
	if !ok {
		t.Fatalf("README.md does not show %q", cmd)
	}
	block, _, _ = strings.Cut(block, "```\n")
	want, err := readTestdata("cloneset-once.golden")
	if err != nil {
		t.Fatal(err)
	}
	if block != string(want) {
		t.Errorf("README.md shows\n%s\nthe command prints\n%s", block, want)
	}
}
