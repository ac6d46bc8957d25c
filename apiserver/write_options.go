package apiserver

import (
	"fmt"
	"net/url"
	"unicode"

	"github.com/informer-lab/informer-lab/api"
)

// dryRunAll is the one dryRun value the real server accepts (metav1.DryRunAll).
const dryRunAll = "All"

// fieldManagerMaxLength mirrors validation.FieldManagerMaxLength in apimachinery.
const fieldManagerMaxLength = 128

// Options kinds, as the 422s of option validation name them.
const (
	createOptionsKind = "CreateOptions"
	updateOptionsKind = "UpdateOptions"
	patchOptionsKind  = "PatchOptions"
)

// writeOptions are the validated query options of a create, update or patch
// (metav1.CreateOptions, UpdateOptions, PatchOptions).
type writeOptions struct {
	// dryRun: run everything, defaulting and validation included, answer with what would be
	// stored, and store nothing (no resourceVersion consumed, no watch event).
	dryRun          bool
	fieldValidation string
}

// parseWriteOptions mirrors the options step of the create, update and patch handlers in
// apiserver endpoints/handlers: the query is decoded, then validated as
// ValidateCreateOptions, ValidateUpdateOptions or ValidatePatchOptions do, every problem a
// cause of one 422 naming the options kind (`UpdateOptions.meta.k8s.io "" is invalid: …`).
// patchType matters only for PatchOptions: an apply patch needs a fieldManager, any other
// patch may not carry force.
func parseWriteOptions(kind string, q url.Values, patchType string) (writeOptions, error) {
	var causes []api.StatusCause
	fm := q.Get("fieldManager")
	if kind == patchOptionsKind {
		if patchType == patchTypeApply {
			if fm == "" {
				causes = append(causes, fieldRequired("fieldManager", "is required for apply patch"))
			}
		} else if _, ok := q["force"]; ok {
			causes = append(causes, fieldForbidden("force", "may not be specified for non-apply patch"))
		}
	}
	causes = append(causes, validateFieldManager(fm)...)
	dry := q["dryRun"]
	if c, bad := validateDryRun(dry); bad {
		causes = append(causes, c)
	}
	fv := q.Get("fieldValidation")
	switch fv {
	case "", fieldValidationIgnore, fieldValidationWarn, fieldValidationStrict:
	default:
		causes = append(causes, fieldNotSupported("fieldValidation", fv, []string{"", fieldValidationIgnore, fieldValidationStrict, fieldValidationWarn}))
	}
	if len(causes) > 0 {
		return writeOptions{}, api.NewInvalid(api.GroupKind{Group: api.MetaGroupName, Kind: kind}, "", causes)
	}
	return writeOptions{dryRun: len(dry) > 0, fieldValidation: fv}, nil
}

// validateDryRun mirrors ValidateDryRun: every value must be All.
func validateDryRun(values []string) (api.StatusCause, bool) {
	for _, d := range values {
		if d != dryRunAll {
			return fieldNotSupported("dryRun", values, []string{dryRunAll}), true
		}
	}
	return api.StatusCause{}, false
}

// validateFieldManager mirrors ValidateFieldManager: at most 128 bytes, printable only.
func validateFieldManager(fm string) []api.StatusCause {
	var causes []api.StatusCause
	if len(fm) > fieldManagerMaxLength {
		causes = append(causes, fieldTooLong("fieldManager", fieldManagerMaxLength))
	}
	for i, r := range fm {
		if !unicode.IsPrint(r) {
			causes = append(causes, fieldInvalid("fieldManager", fm, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	return causes
}

// isDryRun reports whether validated DeleteOptions ask for a dry run.
func isDryRun(o api.DeleteOptions) bool { return len(o.DryRun) > 0 }
