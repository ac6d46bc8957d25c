package core

import (
	"crypto/rand"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// limitRangeStrategy mirrors pkg/registry/core/limitrange/strategy.go. Surprising: a
// LimitRange sent without a name (and without generateName) is not refused, it is named with
// a fresh UUID; and a PUT of a missing one creates it.
type limitRangeStrategy struct{ rest.Base }

// PrepareForCreate implements rest.Strategy.
func (limitRangeStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	if obj.GetName() == "" {
		obj.SetName(newUUID())
	}
}

// AllowCreateOnUpdate implements rest.Strategy.
func (limitRangeStrategy) AllowCreateOnUpdate() bool { return true }

// LimitRanges is the limitranges resource (pkg/registry/core/limitrange).
func LimitRanges() rest.Kind {
	return rest.Kind{Resource: "limitranges", Kind: "LimitRange", ShortNames: []string{"limits"},
		Strategy: limitRangeStrategy{rest.Base{GVK: gvk("LimitRange"), Unconditional: true}}}
}

// newUUID returns an RFC 4122 version 4 UUID, as uuid.NewUUID does.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
