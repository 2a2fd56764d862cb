package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// verdict is what a mutant's test run said.
type verdict string

const (
	killed      verdict = "killed"
	survived    verdict = "survived"
	timedOut    verdict = "timed out"
	notCompiled verdict = "not compiled"
	equivalent  verdict = "equivalent" // survived, and listed in -equiv
)

// config holds the flags.
type config struct {
	n       int
	skip    int
	seed    uint64
	timeout time.Duration
	confirm bool
	list    bool
	match   string
	run     string
	equiv   string
}

func main() {
	var c config
	flag.IntVar(&c.n, "n", 60, "mutants to run per package (0: all)")
	flag.IntVar(&c.skip, "skip", 0, "skip the first N mutants of the shuffled list (to split a sample between runs)")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the shuffle that picks the mutants")
	flag.DurationVar(&c.timeout, "timeout", 3*time.Minute, "test timeout per mutant")
	flag.BoolVar(&c.confirm, "confirm", true, "run a mutant the -short tests miss again without -short")
	flag.BoolVar(&c.list, "list", false, "print the mutants and exit")
	flag.StringVar(&c.match, "match", "", "only the mutants whose id contains this string")
	flag.StringVar(&c.run, "run", "", "passed to go test as -run")
	flag.StringVar(&c.equiv, "equiv", "", "file of mutant ids judged equivalent, one a line (# comments)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./internal/mutate [flags] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./rollout/cloneset", "./rollout"}
	}
	if err := mutate(context.Background(), os.Stdout, c, pkgs); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

// tally counts one package's verdicts.
type tally struct {
	run, killed, killedFull, survived, timedOut, notCompiled, equivalent int
	survivors                                                            []string
}

// mutate runs the sampled mutants of each package and writes the report.
func mutate(ctx context.Context, w io.Writer, c config, pkgs []string) error {
	equiv, err := readEquiv(c.equiv)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, pkg := range pkgs {
		ms, err := enumerateDir(pkg)
		if err != nil {
			return err
		}
		r := rand.New(rand.NewPCG(c.seed, 0))
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		if c.match != "" {
			kept := ms[:0]
			for _, m := range ms {
				if strings.Contains(m.id(), c.match) {
					kept = append(kept, m)
				}
			}
			ms = kept
		}
		ms = ms[min(max(c.skip, 0), len(ms)):]
		if c.list {
			for _, m := range ms {
				fmt.Fprintln(w, m.id())
			}
			continue
		}
		want := c.n
		if want <= 0 || want > len(ms) {
			want = len(ms)
		}
		// A suite that fails on the unchanged code would "kill" every
		// mutant: check it first (with -short, the cheaper half).
		if v, detail := goTest(ctx, pkg, "", c, true); v != survived {
			return fmt.Errorf("%s: the tests fail without a mutant (%s %s): fix them before measuring", pkg, v, detail)
		}
		if c.skip > 0 {
			fmt.Fprintf(w, "== %s: %d mutants after the %d skipped (seed %d), running %d\n", pkg, len(ms), c.skip, c.seed, want)
		} else {
			fmt.Fprintf(w, "== %s: %d mutants (seed %d), running %d\n", pkg, len(ms), c.seed, want)
		}
		var t tally
		for _, m := range ms {
			if t.run == want {
				break
			}
			start := time.Now()
			v, detail, err := runMutant(ctx, tmp, pkg, m, c)
			if err != nil {
				return err
			}
			if v == notCompiled {
				t.notCompiled++
				fmt.Fprintf(w, "       %-12s %s\n", v, m.id())
				continue
			}
			t.run++
			switch v {
			case killed:
				t.killed++
				if strings.HasSuffix(detail, "(full)") {
					t.killedFull++
				}
			case timedOut:
				t.timedOut++
			case survived:
				if why, ok := equiv[m.id()]; ok {
					v, detail = equivalent, why
					t.equivalent++
				} else {
					t.survived++
					t.survivors = append(t.survivors, m.id())
				}
			}
			fmt.Fprintf(w, "%3d/%d %-12s %s  %s %.0fs\n", t.run, want, v, m.id(), detail, time.Since(start).Seconds())
		}
		if c.list {
			continue
		}
		fmt.Fprintf(w, "-- %s: run %d, killed %d (%d only by the full tests), timed out %d, survived %d, equivalent %d, not compiled %d\n",
			pkg, t.run, t.killed, t.killedFull, t.timedOut, t.survived, t.equivalent, t.notCompiled)
		dead := t.killed + t.timedOut
		if n := t.run; n > 0 {
			fmt.Fprintf(w, "   kill rate %d/%d = %.1f%%", dead, n, 100*float64(dead)/float64(n))
			if ne := n - t.equivalent; ne > 0 && t.equivalent > 0 {
				fmt.Fprintf(w, "; over non-equivalent mutants %d/%d = %.1f%%", dead, ne, 100*float64(dead)/float64(ne))
			}
			fmt.Fprintln(w)
		}
		for _, s := range t.survivors {
			fmt.Fprintf(w, "   survivor %s\n", s)
		}
	}
	return nil
}

