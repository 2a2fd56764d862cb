// Package release holds the test that rehearses a release of this
// repository's modules, as docs/releasing.md describes it: every published
// module is written at a test version into a file-based module proxy,
// each adapter's go.mod edited the way the release commit edits it, and a
// throwaway consumer module with no replace lines then runs `go get` of
// every adapter, `go mod tidy`, `go build`, `go list -m all` and
// `go install` of the planning commands. The package has no code of its
// own; see release_test.go.
package release
