package rollout

// ceilingSum describes how the most pods a rolling update may run is made
// up, for a reason: "10 + maxSurge 3", or when R + maxSurge passes
// math.MaxInt32, where the ceiling saturates (upstream's wraps),
// "2147483647 + maxSurge 536870912 = 2684354559, saturated at 2147483647",
// so that a reason never states a sum that does not add up.
func ceilingSum[T any](d *Deployment[T]) string { return ceilingOf(d).sum() }

// ceilingNote is ceilingSum's note alone, for a reason that states the
// ceiling without its sum: "" or ", saturated from 2684354559".
func ceilingNote[T any](d *Deployment[T]) string { return ceilingOf(d).note() }
