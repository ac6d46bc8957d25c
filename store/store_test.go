package store

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// ST-1: a key error comes back as KeyError and leaves the store unchanged.
func TestCh03_ST1_KeyError(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	bad := struct{}{}
	for name, op := range map[string]func(any) error{"Add": s.Add, "Update": s.Update, "Delete": s.Delete} {
		err := op(bad)
		var ke KeyError
		require.ErrorAs(t, err, &ke, name)
		assert.Equal(t, bad, ke.Obj)
	}
	_, _, err := s.Get(bad)
	assert.ErrorAs(t, err, new(KeyError))
	assert.Empty(t, s.List())
}

// ST-2: the transformer runs after the key is computed; its error is returned and nothing is
// stored.
func TestCh03_ST2_Transformer(t *testing.T) {
	stripAnnotations := func(obj any) (any, error) {
		p := obj.(*api.Pod).DeepCopy()
		if p.Name == "fail" {
			return nil, errors.New("cannot transform")
		}
		p.Annotations = nil
		return p, nil
	}
	s := NewStore(MetaNamespaceKeyFunc, WithTransformer(stripAnnotations))
	in := pod("ns", "a", "1", nil)
	in.Annotations = map[string]string{"big": strings.Repeat("x", 100)}
	require.NoError(t, s.Add(in))
	got, ok, err := s.GetByKey("ns/a")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Nil(t, got.(*api.Pod).Annotations)

	err = s.Update(pod("ns", "fail", "2", nil))
	require.EqualError(t, err, "transforming: cannot transform")
	_, ok, _ = s.GetByKey("ns/fail")
	assert.False(t, ok)

	require.NoError(t, s.Replace([]any{in}, "5"))
	got, _, _ = s.GetByKey("ns/a")
	assert.Nil(t, got.(*api.Pod).Annotations, "Replace transforms too")

	// A key error stops before the transformer is called.
	calls := 0
	counting := NewStore(MetaNamespaceKeyFunc, WithTransformer(func(o any) (any, error) { calls++; return o, nil }))
	require.Error(t, counting.Add(struct{}{}))
	assert.Zero(t, calls)
}

// ST-3: Get is GetByKey of the object's key; GetByKey never errors.
func TestCh03_ST3_Get(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	p := pod("ns", "a", "1", nil)
	require.NoError(t, s.Add(p))
	got, ok, err := s.Get(pod("ns", "a", "other", nil))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Same(t, p, got)
	_, ok, err = s.GetByKey("ns/none")
	assert.NoError(t, err)
	assert.False(t, ok)
}

// ST-4: a key error aborts Replace with the store untouched; the later duplicate wins.
func TestCh03_ST4_Replace(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	old := pod("ns", "old", "1", nil)
	require.NoError(t, s.Add(old))

	err := s.Replace([]any{pod("ns", "a", "2", nil), struct{}{}}, "3")
	require.ErrorAs(t, err, new(KeyError))
	assert.Equal(t, []string{"ns/old"}, s.ListKeys())

	first, second := pod("ns", "a", "4", nil), pod("ns", "a", "5", nil)
	require.NoError(t, s.Replace([]any{first, second}, "6"))
	got, _, _ := s.GetByKey("ns/a")
	assert.Same(t, second, got)
	assert.Equal(t, []string{"ns/a"}, s.ListKeys())
	assert.Equal(t, "6", s.LastStoreSyncResourceVersion())
}

// ST-5 and ST-6: Resync is a no-op; deleting an unknown object is not an error.
func TestCh03_ST5_ST6_ResyncAndDeleteUnknown(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	require.NoError(t, s.Add(pod("ns", "a", "1", nil)))
	require.NoError(t, s.Resync())
	require.NoError(t, s.Delete(pod("ns", "unknown", "2", nil)))
	assert.Equal(t, []string{"ns/a"}, s.ListKeys())
}

// The Store passes deletes down with the object, so the store RV advances (client-go v0.36+).
func TestCh03_StoreDeleteAdvancesRV(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	require.NoError(t, s.Add(pod("ns", "a", "1", nil)))
	require.NoError(t, s.Delete(pod("ns", "a", "2", nil)))
	assert.Equal(t, "2", s.LastStoreSyncResourceVersion())
	s.Bookmark("3")
	assert.Equal(t, "3", s.LastStoreSyncResourceVersion())

	classic := NewStore(MetaNamespaceKeyFunc, WithResourceVersionTracking(false))
	require.NoError(t, classic.Add(pod("ns", "a", "1", nil)))
	assert.Equal(t, "", classic.LastStoreSyncResourceVersion())
}

// Transaction on the Store skips objects without a key and reports them.
func TestCh03_StoreTransaction(t *testing.T) {
	s := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	ts := s.(TransactionStore)
	err := ts.Transaction(
		Transaction{Type: TransactionTypeAdd, Object: pod("ns1", "a", "1", nil)},
		Transaction{Type: TransactionTypeAdd, Object: struct{}{}},
		Transaction{Type: TransactionTypeAdd, Object: pod("ns2", "b", "2", nil)},
	)
	require.NotNil(t, err)
	assert.Equal(t, []int{0, 2}, err.SuccessfulIndices)
	assert.Equal(t, 3, err.TotalTransactions)
	assert.Contains(t, err.Error(), "failed to execute (1/3) transactions")
	assert.ElementsMatch(t, []string{"ns1/a", "ns2/b"}, s.ListKeys())
	assert.Nil(t, ts.Transaction(Transaction{Type: TransactionTypeDelete, Object: pod("ns1", "a", "3", nil)}))
	assert.Equal(t, []string{"ns2/b"}, s.ListKeys())
}

// The store traces each write with the shared attributes; with tracing off it logs nothing.
func TestCh03_Tracing(t *testing.T) {
	var buf bytes.Buffer
	s := NewIndexer(MetaNamespaceKeyFunc, Indexers{}, WithLogger(trace.NewPlainLogger(&buf)))
	require.NoError(t, s.Add(pod("ns", "a", "1", nil)))
	require.NoError(t, s.Update(pod("ns", "a", "2", nil)))
	require.NoError(t, s.Delete(pod("ns", "a", "3", nil)))
	require.NoError(t, s.Replace(nil, "4"))
	s.Bookmark("5")
	want := []string{
		`msg="indexer add" component=indexer op=add key=ns/a rv=1`,
		`msg="indexer update" component=indexer op=update key=ns/a rv=2`,
		`msg="indexer delete" component=indexer op=delete key=ns/a rv=3`,
		`msg="indexer replace" component=indexer op=replace key="" rv=4 items=0`,
		`msg="indexer bookmark" component=indexer op=bookmark key="" rv=5`,
	}
	assert.Equal(t, want, strings.Split(strings.TrimSpace(buf.String()), "\n"))

	buf.Reset()
	quiet := NewStore(MetaNamespaceKeyFunc, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	require.NoError(t, quiet.Add(pod("ns", "a", "1", nil)))
	assert.Empty(t, buf.String(), "Info level: no hop is logged")
}
