package storage

import (
	"context"
	"errors"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// Create mirrors store.Create of pkg/storage/etcd3/store.go: obj (private to the store from
// now on) is stored at key with the next revision, unless an object is there (ErrKeyExists)
// or opts.Admit refuses. A dry run answers with a record of revision 0 and writes nothing.
func (s *Store) Create(_ context.Context, c *Collection, key string, obj *api.Unstructured, opts CreateOptions) (*Record, error) {
	var out *Record
	err := s.Update(func(tx *Tx) error {
		if opts.Admit != nil {
			if err := opts.Admit(tx); err != nil {
				return err
			}
		}
		if c.objects[key] != nil {
			return ErrKeyExists
		}
		if opts.BeforeWrite != nil {
			if err := opts.BeforeWrite(tx); err != nil {
				return err
			}
		}
		if opts.DryRun {
			out = s.NewRecord(obj, key, 0)
			return nil
		}
		size, err := tx.checkQuota(nil, obj)
		if err != nil {
			return err
		}
		out = tx.commit(c, watch.Added, key, obj, nil, size)
		if opts.After != nil {
			opts.After(tx, out)
		}
		return nil
	})
	return out, err
}

// Get mirrors store.Get: the stored object at key (ErrKeyNotFound when none), after waiting
// for opts.ResourceVersion.
func (s *Store) Get(ctx context.Context, c *Collection, key string, opts GetOptions) (*Record, error) {
	if opts.ResourceVersion > 0 {
		if err := s.WaitForResourceVersion(ctx, opts.ResourceVersion); err != nil {
			return nil, err
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rec := c.objects[key]; rec != nil {
		return rec, nil
	}
	return nil, ErrKeyNotFound
}

// maxReleasedRetries bounds GuaranteedUpdate's tries when tryUpdate releases the lock and
// the object keeps changing meanwhile.
const maxReleasedRetries = 100

var errKeptChanging = errors.New("storage: the object kept changing while the update was admitted")

// GuaranteedUpdate mirrors store.GuaranteedUpdate. Under the write lock it reads the object
// at key (ErrKeyNotFound when none), checks precond, and asks tryUpdate for the next state;
// tryUpdate returning nil means "no write, answer with the current object". Then:
//   - a next state equal to the current one writes nothing and answers the current record;
//   - a dry run answers the next state at the current revision and writes nothing;
//   - when opts.DeleteIf holds for the next state, the object is deleted (DELETED);
//   - otherwise the next state is written (MODIFIED).
//
// opts.After runs after a real write and may replace the answer. The event type returned is
// what was written ("" for nothing).
func (s *Store) GuaranteedUpdate(_ context.Context, c *Collection, key string, precond *Preconditions, tryUpdate UpdateFunc, opts UpdateOptions) (*Record, watch.EventType, error) {
	var out *Record
	var typ watch.EventType
	err := s.Update(func(tx *Tx) error {
		cur := c.objects[key]
		if cur == nil {
			return ErrKeyNotFound
		}
		if err := precond.Check(cur); err != nil {
			return err
		}
		next, err := tryUpdate(tx, cur)
		// tryUpdate let go of the lock (Outside) and the object changed meanwhile: try
		// again on what is stored now, a bounded number of times.
		for retries := 0; err == nil && tx.released && c.objects[key] != cur && retries < maxReleasedRetries; retries++ {
			tx.released = false
			if cur = c.objects[key]; cur == nil {
				return ErrKeyNotFound
			}
			if err := precond.Check(cur); err != nil {
				return err
			}
			next, err = tryUpdate(tx, cur)
		}
		if err != nil {
			return err
		}
		if tx.released && c.objects[key] != cur {
			return errKeptChanging
		}
		if next == nil {
			out = cur
			return nil
		}
		next.SetResourceVersion(strconv.FormatUint(cur.RV, 10))
		if mapEqual(next.Object, cur.Obj.Object) {
			out = cur
			return nil
		}
		if opts.DryRun {
			out = s.NewRecord(next, key, cur.RV)
			return nil
		}
		if opts.DeleteIf != nil && opts.DeleteIf(next) {
			out, typ = tx.Remove(c, cur, next), watch.Deleted
		} else {
			size, err := tx.checkQuota(cur, next)
			if err != nil {
				return err
			}
			out, typ = tx.commit(c, watch.Modified, cur.Key, next, cur, size), watch.Modified
		}
		if opts.After != nil {
			if r := opts.After(tx, out, typ); r != nil {
				out = r
			}
		}
		return nil
	})
	return out, typ, err
}

// Delete mirrors store.Delete: under the write lock the object at key is checked against
// precond and opts.ValidateDeletion, then removed (DELETED, carrying its last state). A dry
// run answers with the stored record and removes nothing.
func (s *Store) Delete(_ context.Context, c *Collection, key string, precond *Preconditions, opts DeleteOptions) (*Record, error) {
	var out *Record
	err := s.Update(func(tx *Tx) error {
		cur := c.objects[key]
		if cur == nil {
			return ErrKeyNotFound
		}
		if err := precond.Check(cur); err != nil {
			return err
		}
		if opts.ValidateDeletion != nil {
			if err := opts.ValidateDeletion(cur); err != nil {
				return err
			}
		}
		if opts.DryRun {
			out = cur
			return nil
		}
		out = tx.Remove(c, cur, cur.Obj.DeepCopy())
		if opts.After != nil {
			opts.After(tx, out)
		}
		return nil
	})
	return out, err
}
