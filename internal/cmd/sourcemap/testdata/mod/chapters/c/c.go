package c

// C is a chapter helper.
func C() {}
