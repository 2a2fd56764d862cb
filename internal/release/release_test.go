package release

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// library is the root module's path: every module of the repository
// lives under it.
const library = "github.com/rolloutmath/rolloutmath"

// testVersion is the version the rehearsal publishes every module at. It
// is a prerelease no real tag will use, and the rehearsal keeps its
// modules in a module cache of its own, so nothing it publishes reaches
// the machine's module cache.
const testVersion = "v0.99.0-rehearsal"

// rehearse turns on TestReleaseRehearsal, which compiles the Kubernetes
// API packages again in a consumer module and takes minutes: plain
// `go test ./...` skips it, and scripts/test.sh runs
// `go test ./internal/release -rehearse`.
var rehearse = flag.Bool("rehearse", false, "run TestReleaseRehearsal, which publishes every module into a local proxy and builds a consumer")

// adapter is a published module beside the library: an adapter from one
// API family's types, with its planning commands.
type adapter struct {
	dir      string   // the module's directory, relative to the repository root
	commands []string // its main packages, relative to dir
	// banned are modules a consumer must never need: the controllers'
	// own modules, which only build with replace lines.
	banned []string
}

// adapters are the modules a release tags besides the library, in the
// order docs/releasing.md tags them.
var adapters = []adapter{
	{dir: "adapters/kubeapps", commands: []string{"cmd/rolloutplan", "cmd/statefulsetplan", "cmd/daemonsetplan"}, banned: []string{"k8s.io/kubernetes"}},
	{dir: "adapters/kruiseapps", commands: []string{"cmd/clonesetplan"}, banned: []string{"k8s.io/kubernetes", "github.com/openkruise/kruise"}},
	{dir: "adapters/kruiserollouts", commands: []string{"cmd/batchreleaseplan"}, banned: []string{"k8s.io/kubernetes", "github.com/openkruise/kruise", "github.com/openkruise/rollouts"}},
	{dir: "adapters/argorollouts", commands: []string{"cmd/argoplan"}, banned: []string{"k8s.io/kubernetes", "github.com/argoproj/argo-rollouts"}},
}

// consumerMain uses every adapter the way a controller would: it converts
// API objects, plans a sync, and turns the plan into writes.
const consumerMain = `package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func main() {
	var d appsv1.Deployment
	deployment, err := kubeapps.Deployment(&d)
	if err != nil {
		panic(err)
	}
	sync, err := rollout.Plan(&deployment, kubeapps.ReplicaSets(kubeapps.Owned(&d, nil)), time.Now())
	fmt.Println(sync.Reason, err)

	var obj kruise.CloneSet
	cs, err := kruiseapps.CloneSet(&obj)
	if err != nil {
		panic(err)
	}
	plan, err := cloneset.Plan(&cs, nil, nil, time.Now())
	if err != nil {
		panic(err)
	}
	changes, err := kruiseapps.Changes(&obj, nil, nil, &plan, time.Now())
	fmt.Println(plan.Reason, len(changes), err)

	objs, err := kruiserollouts.Read(strings.NewReader("apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\n"))
	if err != nil {
		panic(err)
	}
	w, err := kruiserollouts.CloneSet(objs.CloneSets[0])
	fmt.Println(w.Replicas, err)
	aobjs, err := argorollouts.Read(os.Stdin)
	if err != nil {
		panic(err)
	}
	for i := range aobjs.Rollouts {
		ro, err := argorollouts.Rollout(&aobjs.Rollouts[i])
		rss, rerr := argorollouts.ReplicaSets(argorollouts.Owned(&aobjs.Rollouts[i], aobjs.ReplicaSets))
		fmt.Println(ro.Name, len(rss), err, rerr)
	}
}
`

// TestEveryModuleIsPublishedOrTestOnly fails when a go.mod appears that
// the release rehearsal does not know: a new adapter must be added to
// adapters (and to docs/releasing.md), a new test-only module must sit in
// a directory named conformance.
func TestEveryModuleIsPublishedOrTestOnly(t *testing.T) {
	root := repoRoot(t)
	known := map[string]bool{".": true}
	for _, a := range adapters {
		known[a.dir] = true
	}
	for _, dir := range moduleDirs(t, root) {
		switch {
		case known[dir]:
			delete(known, dir)
		case path.Base(dir) == "conformance":
		default:
			t.Errorf("module %s is neither a published module of the release rehearsal nor a test-only conformance module", dir)
		}
	}
	for dir := range known {
		t.Errorf("published module %s has no go.mod", dir)
	}
}

