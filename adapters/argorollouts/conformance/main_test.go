package conformance

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	log "github.com/sirupsen/logrus"
	"k8s.io/klog/v2"

	"github.com/rolloutmath/rolloutmath/internal/tally"
)

// defaultChecks is how many generated inputs each property runs when
// -rapid.checks is not given: 10,000, as the issue asks of every
// differential property (about 40 s once built).
const defaultChecks = "10000"

func TestMain(m *testing.M) {
	flag.Parse()
	if err := tally.SetDefaultChecks(defaultChecks); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Argo logs through logrus (a warning for every unparsable
	// annotation) and client-go through klog: keep the output readable.
	log.SetOutput(io.Discard)
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	code := m.Run()
	if testing.Verbose() {
		tally.Print(os.Stdout, "Argo function")
	}
	os.Exit(code)
}

// count records one case of function fn in class (tally.Agree, or a named
// documented difference) for the table -v prints.
func count(fn, class string) { tally.Count(fn, class) }
