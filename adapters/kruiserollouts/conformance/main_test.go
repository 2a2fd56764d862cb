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
// -rapid.checks is not given: 10,000 per upstream function, as in the
// other conformance modules. `go test -short` runs 100 instead, for a
// quick look while editing.
const defaultChecks = "10000"

// shortChecks is the default under -short.
const shortChecks = "100"

func TestMain(m *testing.M) {
	flag.Parse()
	n := defaultChecks
	if testing.Short() {
		n = shortChecks
	}
	if err := tally.SetDefaultChecks(n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// kruise-rollout logs through klog (every batch computation, at
	// V(3) and above, and warnings for clamped batches): keep the test
	// output readable.
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	code := m.Run()
	if testing.Verbose() {
		tally.Print(os.Stdout, "upstream function")
	}
	os.Exit(code)
}

// count records one case of function fn in class (tally.Agree, or a
// named documented difference) for the table -v prints.
func count(fn, class string) { tally.Count(fn, class) }