// TestAdapterGoDirectiveIsTheLowestItsDependenciesAllow checks that each
// adapter asks for no newer Go than its requirements force on it: its go
// directive equals the highest go directive among the modules it
// requires, the library included.
func TestAdapterGoDirectiveIsTheLowestItsDependenciesAllow(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the adapters' module graphs")
	}
	root := repoRoot(t)
	for _, a := range adapters {
		dir := filepath.Join(root, a.dir)
		own := goDirective(t, filepath.Join(dir, "go.mod"))
		out := goCmd(t, dir, os.Environ(), "list", "-m", "-f", "{{.Path}} {{.GoVersion}}", "all")
		highest, by := "", ""
		for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if i == 0 {
				continue // the adapter itself
			}
			p, v, _ := strings.Cut(line, " ")
			if v != "" && compareGo(v, highest) > 0 {
				highest, by = v, p
			}
		}
		if compareGo(own, highest) != 0 {
			t.Errorf("%s/go.mod says go %s; the highest its requirements allow is go %s (%s)", a.dir, own, highest, by)
		}
	}
}

// TestReleaseRehearsal publishes every module of the repository at
// testVersion into a file-based module proxy, editing each adapter's
// go.mod as the release commit does (require the library's new version,
// drop the replace that points at this repository), and checks that a
// consumer module with no replace lines can `go get` every adapter, `go
// mod tidy`, `go build` and `go list -m all`, and that `go install
// path@version` of every planning command works.
func TestReleaseRehearsal(t *testing.T) {
	if !*rehearse {
		t.Skip("publishes the modules into a local proxy and builds a consumer: run with -rehearse (scripts/test.sh does)")
	}
	root := repoRoot(t)
	proxy := t.TempDir()
	env := rehearsalEnv(t, proxy)

	publish(t, proxy, library, root)
	for _, a := range adapters {
		copyDir := filepath.Join(t.TempDir(), "module")
		copyModule(t, filepath.Join(root, a.dir), copyDir)
		// The release commit's edit, as docs/releasing.md gives it.
		goCmd(t, copyDir, env, "mod", "edit", "-dropreplace="+library, "-require="+library+"@"+testVersion)
		goCmd(t, copyDir, env, "mod", "tidy")
		if mod := readFile(t, filepath.Join(copyDir, "go.mod")); strings.Contains(mod, "=> ../") {
			t.Fatalf("%s/go.mod still replaces a module with a directory of this repository after the release edit:\n%s", a.dir, mod)
		}
		publish(t, proxy, library+"/"+a.dir, copyDir)
	}

	consumer := t.TempDir()
	writeFile(t, filepath.Join(consumer, "go.mod"), "module example.com/consumer\n\ngo 1.26.0\n")
	writeFile(t, filepath.Join(consumer, "main.go"), consumerMain)
	for _, a := range adapters {
		goCmd(t, consumer, env, "get", library+"/"+a.dir+"@"+testVersion)
	}
	goCmd(t, consumer, env, "mod", "tidy")
	goCmd(t, consumer, env, "build", "-o", os.DevNull, ".")
	graph := goCmd(t, consumer, env, "list", "-m", "all")

	mod := readFile(t, filepath.Join(consumer, "go.mod"))
	if strings.Contains(mod, "replace") {
		t.Errorf("the consumer's go.mod has a replace line:\n%s", mod)
	}
	for _, want := range append([]string{library}, adapterPaths()...) {
		if !strings.Contains("\n"+graph+"\n", "\n"+want+" "+testVersion+"\n") {
			t.Errorf("go list -m all does not list %s %s:\n%s", want, testVersion, graph)
		}
	}
	for _, a := range adapters {
		for _, banned := range a.banned {
			if strings.Contains("\n"+graph, "\n"+banned+" ") {
				t.Errorf("the consumer's module graph holds %s, which only builds with replace lines:\n%s", banned, graph)
			}
		}
	}

	bin := t.TempDir()
	installEnv := append(env[:len(env):len(env)], "GOBIN="+bin)
	for _, a := range adapters {
		for _, c := range a.commands {
			goCmd(t, t.TempDir(), installEnv, "install", library+"/"+a.dir+"/"+c+"@"+testVersion)
			if _, err := os.Stat(filepath.Join(bin, path.Base(c))); err != nil {
				t.Errorf("go install of %s/%s: %v", a.dir, c, err)
			}
		}
	}
}

