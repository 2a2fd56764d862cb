package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// CheckReadme checks that the README.md at readme holds, in the section
// headed "## "+section, the program in the test's working directory
// (its main.go, byte for byte, as the section's first go block) and the
// output `go run .` prints (as the section's first text block), so that
// a snippet a user pastes compiles and prints what the README says. The
// program runs as `go run` runs it, not inside the test binary: there,
// package main's types are named by their import path, which changes the
// pod-template-hash of a template of such a type (see revision.Hash).
func CheckReadme(t *testing.T, readme, section string) {
	t.Helper()
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	body := string(text)
	start := strings.Index(body, "\n## "+section+"\n")
	if start < 0 {
		t.Fatalf("README.md has no %s section", section)
	}
	body = body[start+1:]
	if end := strings.Index(body, "\n## "); end >= 0 {
		body = body[:end]
	}
	code, ok := fenced(body, "go")
	if !ok {
		t.Fatalf("README.md's %s section has no go block", section)
	}
	source, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Base(dir)
	if code != string(source) {
		t.Errorf("README.md's %s go block differs from %s/main.go:\n--- README\n%s--- main.go\n%s", section, program, code, source)
	}
	want, ok := fenced(body, "text")
	if !ok {
		t.Fatalf("README.md's %s section has no text block with the output", section)
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", ".").Output()
	if err != nil {
		t.Fatalf("go run ./%s: %v", program, err)
	}
	if got := string(out); got != want {
		t.Errorf("%s prints:\n%s\nREADME.md says it prints:\n%s", program, got, want)
	}
}

// fenced returns the contents of the first ```lang block in s.
func fenced(s, lang string) (string, bool) {
	open := "```" + lang + "\n"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	s = s[i+len(open):]
	j := strings.Index(s, "```\n")
	if j < 0 {
		return "", false
	}
	return s[:j], true
}
