package ownership

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// Operator is a matchExpressions operator. Upstream:
// metav1.LabelSelectorOperator.
type Operator string

// The operators of an apps/v1 label selector.
const (
	// In: the label is present and its value is one of Values.
	In Operator = "In"
	// NotIn: the label is absent, or its value is none of Values.
	NotIn Operator = "NotIn"
	// Exists: the label is present, whatever its value. Values must be
	// empty.
	Exists Operator = "Exists"
	// DoesNotExist: the label is absent. Values must be empty.
	DoesNotExist Operator = "DoesNotExist"
)

// Requirement is one entry of matchExpressions. Upstream:
// metav1.LabelSelectorRequirement.
type Requirement struct {
	// Key is the label key: an optional DNS-1123 subdomain prefix and
	// '/', then a name of at most 63 characters.
	Key string `json:"key"`
	// Operator is In, NotIn, Exists or DoesNotExist.
	Operator Operator `json:"operator"`
	// Values are label values: at least one for In and NotIn, none for
	// Exists and DoesNotExist.
	Values []string `json:"values,omitempty"`
}

// Selector is an apps/v1 label selector: every entry of MatchLabels and
// every requirement of MatchExpressions must hold (a logical AND).
// Upstream: metav1.LabelSelector.
//
// A nil *Selector selects nothing; a non-nil Selector without entries
// (nil or empty MatchLabels and MatchExpressions) selects everything, as
// metav1.LabelSelectorAsSelector reads them.
type Selector struct {
	// MatchLabels requires each key to be present with exactly this value.
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// MatchExpressions are further requirements.
	MatchExpressions []Requirement `json:"matchExpressions,omitempty"`
}

// ErrInvalidSelector is the kind of every error that reports a selector
// metav1.LabelSelectorAsSelector would reject: the Err of each
// [*field.Error], so errors.Is finds it and [field.ErrInvalid].
var ErrInvalidSelector = errors.New("invalid label selector")

// Empty reports whether s selects everything: s is non-nil and has no
// matchLabels and no matchExpressions. A nil s is not empty (it selects
// nothing). Upstream: labels.Selector.Empty after LabelSelectorAsSelector.
//
// Note that syncDeployment's "selects everything" test is stricter: it
// compares the selector with reflect.DeepEqual against an empty
// metav1.LabelSelector, so a selector holding a non-nil but empty
// matchLabels map does not count there. rollout.Plan follows syncDeployment
// (see rollout.Deployment.Selector); Empty follows the selector's meaning.
func (s *Selector) Empty() bool {
	return s != nil && len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// Validate returns nil if metav1.LabelSelectorAsSelector accepts s, else a
// [field.ErrorList] (each [*field.Error] wrapping ErrInvalidSelector)
// whose text is exactly upstream's: the fields are relative to the
// requirement ("key", "values", "values[0][app]"), and an unknown
// operator is an error with only a Detail. A nil
// s is valid. The checks, in upstream's order: each matchLabels entry
// (key, then value), then each matchExpressions entry in order (operator,
// key, value count for the operator, each value). The first invalid entry
// is reported, with all of its problems.
//
// Upstream reads matchLabels in Go's random map order, so when several
// matchLabels entries are invalid its message names a random one;
// Validate reads them in sorted key order and always names the first.
func (s *Selector) Validate() error {
	if s == nil {
		return nil
	}
	// Find the first invalid matchLabels key without sorting (and so
	// without allocating) on the common, valid path.
	first, found := "", false
	for k, v := range s.MatchLabels {
		if (!found || k < first) && (!validLabelKey(k) || !validLabelValue(v)) {
			first, found = k, true
		}
	}
	if found {
		return requirementErrors(first, "", []string{s.MatchLabels[first]}).ToError()
	}
	for i := range s.MatchExpressions {
		r := &s.MatchExpressions[i]
		switch r.Operator {
		case In, NotIn:
			if len(r.Values) == 0 {
				return requirementErrors(r.Key, r.Operator, r.Values).ToError()
			}
		case Exists, DoesNotExist:
			if len(r.Values) != 0 {
				return requirementErrors(r.Key, r.Operator, r.Values).ToError()
			}
		default:
			return field.ErrorList{{Detail: fmt.Sprintf("%q is not a valid label selector operator", string(r.Operator)), Err: ErrInvalidSelector}}
		}
		ok := validLabelKey(r.Key)
		for _, v := range r.Values {
			ok = ok && validLabelValue(v)
		}
		if !ok {
			return requirementErrors(r.Key, r.Operator, r.Values).ToError()
		}
	}
	return nil
}

// validLabelKey and validLabelValue are allocation-free checks written by
// hand; labelKeyErrors and labelValueErrors, which word the errors, use
// upstream's regular expressions, and a test holds the two to agreement.
func validLabelKey(key string) bool {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		name = prefix
	} else if !validSubdomain(prefix) {
		return false
	}
	return name != "" && validLabelValue(name)
}

