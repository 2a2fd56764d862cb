package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// mutant is one small change to one file: the bytes [start, end) of the
// file are replaced by repl.
type mutant struct {
	path       string // the file's path, as given to enumerate
	line, col  int    // where the change starts, 1-based
	start, end int    // byte offsets of the replaced text
	repl       string // the replacement
	kind       string // cmp, arith, const, negate or delete
	desc       string // the change in words, e.g. "<= -> <"
}

// id names the mutant for reports and for -match and -equiv: the file,
// the position, the kind and the change.
func (m mutant) id() string {
	return fmt.Sprintf("%s:%d:%d %s %s", filepath.ToSlash(m.path), m.line, m.col, m.kind, m.desc)
}

// apply returns src with the mutant's change made.
func (m mutant) apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.repl))
	out = append(out, src[:m.start]...)
	out = append(out, m.repl...)
	return append(out, src[m.end:]...)
}

// swaps are the operator mutations: each operator and what it becomes.
var swaps = map[token.Token]struct {
	to   token.Token
	kind string
}{
	token.LSS: {token.LEQ, "cmp"},
	token.LEQ: {token.LSS, "cmp"},
	token.GTR: {token.GEQ, "cmp"},
	token.GEQ: {token.GTR, "cmp"},
	token.EQL: {token.NEQ, "cmp"},
	token.NEQ: {token.EQL, "cmp"},
	token.ADD: {token.SUB, "arith"},
	token.SUB: {token.ADD, "arith"},
}

// enumerateDir returns the mutants of every non-test, non-generated .go
// file in dir, in file and offset order.
func enumerateDir(dir string) ([]mutant, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var all []mutant
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ms, err := enumerate(name, src)
		if err != nil {
			return nil, err
		}
		all = append(all, ms...)
	}
	return all, nil
}

// enumerate returns the mutants of one file's source, in offset order.
// A generated file has none.
func enumerate(path string, src []byte) ([]mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	tf := fset.File(f.Pos())
	var ms []mutant
	add := func(pos, end token.Pos, repl, kind, desc string) {
		p := fset.Position(pos)
		ms = append(ms, mutant{
			path: path, line: p.Line, col: p.Column,
			start: tf.Offset(pos), end: tf.Offset(end),
			repl: repl, kind: kind, desc: desc,
		})
	}
	text := func(n ast.Node) string { return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())]) }
	negate := func(cond ast.Expr) {
		if cond == nil {
			return
		}
		add(cond.Pos(), cond.End(), "!("+text(cond)+")", "negate", "`"+short(text(cond))+"`")
	}
	lastOfFunc := map[ast.Stmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && len(n.Body.List) > 0 {
				lastOfFunc[n.Body.List[len(n.Body.List)-1]] = true
			}
		case *ast.FuncLit:
			if len(n.Body.List) > 0 {
				lastOfFunc[n.Body.List[len(n.Body.List)-1]] = true
			}
		}
		return true
	})
	deletable := func(list []ast.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE {
					continue
				}
				if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name == "_" && len(s.Lhs) == 1 {
					continue
				}
				add(s.Pos(), s.End(), "", "delete", "`"+short(text(s))+"`")
			case *ast.IncDecStmt:
				add(s.Pos(), s.End(), "", "delete", "`"+short(text(s))+"`")
			case *ast.ReturnStmt:
				if !lastOfFunc[s] {
					add(s.Pos(), s.End(), "", "delete", "`"+short(text(s))+"`")
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			// Imports and type declarations (array lengths) are not
			// behaviour; constants and variables are.
			return n.Tok == token.CONST || n.Tok == token.VAR
		case *ast.BinaryExpr:
			sw, ok := swaps[n.Op]
			if !ok || sw.kind == "arith" && (isStringLit(n.X) || isStringLit(n.Y)) {
				return true
			}
			add(n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), sw.to.String(), sw.kind,
				n.Op.String()+" -> "+sw.to.String())
		case *ast.BasicLit:
			if n.Kind != token.INT {
				return true
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
			if err != nil {
				return true
			}
			add(n.Pos(), n.End(), strconv.FormatInt(v+1, 10), "const", n.Value+" -> "+strconv.FormatInt(v+1, 10))
			if v == 1 {
				add(n.Pos(), n.End(), "0", "const", "1 -> 0")
			}
		case *ast.IfStmt:
			negate(n.Cond)
		case *ast.ForStmt:
			negate(n.Cond)
		case *ast.BlockStmt:
			deletable(n.List)
		case *ast.CaseClause:
			deletable(n.Body)
		case *ast.CommClause:
			deletable(n.Body)
		case *ast.ArrayType:
			return false // a length is a type, not a value
		}
		return true
	})
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return ms[i].end < ms[j].end
	})
	return ms, nil
}

// isStringLit reports whether e is a string literal, whose + is
// concatenation and has no - to become.
func isStringLit(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING
}

// short returns s on one line, cut to 60 bytes.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
