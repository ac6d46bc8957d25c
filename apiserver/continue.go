package apiserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// continueVersion is the only token format the real apiserver understands.
const continueVersion = "meta.k8s.io/v1"

// continueToken is the JSON inside a continue token, with the real server's member names so
// that a token from one server reads the same on the other (wire spec L10). RV is signed: the
// real server encodes -1 for "continue at the latest revision" (L12).
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// encodeContinue mirrors storage.EncodeContinue in k8s.io/apiserver pkg/storage/continue.go:
// the token for a list snapshot at rv whose next page starts at startKey (inclusive). The
// caller passes lastReturnedKey + "\x00", as the real server's PrepareContinueToken does, so
// the next page starts strictly after the last returned key. Keys are relative to the
// collection: "ns/name" for an all-namespaces list, "name" inside one namespace or for a
// cluster-scoped resource. The token is unpadded base64url of {"v":..,"rv":..,"start":..}.
func encodeContinue(rv uint64, startKey string) string {
	return encodeToken(int64(rv), startKey)
}

// encodeContinueLatest builds the "inconsistent continuation" token that the real server puts
// in a 410 Expired Status (wire spec L12): it continues from startKey at the latest revision
// (rv -1 inside the token); decodeContinue returns rv 0 for it.
func encodeContinueLatest(startKey string) string {
	return encodeToken(-1, startKey)
}

func encodeToken(rv int64, startKey string) string {
	// Marshal cannot fail for a struct of strings and an int.
	b, _ := json.Marshal(continueToken{APIVersion: continueVersion, ResourceVersion: rv, StartKey: startKey})
	return base64.RawURLEncoding.EncodeToString(b)
}

// The real server's error texts for bad tokens (storage/continue.go); the 400 message is
// "invalid continue token: " + one of these (wire spec L14, E40).
const (
	errContinueGeneric    = "continue key is not valid"
	errContinueStartRV    = "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
	errContinueEmptyStart = "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"
	errContinueVersion    = "continue key is not valid: server does not recognize this encoded version"
)

func badContinue(detail string) error {
	return api.NewBadRequest("invalid continue token: " + detail)
}

// decodeContinue mirrors storage.DecodeContinue: it returns the snapshot rv and the start key
// of a token made by encodeContinue. rv 0 with a nil error means "the latest revision" (a
// token from encodeContinueLatest; a real token never carries rv 0). Errors are 400
// BadRequest *api.Status with the real server's texts (wire spec L14, E40); a start key that
// would climb out of the collection ("../x") is rejected, as upstream does.
func decodeContinue(token string) (rv uint64, startKey string, err error) {
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return 0, "", badContinue(errContinueGeneric + ": " + err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return 0, "", badContinue(errContinueGeneric + ": " + err.Error())
	}
	if c.APIVersion != continueVersion {
		return 0, "", badContinue(errContinueVersion + " " + c.APIVersion)
	}
	if c.ResourceVersion == 0 {
		return 0, "", badContinue(errContinueStartRV)
	}
	if c.StartKey == "" {
		return 0, "", badContinue(errContinueEmptyStart)
	}
	// A key that path.Clean would change could reach outside the collection's prefix.
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if path.Clean(key) != key {
		return 0, "", badContinue(fmt.Sprintf("%s: %s", errContinueGeneric, c.StartKey))
	}
	if c.ResourceVersion < 0 {
		return 0, key[1:], nil
	}
	return uint64(c.ResourceVersion), key[1:], nil
}
