package decode

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// listOptionsKind is how the 422s of ListOptions validation name the options (docs/behaviour/wire.md W2).
var listOptionsKind = api.GroupKind{Group: api.MetaGroupName, Kind: "ListOptions"}

// ParseListOptions mirrors listOpts in k8s.io/apiserver pkg/endpoints/handlers/get.go together
// with ValidateListOptions of apimachinery meta/internalversion/validation and the continue
// and resourceVersion checks of storage.ValidateListOptions. It reads labelSelector,
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
// they depend on the kind (ValidateFieldSelectorFields), nor is W6 defaulting (a watch with
// RV ""/"0" becoming a watch-list) done here: that is the caller's choice. Errors are
// *api.Status.
func ParseListOptions(q url.Values, isWatch bool) (api.ListOptions, error) {
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
		if _, _, err := continuetoken.Decode(o.Continue); err != nil {
			return api.ListOptions{}, err
		}
		if o.ResourceVersion != "" && o.ResourceVersion != "0" {
			return api.ListOptions{}, api.NewBadRequest("specifying resource version is not allowed when using continue")
		}
	} else if _, err := ParseResourceVersion(o.ResourceVersion); err != nil {
		return api.ListOptions{}, err
	}
	if isWatch {
		o.Watch = true
	}
	return o, nil
}

// validateListOptions mirrors ValidateListOptions and validateWatchOptions in apimachinery
// pkg/apis/meta/internalversion/validation, with the WatchList feature on (docs/behaviour/wire.md W5,
// E32–E38). A server that rejects watch-list does so after this, with its own 422 (CG5).
func validateListOptions(o *api.ListOptions) []api.StatusCause {
	const rvm = "resourceVersionMatch"
	var causes []api.StatusCause
	match := o.ResourceVersionMatch
	if o.Watch {
		if o.SendInitialEvents != nil && match != api.ResourceVersionMatchNotOlderThan {
			causes = append(causes, validation.Forbidden(rvm, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if match != "" {
			if o.SendInitialEvents == nil {
				causes = append(causes, validation.Forbidden(rvm, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
			}
			if match != api.ResourceVersionMatchNotOlderThan {
				causes = append(causes, validation.NotSupported(rvm, match, []string{api.ResourceVersionMatchNotOlderThan}))
			}
			if o.Continue != "" {
				causes = append(causes, validation.Forbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
			}
		}
		return causes
	}
	if match != "" {
		if o.ResourceVersion == "" {
			causes = append(causes, validation.Forbidden(rvm, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if o.Continue != "" {
			causes = append(causes, validation.Forbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
		}
		if match != api.ResourceVersionMatchExact && match != api.ResourceVersionMatchNotOlderThan {
			causes = append(causes, validation.NotSupported(rvm, match, []string{api.ResourceVersionMatchExact, api.ResourceVersionMatchNotOlderThan, ""}))
		}
		if match == api.ResourceVersionMatchExact && o.ResourceVersion == "0" {
			causes = append(causes, validation.Forbidden(rvm, `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
		}
	}
	if o.SendInitialEvents != nil {
		causes = append(causes, validation.Forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"))
	}
	return causes
}

// ValidateFieldSelectorFields mirrors the field-label conversion that listOpts runs
// (scope.Convertor.ConvertFieldLabel): every field of sel must be in allowed, else 400 with
// the real text (docs/behaviour/wire.md L19, E31). Pod, Namespace, Node, Event, Secret and Service have
// their own conversion functions upstream, which say `field label not supported: <label>`
// (Job's says `field label "<label>" not supported for Job`, ResourceSlice's `field label
// not supported for resource.k8s.io/v1, Kind=ResourceSlice: <label>`); every other kind goes
// through runtime.DefaultMetaV1FieldSelectorConversion, which says `"<label>" is not a known field
// selector: only "metadata.name", "metadata.namespace"`. kind is the Kind ("Pod"). Terms are
// checked in the selector's (sorted) order, so the first bad one is the one reported, as
// upstream. The Pod alias spec.host → spec.nodeName is the caller's to apply; list
// "spec.host" in allowed to accept it here.
func ValidateFieldSelectorFields(sel fields.Selector, allowed []string, kind string) error {
	if sel == nil {
		return nil
	}
	for _, r := range sel.Requirements() {
		if slices.Contains(allowed, r.Field) {
			continue
		}
		switch kind {
		case "Pod", "Namespace", "Node", "Event", "Secret", "Service":
			return api.NewBadRequest("field label not supported: " + r.Field)
		case "Job":
			return api.NewBadRequest(fmt.Sprintf("field label %q not supported for Job", r.Field))
		case "ResourceSlice": // resource.k8s.io's conversion function, which names the group-version too
			return api.NewBadRequest("field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: " + r.Field)
		default:
			return api.NewBadRequest(strconv.Quote(r.Field) + ` is not a known field selector: only "metadata.name", "metadata.namespace"`)
		}
	}
	return nil
}
