// Package tally counts the generated cases of the conformance modules'
// differential properties, by upstream function and by class ("agree", or
// a named documented difference), and prints them as the markdown table
// the modules' READMEs show. It also gives rapid's -rapid.checks the
// modules' default. Safe for concurrent use.
package tally

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"sync"
)

// Agree is the class of a case whose two sides gave the same answer.
const Agree = "agree"

var (
	mu     sync.Mutex
	counts = map[string]map[string]int{}
)

// Count records one case of function fn in class.
func Count(fn, class string) {
	mu.Lock()
	defer mu.Unlock()
	c, ok := counts[fn]
	if !ok {
		c = map[string]int{}
		counts[fn] = c
	}
	c[class]++
}

// SetDefaultChecks sets -rapid.checks to n unless the command line set
// it. Call it from TestMain after flag.Parse.
func SetDefaultChecks(n string) error {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if set {
		return nil
	}
	return flag.Set("rapid.checks", n)
}

// Print writes, per function, how many cases there were, how many agreed
// and how many fell in each documented difference, as a markdown table
// whose first column is headed side ("upstream function", "kruise
// function").
func Print(w io.Writer, side string) {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(counts))
	for fn := range counts {
		names = append(names, fn)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "| %s | cases | identical | documented difference (cases) |\n", side)
	fmt.Fprintln(w, "|---|---:|---:|---|")
	for _, fn := range names {
		total := 0
		var classes []string
		for class, n := range counts[fn] {
			total += n
			if class != Agree {
				classes = append(classes, fmt.Sprintf("%s (%d)", class, n))
			}
		}
		sort.Strings(classes)
		diff := "none"
		if len(classes) > 0 {
			diff = fmt.Sprint(classes)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s |\n", fn, total, counts[fn][Agree], diff)
	}
}
