package apiserver

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/labels"
)

// queryBool mirrors runtime.Convert_Slice_string_To_bool: a present parameter is true unless
// its first value is "0" or "false" (any case); "watch=" is true (wire spec U10).
func queryBool(q url.Values, name string) (value, present bool) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return false, false
	}
	v := vs[0]
	return !(v == "0" || strings.EqualFold(v, "false")), true
}

// queryInt64 mirrors runtime.Convert_Slice_string_To_int64; the error is strconv's text,
// which the real server sends as the 400 message (wire spec E28).
func queryInt64(q url.Values, name string) (value int64, present bool, err error) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return 0, false, nil
	}
	i, err := strconv.ParseInt(vs[0], 10, 64)
	if err != nil {
		return 0, true, api.NewBadRequest(err.Error())
	}
	return i, true, nil
}

// listOptionsKind is how the 422s of ListOptions validation name the options (wire spec W2).
var listOptionsKind = api.GroupKind{Group: api.MetaGroupName, Kind: "ListOptions"}

// parseListOptions mirrors listOpts in apiserver endpoints/handlers/get.go together with
// ValidateListOptions of apimachinery meta/internalversion/validation and the continue and
// resourceVersion checks of storage.ValidateListOptions. It reads labelSelector,
// fieldSelector, watch, allowWatchBookmarks, resourceVersion, resourceVersionMatch,
// timeoutSeconds, limit, continue and sendInitialEvents, in the real server's order of
// checks:
//
//  1. timeoutSeconds, limit: not an integer → 400 with strconv's text (E28);
//  2. labelSelector, fieldSelector: unparsable → 400 with the parser's text (E29, E30);
//  3. the options → 422 `ListOptions.meta.k8s.io "" is invalid: …` (E32–E38);
//  4. for a LIST: a continue token that does not decode → 400 (E40), continue with a
//     resourceVersion other than "" or "0" → 400 (E39); otherwise a resourceVersion that is
//     not a uint64 → 400 (E26; the real server answers 500 for WATCH and GET, E27, 400 is
//     the friendlier choice the spec allows).
//
// Booleans follow U10. isWatch marks a legacy /watch/ path: the result then has Watch set,
// but, as in the real server, step 3 still judges the query by its own watch parameter, so a
// legacy watch path is validated like a LIST. Field labels are not checked here, because
// they depend on the kind (validateFieldSelectorFields), nor is W6 defaulting (a watch with
// RV ""/"0" becoming a watch-list) done here: that is the caller's choice. Errors are
// *api.Status.
func parseListOptions(q url.Values, isWatch bool) (api.ListOptions, error) {
	var o api.ListOptions
	o.LabelSelector = q.Get("labelSelector")
	o.FieldSelector = q.Get("fieldSelector")
	o.Watch, _ = queryBool(q, "watch")
	o.AllowWatchBookmarks, _ = queryBool(q, "allowWatchBookmarks")
	o.ResourceVersion = q.Get("resourceVersion")
	o.ResourceVersionMatch = q.Get("resourceVersionMatch")
	if t, ok, err := queryInt64(q, "timeoutSeconds"); err != nil {
		return api.ListOptions{}, err
	} else if ok {
		o.TimeoutSeconds = &t
	}
	limit, _, err := queryInt64(q, "limit")
	if err != nil {
		return api.ListOptions{}, err
	}
	o.Limit = limit
	o.Continue = q.Get("continue")
	if sie, ok := queryBool(q, "sendInitialEvents"); ok {
		o.SendInitialEvents = &sie
	}

	if _, err := labels.Parse(o.LabelSelector); err != nil {
		return api.ListOptions{}, api.NewBadRequest(err.Error())
	}
	if _, err := fields.ParseSelector(o.FieldSelector); err != nil {
		return api.ListOptions{}, api.NewBadRequest(err.Error())
	}

	if causes := validateListOptions(&o); len(causes) > 0 {
		return api.ListOptions{}, api.NewInvalid(listOptionsKind, "", causes)
	}

	if !o.Watch && !isWatch && o.Continue != "" {
		if _, _, err := decodeContinue(o.Continue); err != nil {
			return api.ListOptions{}, err
		}
		if o.ResourceVersion != "" && o.ResourceVersion != "0" {
			return api.ListOptions{}, api.NewBadRequest("specifying resource version is not allowed when using continue")
		}
	} else if _, err := parseResourceVersion(o.ResourceVersion); err != nil {
		return api.ListOptions{}, err
	}
	if isWatch {
		o.Watch = true
	}
	return o, nil
}

