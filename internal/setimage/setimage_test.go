package setimage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	got, err := Parse([]string{"nginx=nginx:1.9.3", "*=web:2"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Change{{"nginx", "nginx:1.9.3"}, {"*", "web:2"}}; !cmp.Equal(got, want) {
		t.Errorf("Parse = %v, want %v", got, want)
	}
	for _, bad := range []string{"nginx", "=img", "nginx="} {
		_, err := Parse([]string{bad})
		if want := `--set-image "` + bad + `": want CONTAINER=IMAGE`; err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error = %v, want %q", bad, err, want)
		}
	}
}

func TestApply(t *testing.T) {
	names := []string{"app", "sidecar"}
	got, err := Apply(names, []Change{{"*", "a:1"}, {"sidecar", "s:2"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int]string{0: "a:1", 1: "s:2"}; !cmp.Equal(got, want) {
		t.Errorf("Apply = %v, want %v", got, want)
	}
	_, err = Apply(names, []Change{{"db", "x"}})
	if want := `--set-image: unable to find container named "db"`; err == nil || err.Error() != want {
		t.Errorf("Apply(unknown) error = %v, want %q", err, want)
	}
}