func adapterPaths() []string {
	var ps []string
	for _, a := range adapters {
		ps = append(ps, library+"/"+a.dir)
	}
	return ps
}

// rehearsalEnv is the go command's environment for the rehearsal: the
// local proxy first, then the machine's module cache read as a proxy and
// the machine's usual proxy; the checksum database is not asked about
// this repository's modules (GONOSUMDB, not GOPRIVATE, which would bypass
// the proxy); a module cache of its own, so that the test versions never
// enter the machine's; and -trimpath, so that builds from that cache reuse
// the build cache whatever its directory.
func rehearsalEnv(t *testing.T, proxy string) []string {
	t.Helper()
	cacheDir := strings.TrimSpace(goCmd(t, ".", os.Environ(), "env", "GOMODCACHE"))
	usual := strings.TrimSpace(goCmd(t, ".", os.Environ(), "env", "GOPROXY"))
	proxies := []string{fileURL(proxy), fileURL(filepath.Join(cacheDir, "cache", "download"))}
	if usual != "" && usual != "off" {
		proxies = append(proxies, usual)
	}
	flags := strings.TrimSpace(goCmd(t, ".", os.Environ(), "env", "GOFLAGS"))
	return append(os.Environ(),
		"GOPROXY="+strings.Join(proxies, ","),
		"GONOSUMDB="+library,
		"GOPRIVATE=",
		"GONOPROXY=",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
		"GOFLAGS="+strings.TrimSpace(flags+" -modcacherw -mod=mod -trimpath"),
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"),
	)
}

func fileURL(dir string) string { return "file://" + filepath.ToSlash(dir) }

// publish writes the module in dir, whose path is modPath, into the file
// proxy at testVersion: its .info, .mod and .zip files and its version
// list, laid out as the GOPROXY protocol serves them.
func publish(t *testing.T, proxy, modPath, dir string) {
	t.Helper()
	at := filepath.Join(proxy, filepath.FromSlash(modPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	info, err := json.Marshal(struct{ Version, Time string }{testVersion, "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, testVersion+".info"), string(info))
	writeFile(t, filepath.Join(at, testVersion+".mod"), readFile(t, filepath.Join(dir, "go.mod")))
	writeFile(t, filepath.Join(at, "list"), testVersion+"\n")

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	prefix := modPath + "@" + testVersion + "/"
	for _, rel := range moduleFiles(t, dir) {
		w, err := zw.Create(prefix + rel)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(readFile(t, filepath.Join(dir, filepath.FromSlash(rel))))); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, testVersion+".zip"), buf.String())
}

// moduleFiles lists the files of the module rooted at dir as a module zip
// holds them: slash-separated paths relative to dir, without .git and
// without the directories of nested modules.
func moduleFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == dir {
				return nil
			}
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// copyModule copies the module at src (its files as a module zip holds
// them) to dst.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	for _, rel := range moduleFiles(t, src) {
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, to, readFile(t, filepath.Join(src, filepath.FromSlash(rel))))
	}
}

// moduleDirs lists the directories, relative to root and slash-separated,
// that hold a go.mod.
func moduleDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// repoRoot walks up from the working directory to the library's go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(mod), "module "+library+"\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of " + library + " above the working directory")
		}
		dir = parent
	}
}

// goDirective returns the go line's version of the go.mod at file.
func goDirective(t *testing.T, file string) string {
	t.Helper()
	for _, line := range strings.Split(readFile(t, file), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s has no go directive", file)
	return ""
}

// compareGo compares two Go versions as go directives write them
// ("1.24", "1.26.0"; "" is lowest), a missing part counting as 0.
func compareGo(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	if a == "" || b == "" {
		return strings.Compare(a, b)
	}
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func TestCompareGo(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"1.24", "1.24.0", 0},
		{"1.26.0", "1.24", 1},
		{"1.22.0", "1.24", -1},
		{"1.9", "1.24", -1},
		{"1.24", "", 1},
		{"", "", 0},
	} {
		if got := compareGo(tt.a, tt.b); got != tt.want {
			t.Errorf("compareGo(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// goCmd runs the go command that runs this test in dir and returns its
// standard output; a failure fails t with the command's output.
func goCmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s (in %s): %v\n%s%s", strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
