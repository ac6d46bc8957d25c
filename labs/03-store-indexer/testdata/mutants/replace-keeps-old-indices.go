// Replace swaps the items but only adds the new ones to the indices, keeping every old entry.
//
// Plausible because updateIndices(nil, item, key) looks like "index the new item"; but keys
// that the new list no longer has stay in the indices (TS-6).
//
// File: store/thread_safe_store.go
// Caught by: TestCh03_TS6_ReplaceRebuilds
package store

func (c *threadSafeMap) Replace(items map[string]any, resourceVersion string) {
	if items == nil {
		items = map[string]any{}
	}
	c.lock.Lock()
	c.items = items
	c.rv = resourceVersion
	for key, item := range c.items {
		c.index.updateIndices(nil, item, key)
	}
	c.lock.Unlock()
}
