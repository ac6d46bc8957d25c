package decode

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// deleteOptionsKind is how the 422s of DeleteOptions validation name the options.
var deleteOptionsKind = api.GroupKind{Group: api.MetaGroupName, Kind: "DeleteOptions"}

// ParseDeleteOptions mirrors the options step of DeleteResource in k8s.io/apiserver pkg
// endpoints/handlers/delete.go (docs/behaviour/wire.md D1): a non-empty body is decoded as DeleteOptions
// (kind and apiVersion optional, as kubectl sends `{"propagationPolicy":"Background"}`) and
// then the query is not read at all; an empty body takes gracePeriodSeconds,
// propagationPolicy and dryRun from the query. Preconditions only travel in the body. An
// undecodable body or a non-integer gracePeriodSeconds → 400; a propagationPolicy other than
// Orphan, Background or Foreground, or a dryRun other than All → 422 `DeleteOptions.meta.k8s.io
// "" is invalid: …`. The result has kind DeleteOptions and apiVersion meta.k8s.io/v1 set.
func ParseDeleteOptions(q url.Values, body []byte) (api.DeleteOptions, error) {
	var o api.DeleteOptions
	if len(body) > 0 {
		if err := json.Unmarshal(body, &o); err != nil {
			return api.DeleteOptions{}, api.NewBadRequest(err.Error())
		}
		if k := o.Kind; k != "" && k != "DeleteOptions" {
			return api.DeleteOptions{}, api.NewBadRequest("decoded object cannot be converted to DeleteOptions")
		}
	} else {
		if g, ok, err := queryInt64(q, "gracePeriodSeconds"); err != nil {
			return api.DeleteOptions{}, err
		} else if ok {
			o.GracePeriodSeconds = &g
		}
		if vs, ok := q["propagationPolicy"]; ok && len(vs) > 0 {
			p := vs[0]
			o.PropagationPolicy = &p
		}
		if vs, ok := q["orphanDependents"]; ok && len(vs) > 0 {
			b := !strings.EqualFold(vs[0], "false") && vs[0] != "0" // Convert_Slice_string_To_bool
			o.OrphanDependents = &b
		}
		if vs, ok := q["dryRun"]; ok {
			o.DryRun = slices.Clone(vs)
		}
	}
	var causes []api.StatusCause
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		causes = append(causes, validation.Invalid("propagationPolicy", *o.PropagationPolicy, "orphanDependents and deletionPropagation cannot be both set"))
	}
	if p := o.PropagationPolicy; p != nil {
		switch *p {
		case "Foreground", "Background", "Orphan":
		default:
			causes = append(causes, validation.NotSupported("propagationPolicy", *p, []string{"Foreground", "Background", "Orphan", "nil"}))
		}
	}
	if c, bad := validateDryRun(o.DryRun); bad {
		causes = append(causes, c)
	}
	if len(causes) > 0 {
		return api.DeleteOptions{}, api.NewInvalid(deleteOptionsKind, "", causes)
	}
	o.Kind, o.APIVersion = "DeleteOptions", api.MetaGroupName+"/v1"
	return o, nil
}

// IsDryRun reports whether validated DeleteOptions ask for a dry run: ParseDeleteOptions has
// made sure that every dryRun value is All.
func IsDryRun(o api.DeleteOptions) bool { return len(o.DryRun) > 0 }
