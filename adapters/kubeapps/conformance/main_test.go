package conformance

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"k8s.io/klog/v2"

	"github.com/rolloutmath/rolloutmath/internal/tally"
)

// defaultChecks is how many generated inputs each property runs when
// -rapid.checks is not given: thousands per upstream function.
const defaultChecks = "10000"

func TestMain(m *testing.M) {
	flag.Parse()
	if err := tally.SetDefaultChecks(defaultChecks); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Upstream logs through klog (for example on unparsable revisions);
	// keep the test output readable.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	code := m.Run()
	if testing.Verbose() {
		tally.Print(os.Stdout, "upstream function")
	}
	os.Exit(code)
}

// count records one case of function fn in class ("agree", or a named
// documented difference) for the table -v prints.
func count(fn, class string) { tally.Count(fn, class) }
