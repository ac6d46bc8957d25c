package validation

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// ValidateConfigMapSize mirrors the data checks of ValidateConfigMap in the core
// validation: every key of data and binaryData must be a valid config key and appear in only
// one of them, and the values together may not pass 1 MiB (docs/behaviour/wire.md E10: `ConfigMap "<n>"
// is invalid: []: Too long: may not be more than 1048576 bytes`). nil means valid.
//
// binaryData holds the values as sent, base64-encoded; their size is the decoded size.
func ValidateConfigMapSize(name string, data, binaryData map[string]string) error {
	var causes []api.StatusCause
	total := 0
	for _, k := range sortedStringKeys(data) {
		causes = append(causes, configMapKeyCauses("data", k)...)
		if _, dup := binaryData[k]; dup {
			causes = append(causes, Invalid("data["+k+"]", k, "duplicate of key present in binaryData"))
		}
		total += len(data[k])
	}
	for _, k := range sortedStringKeys(binaryData) {
		causes = append(causes, configMapKeyCauses("binaryData", k)...)
		total += base64.StdEncoding.DecodedLen(len(binaryData[k])) - padding(binaryData[k])
	}
	if total > maxConfigMapSize {
		// Upstream reports this on the empty path, which prints as "[]".
		causes = append(causes, TooLong("[]", maxConfigMapSize))
	}
	if len(causes) == 0 {
		return nil
	}
	return api.NewInvalid(api.GroupKind{Kind: "ConfigMap"}, name, causes)
}

// padding counts the '=' that end a base64 text, which DecodedLen counts as bytes.
func padding(s string) int {
	return len(s) - len(strings.TrimRight(s, "="))
}

// configMapKeyCauses mirrors validation.IsConfigMapKey for one key of bag.
func configMapKeyCauses(bag, key string) []api.StatusCause {
	var msgs []string
	if len(key) > dns1123SubdomainMaxLen {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d characters", dns1123SubdomainMaxLen))
	}
	if !matchConfigMapKey(key) {
		msgs = append(msgs, regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case key == ".":
		msgs = append(msgs, "must not be '.'")
	case key == "..":
		msgs = append(msgs, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		msgs = append(msgs, "must not start with '..'")
	}
	causes := make([]api.StatusCause, len(msgs))
	for i, m := range msgs {
		causes[i] = Invalid(bag+"["+key+"]", key, m)
	}
	return causes
}
