package continuetoken

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// version is the only token format the real apiserver understands.
const version = "meta.k8s.io/v1"

// continueToken is the JSON inside a token, with the real server's member names. RV is
// signed: -1 means "continue at the latest revision".
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// Encode mirrors storage.EncodeContinue in k8s.io/apiserver pkg/storage/continue.go: the token
// of a list snapshot at rv whose next page starts at startKey (inclusive).
func Encode(rv uint64, startKey string) string {
	return encode(int64(rv), startKey)
}

// EncodeLatest builds the "inconsistent continuation" token that the real server puts in a
// 410 Expired Status (docs/behaviour/wire.md L12): it continues from startKey at the latest revision. It
// mirrors the token storage.EncodeContinue makes with resourceVersion -1.
func EncodeLatest(startKey string) string {
	return encode(-1, startKey)
}

func encode(rv int64, startKey string) string {
	// Marshal cannot fail for a struct of strings and an int.
	b, _ := json.Marshal(continueToken{APIVersion: version, ResourceVersion: rv, StartKey: startKey})
	return base64.RawURLEncoding.EncodeToString(b)
}

// The real server's error texts for bad tokens (storage/continue.go); the 400 message is
// "invalid continue token: " + one of these (docs/behaviour/wire.md L14, E40).
const (
	errGeneric    = "continue key is not valid"
	errStartRV    = "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
	errEmptyStart = "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"
	errVersion    = "continue key is not valid: server does not recognize this encoded version"
)

// typeName is how the JSON error of a token that is not an object names the token's type.
// Pinned rather than taken from reflection, so the text a client sees does not depend on
// which Go package holds the type.
const typeName = "apiserver.continueToken"

func bad(detail string) error {
	return api.NewBadRequest("invalid continue token: " + detail)
}

// Decode mirrors storage.DecodeContinue in k8s.io/apiserver pkg/storage/continue.go: it
// returns the snapshot rv and the start key of a token made by Encode. rv 0 with a nil error
// means "the latest revision" (a token from EncodeLatest). Errors are 400 BadRequest
// *api.Status with the real server's texts; a start key that would climb out of the
// collection ("../x") is rejected, as upstream does.
func Decode(token string) (rv uint64, startKey string, err error) {
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return 0, "", bad(errGeneric + ": " + err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		msg := err.Error()
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && ute.Type == reflect.TypeFor[continueToken]() {
			msg = strings.Replace(msg, ute.Type.String(), typeName, 1)
		}
		return 0, "", bad(errGeneric + ": " + msg)
	}
	if c.APIVersion != version {
		return 0, "", bad(errVersion + " " + c.APIVersion)
	}
	if c.ResourceVersion == 0 {
		return 0, "", bad(errStartRV)
	}
	if c.StartKey == "" {
		return 0, "", bad(errEmptyStart)
	}
	// A key that path.Clean would change could reach outside the collection's prefix.
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if path.Clean(key) != key {
		return 0, "", bad(fmt.Sprintf("%s: %s", errGeneric, c.StartKey))
	}
	if c.ResourceVersion < 0 {
		return 0, key[1:], nil
	}
	return uint64(c.ResourceVersion), key[1:], nil
}
