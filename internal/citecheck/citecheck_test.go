package citecheck

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// modulePath identifies the repository root: the directory whose go.mod
// declares this module (nested modules under examples/ declare others).
const modulePath = "github.com/rolloutmath/rolloutmath"

// scanned are the file name endings whose text is checked.
var scanned = []string{".go", ".md", ".golden", ".yaml", ".yml", ".txt", ".json"}

// self is this file, relative to the root: its matcher table holds the
// citations it must flag, so the walk leaves it out.
const self = "internal/citecheck/citecheck_test.go"

var (
	// privateNotes matches the notes kept outside the repository: the
	// word SPEC on its own (as a file name, with a topic after a hyphen,
	// or before an example number such as "SPEC 7 #9"),
	// the design and style notes by file name, and a "§" section number,
	// which no document in the repository uses.
	privateNotes = regexp.MustCompile(`\b` + "SPEC" + `\b|\b(?:DESIGN|STYLE)\.md\b|§\s*\d[\d.]*`)
	// mdMention matches a path ending in .md, with an optional anchor.
	// The characters allowed before it include ':' so that a URL is one
	// match, which is then skipped.
	mdMention = regexp.MustCompile(`[\w./:~-]*\w\.md(#[\w-]+)?\b`)
	// mdLink matches a markdown link or image target.
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	// scheme matches a target that is not a repository path.
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// checker resolves paths against the repository. It caches the heading
// anchors of the markdown files it has read.
type checker struct {
	root    string
	anchors map[string]map[string]bool
}

// problems returns what is wrong with line, a line of the file in
// directory dir (absolute). A .md file also has its markdown links
// checked, whatever they point to.
func (c *checker) problems(line, dir string, markdown bool) []string {
	var out []string
	for _, m := range privateNotes.FindAllString(line, -1) {
		out = append(out, "cites notes users do not have: "+strings.TrimSpace(m))
	}
	for _, loc := range mdMention.FindAllStringIndex(line, -1) {
		token := line[loc[0]:loc[1]]
		if strings.Contains(token, "://") || privateNotes.MatchString(token) {
			continue // a URL, or reported above
		}
		if loc[0] > 0 && line[loc[0]-1] == '\\' {
			token = token[1:] // an escape such as \n before the name
		}
		if p := c.target(token, dir); p != "" {
			out = append(out, p)
		}
	}
	if markdown {
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			t := m[1]
			if scheme.MatchString(t) || strings.HasPrefix(t, "#") {
				continue
			}
			if strings.HasSuffix(strings.SplitN(t, "#", 2)[0], ".md") {
				continue // checked as a mention above
			}
			if p := c.target(t, dir); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// target checks a path with an optional #anchor, relative to dir or to
// the root, and returns the problem, or "" if there is none.
func (c *checker) target(t, dir string) string {
	path, anchor, _ := strings.Cut(t, "#")
	var found string
	for _, base := range []string{dir, c.root} {
		p := filepath.Join(base, filepath.FromSlash(strings.TrimPrefix(path, "/")))
		if _, err := os.Stat(p); err == nil {
			found = p
			break
		}
	}
	if found == "" {
		return "cites a missing file: " + t
	}
	if anchor == "" || !strings.HasSuffix(found, ".md") {
		return ""
	}
	if !c.headings(found)[anchor] {
		return "cites a missing section: " + t
	}
	return ""
}

// headings returns the anchors GitHub gives the headings of the markdown
// file at path.
func (c *checker) headings(path string) map[string]bool {
	if a, ok := c.anchors[path]; ok {
		return a
	}
	a := map[string]bool{}
	data, err := os.ReadFile(path)
	if err == nil {
		fenced := false
		for line := range strings.SplitSeq(string(data), "\n") {
			if strings.HasPrefix(line, "```") {
				fenced = !fenced
			}
			if !fenced && strings.HasPrefix(line, "#") {
				a[slug(strings.TrimLeft(line, "#"))] = true
			}
		}
	}
	c.anchors[path] = a
	return a
}

// slug is GitHub's anchor for a heading: lower case, spaces become
// hyphens, and characters other than letters, digits, '-' and '_' go.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// repoRoot walks up from the working directory to the directory whose
// go.mod declares modulePath.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
					return dir
				}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod declaring module %s above the working directory", modulePath)
		}
		dir = parent
	}
}