// validateListOptions mirrors ValidateListOptions and validateWatchOptions in apimachinery
// pkg/apis/meta/internalversion/validation, with the WatchList feature on (wire spec W5,
// E32–E38). A server that rejects watch-list does so after this, with its own 422 (CG5).
func validateListOptions(o *api.ListOptions) []api.StatusCause {
	const rvm = "resourceVersionMatch"
	var causes []api.StatusCause
	match := o.ResourceVersionMatch
	if o.Watch {
		if o.SendInitialEvents != nil && match != api.ResourceVersionMatchNotOlderThan {
			causes = append(causes, fieldForbidden(rvm, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if match != "" {
			if o.SendInitialEvents == nil {
				causes = append(causes, fieldForbidden(rvm, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
			}
			if match != api.ResourceVersionMatchNotOlderThan {
				causes = append(causes, fieldNotSupported(rvm, match, []string{api.ResourceVersionMatchNotOlderThan}))
			}
			if o.Continue != "" {
				causes = append(causes, fieldForbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
			}
		}
		return causes
	}
	if match != "" {
		if o.ResourceVersion == "" {
			causes = append(causes, fieldForbidden(rvm, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if o.Continue != "" {
			causes = append(causes, fieldForbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
		}
		if match != api.ResourceVersionMatchExact && match != api.ResourceVersionMatchNotOlderThan {
			causes = append(causes, fieldNotSupported(rvm, match, []string{api.ResourceVersionMatchExact, api.ResourceVersionMatchNotOlderThan, ""}))
		}
		if match == api.ResourceVersionMatchExact && o.ResourceVersion == "0" {
			causes = append(causes, fieldForbidden(rvm, `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
		}
	}
	if o.SendInitialEvents != nil {
		causes = append(causes, fieldForbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"))
	}
	return causes
}

// parseResourceVersion mirrors APIObjectVersioner.ParseResourceVersion in apiserver
// pkg/storage: "" and "0" both give 0 (the caller tells them apart by the string, wire spec
// 0.2); anything else must be a decimal uint64. The error is the 400 the real server sends
// for a LIST (E26): `invalid resource version: resourceVersion: Invalid value: "abc":
// strconv.ParseUint: parsing "abc": invalid syntax`.
func parseResourceVersion(s string) (uint64, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	rv, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, api.NewBadRequest("invalid resource version: resourceVersion: Invalid value: " +
			strconv.Quote(s) + ": " + err.Error())
	}
	return rv, nil
}

// validateFieldSelectorFields mirrors the field-label conversion that listOpts runs
// (scope.Convertor.ConvertFieldLabel): every field of sel must be in allowed, else 400 with
// the real text (wire spec L19, E31). Pod and Namespace have their own conversion functions
// upstream, which say `field label not supported: <label>`; every other kind goes through
// runtime.DefaultMetaV1FieldSelectorConversion, which says `"<label>" is not a known field
// selector: only "metadata.name", "metadata.namespace"`. kind is the Kind ("Pod"). Terms are
// checked in the selector's (sorted) order, so the first bad one is the one reported, as
// upstream. The Pod alias spec.host → spec.nodeName is the caller's to apply; list
// "spec.host" in allowed to accept it here.
func validateFieldSelectorFields(sel fields.Selector, allowed []string, kind string) error {
	if sel == nil {
		return nil
	}
	for _, r := range sel.Requirements() {
		if slices.Contains(allowed, r.Field) {
			continue
		}
		switch kind {
		case "Pod", "Namespace":
			return api.NewBadRequest("field label not supported: " + r.Field)
		default:
			return api.NewBadRequest(strconv.Quote(r.Field) + ` is not a known field selector: only "metadata.name", "metadata.namespace"`)
		}
	}
	return nil
}

// deleteOptionsKind is how the 422s of DeleteOptions validation name the options.
var deleteOptionsKind = api.GroupKind{Group: api.MetaGroupName, Kind: "DeleteOptions"}

// parseDeleteOptions mirrors the options step of DeleteResource in apiserver
// endpoints/handlers/delete.go (wire spec D1): a non-empty body is decoded as DeleteOptions
// (kind and apiVersion optional, as kubectl sends `{"propagationPolicy":"Background"}`) and
// then the query is not read at all; an empty body takes gracePeriodSeconds,
// propagationPolicy and dryRun from the query. Preconditions only travel in the body. An
// undecodable body or a non-integer gracePeriodSeconds → 400; a propagationPolicy other than
// Orphan, Background or Foreground, or a dryRun other than All → 422 `DeleteOptions.meta.k8s.io
// "" is invalid: …`. The result has kind DeleteOptions and apiVersion meta.k8s.io/v1 set.
func parseDeleteOptions(q url.Values, body []byte) (api.DeleteOptions, error) {
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
		if vs, ok := q["dryRun"]; ok {
			o.DryRun = slices.Clone(vs)
		}
	}
	var causes []api.StatusCause
	if p := o.PropagationPolicy; p != nil {
		switch *p {
		case "Foreground", "Background", "Orphan":
		default:
			causes = append(causes, fieldNotSupported("propagationPolicy", *p, []string{"Foreground", "Background", "Orphan", "nil"}))
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
