package registry

import (
	"errors"

	"github.com/informer-lab/informer-lab/api"
)

// withCauses adds to the outcome err of an update's validation the causes a subresource
// strategy found (rest.SubresourceStrategy), as one 422 Invalid.
func withCauses(res *Resource, obj *api.Unstructured, err error, extra []api.StatusCause) error {
	if len(extra) == 0 {
		return err
	}
	var st *api.Status
	switch {
	case err == nil:
	case errors.As(err, &st) && st.Details != nil && len(st.Details.Causes) > 0:
		extra = append(append([]api.StatusCause(nil), st.Details.Causes...), extra...)
	default:
		return err
	}
	return api.NewInvalid(res.Info.GroupKind(), obj.GetName(), extra)
}

// withoutNameFormatCauses drops the DNS-format causes of metadata.name and
// metadata.generateName, for a kind whose names are not checked (rest.UncheckedNamer);
// a missing name is still required.
func withoutNameFormatCauses(causes []api.StatusCause) []api.StatusCause {
	out := causes[:0:0]
	for _, c := range causes {
		if (c.Field == "metadata.name" || c.Field == "metadata.generateName") && c.Type != api.CauseTypeFieldValueRequired {
			continue
		}
		out = append(out, c)
	}
	return out
}