// validLabelValue: empty, or at most 63 characters of [-A-Za-z0-9_.]
// starting and ending with [A-Za-z0-9].
func validLabelValue(v string) bool {
	if v == "" {
		return true
	}
	if len(v) > maxLabelLength || !isAlnum(v[0]) || !isAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validSubdomain: a lowercase RFC 1123 subdomain of at most 253
// characters: dot-separated labels of [-a-z0-9] starting and ending with
// [a-z0-9].
func validSubdomain(s string) bool {
	if s == "" || len(s) > maxSubdomainLength {
		return false
	}
	// strings.Cut rather than ranging over strings.SplitSeq: Go 1.24
	// moves that iterator's state to the heap, 4 allocations per call.
	for {
		label, rest, more := strings.Cut(s, ".")
		if label == "" || !isLowerAlnum(label[0]) || !isLowerAlnum(label[len(label)-1]) {
			return false
		}
		for i := 1; i < len(label)-1; i++ {
			if c := label[i]; !isLowerAlnum(c) && c != '-' {
				return false
			}
		}
		if !more {
			return true
		}
		s = rest
	}
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// Matches reports whether s selects a set of labels (nil means none): a
// nil s selects nothing, an empty s everything, otherwise every
// matchLabels entry and every requirement must hold. An invalid s returns
// false and Validate's error. Upstream: LabelSelectorAsSelector, then
// Selector.Matches(labels.Set(labels)).
func (s *Selector) Matches(labels map[string]string) (bool, error) {
	if err := s.Validate(); err != nil {
		return false, err
	}
	return s.matches(labels), nil
}

// matches is Matches on a selector already validated.
func (s *Selector) matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for i := range s.MatchExpressions {
		if !s.MatchExpressions[i].holds(labels) {
			return false
		}
	}
	return true
}

// holds reports whether one valid requirement holds for labels.
func (r *Requirement) holds(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case In:
		return ok && contains(r.Values, v)
	case NotIn:
		return !ok || !contains(r.Values, v)
	case Exists:
		return ok
	case DoesNotExist:
		return !ok
	}
	return false
}

func contains(vals []string, v string) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// requirementErrors returns labels.NewRequirement's errors for key, op
// and vals, or nil when they are valid; the list's text is upstream's
// aggregated message. op "" stands for the Equals operator a matchLabels
// entry becomes.
func requirementErrors(key string, op Operator, vals []string) field.ErrorList {
	var errs field.ErrorList
	invalid := func(path, value, detail string) {
		errs = append(errs, &field.Error{Field: path, Type: field.TypeInvalid, Value: value, Detail: detail, Err: ErrInvalidSelector})
	}
	if msgs := labelKeyErrors(key); len(msgs) > 0 {
		invalid("key", fmt.Sprintf("%q", key), strings.Join(msgs, "; "))
	}
	switch op {
	case In, NotIn:
		if len(vals) == 0 {
			invalid("values", jsonValue(vals), "for 'in', 'notin' operators, values set can't be empty")
		}
	case Exists, DoesNotExist:
		if len(vals) != 0 {
			invalid("values", jsonValue(vals), "values set must be empty for exists and does not exist")
		}
	}
	for i, v := range vals {
		if msgs := labelValueErrors(v); len(msgs) > 0 {
			invalid(fmt.Sprintf("values[%d][%s]", i, key), fmt.Sprintf("%q", v), strings.Join(msgs, "; "))
		}
	}
	return errs
}

// jsonValue renders a value list as field.Invalid does: JSON, with nil and
// empty lists alike as null (upstream copies the values with append onto
// a nil slice).
func jsonValue(vals []string) string {
	if len(vals) == 0 {
		return "null"
	}
	b, err := json.Marshal(vals)
	if err != nil { // cannot happen for a []string
		return fmt.Sprintf("%q", vals)
	}
	return string(b)
}

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyMsg         = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + labelKeyFmt + ")?"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	maxLabelLength      = 63
	maxSubdomainLength  = 253
)

