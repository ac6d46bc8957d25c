package store

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func pod(ns, name, rv string, labels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

// K-1: ExplicitKey verbatim, ns/name, name alone for cluster-scoped, error without metadata.
func TestCh03_K1_MetaNamespaceKeyFunc(t *testing.T) {
	tests := []struct {
		name    string
		obj     any
		want    string
		wantErr bool
	}{
		{name: "namespaced", obj: pod("ns1", "a", "", nil), want: "ns1/a"},
		{name: "cluster-scoped", obj: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "kube-system"}}, want: "kube-system"},
		{name: "explicit key", obj: ExplicitKey("any/thing/at/all"), want: "any/thing/at/all"},
		{name: "no metadata", obj: struct{ X int }{1}, wantErr: true},
		{name: "nil", obj: nil, wantErr: true},
		{name: "string is not an ExplicitKey", obj: "ns/a", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MetaNamespaceKeyFunc(tc.obj)
			if tc.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// K-2: one part is a name, two are namespace and name, three or more are an error.
func TestCh03_K2_SplitMetaNamespaceKey(t *testing.T) {
	tests := []struct {
		key, ns, name string
		wantErr       bool
	}{
		{key: "", ns: "", name: ""},
		{key: "a", ns: "", name: "a"},
		{key: "ns/a", ns: "ns", name: "a"},
		{key: "/a", ns: "", name: "a"},
		{key: "ns/", ns: "ns", name: ""},
		{key: "a/b/c", wantErr: true},
		{key: "//", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			ns, name, err := SplitMetaNamespaceKey(tc.key)
			if tc.wantErr {
				require.EqualError(t, err, `unexpected key format: "`+tc.key+`"`)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, [2]string{tc.ns, tc.name}, [2]string{ns, name})

			on, err := ParseObjectName(tc.key)
			require.NoError(t, err)
			assert.Equal(t, NewObjectName(tc.ns, tc.name), on)
		})
	}
}

// K-3: a tombstone is keyed by its Key, without looking at Obj (which may be nil or stale).
func TestCh03_K3_DeletionHandlingKeyFunc(t *testing.T) {
	tests := []struct {
		name string
		obj  any
		want string
	}{
		{name: "tombstone with nil Obj", obj: DeletedFinalStateUnknown{Key: "ns/gone"}, want: "ns/gone"},
		{name: "tombstone whose Obj says otherwise", obj: DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("other", "b", "1", nil)}, want: "ns/a"},
		{name: "plain object", obj: pod("ns", "a", "1", nil), want: "ns/a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DeletionHandlingMetaNamespaceKeyFunc(tc.obj)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			on, err := DeletionHandlingObjectToName(tc.obj)
			require.NoError(t, err)
			assert.Equal(t, tc.want, on.String())
		})
	}
	// A pointer to a tombstone is not a tombstone: client-go only unwraps the value type.
	_, err := DeletionHandlingMetaNamespaceKeyFunc(&DeletedFinalStateUnknown{Key: "ns/a"})
	assert.Error(t, err)
}

// K-5: the tombstone carries the last known state, which a handler must unwrap before casting.
func TestCh03_K5_TombstoneUnwrap(t *testing.T) {
	last := pod("ns", "a", "7", nil)
	var deleted any = DeletedFinalStateUnknown{Key: "ns/a", Obj: last}

	_, isPod := deleted.(*api.Pod)
	assert.False(t, isPod, "a handler that casts straight to *Pod would panic here")

	tomb, ok := deleted.(DeletedFinalStateUnknown)
	require.True(t, ok)
	p, ok := tomb.Obj.(*api.Pod)
	require.True(t, ok)
	assert.Equal(t, "7", p.ResourceVersion)
}

func TestCh03_KeyError(t *testing.T) {
	cause := errors.New("boom")
	err := error(KeyError{Obj: "x", Err: cause})
	assert.ErrorIs(t, err, cause)
	var ke KeyError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, "x", ke.Obj)
	assert.Contains(t, err.Error(), "boom")
}

func TestCh03_ObjectNameString(t *testing.T) {
	assert.Equal(t, "ns/a", NewObjectName("ns", "a").String())
	assert.Equal(t, "a", NewObjectName("", "a").String())
	ns, name := NewObjectName("ns", "a").Parts()
	assert.Equal(t, "ns", ns)
	assert.Equal(t, "a", name)
}

func TestCh03_IndexFuncToKeyFuncAdapter(t *testing.T) {
	kf := IndexFuncToKeyFuncAdapter(MetaNamespaceIndexFunc)
	k, err := kf(pod("ns1", "a", "", nil))
	require.NoError(t, err)
	assert.Equal(t, "ns1", k)

	multi := IndexFuncToKeyFuncAdapter(func(any) ([]string, error) { return []string{"a", "b"}, nil })
	_, err = multi(nil)
	assert.EqualError(t, err, "too many keys: [a b]")
	none := IndexFuncToKeyFuncAdapter(func(any) ([]string, error) { return nil, nil })
	_, err = none(nil)
	assert.EqualError(t, err, "unexpected empty indexKeys")
}
