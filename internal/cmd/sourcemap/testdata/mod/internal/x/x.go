package x

// X is internal.
func X() {}
