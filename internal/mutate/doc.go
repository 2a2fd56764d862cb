// Command mutate measures how well a package's tests pin its behaviour:
// it makes small changes (mutants) to the package's source, one at a time,
// runs the package's tests against each, and reports which mutants the
// tests noticed (killed) and which they did not (survived).
//
// Usage:
//
//	go run ./internal/mutate [flags] [packages]
//
// The packages default to ./rollout/cloneset and ./rollout. For each one,
// mutate parses the package's non-test .go files and enumerates the
// mutants of these kinds:
//
//	cmp     < <-> <=, > <-> >=, == <-> !=
//	arith   + <-> -  (not on string literals)
//	const   an integer literal c -> c+1, and 1 -> 0
//	negate  the condition of an if or for statement c -> !(c)
//	delete  a simple assignment (=, op=), an x++/x-- or a return that is
//	        not a function's last statement
//
// It shuffles them with -seed (the order depends on nothing else) and runs
// the first -n that compile, after checking that the package's -short
// tests pass on the unchanged code (a failing suite would kill every
// mutant). A mutant is applied through `go test -overlay`, with the
// changed file in a temporary directory: the work tree is never written
// (the tests run with RAPID_NOFAILFILE=1, so that pgregory.net/rapid
// saves no failing case under testdata/rapid, which every later run
// would replay). Each mutant runs `go test -short -count=1 -failfast`;
// a mutant the short tests miss is run again without -short (with
// -confirm, the default) before it is called a survivor, so the verdicts
// are those of the full test suite at about a quarter of its cost (-short
// only skips tests, so a mutant the short run kills the full run kills
// too). A mutant that does not compile is reported and not counted. A run
// that exceeds -timeout is reported as timed out and counts as killed in
// the kill rate, the usual convention (an infinite loop is noticed).
//
// The report gives, per package, the mutants run, killed, survived, timed
// out and the kill rate, and lists each survivor as file:line:col with
// the mutation, for a person to judge whether it is equivalent. -list
// prints the mutants without running them; -match runs only the mutants
// whose description contains a string, and -run passes a -run pattern to
// go test, which together show one test killing one mutant. -skip K
// drops the first K mutants of the shuffled (and matched) list, so that a
// sample can be split between runs or an interrupted one continued: the
// mutants of -n N are those of -n J followed by those of -skip P, where P
// is the list position after the last mutant the first run tried (the
// mutants it ran and those that did not compile).
package main
