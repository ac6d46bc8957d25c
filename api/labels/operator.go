package labels

// Operator mirrors selection.Operator in k8s.io/apimachinery/pkg/selection. Upstream keeps it in
// its own package so labels and fields can share it; here it lives in labels and the fields
// package reuses it.
type Operator string

const (
	// DoesNotExist mirrors selection.DoesNotExist: "!k".
	DoesNotExist Operator = "!"
	// Equals mirrors selection.Equals: "k=v".
	Equals Operator = "="
	// DoubleEquals mirrors selection.DoubleEquals: "k==v", the same test as Equals.
	DoubleEquals Operator = "=="
	// In mirrors selection.In: "k in (a,b)".
	In Operator = "in"
	// NotEquals mirrors selection.NotEquals: "k!=v".
	NotEquals Operator = "!="
	// NotIn mirrors selection.NotIn: "k notin (a,b)".
	NotIn Operator = "notin"
	// Exists mirrors selection.Exists: a bare "k".
	Exists Operator = "exists"
	// GreaterThan mirrors selection.GreaterThan; the selector text is "k>5", not "k gt 5".
	GreaterThan Operator = "gt"
	// LessThan mirrors selection.LessThan; the selector text is "k<5", not "k lt 5".
	LessThan Operator = "lt"
)

// binaryOperators and allOperators are listed in the order the real server prints them in
// its error texts, which tests compare byte for byte.
var (
	binaryOperators = []Operator{In, NotIn, Equals, DoubleEquals, NotEquals, GreaterThan, LessThan}
	allOperators    = append(append([]Operator(nil), binaryOperators...), Exists, DoesNotExist)
)
