package ownership

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// ParseSelector parses the string form of a label selector, as kubectl's
// -l flag and the API's labelSelector query parameter take it:
// comma-separated requirements, all of which must hold:
//
//	key=value, key==value   the label is present with this value
//	key!=value              the label is absent or has another value
//	key in (v1,v2)          the label is present with one of the values
//	key notin (v1,v2)       the label is absent or has none of them
//	key                     the label is present
//	!key                    the label is absent
//
// Whitespace around tokens is ignored; a value may be empty ("key=",
// "key in (a,)"), and in and notin are words only where an operator is
// expected. The empty string selects everything. The result holds only
// MatchExpressions, in the order written, with each In and NotIn value
// list sorted and without duplicates (as upstream's sets), = and == as In
// with one value and != as NotIn with one value.
//
// The grammar, the keywords and the checks of keys and values are
// upstream's labels.Parse, with one deliberate difference and one quirk
// kept: the numeric comparisons key>n and key<n, which labels.Parse
// accepts but an apps/v1 selector cannot hold, are errors here; and a NUL
// byte is read as upstream's lexer reads it: where a token would start it
// ends the input (the rest is ignored), inside a token it ends the token
// and is dropped.
//
// Errors: a syntax error names the position and what was expected; an
// invalid key or value gives Selector.Validate's text (upstream's words).
// Every error is a [*field.Error] whose text starts
// `ownership: parsing "<input>": `, wrapping [field.ErrInvalid] and
// ErrInvalidSelector; the *Selector is then nil.
func ParseSelector(s string) (*Selector, error) {
	p := parser{in: s}
	out := &Selector{}
	if err := p.parse(out); err != nil {
		// A requirement's field errors wrap ErrInvalidSelector; a
		// syntax error does not, and is kept as text only.
		kind := err
		if !errors.Is(err, ErrInvalidSelector) {
			kind = ErrInvalidSelector
		}
		return nil, &field.Error{Prefix: "ownership", Value: fmt.Sprintf("%q", s), Detail: err.Error(), Err: kind}
	}
	return out, nil
}

// token kinds; tWord is an identifier, a value or the words in and notin.
type tokenKind uint8

const (
	tEnd tokenKind = iota
	tWord
	tOpen
	tClose
	tComma
	tNot
	tEq
	tEqEq
	tNotEq
	tGt
	tLt
)

type token struct {
	kind tokenKind
	text string
	pos  int
}

func (t token) String() string {
	if t.kind == tEnd {
		return "end of string"
	}
	return fmt.Sprintf("%q at byte %d", t.text, t.pos)
}

