package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun feeds arbitrary manifests to the command on standard input,
// seeded with every testdata manifest: it must never panic, and it exits
// 0 with output or 1 with one error line, never 2 (the flags are fixed).
func FuzzRun(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, manifest []byte, once bool) {
		args := []string{"-f", "-", "-max-syncs", "200"}
		if once {
			args = append(args, "-once")
		}
		var stdout, stderr bytes.Buffer
		code := run(args, bytes.NewReader(manifest), &stdout, &stderr)
		switch code {
		case 0:
			if stdout.Len() == 0 || stderr.Len() != 0 {
				t.Errorf("exit 0 with stdout %q and stderr %q, want output and no error", stdout.String(), stderr.String())
			}
		case 1:
			if stdout.Len() != 0 || bytes.Count(stderr.Bytes(), []byte("\n")) != 1 {
				t.Errorf("exit 1 with stdout %q and stderr %q, want one error line only", stdout.String(), stderr.String())
			}
		default:
			t.Errorf("exit %d, want 0 or 1", code)
		}
	})
}
