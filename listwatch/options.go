package listwatch

import (
	"net/url"
	"strconv"
)

// The options of single-object calls. api holds ListOptions and DeleteOptions, which the
// server parses too; these four only travel from client to server as query parameters, so
// they live beside the request builder that encodes them.

// DryRunAll mirrors metav1.DryRunAll: the one dryRun value the real server accepts.
const DryRunAll = "All"

// Values of fieldValidation (wire spec C1).
const (
	// FieldValidationIgnore mirrors metav1.FieldValidationIgnore: unknown fields are dropped.
	FieldValidationIgnore = "Ignore"
	// FieldValidationWarn mirrors metav1.FieldValidationWarn: dropped, with a Warning header.
	FieldValidationWarn = "Warn"
	// FieldValidationStrict mirrors metav1.FieldValidationStrict: unknown fields are a 400.
	FieldValidationStrict = "Strict"
)

// GetOptions mirrors metav1.GetOptions: the query of a GET on one object. ResourceVersion ""
// reads the latest state, "0" any cached state (wire spec L6).
type GetOptions struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// CreateOptions mirrors metav1.CreateOptions: the query of a POST (wire spec C1).
type CreateOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// UpdateOptions mirrors metav1.UpdateOptions: the query of a PUT (wire spec P6).
type UpdateOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// PatchOptions mirrors metav1.PatchOptions: the query of a PATCH (wire spec X1, X2). Force
// matters only to server-side apply.
type PatchOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	Force           *bool    `json:"force,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

func (o *GetOptions) queryParams() url.Values {
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

func (o *CreateOptions) queryParams() url.Values {
	if o == nil {
		return url.Values{}
	}
	return writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
}

func (o *UpdateOptions) queryParams() url.Values {
	if o == nil {
		return url.Values{}
	}
	return writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
}

func (o *PatchOptions) queryParams() url.Values {
	if o == nil {
		return url.Values{}
	}
	v := writeParams(o.DryRun, o.FieldManager, o.FieldValidation)
	if o.Force != nil {
		v.Set("force", strconv.FormatBool(*o.Force))
	}
	return v
}
