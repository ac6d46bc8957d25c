package validation

import (
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// CSIDriverNameCauses mirrors ValidateCSIDriverName: required, at most 63 characters, and a
// DNS subdomain once lower-cased.
func CSIDriverNameCauses(name, path string) []api.StatusCause {
	if name == "" {
		return []api.StatusCause{Required(path, "")}
	}
	var causes []api.StatusCause
	if len(name) > 63 {
		causes = append(causes, TooLong(path, 63))
	}
	for _, msg := range IsDNS1123Subdomain(strings.ToLower(name)) {
		causes = append(causes, Invalid(path, name, msg))
	}
	return causes
}
