package conformance

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"testing"

	kruiseapis "github.com/openkruise/kruise/apis"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
)

// defaultChecks is how many generated inputs each property runs when
// -rapid.checks is not given: thousands per kruise function.
const defaultChecks = "10000"

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", defaultChecks); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
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
		printTallies()
	}
	os.Exit(code)
}

// tally counts the generated cases of one kruise function by class:
// "agree" (the same answer), or a named documented difference.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
}

var (
	talliesMu sync.Mutex
	tallies   = map[string]*tally{}
)

// count records one case of function fn in class.
func count(fn, class string) {
	talliesMu.Lock()
	tl, ok := tallies[fn]
	if !ok {
		tl = &tally{counts: map[string]int{}}
		tallies[fn] = tl
	}
	talliesMu.Unlock()
	tl.mu.Lock()
	tl.counts[class]++
	tl.mu.Unlock()
}

// printTallies prints, per kruise function, how many generated cases
// agreed and how many fell in each documented difference, as a markdown
// table.
func printTallies() {
	var names []string
	for fn := range tallies {
		names = append(names, fn)
	}
	sort.Strings(names)
	fmt.Println("| kruise function | cases | identical | documented difference (cases) |")
	fmt.Println("|---|---:|---:|---|")
	for _, fn := range names {
		tl := tallies[fn]
		total := 0
		var classes []string
		for class, n := range tl.counts {
			total += n
			if class != "agree" {
				classes = append(classes, fmt.Sprintf("%s (%d)", class, n))
			}
		}
		sort.Strings(classes)
		diff := "none"
		if len(classes) > 0 {
			diff = fmt.Sprint(classes)
		}
		fmt.Printf("| %s | %d | %d | %s |\n", fn, total, tl.counts["agree"], diff)
	}
}