var (
	dns1123SubdomainRe = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	labelKeyRe         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRe       = regexp.MustCompile("^" + labelValueFmt + "$")
)

// regexMsg words a pattern violation as apimachinery's RegexError does.
func regexMsg(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

func maxLenMsg(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

// labelKeyErrors returns the problems of a label key, in
// content.IsLabelKey's words and order; nil when it is valid.
func labelKeyErrors(key string) []string {
	var errs []string
	parts := strings.Split(key, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			if len(prefix) > maxSubdomainLength {
				errs = append(errs, "prefix part "+maxLenMsg(maxSubdomainLength))
			}
			if !dns1123SubdomainRe.MatchString(prefix) {
				errs = append(errs, "prefix part "+regexMsg(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
			}
		}
	default:
		return append(errs, "a valid label key "+regexMsg(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > maxLabelLength {
		errs = append(errs, "name part "+maxLenMsg(maxLabelLength))
	}
	if !labelKeyRe.MatchString(name) {
		errs = append(errs, "name part "+regexMsg(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// labelValueErrors returns the problems of a label value, in
// content.IsLabelValue's words; nil when it is valid.
func labelValueErrors(v string) []string {
	var errs []string
	if len(v) > maxLabelLength {
		errs = append(errs, maxLenMsg(maxLabelLength))
	}
	if !labelValueRe.MatchString(v) {
		errs = append(errs, regexMsg(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// ValidateFields checks s as the API server checks the label selector of
// an object it creates, at path (e.g. "spec.selector"), and returns nil
// or a [field.ErrorList] in upstream's words and order, each error
// wrapping ErrInvalidSelector: every matchLabels entry (key, then value)
// at path.matchLabels, then each matchExpressions entry i at
// path.matchExpressions[i]: its operator (In and NotIn need values:
// Required; Exists and DoesNotExist take none: Forbidden; any other is
// Invalid), its key, then each value. Every problem is reported, unlike
// [Selector.Validate], which reports the first entry that
// LabelSelectorAsSelector refuses. A nil s is valid.
//
// Upstream reads matchLabels in Go's random map order, so when several
// entries are invalid the order of its errors varies; ValidateFields
// reads them in sorted key order.
// Upstream: ValidateLabelSelector, k8s.io/apimachinery/pkg/apis/meta/v1/validation.
func (s *Selector) ValidateFields(path string) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	invalid := func(f, v, msg string) { // only called on an error path
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: f, Value: strconv.Quote(v), Detail: msg, Err: ErrInvalidSelector})
	}
	// The allocation-free checks first, so that a valid selector (the
	// common case, checked on every sync) allocates nothing.
	var keys []string
	for k, v := range s.MatchLabels {
		if !validLabelKey(k) || !validLabelValue(v) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, msg := range labelKeyErrors(k) {
			invalid(path+".matchLabels", k, msg)
		}
		for _, msg := range labelValueErrors(s.MatchLabels[k]) {
			invalid(path+".matchLabels", s.MatchLabels[k], msg)
		}
	}
	for i := range s.MatchExpressions {
		r := &s.MatchExpressions[i]
		at := path + ".matchExpressions[" + strconv.Itoa(i) + "]"
		switch r.Operator {
		case In, NotIn:
			if len(r.Values) == 0 {
				errs = append(errs, &field.Error{Type: field.TypeRequired, Field: at + ".values",
					Detail: "must be specified when `operator` is 'In' or 'NotIn'", Err: ErrInvalidSelector})
			}
		case Exists, DoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, &field.Error{Type: field.TypeForbidden, Field: at + ".values",
					Detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", Err: ErrInvalidSelector})
			}
		default:
			invalid(at+".operator", string(r.Operator), "not a valid selector operator")
		}
		if !validLabelKey(r.Key) {
			for _, msg := range labelKeyErrors(r.Key) {
				invalid(at+".key", r.Key, msg)
			}
		}
		for j, v := range r.Values {
			if !validLabelValue(v) {
				for _, msg := range labelValueErrors(v) {
					invalid(at+".values["+strconv.Itoa(j)+"]", v, msg)
				}
			}
		}
	}
	return errs
}
