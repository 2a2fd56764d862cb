package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadmeCloneSet checks that the README's OpenKruise CloneSet section
// holds this program byte for byte and the output it prints, so the
// snippet a user pastes compiles and prints what the README says.
func TestReadmeCloneSet(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start := strings.Index(section, "\n## OpenKruise CloneSet\n")
	if start < 0 {
		t.Fatal("README.md has no OpenKruise CloneSet section")
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	code, ok := fenced(section, "go")
	if !ok {
		t.Fatal("README.md's OpenKruise CloneSet section has no go block")
	}
	source, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if code != string(source) {
		t.Errorf("README.md's CloneSet go block differs from examples/clonesetusage/main.go:\n--- README\n%s--- main.go\n%s", code, source)
	}
	want, ok := fenced(section, "text")
	if !ok {
		t.Fatal("README.md's OpenKruise CloneSet section has no text block with the output")
	}
	// The program runs as a user runs it, with `go run`.
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", ".")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run ./examples/clonesetusage: %v", err)
	}
	if got := string(out); got != want {
		t.Errorf("examples/clonesetusage prints:\n%s\nREADME.md says it prints:\n%s", got, want)
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
