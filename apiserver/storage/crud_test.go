package storage

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// TestCh01_Storage_CreateHooksAndErrors checks Create's steps under the write lock: Admit,
// then the key check (ErrKeyExists), then BeforeWrite, then the write and After; the first
// error is the answer and nothing is written. A dry run runs Admit and BeforeWrite but
// answers revision 0, writes nothing and sends no event.
func TestCh01_Storage_CreateHooksAndErrors(t *testing.T) {
	errAdmit := errors.New("admit says no")
	errBefore := errors.New("before-write says no")
	tests := []struct {
		name       string
		exists     bool
		dryRun     bool
		admitErr   error
		beforeErr  error
		wantCalls  []string
		wantErr    error
		wantStored bool // a new record, revision bumped, one ADDED event
	}{
		{name: "plain", wantCalls: []string{"admit", "before", "after"}, wantStored: true},
		{name: "key exists", exists: true, wantCalls: []string{"admit"}, wantErr: ErrKeyExists},
		{name: "admit refuses before the key check", exists: true, admitErr: errAdmit, wantCalls: []string{"admit"}, wantErr: errAdmit},
		{name: "admit refuses", admitErr: errAdmit, wantCalls: []string{"admit"}, wantErr: errAdmit},
		{name: "before-write refuses", beforeErr: errBefore, wantCalls: []string{"admit", "before"}, wantErr: errBefore},
		{name: "dry run", dryRun: true, wantCalls: []string{"admit", "before"}},
		{name: "dry run of an existing key", dryRun: true, exists: true, wantCalls: []string{"admit"}, wantErr: ErrKeyExists},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(Config{})
			c := s.NewCollection("configmaps", "cm")
			other := s.NewCollection("secrets", "secret")
			mustCreate(t, s, other, "ns", "x", "other") // rev 1
			if tt.exists {
				mustCreate(t, s, c, "ns", "a", "old") // rev 2
			}
			before := s.ResourceVersion()
			w, err := s.Watch(context.Background(), c, WatchOptions{})
			require.NoError(t, err)
			defer s.Unregister(w)

			var calls []string
			obj := cm("ns", "a", "new")
			rec, err := s.Create(context.Background(), c, "ns/a", obj, CreateOptions{
				DryRun: tt.dryRun,
				Admit: func(tx *Tx) error {
					calls = append(calls, "admit")
					assert.Equal(t, before, tx.Revision(), "admit sees the state before the write")
					return tt.admitErr
				},
				BeforeWrite: func(tx *Tx) error {
					calls = append(calls, "before")
					assert.Nil(t, tx.Get(c, "ns/a"), "before-write runs once the key is free")
					return tt.beforeErr
				},
				After: func(tx *Tx, r *Record) {
					calls = append(calls, "after")
					assert.Same(t, r, tx.Get(c, "ns/a"), "after sees the stored record")
					assert.Equal(t, tx.Revision(), r.RV)
				},
			})
			assert.Equal(t, tt.wantCalls, calls)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Nil(t, rec)
			} else {
				require.NoError(t, err)
				require.NotNil(t, rec)
				assert.Same(t, obj, rec.Obj, "the store keeps the caller's object")
				assert.Equal(t, "ns/a", rec.Key)
			}
			switch {
			case tt.wantStored:
				assert.Equal(t, before+1, s.ResourceVersion())
				assert.Equal(t, before+1, rec.RV)
				assert.Equal(t, strconv.FormatUint(before+1, 10), rec.Obj.GetResourceVersion(), "the versioner stamps the object")
				got, err := s.Get(context.Background(), c, "ns/a", GetOptions{})
				require.NoError(t, err)
				assert.Same(t, rec, got)
				assert.Equal(t, []evLine{{watch.Added, "ns/a", before + 1, "new"}}, linesOf(drain(w)))
			case tt.dryRun && tt.wantErr == nil:
				assert.Equal(t, uint64(0), rec.RV, "a dry run has no revision")
				assert.Equal(t, before, s.ResourceVersion())
				_, err := s.Get(context.Background(), c, "ns/a", GetOptions{})
				assert.ErrorIs(t, err, ErrKeyNotFound)
				assert.Empty(t, drain(w))
			default:
				assert.Equal(t, before, s.ResourceVersion(), "a refused create writes nothing")
				assert.Empty(t, drain(w))
			}
		})
	}
}

