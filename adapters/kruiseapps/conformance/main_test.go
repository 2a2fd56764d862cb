package conformance

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	kruiseapis "github.com/openkruise/kruise/apis"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"

	"github.com/rolloutmath/rolloutmath/internal/tally"
)

// defaultChecks is how many generated inputs each property runs when
// -rapid.checks is not given: thousands per kruise function.
const defaultChecks = "10000"

func TestMain(m *testing.M) {
	flag.Parse()
	if err := tally.SetDefaultChecks(defaultChecks); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Kruise logs through klog (every diff computation, at V(1));
	// keep the test output readable.
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	// kruise-manager registers its API types in client-go's scheme at
	// start-up; the revision control encodes CloneSets with it.
	if err := kruiseapis.AddToScheme(clientgoscheme.Scheme); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	if testing.Verbose() {
		tally.Print(os.Stdout, "kruise function")
	}
	os.Exit(code)
}

// count records one case of function fn in class ("agree", or a named
// documented difference) for the table -v prints.
func count(fn, class string) { tally.Count(fn, class) }
