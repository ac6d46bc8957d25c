package ssacheck

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metaEntry is a managedFields entry without its time (the two sides read different
// clocks): who, and the FieldsV1 bytes.
type metaEntry struct {
	id     string
	fields string
}

func entriesOf(list []metav1.ManagedFieldsEntry) []metaEntry {
	out := make([]metaEntry, len(list))
	for i, e := range list {
		f := ""
		if e.FieldsV1 != nil {
			f = e.FieldsV1.GetRawString()
		}
		out[i] = metaEntry{id: fmt.Sprintf("%s/%s/%s/%s/%s", e.Manager, e.Operation, e.APIVersion, e.Subresource, e.FieldsType), fields: f}
	}
	return out
}
