package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `package p

func f(a, b int) int {
	x := a + 1
	if a < b {
		return x
	}
	x = 0
	return "s" + "t" == "" && a == b
}
`

// TestEnumerateFindsEachKindAtItsPosition checks the mutants of a small
// file: their ids, and the source each produces.
func TestEnumerateFindsEachKindAtItsPosition(t *testing.T) {
	ms, err := enumerate("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.id())
	}
	want := []string{
		"p.go:4:9 arith + -> -",
		"p.go:4:11 const 1 -> 2",
		"p.go:4:11 const 1 -> 0",
		"p.go:5:5 negate `a < b`",
		"p.go:5:7 cmp < -> <=",
		"p.go:6:3 delete `return x`",
		"p.go:8:2 delete `x = 0`",
		"p.go:8:6 const 0 -> 1",
		"p.go:9:19 cmp == -> !=",
		"p.go:9:30 cmp == -> !=",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("enumerate(sample) ids (-want +got):\n%s", diff)
	}
	byID := map[string]mutant{}
	for _, m := range ms {
		byID[m.id()] = m
	}
	for id, wantLine := range map[string]string{
		"p.go:5:5 negate `a < b`": "\tif !(a < b) {",
		"p.go:5:7 cmp < -> <=":    "\tif a <= b {",
		"p.go:8:2 delete `x = 0`": "\t",
		"p.go:4:11 const 1 -> 0":  "\tx := a + 0",
		"p.go:4:9 arith + -> -":   "\tx := a - 1",
		"p.go:9:30 cmp == -> !=":  "\treturn \"s\" + \"t\" == \"\" && a != b",
	} {
		m, ok := byID[id]
		if !ok {
			t.Errorf("no mutant %q", id)
			continue
		}
		out := string(m.apply([]byte(sample)))
		if line := strings.Split(out, "\n")[m.line-1]; line != wantLine {
			t.Errorf("mutant %q gives line %q, want %q", id, line, wantLine)
		}
		if strings.Count(out, "\n") != strings.Count(sample, "\n") {
			t.Errorf("mutant %q changes the line count", id)
		}
	}
}

// TestApplyLeavesItsInputAlone: apply returns a new slice.
func TestApplyLeavesItsInputAlone(t *testing.T) {
	src := []byte(sample)
	ms, err := enumerate("p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		m.apply(src)
	}
	if string(src) != sample {
		t.Errorf("apply modified its input:\n%s", src)
	}
}
