package resource

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The checks of pkg/apis/resource/validation that judge members the Go types hold as plain
// values (a pool's counts, a device's or request's name): their absence is the zero value
// there, so the schema's presence causes for them are left out.

// sliceNotRequired are the presence causes ValidateResourceSlice does not give: the spec and
// pool are structs, the pool's counts, a device's name and a capacity's value plain values.
var sliceNotRequired = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^spec(\.pool(\.generation|\.resourceSliceCount)?|\.devices\[\d+\]\.(name|capacity\..*\.value))?$`)
})

// Validate implements rest.Strategy: validateResourceSliceSpec's driver, pool and node
// selection, then each device's name, then presence.
func (s sliceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	sp := sliceSpec(obj)
	driver, _ := sp["driver"].(string)
	causes := validation.CSIDriverNameCauses(driver, "spec.driver")
	causes = append(causes, poolCauses(asMap(sp["pool"]), "spec.pool")...)
	var set []string
	if n, ok := sp["nodeName"].(string); ok {
		if n != "" {
			set = append(set, "`nodeName`")
			for _, msg := range validation.IsDNS1123Subdomain(n) {
				causes = append(causes, validation.Invalid("spec.nodeName", n, msg))
			}
		} else {
			causes = append(causes, validation.Invalid("spec.nodeName", n, "must be either unset or set to a non-empty string"))
		}
	}
	if _, ok := sp["nodeSelector"].(map[string]any); ok {
		set = append(set, "`nodeSelector`")
	}
	for _, k := range []string{"allNodes", "perDeviceNodeSelection"} {
		if b, ok := sp[k].(bool); ok {
			if b {
				set = append(set, "`"+k+"`")
			} else {
				causes = append(causes, validation.Invalid("spec."+k, b, "must be either unset or set to true"))
			}
		}
	}
	const exactlyOne = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
	switch len(set) {
	case 0:
		causes = append(causes, validation.Required("spec", exactlyOne))
	case 1:
	default:
		causes = append(causes, validation.Invalid("spec", "{"+strings.Join(set, ", ")+"}", exactlyOne+", but multiple fields are set"))
	}
	for i, d := range sliceDevices(obj) {
		name, _ := d["name"].(string)
		causes = append(causes, dnsLabelCauses(name, fmt.Sprintf("spec.devices[%d].name", i))...)
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, sliceNotRequired())
}

// poolCauses mirrors validateResourcePool.
func poolCauses(pool map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	name, _ := pool["name"].(string)
	if name == "" {
		causes = append(causes, validation.Required(path+".name", ""))
	} else {
		if len(name) > 253 {
			causes = append(causes, validation.TooLong(path+".name", 253))
		}
		for _, part := range strings.Split(name, "/") {
			for _, msg := range validation.IsDNS1123Subdomain(part) {
				causes = append(causes, validation.Invalid(path+".name", part, msg))
			}
		}
	}
	count, _ := api.AsInt64(pool["resourceSliceCount"])
	if count <= 0 {
		causes = append(causes, validation.Invalid(path+".resourceSliceCount", count, "must be greater than zero"))
	}
	if gen, _ := api.AsInt64(pool["generation"]); gen < 0 {
		causes = append(causes, validation.Invalid(path+".generation", gen, "must be greater than or equal to zero"))
	}
	return causes
}

// dnsLabelCauses mirrors ValidateDNS1123Label: an empty name is an invalid label.
func dnsLabelCauses(name, path string) []api.StatusCause {
	var causes []api.StatusCause
	for _, msg := range validation.IsDNS1123Label(name) {
		causes = append(causes, validation.Invalid(path, name, msg))
	}
	return causes
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// claimStrategy mirrors the strategies of resourceclaims and resourceclaimtemplates: the
// claim spec at specPath is validated.
type claimStrategy struct {
	rest.Base
	specPath string
}

// Validate implements rest.Strategy: validateDeviceRequest's name and exact request's count
// for each request of the claim spec, then presence (a request's name is a plain value).
func (s claimStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	sp := obj.Object
	for _, k := range strings.Split(s.specPath, ".") {
		sp = asMap(sp[k])
	}
	path := s.specPath + ".devices.requests"
	reqs, _ := asMap(sp["devices"])["requests"].([]any)
	for i, r := range reqs {
		rm := asMap(r)
		p := fmt.Sprintf("%s[%d]", path, i)
		name, _ := rm["name"].(string)
		causes = append(causes, dnsLabelCauses(name, p+".name")...)
		ex, ok := rm["exactly"].(map[string]any)
		if !ok {
			continue
		}
		count, _ := api.AsInt64(ex["count"])
		switch mode, _ := ex["allocationMode"].(string); mode {
		case "All":
			if count != 0 {
				causes = append(causes, validation.Invalid(p+".exactly.count", count, "must not be specified when allocationMode is 'All'"))
			}
		case "ExactCount":
			if count <= 0 {
				causes = append(causes, validation.Invalid(p+".exactly.count", count, "must be greater than zero"))
			}
		}
	}
	skip := regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `\[\d+\]\.name$`)
	return rest.RequiredCausesExcept(s.GVK, obj, causes, skip)
}

// Canonicalize implements rest.Strategy: the slice as the typed one is written out, the
// pool's generation and each capacity's value always there (zero when unset).
func (sliceStrategy) Canonicalize(obj *api.Unstructured) {
	if pool, ok := sliceSpec(obj)["pool"].(map[string]any); ok {
		rest.EnsureMember(pool, int64(0), "generation")
	}
	for _, d := range sliceDevices(obj) {
		capacity, _ := d["capacity"].(map[string]any)
		for _, c := range capacity {
			if cm, ok := c.(map[string]any); ok {
				rest.EnsureMember(cm, "0", "value")
			}
		}
	}
}
