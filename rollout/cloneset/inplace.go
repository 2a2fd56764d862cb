package cloneset

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// InPlaceUpdate is what kruise's in-place update would change on a pod
// that moves from one revision to another: the outcome of
// [CalculateInPlaceUpdate].
type InPlaceUpdate struct {
	// Possible reports whether every difference between the two templates
	// can be applied to a running pod. When it is false, an
	// InPlaceIfPossible CloneSet recreates the pod and an InPlaceOnly one
	// fails the update.
	Possible bool `json:"possible"`
	// Images maps the name of each container whose image changes (named as
	// in the old template) to its new image. It is non-nil when Possible.
	Images map[string]string `json:"images,omitempty"`
	// Metadata reports whether the template's metadata (labels,
	// annotations, anything under metadata) changes; kruise patches the
	// pod's metadata with the difference.
	Metadata bool `json:"metadata,omitempty"`
	// Blockers lists the differences that forbid an in-place update, as
	// JSON-patch operations "<op> <path>" with the /spec/template prefix
	// removed, for instance "add /spec/containers/0/env" or "replace
	// /spec/containers/0/name", sorted by path, then operation. It is
	// empty when Possible.
	Blockers []string `json:"blockers,omitempty"`
}

// CalculateInPlaceUpdate decides whether kruise can move a pod from the
// revision whose data is from to the revision whose data is to without
// recreating it, and what it would change. Both are revision data as
// [RevisionData] returns them (a ControllerRevision's data.raw).
//
// Kruise diffs the two documents as a JSON patch (RFC 6902) and strips the
// /spec/template prefix from each path. The update is possible when every
// operation either lies under /metadata/ (any operation: template labels
// and annotations are patched onto the pod) or is "replace
// /spec/containers/<i>/image". Anything else forbids it: a changed
// environment, resources, command, an added or removed container, a
// renamed one, an image that appears or disappears. Identical data is
// possible with nothing to change.
//
// The patch is computed as kruise's JSON-patch library does for these
// documents: objects key by key (a missing key is an add or a remove, a
// null turning into a value an add, a changed type a replace), numbers
// compared as float64 values, arrays element by element with the extra
// elements added or removed. For arrays whose first object element holds
// only strings, numbers and booleans, the library matches elements by edit
// distance instead and may name other indices in its operations; the
// decision is the same (every such difference under /spec/ is a blocker),
// only the indices in Blockers may differ.
//
// Not modelled, all behind kruise feature gates that are off by default:
// in-place resource changes (InPlaceWorkloadVerticalScaling) and
// recreation on a changed volumeClaimTemplates hash
// (RecreatePodWhenChangeVCTInCloneSetGate). The templates are not checked
// against the Pod schema: a template kruise cannot decode into a
// PodTemplateSpec is recreated by kruise but judged here on its JSON.
//
// Errors (the result is then the zero value): from or to is not a JSON
// object; a container's new image is not a string (kruise would panic
// there). A missing revision is the caller's to handle: kruise then
// recreates the pod (or fails an InPlaceOnly update), as when Possible is
// false. The inputs are not modified.
// Upstream: inplaceupdate's CanUpdateInPlace and
// defaultCalculateInPlaceUpdateSpec (kruise pkg/util/inplaceupdate).
func CalculateInPlaceUpdate(from, to []byte) (InPlaceUpdate, error) {
	var a, b map[string]any
	if err := json.Unmarshal(from, &a); err != nil || a == nil {
		return InPlaceUpdate{}, inputError("from", "revision data %q: must be a JSON object", clip(from))
	}
	if err := json.Unmarshal(to, &b); err != nil || b == nil {
		return InPlaceUpdate{}, inputError("to", "revision data %q: must be a JSON object", clip(to))
	}
	d := patchDiff{}
	d.values(a, b, "")
	res := InPlaceUpdate{Images: map[string]string{}}
	type blocker struct{ path, op string }
	var blockers []blocker
	for _, op := range d.ops {
		path := strings.Replace(op.path, "/spec/template", "", 1)
		if !strings.HasPrefix(path, "/spec/") {
			if strings.HasPrefix(path, "/metadata/") {
				res.Metadata = true
				continue
			}
			blockers = append(blockers, blocker{path, op.op})
			continue
		}
		if i, ok := containerImagePath(path); ok && op.op == "replace" {
			image, isString := op.value.(string)
			if !isString {
				return InPlaceUpdate{}, inputError("to", "spec.template.spec.containers[%d].image is %v: must be a string", i, op.value)
			}
			res.Images[op.containerName] = image
			continue
		}
		blockers = append(blockers, blocker{path, op.op})
	}
	if len(blockers) > 0 {
		slices.SortFunc(blockers, func(x, y blocker) int {
			if c := strings.Compare(x.path, y.path); c != 0 {
				return c
			}
			return strings.Compare(x.op, y.op)
		})
		res.Blockers = make([]string, len(blockers))
		for i, bl := range blockers {
			res.Blockers[i] = bl.op + " " + bl.path
		}
		res.Images, res.Metadata = nil, false
		return res, nil
	}
	res.Possible = true
	return res, nil
}

