package revision

import (
	"hash/fnv"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
	"pgregory.net/rapid"
)

// The known hashes and renderings below come from two places.
//
// The raw-byte pipeline values (FNV-32a, collision count bytes,
// SafeEncodeString) and the empty corev1.PodTemplateSpec hashes are
// results of running upstream's ComputeHash
// (pkg/controller/controller_utils.go) at k8s.io/kubernetes v1.36.3.
//
// The plain-template values were cross-checked outside this repository,
// because they need go-spew and Kubernetes: a throwaway module with this
// module's path (so that type names render identically) compiled this
// package together with fixtures_test.go as a normal file, and compared,
// for every template in plainTemplates, our rendering with
// k8s.io/utils/dump.ForHash (go-spew v1.1.2-0.20180830191138-d8f796af33cc,
// the version k8s.io/apimachinery v0.36.3 pins) and our hash with
// upstream's pipeline (fnv.New32a over dump.ForHash, the collision count
// bytes, rand.SafeEncodeString). They agreed byte for byte, as did the
// renderings and hashes of an empty and of a realistic corev1.PodTemplateSpec
// (three containers with env, resources, probes, volume mounts, volumes,
// affinity, tolerations) from k8s.io/api v0.36.3.

func TestHashBytesPipeline(t *testing.T) {
	tests := []struct {
		name           string
		in             string
		collisionCount *int32
		want           string
	}{
		{name: "empty, no count", in: "", want: "65bb57b6b5"},
		{name: "empty, count 0", in: "", collisionCount: ptrTo[int32](0), want: "6b5968754f"},
		{name: "empty, count 1", in: "", collisionCount: ptrTo[int32](1), want: "548d9d4bcb"},
		{name: "empty, count -1", in: "", collisionCount: ptrTo[int32](-1), want: "666c58f68f"},
		{name: "hello, no count", in: "hello", want: "5779d75c67"},
		{name: "hello, count 1", in: "hello", collisionCount: ptrTo[int32](1), want: "9dd854bb"},
		{name: "a, no count", in: "a", want: "7d6b446664"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hashBytes([]byte(tt.in), tt.collisionCount); got != tt.want {
				t.Errorf("hashBytes(%q, %v) = %q, want %q", tt.in, deref(tt.collisionCount), got, tt.want)
			}
		})
	}
}

// emptyPodTemplateSpecFile holds dump.ForHash(corev1.PodTemplateSpec{}) for
// k8s.io/api v0.36.3, written by the real go-spew (this is its output, not
// Kubernetes source). Upstream's ComputeHash gives it the hashes tested
// below; its FNV-32a sum is 4130463924.
const emptyPodTemplateSpecFile = "testdata/empty-podtemplatespec-k8s-api-v0.36.3.txt"

func TestHashEmptyPodTemplateSpecRendering(t *testing.T) {
	rendering, err := os.ReadFile(emptyPodTemplateSpecFile)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New32a()
	h.Write(rendering)
	if got, want := h.Sum32(), uint32(4130463924); got != want {
		t.Fatalf("FNV-32a of %s = %d, want %d", emptyPodTemplateSpecFile, got, want)
	}
	tests := []struct {
		name           string
		collisionCount *int32
		want           string
	}{
		{name: "no count", want: "85748b7f68"},
		{name: "count 0", collisionCount: ptrTo[int32](0), want: "777dfcd544"},
		{name: "count 1", collisionCount: ptrTo[int32](1), want: "b54bc767c"},
		{name: "count MaxInt32", collisionCount: ptrTo[int32](math.MaxInt32), want: "579d8f8ff6"},
	}
	for _, tt := range tests {
		if got := hashBytes(rendering, tt.collisionCount); got != tt.want {
			t.Errorf("hashBytes(<empty PodTemplateSpec>, %v) = %q, want %q", deref(tt.collisionCount), got, tt.want)
		}
	}
}

