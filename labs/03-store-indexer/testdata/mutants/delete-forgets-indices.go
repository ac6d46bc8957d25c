// A delete removes the item from the map but not its key from the indices.
//
// Plausible because Get and List are right afterwards; but ByIndex still finds the key and
// returns a nil object for it (TS-5).
//
// File: store/thread_safe_store.go
// Caught by: TestCh03_TS5_DeleteUsesStoredObject, TestCh03_Transaction
package store

func (c *threadSafeMap) deleteLocked(key string) {
	delete(c.items, key)
}
