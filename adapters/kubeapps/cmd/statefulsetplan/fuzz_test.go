package main

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun feeds arbitrary manifests to the program on standard input and
// checks that it never panics, exits 0 or 1 (never a flag error: the
// flags are fixed), writes stdout only when it succeeds and stderr
// whenever it fails, both for the whole rollout and for -once.
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
		f.Add(string(b), false)
		f.Add(string(b), true)
	}
	f.Add("", false)
	f.Add("---\n---\n", true)
	f.Add(`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"x"},"spec":{"replicas":-1}}`, false)
	f.Add(`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"x"},"spec":{"replicas":2,"ordinals":{"start":2147483647},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`, false)
	f.Fuzz(func(t *testing.T, manifest string, once bool) {
		args := []string{"-f", "-", "--set-image", "*=img:2", "-max-syncs", "50", "-max-pods", "50"}
		if once {
			args = append(args, "-once")
		}
		code, stdout, stderr := runArgs(t, manifest, args...)
		switch {
		case code != 0 && code != 1:
			t.Fatalf("run on %q = %d, want 0 or 1", manifest, code)
		case code == 0 && stdout == "":
			t.Fatalf("run on %q succeeded with no output (stderr %q)", manifest, stderr)
		case code == 1 && (stderr == "" || stdout != ""):
			t.Fatalf("run on %q failed with stdout %q and stderr %q; want only stderr", manifest, stdout, stderr)
		}
	})
}