func TestSafeEncode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0123456789", "456789bcdf"},
		{"", ""},
		{"4294967295", "86f8fbc6f9"},
	}
	for _, tt := range tests {
		if got := safeEncode([]byte(tt.in)); got != tt.want {
			t.Errorf("safeEncode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHashPlainTemplates(t *testing.T) {
	// Hashes checked against upstream's pipeline with the real go-spew;
	// see the comment at the top of this file.
	tests := []struct {
		name             string
		noCount, countOf string
	}{
		{name: "Template[*int32] 0", noCount: "64fcd9dc6d", countOf: "678bf8ccd9"},
		{name: "Template[*int32] nil", noCount: "5bf668f78f", countOf: "55cf7c5f4d"},
		{name: "Template[[]string]", noCount: "756455cb9b", countOf: "88d89f5f7"},
		{name: "Template[map[string]int]", noCount: "6b4d9cdbdf", countOf: "5c86f9496d"},
		{name: "empty Template[podSpec]", noCount: "d64f88675", countOf: "67b695b95d"},
		{name: "realistic", noCount: "79799b9845", countOf: "5bcddb5b9b"},
		{name: "realistic with hash", noCount: "7cf56c5cdb", countOf: "7bb795d599"},
	}
	templates := plainTemplates()
	if len(templates) != len(tests) {
		t.Fatalf("plainTemplates has %d templates, the table %d", len(templates), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := templates[tt.name]
			if !ok {
				t.Fatalf("no template %q in plainTemplates", tt.name)
			}
			if got := hashAny(v, nil); got != tt.noCount {
				t.Errorf("Hash(%s, nil) = %q, want %q", tt.name, got, tt.noCount)
			}
			if got := hashAny(v, ptrTo[int32](1)); got != tt.countOf {
				t.Errorf("Hash(%s, 1) = %q, want %q", tt.name, got, tt.countOf)
			}
		})
	}
}

func TestHashGenericMatchesRendering(t *testing.T) {
	tmpl := realisticTemplate()
	if got, want := Hash(&tmpl, nil), "79799b9845"; got != want {
		t.Errorf("Hash(&realisticTemplate(), nil) = %q, want %q", got, want)
	}
	var nilTemplate *podTemplate
	empty := podTemplate{}
	if got, want := Hash(nilTemplate, nil), Hash(&empty, nil); got != want {
		t.Errorf("Hash(nil, nil) = %q, want the zero template's %q", got, want)
	}
	var iface any = tmpl
	if got, want := Hash(&iface, nil), "79799b9845"; got != want {
		t.Errorf("Hash(&any(realisticTemplate()), nil) = %q, want %q (the dynamic value's hash)", got, want)
	}
	var nilIface any
	if got, want := Hash(&nilIface, nil), hashBytes([]byte("(interface {})<nil>"), nil); got != want {
		t.Errorf("Hash(&any(nil), nil) = %q, want %q", got, want)
	}
}

func TestRenderPlainTemplates(t *testing.T) {
	// Renderings checked against dump.ForHash; see the top of this file.
	tests := []struct{ name, want string }{
		{"Template[*int32] 0", "(revision.Template[*int32]){Labels:(map[string]string)<nil> Annotations:(map[string]string)<nil> Spec:(*int32)0}"},
		{"Template[*int32] nil", "(revision.Template[*int32]){Labels:(map[string]string)<nil> Annotations:(map[string]string)<nil> Spec:(*int32)<nil>}"},
		{"Template[[]string]", "(revision.Template[[]string]){Labels:(map[string]string)map[app:web] Annotations:(map[string]string)<nil> Spec:([]string)[nginx:1.27 ]}"},
		{"Template[map[string]int]", "(revision.Template[map[string]int]){Labels:(map[string]string)<nil> Annotations:(map[string]string)map[] Spec:(map[string]int)map[a:1 b:2]}"},
	}
	templates := plainTemplates()
	for _, tt := range tests {
		if got := string(deep.Render(reflect.ValueOf(templates[tt.name]))); got != tt.want {
			t.Errorf("deep.Render(%s) =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestHashIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "template")
		b := cloneTemplate(a)
		cc := rapid.Ptr(rapid.Int32(), true).Draw(t, "collisionCount")
		if ha, hb := Hash(&a, cc), Hash(&b, cc); ha != hb {
			t.Fatalf("Hash(a, %v) = %q but Hash(copy of a, %v) = %q", deref(cc), ha, deref(cc), hb)
		}
		if h := Hash(&a, cc); len(h) < 1 || len(h) > 10 {
			t.Fatalf("Hash(a, %v) = %q, want 1 to 10 characters", deref(cc), h)
		}
	})
}

func TestHashChangesWithCollisionCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "template")
		c1 := rapid.Int32().Draw(t, "collisionCount")
		c2 := rapid.Int32().Filter(func(c int32) bool { return c != c1 }).Draw(t, "otherCount")
		// A 32-bit hash can collide, so this is not a theorem: the chance
		// that one of rapid's 100 draws collides is about 100/2^32.
		if h1, h2 := Hash(&a, &c1), Hash(&a, &c2); h1 == h2 {
			t.Fatalf("Hash(a, %d) = Hash(a, %d) = %q", c1, c2, h1)
		}
		if hn, h1 := Hash(&a, nil), Hash(&a, &c1); hn == h1 {
			t.Fatalf("Hash(a, nil) = Hash(a, %d) = %q", c1, hn)
		}
	})
}

// hashAny hashes the value in v as Hash hashes a template.
func hashAny(v any, collisionCount *int32) string {
	return hashBytes(deep.Render(reflect.ValueOf(v)), collisionCount)
}

func deref(p *int32) any {
	if p == nil {
		return "nil"
	}
	return *p
}
