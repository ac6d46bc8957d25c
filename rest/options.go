package rest

import (
	"net/url"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
)

// The query encoding of the single-object options (api.GetOptions, api.CreateOptions,
// api.UpdateOptions, api.PatchOptions), as client-go's parameter codec writes them.

func getQuery(o *api.GetOptions) url.Values {
	v := url.Values{}
	if o != nil && o.ResourceVersion != "" {
		v.Set("resourceVersion", o.ResourceVersion)
	}
	return v
}

// writeParams encodes the members the write options share.
func writeParams(dryRun []string, fieldManager, fieldValidation string) url.Values {
	v := url.Values{}
	for _, d := range dryRun {
		v.Add("dryRun", d)
	}
	if fieldManager != "" {
		v.Set("fieldManager", fieldManager)
	}
	if fieldValidation != "" {
		v.Set("fieldValidation", fieldValidation)
	}
	return v
}

func createQuery(o *api.CreateOptions) url.Values {
	if o == nil {
		return url.Values{}
	}
	return writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
}

func updateQuery(o *api.UpdateOptions) url.Values {
	if o == nil {
		return url.Values{}
	}
	return writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
}

func patchQuery(o *api.PatchOptions) url.Values {
	if o == nil {
		return url.Values{}
	}
	v := writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
	if o.Force != nil {
		v.Set("force", strconv.FormatBool(*o.Force))
	}
	return v
}
