package continuetoken

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_ContinueTokenFormat checks the token against the real one of docs/behaviour/wire.md L10.
func TestCh01_ContinueTokenFormat(t *testing.T) {
	tok := Encode(12, "default/b\x00")
	assert.Equal(t, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIsInN0YXJ0IjoiZGVmYXVsdC9iXHUwMDAwIn0", tok)
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	require.NoError(t, err)
	assert.Equal(t, `{"v":"meta.k8s.io/v1","rv":12,"start":"default/b\u0000"}`, string(raw))

	rv, start, err := Decode(tok)
	require.NoError(t, err)
	assert.Equal(t, uint64(12), rv)
	assert.Equal(t, "default/b\x00", start)
}

func TestCh01_ContinueRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		rv  uint64
		key string
	}{{1, "a\x00"}, {99999, "kube-system/coredns-abc\x00"}, {1 << 62, "x"}, {7, "ns/with spaces and ünicode\x00"}} {
		rv, key, err := Decode(Encode(tc.rv, tc.key))
		require.NoError(t, err)
		assert.Equal(t, tc.rv, rv)
		assert.Equal(t, tc.key, key)
	}
	// L12: the fresh token of an Expired Status continues at the latest revision.
	latest := EncodeLatest("default/b\x00")
	raw, _ := base64.RawURLEncoding.DecodeString(latest)
	assert.Equal(t, `{"v":"meta.k8s.io/v1","rv":-1,"start":"default/b\u0000"}`, string(raw))
	rv, key, err := Decode(latest)
	require.NoError(t, err)
	assert.Equal(t, uint64(0), rv, "rv 0 means the latest revision")
	assert.Equal(t, "default/b\x00", key)
}

func rawContinueToken(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

// TestCh01_E40_BadContinueTokens checks the 400 texts of docs/behaviour/wire.md L14.
func TestCh01_E40_BadContinueTokens(t *testing.T) {
	tests := []struct {
		token string
		msg   string
	}{
		{"abc$def", "invalid continue token: continue key is not valid: illegal base64 data at input byte 3"},
		{"eyJ2Ijoi=", "invalid continue token: continue key is not valid: illegal base64 data at input byte 8"},
		{rawContinueToken(`[1]`), "invalid continue token: continue key is not valid: json: cannot unmarshal array into Go value of type apiserver.continueToken"},
		{rawContinueToken(`{"v":"meta.k8s.io/v2","rv":1,"start":"a"}`), "invalid continue token: continue key is not valid: server does not recognize this encoded version meta.k8s.io/v2"},
		{rawContinueToken(`{"rv":1,"start":"a"}`), "invalid continue token: continue key is not valid: server does not recognize this encoded version "},
		{rawContinueToken(`{"v":"meta.k8s.io/v1","rv":0,"start":"a"}`), "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"},
		{rawContinueToken(`{"v":"meta.k8s.io/v1","rv":3,"start":""}`), "invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"},
		{rawContinueToken(`{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}`), "invalid continue token: continue key is not valid: ../x"},
		{rawContinueToken(`{"v":"meta.k8s.io/v1","rv":3,"start":"a/../../b"}`), "invalid continue token: continue key is not valid: a/../../b"},
		{rawContinueToken(`{"v":"meta.k8s.io/v1","rv":3,"start":"a//b"}`), "invalid continue token: continue key is not valid: a//b"},
	}
	for _, tc := range tests {
		t.Run(tc.msg, func(t *testing.T) {
			_, _, err := Decode(tc.token)
			require.Error(t, err)
			assert.True(t, api.IsBadRequest(err))
			assert.Equal(t, tc.msg, err.Error())
		})
	}
}

func FuzzDecodeContinue(f *testing.F) {
	f.Add(Encode(12, "default/b\x00"))
	f.Add(EncodeLatest("a\x00"))
	f.Add(rawContinueToken(`{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}`))
	f.Add("")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, tok string) {
		rv, key, err := Decode(tok)
		if err != nil {
			if !api.IsBadRequest(err) {
				t.Fatalf("error is not a 400 Status: %v", err)
			}
			return
		}
		// A token we accept re-encodes to one that decodes the same way.
		if rv > 0 {
			rv2, key2, err := Decode(Encode(rv, key))
			if err != nil || rv2 != rv || key2 != key {
				t.Fatalf("round trip of %d %q: %d %q %v", rv, key, rv2, key2, err)
			}
		}
	})
}

func BenchmarkEncodeContinue(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = Encode(123456, "default/some-pod-name-0042\x00")
	}
}

func BenchmarkDecodeContinue(b *testing.B) {
	tok := Encode(123456, "default/some-pod-name-0042\x00")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode(tok); err != nil {
			b.Fatal(err)
		}
	}
}