// TestCitationsResolve walks every text file of the repository, nested
// modules included, and fails on each citation a reader cannot follow.
func TestCitationsResolve(t *testing.T) {
	root := repoRoot(t)
	c := &checker{root: root, anchors: map[string]map[string]bool{}}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.ContainsFunc(scanned, func(ext string) bool { return strings.HasSuffix(path, ext) }) {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == self {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		markdown := strings.HasSuffix(path, ".md")
		for i, line := range strings.Split(string(data), "\n") {
			for _, p := range c.problems(line, filepath.Dir(path), markdown) {
				t.Errorf("%s:%d: %s", rel, i+1, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Errorf("checked %d files under %s, want the whole repository", files, root)
	}
}

// TestProblems checks the matcher line by line, resolving paths against
// the real repository (README.md and docs/cloneset.md exist there).
func TestProblems(t *testing.T) {
	root := repoRoot(t)
	// Built by concatenation so that a grep for the notes' names finds
	// only the patterns above.
	spec, design := "SPEC", "DESIGN"
	tests := []struct {
		name     string
		line     string
		dir      string // relative to the root
		markdown bool
		want     int // number of problems
	}{
		{name: "topic note section", line: "// see " + spec + "-cloneset §5.2", want: 2},
		{name: "short section citation", line: `reason: "` + spec + ` §2.2: a string without '%' is a percentage"`, want: 2},
		{name: "example number", line: "// " + spec + " 7 #9.", want: 1},
		{name: "note file name", line: "// listed in " + spec + ".md section 7", want: 1},
		{name: "note glob", line: "no " + spec + "-*.md here", want: 1},
		{name: "design note", line: `(` + design + `.md "Numbers")`, want: 1},
		{name: "style note", line: "see STYLE" + ".md", want: 1},
		{name: "bare section number", line: `{name: "§12 #21a R7 P3"}`, want: 1},
		{name: "missing doc", line: "see docs/foo.md", want: 1},
		{name: "missing doc in a link", line: "[x](docs/foo.md)", markdown: true, want: 1},
		{name: "missing section", line: "(docs/cloneset.md#no-such-section)", want: 1},
		{name: "missing link target", line: "[x](nowhere/file.go)", markdown: true, want: 1},
		{name: "existing doc and section", line: "// (docs/cloneset.md#partition)", want: 0},
		{name: "existing doc from a subdirectory", line: "see docs/deployment.md#numbers", dir: "rollout/cloneset", want: 0},
		{name: "relative link", line: "[Numbers](../../docs/deployment.md#numbers)", dir: "examples/kubernetes", markdown: true, want: 0},
		{name: "root README", line: `os.ReadFile("README.md")`, dir: "examples/usage", want: 0},
		{name: "escape before the name", line: `"%s\nREADME.md says"`, dir: "examples/usage", want: 0},
		{name: "upstream URL", line: "https://github.com/openkruise/kruise/blob/master/README.md", want: 0},
		{name: "upstream path", line: "// Upstream: calculateDiffsWithExpectation, pkg/controller/cloneset/sync/cloneset_scale.go", want: 0},
		{name: "lower-case spec", line: "// TestKruiseSpecExample14 reads the spec", want: 0},
		{name: "glob", line: "every *.md file", want: 0},
		{name: "existing link target", line: "[rollout](rollout/cloneset)", markdown: true, want: 0},
		{name: "in-page anchor", line: "[scale](#scale)", markdown: true, want: 0},
	}
	c := &checker{root: root, anchors: map[string]map[string]bool{}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.problems(tt.line, filepath.Join(root, filepath.FromSlash(tt.dir)), tt.markdown)
			if len(got) != tt.want {
				t.Errorf("problems(%q) = %q, want %d problems", tt.line, got, tt.want)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		" Pod classes and availability": "pod-classes-and-availability",
		"S13 OnDelete unreachable":      "s13-ondelete-unreachable",
		"B3 Unbounded maxSurge":         "b3-unbounded-maxsurge",
		"`Plan`, step by step":          "plan-step-by-step",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
