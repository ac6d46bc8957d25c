package core

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// nodeStrategy mirrors pkg/registry/core/node/strategy.go.
type nodeStrategy struct{ rest.Base }

var taintEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// Validate implements rest.Strategy: validateNodeTaints (whose causes upstream places under
// metadata, not spec), then presence.
func (s nodeStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	type keyEffect struct{ key, effect string }
	seen := map[keyEffect]bool{}
	for i, t := range asList(child(obj.Object, "spec")["taints"]) {
		tm := asMapOf(t)
		p := fmt.Sprintf("metadata.taints[%d]", i)
		key := str(tm, "key")
		for _, m := range validation.IsQualifiedName(key) {
			causes = append(causes, validation.Invalid(p+".key", key, m))
		}
		if v := str(tm, "value"); v != "" {
			for _, m := range validation.IsLabelValue(v) {
				causes = append(causes, validation.Invalid(p+".value", v, m))
			}
		}
		switch e := str(tm, "effect"); {
		case e == "":
			causes = append(causes, validation.Required(p+".effect", ""))
		case !slices.Contains(taintEffects, e):
			causes = append(causes, validation.NotSupported(p+".effect", e, taintEffects))
		}
		k := keyEffect{key, str(tm, "effect")}
		if seen[k] {
			var added any
			if ta, ok := tm["timeAdded"]; ok {
				added = ta
			}
			b, _ := json.Marshal(struct {
				Key, Value, Effect string
				TimeAdded          any
			}{key, str(tm, "value"), k.effect, added})
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: p,
				Message: "Duplicate value: " + string(b) + ": taints must be unique by key and effect pair"})
		}
		seen[k] = true
	}
	// The taints' checks name them under metadata, as the real ones do, so the schema's
	// presence causes for the same members under spec are not given.
	return rest.RequiredCausesExcept(s.GVK, obj, causes, taintMembers())
}

// taintMembers are the paths of a taint's members under spec.
var taintMembers = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^spec\.taints\[\d+\]\.(key|effect)$`) })
