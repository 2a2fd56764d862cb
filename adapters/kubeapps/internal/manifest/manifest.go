// Package manifest reads the manifests the kubeapps planning commands
// take: YAML documents separated by "---" or JSON values, as
// `kubectl get -o yaml` or `-o json` prints them, decoded strictly with
// the apps/v1 and core/v1 scheme (unknown and duplicate fields are
// errors, as with `kubectl apply --validate=strict`). It is the part
// statefulsetplan and daemonsetplan share; each command keeps the kinds
// it reads.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// decoder is apimachinery's universal deserializer over apps/v1 and
// core/v1, strict.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err) // the schemes are fixed: this cannot fail at run time
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// Reader hands each decoded object to Keep.
type Reader struct {
	// Keep takes one object found at loc ("pods.yaml: document 1" or
	// "...: items[3]"), a v1 List already unrolled. It returns false for
	// a kind the command does not read; Read then reports it with Want.
	Keep func(obj runtime.Object, loc string) bool
	// Want says which kinds the command reads, and which it got.
	Want func(got schema.GroupVersionKind) string
}

// Read reads every document of r, named name in errors. Documents of
// comments only are skipped.
func (rd Reader) Read(name string, r io.Reader) error {
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for n := 1; ; n++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		if err := rd.add(doc, fmt.Sprintf("%s: document %d", name, n)); err != nil {
			return err
		}
	}
}

// Item is the place of a List's item i, when the List is at loc.
func Item(loc string, i int) string { return fmt.Sprintf("%s: items[%d]", loc, i) }

// add decodes one document found at loc and keeps the objects it holds.
func (rd Reader) add(doc []byte, loc string) error {
	obj, _, err := decoder.Decode(doc, nil, nil)
	if runtime.IsNotRegisteredError(err) {
		// A kind the scheme lacks in a group it knows (apps/v1
		// Statefulset, say): apimachinery's text names its own source
		// file, so say what the command reads instead.
		var tm metav1.TypeMeta
		if js, jerr := utilyaml.ToJSON(doc); jerr == nil && json.Unmarshal(js, &tm) == nil {
			return fmt.Errorf("%s: %s", loc, rd.Want(tm.GroupVersionKind()))
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if list, ok := obj.(*corev1.List); ok {
		for i, it := range list.Items {
			if err := rd.add(it.Raw, Item(loc, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !rd.Keep(obj, loc) {
		return fmt.Errorf("%s: %s", loc, rd.Want(obj.GetObjectKind().GroupVersionKind()))
	}
	return nil
}

// stripComments removes YAML comment lines, so a document of comments
// only counts as empty.
func stripComments(doc []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(doc, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '#' {
			continue
		}
		out = append(out, line...)
	}
	return out
}