// TestCh01_Storage_GetReadsCurrent checks Get: the stored record, or ErrKeyNotFound, and a
// resourceVersion already reached answers at once.
func TestCh01_Storage_GetReadsCurrent(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	a := mustCreate(t, s, c, "ns", "a", "1")
	mustCreate(t, s, c, "", "cluster", "2")
	tests := []struct {
		key     string
		rv      uint64
		want    *Record
		wantErr error
	}{
		{key: "ns/a", want: a},
		{key: "ns/a", rv: 1, want: a},
		{key: "ns/a", rv: 2, want: a},
		{key: "cluster", want: c.objects["cluster"]},
		{key: "ns/missing", wantErr: ErrKeyNotFound},
		{key: "a", wantErr: ErrKeyNotFound},
	}
	for _, tt := range tests {
		got, err := s.Get(context.Background(), c, tt.key, GetOptions{ResourceVersion: tt.rv})
		if tt.wantErr != nil {
			assert.ErrorIs(t, err, tt.wantErr, tt.key)
			assert.Nil(t, got)
			continue
		}
		require.NoError(t, err, tt.key)
		assert.Same(t, tt.want, got, tt.key)
	}
}

// TestCh01_Storage_GuaranteedUpdate checks every outcome of GuaranteedUpdate: a write, a
// no-op (nothing written, same revision, no event), "nil means no write", a dry run, a
// DeleteIf that turns the write into a delete, After replacing the answer, and the errors.
func TestCh01_Storage_GuaranteedUpdate(t *testing.T) {
	errTry := errors.New("try failed")
	replaced := &Record{Key: "replacement"}
	tests := []struct {
		name     string
		key      string
		precond  *Preconditions
		try      UpdateFunc
		opts     UpdateOptions
		wantTyp  watch.EventType
		wantErr  error
		wantMsg  string // the exact error text, when set
		wantSame bool   // the answer is the stored record, unchanged
		wantVal  string // the answer's data.k
		wantRV   string // the answer's revision relative to the stored one: "same", "next"
		wantGone bool   // the key is no longer stored
		noCall   bool   // tryUpdate is never asked
		replaced bool   // After's record is the answer
	}{
		{name: "write", key: "ns/a", try: setValue("2"), wantTyp: watch.Modified, wantVal: "2", wantRV: "next"},
		{name: "no-op", key: "ns/a", try: setValue("1"), wantSame: true, wantVal: "1", wantRV: "same"},
		{name: "no-op whatever resourceVersion the next state carries", key: "ns/a",
			try: func(tx *Tx, cur *Record) (*api.Unstructured, error) {
				next := cur.Obj.DeepCopy()
				next.SetResourceVersion("999")
				return next, nil
			}, wantSame: true, wantVal: "1", wantRV: "same"},
		{name: "nil next", key: "ns/a", try: func(*Tx, *Record) (*api.Unstructured, error) { return nil, nil },
			wantSame: true, wantVal: "1", wantRV: "same"},
		{name: "dry run", key: "ns/a", try: setValue("2"), opts: UpdateOptions{DryRun: true}, wantVal: "2", wantRV: "same"},
		{name: "dry run that would delete", key: "ns/a", try: setValue("2"),
			opts: UpdateOptions{DryRun: true, DeleteIf: func(*api.Unstructured) bool { return true }}, wantVal: "2", wantRV: "same"},
		{name: "delete-if holds", key: "ns/a", try: setValue("last"),
			opts:    UpdateOptions{DeleteIf: func(next *api.Unstructured) bool { return valueOf(&Record{Obj: next}) == "last" }},
			wantTyp: watch.Deleted, wantVal: "last", wantRV: "next", wantGone: true},
		{name: "delete-if does not hold", key: "ns/a", try: setValue("2"),
			opts:    UpdateOptions{DeleteIf: func(*api.Unstructured) bool { return false }},
			wantTyp: watch.Modified, wantVal: "2", wantRV: "next"},
		{name: "after replaces the answer", key: "ns/a", try: setValue("2"),
			opts:    UpdateOptions{After: func(*Tx, *Record, watch.EventType) *Record { return replaced }},
			wantTyp: watch.Modified, replaced: true},
		{name: "after keeps the answer", key: "ns/a", try: setValue("2"),
			opts:    UpdateOptions{After: func(*Tx, *Record, watch.EventType) *Record { return nil }},
			wantTyp: watch.Modified, wantVal: "2", wantRV: "next"},
		{name: "missing", key: "ns/b", try: setValue("2"), wantErr: ErrKeyNotFound, noCall: true},
		{name: "try fails", key: "ns/a", try: func(*Tx, *Record) (*api.Unstructured, error) { return nil, errTry }, wantErr: errTry},
		{name: "uid precondition holds", key: "ns/a", precond: &Preconditions{UID: ptr("uid-a")}, try: setValue("2"),
			wantTyp: watch.Modified, wantVal: "2", wantRV: "next"},
		{name: "uid precondition fails", key: "ns/a", precond: &Preconditions{UID: ptr("other")}, try: setValue("2"), noCall: true,
			wantMsg: "Precondition failed: UID in precondition: other, UID in object meta: uid-a"},
		{name: "resourceVersion precondition holds", key: "ns/a", precond: &Preconditions{ResourceVersion: ptr("2")}, try: setValue("2"),
			wantTyp: watch.Modified, wantVal: "2", wantRV: "next"},
		{name: "resourceVersion precondition fails", key: "ns/a", precond: &Preconditions{ResourceVersion: ptr("1")}, try: setValue("2"), noCall: true,
			wantMsg: "Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 2"},
		{name: "both preconditions, uid checked first", key: "ns/a", precond: &Preconditions{UID: ptr("x"), ResourceVersion: ptr("1")}, try: setValue("2"), noCall: true,
			wantMsg: "Precondition failed: UID in precondition: x, UID in object meta: uid-a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(Config{})
			c := s.NewCollection("configmaps", "cm")
			mustCreate(t, s, c, "ns", "z", "z") // rev 1
			stored := mustCreate(t, s, c, "ns", "a", "1")
			require.Equal(t, uint64(2), stored.RV)
			w, err := s.Watch(context.Background(), c, WatchOptions{})
			require.NoError(t, err)
			defer s.Unregister(w)

			called := false
			var afterTyp watch.EventType
			if tt.opts.After != nil {
				inner := tt.opts.After
				tt.opts.After = func(tx *Tx, rec *Record, typ watch.EventType) *Record {
					afterTyp = typ
					return inner(tx, rec, typ)
				}
			}
			rec, typ, err := s.GuaranteedUpdate(context.Background(), c, tt.key, tt.precond,
				func(tx *Tx, cur *Record) (*api.Unstructured, error) {
					called = true
					assert.Same(t, stored, cur)
					return tt.try(tx, cur)
				}, tt.opts)
			assert.Equal(t, !tt.noCall, called, "tryUpdate called")
			if tt.wantErr != nil || tt.wantMsg != "" {
				require.Error(t, err)
				if tt.wantErr != nil {
					assert.ErrorIs(t, err, tt.wantErr)
				}
				if tt.wantMsg != "" {
					var ioe *InvalidObjError
					require.ErrorAs(t, err, &ioe)
					assert.Equal(t, tt.wantMsg, err.Error())
				}
				assert.Nil(t, rec)
				assert.Equal(t, watch.EventType(""), typ)
				assert.Equal(t, uint64(2), s.ResourceVersion())
				assert.Empty(t, drain(w))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantTyp, typ)
			if tt.opts.After != nil {
				assert.Equal(t, tt.wantTyp, afterTyp, "After is told what was written")
			}
			if tt.replaced {
				assert.Same(t, replaced, rec)
			} else {
				if tt.wantSame {
					assert.Same(t, stored, rec)
				}
				assert.Equal(t, tt.wantVal, valueOf(rec))
				switch tt.wantRV {
				case "same":
					assert.Equal(t, uint64(2), rec.RV)
					assert.Equal(t, "2", rec.Obj.GetResourceVersion())
				case "next":
					assert.Equal(t, uint64(3), rec.RV)
					assert.Equal(t, "3", rec.Obj.GetResourceVersion())
				}
			}
			got, getErr := s.Get(context.Background(), c, tt.key, GetOptions{})
			if typ == "" {
				assert.Equal(t, uint64(2), s.ResourceVersion(), "nothing written")
				assert.Empty(t, drain(w), "no event")
				require.NoError(t, getErr)
				assert.Same(t, stored, got)
				assert.Equal(t, "1", valueOf(got), "the stored object is untouched")
				return
			}
			assert.Equal(t, uint64(3), s.ResourceVersion(), "one write, one revision")
			evs := drain(w)
			require.Len(t, evs, 1)
			assert.Equal(t, tt.wantTyp, evs[0].Type)
			assert.Same(t, stored, evs[0].Old, "the event carries the state before")
			if tt.wantGone {
				assert.ErrorIs(t, getErr, ErrKeyNotFound)
			} else {
				require.NoError(t, getErr)
				assert.Same(t, evs[0].Obj, got)
			}
		})
	}
}