// clip shortens data for an error message.
func clip(data []byte) string {
	const n = 64
	if len(data) > n {
		return string(data[:n]) + "..."
	}
	return string(data)
}

// containerImagePath reports whether path is /spec/containers/<i>/image
// with i a run of decimal digits, and returns i (saturated; only used in
// messages).
func containerImagePath(path string) (int, bool) {
	rest, ok := strings.CutPrefix(path, "/spec/containers/")
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutSuffix(rest, "/image")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(digits)
	if err != nil {
		i = -1
	}
	return i, true
}

// patchOp is one JSON-patch operation of a diff.
type patchOp struct {
	op, path string
	value    any
	// containerName is the name of the old template's container at this
	// index, filled for operations on a container's image.
	containerName string
}

// patchDiff collects the operations turning one JSON document into
// another, as kruise's JSON-patch library forms them.
type patchDiff struct {
	ops []patchOp
	// container is the name of the old container whose fields are being
	// compared, while the diff is inside spec.template.spec.containers[i].
	container string
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func (d *patchDiff) add(op, path string, value any) {
	d.ops = append(d.ops, patchOp{op: op, path: path, value: value, containerName: d.container})
}

// values compares a and b found at path.
func (d *patchDiff) values(a, b any, path string) {
	switch {
	case a == nil && b == nil:
		return
	case a == nil:
		d.add("add", path, b)
		return
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			d.add("replace", path, b)
			return
		}
		d.objects(av, bv, path)
	case []any:
		bv, ok := b.([]any)
		if !ok {
			d.add("replace", path, b)
			return
		}
		d.arrays(av, bv, path)
	default:
		// string, float64 or bool: equal only with the same type and value.
		if a != b {
			d.add("replace", path, b)
		}
	}
}

func (d *patchDiff) objects(a, b map[string]any, path string) {
	for k, bv := range b {
		p := path + "/" + pointerEscaper.Replace(k)
		av, ok := a[k]
		if !ok {
			d.add("add", p, bv)
			continue
		}
		d.values(av, bv, p)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			d.add("remove", path+"/"+pointerEscaper.Replace(k), nil)
		}
	}
}

func (d *patchDiff) arrays(a, b []any, path string) {
	n := min(len(a), len(b))
	for i := len(a) - 1; i >= n; i-- {
		d.add("remove", path+"/"+strconv.Itoa(i), nil)
	}
	for i := n; i < len(b); i++ {
		d.add("add", path+"/"+strconv.Itoa(i), b[i])
	}
	inContainers := path == "/spec/template/spec/containers"
	for i := range n {
		if inContainers {
			d.container = ""
			if c, ok := a[i].(map[string]any); ok {
				if name, ok := c["name"].(string); ok {
					d.container = name
				}
			}
		}
		d.values(a[i], b[i], path+"/"+strconv.Itoa(i))
		if inContainers {
			d.container = ""
		}
	}
}

// String returns a one-line summary: "in place: images main=nginx:1.26,
// metadata" or "recreate: add /spec/containers/0/env".
func (u InPlaceUpdate) String() string {
	if !u.Possible {
		return "recreate: " + strings.Join(u.Blockers, ", ")
	}
	var parts []string
	if len(u.Images) > 0 {
		names := make([]string, 0, len(u.Images))
		for n := range u.Images {
			names = append(names, n)
		}
		slices.Sort(names)
		for i, n := range names {
			names[i] = n + "=" + u.Images[n]
		}
		parts = append(parts, "images "+strings.Join(names, " "))
	}
	if u.Metadata {
		parts = append(parts, "metadata")
	}
	if len(parts) == 0 {
		return "in place: no change"
	}
	return fmt.Sprintf("in place: %s", strings.Join(parts, ", "))
}

