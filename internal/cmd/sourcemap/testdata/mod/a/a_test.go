package a

// Exported in a test file is not listed.
func TestOnly() {}
