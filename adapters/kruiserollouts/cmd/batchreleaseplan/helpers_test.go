package main

import (
	"os"
	"path/filepath"
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
