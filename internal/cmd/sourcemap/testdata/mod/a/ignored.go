//go:build ignore

package a

// Ignored does not match the build context.
func Ignored() {}
