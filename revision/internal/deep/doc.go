// Package deep holds the reflection behind package revision's template
// functions: one cache of facts per type, and three walks over values of
// any type that use it.
//
//   - [Equal] compares two values semantically, ignoring one entry of the
//     labels map that [LabelsPath] locates: revision.EqualIgnoreHash
//     without a registered comparator.
//   - [SelfEqual] tells whether a value equals a deep copy of itself by
//     Equal's rules, and where it does not: revision.EqualsItself.
//   - [Render] and [Hash] render a value as go-spew's "%#v" does with
//     upstream's hashing configuration, into a buffer or straight into an
//     FNV-32a state: revision.Hash.
//
// Equal runs a comparison compiled per type over the values' memory (see
// eqOp), with package unsafe: it runs at every sync of a controller, and
// a comparison through reflect.Value with the same rules took about 1.6
// times as long on the test package's realistic template and 2.3 times
// as long on a corev1.PodTemplateSpec. The other walks use reflect.Value
// only. The package's rules, the results,
// the allocations and the costs are documented on revision's functions;
// its shared state is the type cache and pools of scratch space, which
// never change a result.
package deep
