// Package citecheck holds only a test: it walks the whole repository,
// nested modules included, and fails on a citation a reader cannot
// follow. That is a mention of design or specification notes kept outside
// the repository (cited by file name or by "§" section number), or a
// path or relative markdown link to a file that does not exist, or to a
// heading anchor that a markdown file in the repository does not have.
//
// Doc comments cite upstream by function and file, or a document under
// docs/ (for example docs/cloneset.md#partition).
package citecheck
