package fields

import "github.com/informer-lab/informer-lab/api/labels"

// Requirement mirrors fields.Requirement in k8s.io/apimachinery/pkg/fields: one term of a
// field selector. Operator is labels.Equals or labels.NotEquals ("==" is read as Equals).
type Requirement struct {
	Operator labels.Operator
	Field    string
	Value    string
}

// Requirements mirrors fields.Requirements in k8s.io/apimachinery/pkg/fields: terms that must
// all hold.
type Requirements []Requirement