// failRE finds the first failing test in go test's output.
var failRE = regexp.MustCompile(`--- FAIL: (\S+)`)

// runMutant applies m through an overlay and runs pkg's tests, first with
// -short and then, if they pass and c.confirm is set, without.
func runMutant(ctx context.Context, tmp, pkg string, m mutant, c config) (verdict, string, error) {
	src, err := os.ReadFile(m.path)
	if err != nil {
		return "", "", err
	}
	abs, err := filepath.Abs(m.path)
	if err != nil {
		return "", "", err
	}
	mutated := filepath.Join(tmp, "mutant.go")
	if err := os.WriteFile(mutated, m.apply(src), 0o644); err != nil {
		return "", "", err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {abs: mutated}})
	if err != nil {
		return "", "", err
	}
	overlayPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o644); err != nil {
		return "", "", err
	}
	v, detail := goTest(ctx, pkg, overlayPath, c, true)
	if v == survived && c.confirm {
		v, detail = goTest(ctx, pkg, overlayPath, c, false)
		if v == killed {
			detail += " (full)"
		}
	}
	return v, detail, nil
}

// goTest runs pkg's tests with the overlay ("" for none) and classifies
// the result.
func goTest(ctx context.Context, pkg, overlay string, c config, short bool) (verdict, string) {
	args := []string{"test", "-count=1", "-failfast", "-vet=off", "-timeout=" + c.timeout.String()}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	if short {
		args = append(args, "-short")
	}
	if c.run != "" {
		args = append(args, "-run="+c.run)
	}
	args = append(args, pkg)
	// The go command's own deadline is the backstop for a test binary
	// that does not honour -timeout; a minute covers the build.
	ctx, cancel := context.WithTimeout(ctx, c.timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	// rapid saves each failing case under the package's testdata/rapid
	// and replays every saved case in later runs: a mutant's failure
	// would be written into the work tree and fail the unchanged code's
	// tests, and every later mutant's, from then on.
	cmd.Env = append(os.Environ(), "RAPID_NOFAILFILE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	switch {
	case err == nil:
		return survived, ""
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return timedOut, ""
	}
	s := out.String()
	switch {
	case strings.Contains(s, "[build failed]") || strings.Contains(s, "[setup failed]"):
		return notCompiled, ""
	case strings.Contains(s, "panic: test timed out"):
		return timedOut, ""
	}
	if f := failRE.FindStringSubmatch(s); f != nil {
		return killed, f[1]
	}
	return killed, "(" + firstLine(s) + ")"
}

// firstLine returns the first line of s that is not blank.
func firstLine(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			return short(l)
		}
	}
	return ""
}

// readEquiv reads a file of mutant ids judged equivalent: one id a line,
// with an optional "# reason"; blank lines and lines starting with # are
// skipped. It returns the reasons by id.
func readEquiv(path string) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		id, why, _ := strings.Cut(l, " # ")
		out[strings.TrimSpace(id)] = "# " + strings.TrimSpace(why)
	}
	return out, nil
}