// TestCh01_Storage_Delete checks Delete: preconditions, ValidateDeletion, dry run, the
// DELETED record carrying the delete's revision, and After.
func TestCh01_Storage_Delete(t *testing.T) {
	errRefused := errors.New("has children")
	tests := []struct {
		name      string
		key       string
		precond   *Preconditions
		validate  error
		dryRun    bool
		wantErr   error
		wantMsg   string
		wantGone  bool
		noVal     bool // ValidateDeletion is not reached
		wantAfter bool
	}{
		{name: "delete", key: "ns/a", wantGone: true, wantAfter: true},
		{name: "missing", key: "ns/b", wantErr: ErrKeyNotFound, noVal: true},
		{name: "uid holds", key: "ns/a", precond: &Preconditions{UID: ptr("uid-a")}, wantGone: true, wantAfter: true},
		{name: "uid fails", key: "ns/a", precond: &Preconditions{UID: ptr("uid-b")}, noVal: true,
			wantMsg: "Precondition failed: UID in precondition: uid-b, UID in object meta: uid-a"},
		{name: "resourceVersion holds", key: "ns/a", precond: &Preconditions{ResourceVersion: ptr("2")}, wantGone: true, wantAfter: true},
		{name: "resourceVersion fails", key: "ns/a", precond: &Preconditions{ResourceVersion: ptr("7")}, noVal: true,
			wantMsg: "Precondition failed: ResourceVersion in precondition: 7, ResourceVersion in object meta: 2"},
		{name: "validation refuses", key: "ns/a", validate: errRefused, wantErr: errRefused},
		{name: "dry run", key: "ns/a", dryRun: true},
		{name: "dry run still checks", key: "ns/a", dryRun: true, validate: errRefused, wantErr: errRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(Config{})
			c := s.NewCollection("configmaps", "cm")
			mustCreate(t, s, c, "ns", "z", "z")
			stored := mustCreate(t, s, c, "ns", "a", "1")
			w, err := s.Watch(context.Background(), c, WatchOptions{})
			require.NoError(t, err)
			defer s.Unregister(w)

			validated, after := false, false
			rec, err := s.Delete(context.Background(), c, tt.key, tt.precond, DeleteOptions{
				DryRun: tt.dryRun,
				ValidateDeletion: func(cur *Record) error {
					validated = true
					assert.Same(t, stored, cur)
					return tt.validate
				},
				After: func(tx *Tx, r *Record) {
					after = true
					assert.Nil(t, tx.Get(c, tt.key))
					assert.Same(t, r, tx.LastDeleted(c, tt.key))
				},
			})
			assert.Equal(t, !tt.noVal, validated, "ValidateDeletion reached")
			assert.Equal(t, tt.wantAfter, after, "After called")
			if tt.wantErr != nil || tt.wantMsg != "" {
				if tt.wantErr != nil {
					assert.ErrorIs(t, err, tt.wantErr)
				}
				if tt.wantMsg != "" {
					var ioe *InvalidObjError
					require.ErrorAs(t, err, &ioe)
					assert.Equal(t, tt.wantMsg, err.Error())
				}
				assert.Nil(t, rec)
				assert.Equal(t, uint64(2), s.ResourceVersion())
				assert.Empty(t, drain(w))
				return
			}
			require.NoError(t, err)
			got, getErr := s.Get(context.Background(), c, tt.key, GetOptions{})
			if !tt.wantGone {
				assert.Same(t, stored, rec, "a dry run answers the stored record")
				assert.Equal(t, uint64(2), s.ResourceVersion())
				assert.Same(t, stored, got)
				assert.Empty(t, drain(w))
				return
			}
			assert.ErrorIs(t, getErr, ErrKeyNotFound)
			assert.Equal(t, uint64(3), rec.RV)
			assert.Equal(t, "3", rec.Obj.GetResourceVersion(), "the last state carries the delete's revision")
			assert.Equal(t, "2", stored.Obj.GetResourceVersion(), "the stored record is not changed")
			assert.Equal(t, "1", valueOf(rec))
			evs := drain(w)
			require.Len(t, evs, 1)
			assert.Equal(t, watch.Deleted, evs[0].Type)
			assert.Same(t, rec, evs[0].Obj)
			assert.Same(t, stored, evs[0].Old)
		})
	}
}