type parser struct {
	in   string
	toks []token
	next int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSymbol(c byte) bool { return strings.IndexByte("=!(),<>", c) >= 0 }

// lex splits the input into tokens: runs of symbols take "==" and "!="
// as one token, every other symbol is a token of its own; words run up to
// a space, a symbol or a NUL byte. A NUL byte where a token would start
// ends the input; one right after a token is dropped.
func (p *parser) lex() {
	for i := 0; ; {
		for i < len(p.in) && isSpace(p.in[i]) {
			i++
		}
		if i == len(p.in) || p.in[i] == 0 {
			p.toks = append(p.toks, token{kind: tEnd, pos: i})
			return
		}
		start := i
		c := p.in[i]
		var kind tokenKind
		if isSymbol(c) {
			i++
			kind = map[byte]tokenKind{'=': tEq, '!': tNot, '(': tOpen, ')': tClose, ',': tComma, '>': tGt, '<': tLt}[c]
			if i < len(p.in) && p.in[i] == '=' && (c == '=' || c == '!') {
				i++
				kind = map[byte]tokenKind{'=': tEqEq, '!': tNotEq}[c]
			}
		} else {
			for i < len(p.in) && p.in[i] != 0 && !isSymbol(p.in[i]) && !isSpace(p.in[i]) {
				i++
			}
			kind = tWord
		}
		p.toks = append(p.toks, token{kind: kind, text: p.in[start:i], pos: start})
		if i < len(p.in) && p.in[i] == 0 {
			i++
		}
	}
}

func (p *parser) peek() token { return p.toks[p.next] }

func (p *parser) take() token {
	t := p.toks[p.next]
	if t.kind != tEnd {
		p.next++
	}
	return t
}

func (p *parser) parse(out *Selector) error {
	p.lex()
	if p.peek().kind == tEnd {
		return nil
	}
	for {
		if k := p.peek().kind; k != tWord && k != tNot {
			return fmt.Errorf("found %v, expected '!' or a key", p.peek())
		}
		r, err := p.requirement()
		if err != nil {
			return err
		}
		out.MatchExpressions = append(out.MatchExpressions, r)
		switch t := p.take(); t.kind {
		case tEnd:
			return nil
		case tComma:
		default:
			return fmt.Errorf("found %v, expected ',' or end of string", t)
		}
	}
}

func (p *parser) requirement() (Requirement, error) {
	negated := false
	t := p.take()
	if t.kind == tNot {
		negated = true
		t = p.take()
	}
	if t.kind != tWord {
		return Requirement{}, fmt.Errorf("found %v, expected a key", t)
	}
	key := t.text
	if !validLabelKey(key) {
		return Requirement{}, requirementErrors(key, Exists, nil).ToError()
	}
	if negated {
		return Requirement{Key: key, Operator: DoesNotExist}, nil
	}
	if k := p.peek().kind; k == tEnd || k == tComma {
		return Requirement{Key: key, Operator: Exists}, nil
	}
	r := Requirement{Key: key}
	switch t := p.take(); {
	case t.kind == tWord && t.text == "in":
		r.Operator = In
	case t.kind == tWord && t.text == "notin":
		r.Operator = NotIn
	case t.kind == tEq || t.kind == tEqEq || t.kind == tNotEq:
		r.Operator = In
		if t.kind == tNotEq {
			r.Operator = NotIn
		}
		r.Values = []string{""}
		if k := p.peek().kind; k != tEnd && k != tComma {
			v := p.take()
			if v.kind != tWord {
				return Requirement{}, fmt.Errorf("found %v, expected a value", v)
			}
			r.Values[0] = v.text
		}
		return r, p.checkValues(r)
	case t.kind == tGt || t.kind == tLt:
		return Requirement{}, fmt.Errorf("found %v: the numeric comparisons > and < are not supported by apps/v1 label selectors", t)
	default:
		return Requirement{}, fmt.Errorf("found %v, expected one of =, ==, !=, in, notin", t)
	}
	if t := p.take(); t.kind != tOpen {
		return Requirement{}, fmt.Errorf("found %v, expected '('", t)
	}
	// A value list: values separated by commas; a missing value between
	// commas or next to a parenthesis is the empty value.
	vals := []string{}
	want := true // a value may come next
	for {
		t := p.take()
		switch {
		case t.kind == tWord && want:
			vals = append(vals, t.text)
			want = false
		case t.kind == tComma:
			if want {
				vals = append(vals, "")
			}
			want = true
		case t.kind == tClose:
			if want {
				vals = append(vals, "")
			}
			slices.Sort(vals)
			r.Values = slices.Compact(vals)
			return r, p.checkValues(r)
		default:
			return Requirement{}, fmt.Errorf("found %v, expected a value, ',' or ')'", t)
		}
	}
}

// checkValues reports invalid values of r in upstream's words.
func (p *parser) checkValues(r Requirement) error {
	for _, v := range r.Values {
		if !validLabelValue(v) {
			return requirementErrors(r.Key, r.Operator, r.Values).ToError()
		}
	}
	return nil
}

// String returns s in the form ParseSelector reads: matchLabels as
// key=value in key order, then each expression in order (key in (a,b),
// key notin (a,b), key, !key), separated by commas. For a valid s,
// ParseSelector(s.String()) selects exactly the label sets s selects. A
// nil s (which selects nothing) has no string form and returns "<nil>";
// an empty one returns "" (everything).
func (s *Selector) String() string {
	if s == nil {
		return "<nil>"
	}
	var parts []string
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+s.MatchLabels[k])
	}
	for _, r := range s.MatchExpressions {
		switch r.Operator {
		case In:
			parts = append(parts, r.Key+" in ("+strings.Join(r.Values, ",")+")")
		case NotIn:
			parts = append(parts, r.Key+" notin ("+strings.Join(r.Values, ",")+")")
		case Exists:
			parts = append(parts, r.Key)
		case DoesNotExist:
			parts = append(parts, "!"+r.Key)
		default:
			parts = append(parts, r.Key+" "+string(r.Operator)+" ("+strings.Join(r.Values, ",")+")")
		}
	}
	return strings.Join(parts, ",")
}
