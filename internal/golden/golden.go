// Package golden compares the output of the example programs with files
// under their testdata directories. Run the tests with -update to rewrite
// the files after a deliberate change, then review the diff.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata with the current output")

// Check compares got with the file testdata/name, or writes got to it
// when the test runs with -update. A mismatch is reported with the first
// differing line.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	CheckFile(t, filepath.Join("testdata", name), got)
}

// CheckFile is Check for a file anywhere, such as a generated file that
// the repository publishes (../../docs/rollout.svg).
func CheckFile(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file: %v (run go test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test with -update to accept it):\n%s", path, firstDiff(string(got), string(want)))
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return "line " + strconv.Itoa(i+1) + ":\n  got:  " + strings.TrimSpace(gl) + "\n  want: " + strings.TrimSpace(wl)
		}
	}
	return "(no line differs; the files differ in their final newline)"
}