// TestCh01_Storage_RevisionOnePerWrite checks point 1 of the contract: every real write,
// in any collection, bumps the one revision by exactly one, and each record carries the
// revision of its write; refused writes, no-ops and dry runs leave it alone.
func TestCh01_Storage_RevisionOnePerWrite(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	pods := s.NewCollection("pods", "pod")
	nss := s.NewCollection("namespaces", "ns")
	type step struct {
		name  string
		write func() (*Record, error)
		bump  bool
	}
	steps := []step{
		{"create ns", func() (*Record, error) {
			return s.Create(ctx, nss, "a", cm("", "a", "1"), CreateOptions{})
		}, true},
		{"create pod", func() (*Record, error) {
			return s.Create(ctx, pods, "a/p", cm("a", "p", "1"), CreateOptions{})
		}, true},
		{"create pod again", func() (*Record, error) {
			return s.Create(ctx, pods, "a/p", cm("a", "p", "1"), CreateOptions{})
		}, false},
		{"dry-run create", func() (*Record, error) {
			return s.Create(ctx, pods, "a/q", cm("a", "q", "1"), CreateOptions{DryRun: true})
		}, false},
		{"update pod", func() (*Record, error) {
			r, _, err := s.GuaranteedUpdate(ctx, pods, "a/p", nil, setValue("2"), UpdateOptions{})
			return r, err
		}, true},
		{"no-op update", func() (*Record, error) {
			r, _, err := s.GuaranteedUpdate(ctx, pods, "a/p", nil, setValue("2"), UpdateOptions{})
			return r, err
		}, false},
		{"dry-run update", func() (*Record, error) {
			r, _, err := s.GuaranteedUpdate(ctx, pods, "a/p", nil, setValue("3"), UpdateOptions{DryRun: true})
			return r, err
		}, false},
		{"update ns", func() (*Record, error) {
			r, _, err := s.GuaranteedUpdate(ctx, nss, "a", nil, setValue("2"), UpdateOptions{})
			return r, err
		}, true},
		{"dry-run delete", func() (*Record, error) {
			return s.Delete(ctx, pods, "a/p", nil, DeleteOptions{DryRun: true})
		}, false},
		{"delete pod", func() (*Record, error) {
			return s.Delete(ctx, pods, "a/p", nil, DeleteOptions{})
		}, true},
		{"delete pod again", func() (*Record, error) {
			return s.Delete(ctx, pods, "a/p", nil, DeleteOptions{})
		}, false},
		{"transaction of two writes", func() (*Record, error) {
			var last *Record
			err := s.Update(func(tx *Tx) error {
				tx.Create(pods, "a/x", cm("a", "x", "1"))
				last = tx.Create(pods, "a/y", cm("a", "y", "1"))
				return nil
			})
			return last, err
		}, true},
	}
	var rvs []uint64
	want := uint64(0)
	for _, st := range steps {
		before := s.ResourceVersion()
		rec, err := st.write()
		if !st.bump {
			assert.Equal(t, before, s.ResourceVersion(), st.name)
			continue
		}
		require.NoError(t, err, st.name)
		want = s.ResourceVersion()
		assert.Equal(t, want, rec.RV, st.name)
		assert.Equal(t, strconv.FormatUint(rec.RV, 10), rec.Obj.GetResourceVersion(), st.name)
		rvs = append(rvs, rec.RV)
	}
	assert.Empty(t, cmp.Diff([]uint64{1, 2, 3, 4, 5, 7}, rvs), "one revision per write; the transaction made two")
	assert.Equal(t, uint64(7), want)
}

func ptr[T any](v T) *T { return &v }