// InPlaceDiffer is implemented by a template type T (the T of
// CloneSet[T]) that says itself what an in-place update changes. Plan,
// PlanWith, Planner, Simulate and Update use it, when T or *T implements
// it, for the in-place strategies (InPlaceIfPossible, InPlaceOnly): the
// templates of the pod's revision and of the target revision are decoded
// from the revisions' Data (encoding/json; T must decode what it
// encodes, the key "$patch" kruise adds is removed first), and
// old.InPlaceDiff(new) decides.
//
// InPlaceDiff returns Possible with what changes in place: Images, the
// new image of each container whose image changes, by container name;
// Metadata, whether the template's labels or annotations change (the
// only two things kruise's in-place update writes to a running pod). Or
// it returns Possible false with Blockers naming the changes that need
// recreation, in any words the caller likes (they are printed in the
// reason of the RecreatePod action). Identical templates are Possible
// with nothing to change. Plan keeps its own copy of the result: when
// Possible, Blockers are dropped; otherwise Images and Metadata are.
//
// Without it, Plan diffs the revisions' Data as kruise does
// ([CalculateInPlaceUpdate]), which is right only for templates that
// encode as a corev1.PodTemplateSpec does (a JSON object whose spec holds
// containers): corev1.PodTemplateSpec itself (the kruiseapps adapter's
// Template), json.RawMessage holding such bytes, a struct of the same
// shape, or struct{} with revisions built from such templates. A template
// of another shape that does not implement InPlaceDiffer cannot be diffed
// in place: under InPlaceIfPossible the pod is recreated and the
// RecreatePod reason says "template type <T> cannot be diffed in place";
// under InPlaceOnly, Plan and Update return an *field.Error on
// spec.updateStrategy.type wrapping field.ErrUnsupported. Neither is
// kruise's behaviour for a real cluster, whose templates are always
// corev1.PodTemplateSpecs; they say the caller's type needs this method.
type InPlaceDiffer[T any] interface {
	InPlaceDiff(to T) InPlaceUpdate
}

// inPlaceDiffer reports whether T or *T implements InPlaceDiffer[T].
func inPlaceDiffer[T any]() bool {
	var zero T
	if _, ok := any(zero).(InPlaceDiffer[T]); ok {
		return true
	}
	_, ok := any(&zero).(InPlaceDiffer[T])
	return ok
}

// typeName names T as Go prints it, "main.PodSpec".
func typeName[T any]() string {
	return reflect.TypeFor[T]().String()
}

// diffWith decodes the templates in the revision data from and to into T
// and returns old.InPlaceDiff(new), normalised. T must implement
// InPlaceDiffer[T] (see inPlaceDiffer).
func diffWith[T any](from, to []byte) (InPlaceUpdate, error) {
	a, err := templateFrom[T](from)
	if err != nil {
		return InPlaceUpdate{}, err
	}
	b, err := templateFrom[T](to)
	if err != nil {
		return InPlaceUpdate{}, err
	}
	var ip InPlaceUpdate
	if d, ok := any(a).(InPlaceDiffer[T]); ok {
		ip = d.InPlaceDiff(b)
	} else {
		ip = any(&a).(InPlaceDiffer[T]).InPlaceDiff(b)
	}
	if ip.Possible {
		images := make(map[string]string, len(ip.Images))
		maps.Copy(images, ip.Images)
		return InPlaceUpdate{Possible: true, Images: images, Metadata: ip.Metadata}, nil
	}
	return InPlaceUpdate{Blockers: slices.Clone(ip.Blockers)}, nil
}

// templateFrom decodes the template in revision data (as RevisionData
// writes it) into a T.
func templateFrom[T any](data []byte) (T, error) {
	var t T
	var doc struct {
		Spec struct {
			Template map[string]json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Spec.Template == nil {
		return t, fmt.Errorf("revision data %q: no spec.template object", clip(data))
	}
	delete(doc.Spec.Template, "$patch")
	raw, err := json.Marshal(doc.Spec.Template)
	if err == nil {
		err = json.Unmarshal(raw, &t)
	}
	if err != nil {
		return t, fmt.Errorf("decoding the template into %s: %v", typeName[T](), err)
	}
	return t, nil
}

// podTemplateShaped reports whether revision data (as RevisionData
// writes it) holds a template shaped like a corev1.PodTemplateSpec: an
// object whose spec is an object with a containers key. Data that is not
// a JSON object counts as shaped: CalculateInPlaceUpdate reports it.
func podTemplateShaped(data []byte) bool {
	var doc struct {
		Spec struct {
			Template struct {
				Spec map[string]json.RawMessage `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var obj map[string]json.RawMessage
		return json.Unmarshal(data, &obj) != nil
	}
	_, ok := doc.Spec.Template.Spec["containers"]
	return ok
}
