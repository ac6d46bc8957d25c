package decode

import (
	"fmt"
	"net/url"
	"unicode"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// fieldManagerMaxLength mirrors validation.FieldManagerMaxLength in apimachinery.
const fieldManagerMaxLength = 128

// The options kinds of the writes, as the 422s of option validation name them
// (`UpdateOptions.meta.k8s.io "" is invalid: …`).
const (
	// CreateOptionsKind names metav1.CreateOptions, the options of a POST.
	CreateOptionsKind = "CreateOptions"
	// UpdateOptionsKind names metav1.UpdateOptions, the options of a PUT.
	UpdateOptionsKind = "UpdateOptions"
	// PatchOptionsKind names metav1.PatchOptions, the options of a PATCH.
	PatchOptionsKind = "PatchOptions"
)

// WriteOptions are the validated query options of a create, update or patch. They mirror the
// parts of metav1.CreateOptions, UpdateOptions and PatchOptions that the simulator acts on.
type WriteOptions struct {
	// DryRun runs everything, defaulting and validation included, answers with what would be
	// stored, and stores nothing (no resourceVersion consumed, no watch event).
	DryRun bool
	// FieldValidation is "" (which means Warn) or one of api.FieldValidationIgnore, Warn and
	// Strict: what Body does with unknown and duplicate fields.
	FieldValidation string
	// FieldManager is the fieldManager parameter ("" when absent: the User-Agent's).
	FieldManager string
	// Force is the force parameter of an apply patch: take the fields of conflicts.
	Force bool
}

// ParseWriteOptions mirrors the options step of the create, update and patch handlers in
// k8s.io/apiserver pkg/endpoints/handlers: the query is decoded, then validated as
// ValidateCreateOptions, ValidateUpdateOptions or ValidatePatchOptions do, every problem a
// cause of one 422 naming the options kind (`UpdateOptions.meta.k8s.io "" is invalid: …`).
// kind is CreateOptionsKind, UpdateOptionsKind or PatchOptionsKind. patchType matters only for
// PatchOptions: an apply patch needs a fieldManager, any other patch may not carry force.
func ParseWriteOptions(kind string, q url.Values, patchType api.PatchType) (WriteOptions, error) {
	var causes []api.StatusCause
	fm := q.Get("fieldManager")
	if kind == PatchOptionsKind {
		if patchType == api.ApplyPatchType {
			if fm == "" {
				causes = append(causes, validation.Required("fieldManager", "is required for apply patch"))
			}
		} else if _, ok := q["force"]; ok {
			causes = append(causes, validation.Forbidden("force", "may not be specified for non-apply patch"))
		}
	}
	causes = append(causes, validateFieldManager(fm)...)
	dry := q["dryRun"]
	if c, bad := validateDryRun(dry); bad {
		causes = append(causes, c)
	}
	fv := q.Get("fieldValidation")
	switch fv {
	case "", api.FieldValidationIgnore, api.FieldValidationWarn, api.FieldValidationStrict:
	default:
		causes = append(causes, validation.NotSupported("fieldValidation", fv,
			[]string{"", api.FieldValidationIgnore, api.FieldValidationStrict, api.FieldValidationWarn}))
	}
	if len(causes) > 0 {
		return WriteOptions{}, api.NewInvalid(api.GroupKind{Group: api.MetaGroupName, Kind: kind}, "", causes)
	}
	force, _ := queryBool(q, "force")
	return WriteOptions{DryRun: len(dry) > 0, FieldValidation: fv, FieldManager: fm, Force: force}, nil
}

// validateDryRun mirrors ValidateDryRun: every value must be All.
func validateDryRun(values []string) (api.StatusCause, bool) {
	for _, d := range values {
		if d != api.DryRunAll {
			return validation.NotSupported("dryRun", values, []string{api.DryRunAll}), true
		}
	}
	return api.StatusCause{}, false
}

// validateFieldManager mirrors ValidateFieldManager: at most 128 bytes, printable only.
func validateFieldManager(fm string) []api.StatusCause {
	var causes []api.StatusCause
	if len(fm) > fieldManagerMaxLength {
		causes = append(causes, validation.TooLong("fieldManager", fieldManagerMaxLength))
	}
	for i, r := range fm {
		if !unicode.IsPrint(r) {
			causes = append(causes, validation.Invalid("fieldManager", fm, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	return causes
}
