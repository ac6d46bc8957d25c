package printers

import (
	"fmt"
	"net/url"

	"github.com/informer-lab/informer-lab/api"
)

// The includeObject policies of a Table request: what each row's object is. They mirror
// metav1.IncludeNone, IncludeMetadata and IncludeObject; "" means Metadata.
const (
	// IncludeNone leaves each row without an object.
	IncludeNone = "None"
	// IncludeMetadata gives each row the object's PartialObjectMetadata.
	IncludeMetadata = "Metadata"
	// IncludeObject gives each row the whole object.
	IncludeObject = "Object"
)

// ParseIncludeObject reads ?includeObject for a Table request (docs/behaviour/wire.md E43). It mirrors the
// check of metav1.TableOptions in asTable (k8s.io/apiserver pkg/endpoints/handlers/response.go):
// another value is 400 with the real text.
func ParseIncludeObject(q url.Values) (string, error) {
	v := q.Get("includeObject")
	switch v {
	case "", IncludeNone, IncludeMetadata, IncludeObject:
		return v, nil
	}
	return "", api.NewBadRequest(fmt.Sprintf(
		"Unable to convert to Table as requested: includeObject: Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", v))
}
