package main

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun feeds arbitrary manifests to the program on standard input and
// checks that it never panics, exits 0 or 1 (never a flag error: the
// flags are fixed), and prints to stderr exactly when it fails and to
// stdout exactly when it succeeds.
func FuzzRun(f *testing.F) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("")
	f.Add("---\n---\n")
	f.Add(`{"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout","metadata":{"name":"x"},"spec":{"replicas":-1}}`)
	f.Fuzz(func(t *testing.T, manifest string) {
		code, stdout, stderr := runArgs(t, manifest, "-f", "-", "-promote", "1,5", "-max-syncs", "60", "-max-pods", "60")
		switch {
		case code != 0 && code != 1:
			t.Fatalf("run on %q = %d, want 0 or 1", manifest, code)
		case code == 0 && (stderr != "" || stdout == ""):
			t.Fatalf("run on %q succeeded with stdout %q and stderr %q", manifest, stdout, stderr)
		case code == 1 && (stderr == "" || stdout != ""):
			t.Fatalf("run on %q failed with stdout %q and stderr %q; want only stderr", manifest, stdout, stderr)
		}
	})
}
