package fieldmanager

import (
	"fmt"

	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// updater mirrors merge.Updater of structured-merge-diff for one version of one kind:
// every manager's set is taken at that version (objects of a kind served at one version
// need no conversion between managers).
type updater struct {
	typ     *typed.Atom
	ignore  *fp.Set   // the strategy's reset fields, nil when none
	convert Converter // nil: every manager's set is taken at this version
}

// conflictError mirrors merge.Conflicts: the fields each manager would lose.
type conflictError struct {
	managers map[string]*fp.Set
}

// Error mirrors Conflicts.Error as the API reports it: getConflictMessage's text.
func (c *conflictError) Error() string { return conflictMessage(c.list()) }

// update mirrors Updater.update: ownership moves off the other managers for the fields the
// write changed (an error instead, unless force) and off every manager for removed fields.
func (u *updater) update(oldObj, newObj any, version string, managers map[string]*versionedSet, workflow string, force bool) (*typed.Comparison, error) {
	cmp, err := typed.Compare(oldObj, newObj, u.typ)
	if err != nil {
		return nil, fmt.Errorf("failed to compare objects: %v", err)
	}
	cmp = cmp.ExcludeFields(u.ignore)
	// A manager at another version is compared in its own version's terms, on both objects
	// converted to it (once per version); one the converter cannot reach is dropped.
	var versions map[string]*typed.Comparison // the comparison at each other version
	conflicts := map[string]*fp.Set{}
	var removed map[string]*fp.Set // allocated on first use: most writes remove nothing
	for m, vs := range managers {
		if m == workflow {
			continue
		}
		vc, ok := cmp, vs.apiVersion == version || u.convert == nil // without a converter every set is this version's
		if !ok {
			vc, ok = versions[vs.apiVersion]
		}
		if !ok {
			var known bool
			vc, known, err = u.compareAt(oldObj, newObj, vs.apiVersion)
			if err != nil {
				return nil, err
			}
			if !known {
				delete(managers, m)
				continue
			}
			if versions == nil {
				versions = map[string]*typed.Comparison{}
			}
			versions[vs.apiVersion] = vc
		}
		if c := vs.set.Intersection(vc.Modified.Union(vc.Added)); !c.Empty() {
			conflicts[m] = c
		}
		if !vc.Removed.Empty() {
			if removed == nil {
				removed = map[string]*fp.Set{}
			}
			removed[m] = vc.Removed
		}
	}
	if !force && len(conflicts) > 0 {
		return nil, &conflictError{managers: conflicts}
	}
	for m, c := range conflicts {
		vs := managers[m]
		managers[m] = &versionedSet{set: vs.set.Difference(c), apiVersion: vs.apiVersion, applied: vs.applied}
	}
	for m, r := range removed {
		vs := managers[m]
		managers[m] = &versionedSet{set: vs.set.Difference(r), apiVersion: vs.apiVersion, applied: vs.applied}
	}
	for m, vs := range managers {
		if vs.set.Empty() {
			delete(managers, m)
		}
	}
	return cmp, nil
}

// compareAt compares oldObj and newObj converted to apiVersion, as Updater.update does for a
// manager at another version; known is false when the converter cannot reach it
// (IsMissingVersionError).
func (u *updater) compareAt(oldObj, newObj any, apiVersion string) (*typed.Comparison, bool, error) {
	asMap := func(v any) map[string]any { m, _ := v.(map[string]any); return m }
	oldAt, typ, known, err := u.convert(asMap(oldObj), apiVersion)
	if err != nil || !known {
		if err != nil {
			err = fmt.Errorf("failed to convert old object: %v", err)
		}
		return nil, known, err
	}
	newAt, _, _, err := u.convert(asMap(newObj), apiVersion)
	if err != nil {
		return nil, false, fmt.Errorf("failed to convert new object: %v", err)
	}
	cmp, err := typed.Compare(oldAt, newAt, typ)
	if err != nil {
		return nil, false, fmt.Errorf("failed to compare objects: %v", err)
	}
	return cmp.ExcludeFields(u.ignore), true, nil
}

func (u *updater) filter(s *fp.Set) *fp.Set {
	if u.ignore == nil || u.ignore.Empty() {
		return s
	}
	return s.RecursiveDifference(u.ignore)
}

// Update mirrors Updater.Update: the manager takes every field the write changed.
func (u *updater) Update(live, obj any, version string, managers map[string]*versionedSet, manager string) error {
	cmp, err := u.update(live, obj, version, managers, manager, true)
	if err != nil {
		return err
	}
	prev := managers[manager]
	if prev == nil {
		prev = &versionedSet{set: fp.NewSet(), apiVersion: version}
	}
	set := prev.set.Difference(cmp.Removed).Union(cmp.Modified).Union(cmp.Added)
	set = u.filter(set)
	if set.Empty() {
		delete(managers, manager)
		return nil
	}
	managers[manager] = &versionedSet{set: set, apiVersion: version}
	return nil
}

// Apply mirrors Updater.Apply: the configuration merges into live, the manager's set
// becomes exactly what it applied, fields it alone owned and dropped are pruned, and the
// others' fields it changed conflict unless force. It returns nil when nothing changed.
func (u *updater) Apply(live, config any, version string, managers map[string]*versionedSet, manager string, force bool) (any, error) {
	merged, err := typed.Merge(live, config, u.typ)
	if err != nil {
		return nil, fmt.Errorf("failed to merge config: %v", err)
	}
	last := managers[manager]
	set := u.filter(typed.ToFieldSet(config, u.typ))
	managers[manager] = &versionedSet{set: set, apiVersion: version, applied: true}
	if last != nil && !last.set.Difference(set).Empty() {
		// Only a manager that dropped something has anything to prune: with every path it
		// applied last time applied again, all of them (and their parents) are its own, and
		// upstream's prune removes nothing.
		merged = u.prune(merged, managers, last)
	}
	if _, err := u.update(live, merged, version, managers, manager, force); err != nil {
		return nil, err
	}
	if equalObjects(live, merged) {
		return nil, nil
	}
	return merged, nil
}

// prune mirrors Updater.prune: what the manager applied last time and no longer applies
// goes, unless another manager owns it, or it was not there to prune (dangling).
func (u *updater) prune(merged any, managers map[string]*versionedSet, last *versionedSet) any {
	if last == nil || last.set.Empty() {
		return merged
	}
	ensure := func(s *fp.Set) *fp.Set { return typed.EnsureNamedFieldsAreMembers(s, u.typ) }
	lastSet := ensure(last.set)
	pruned := typed.RemoveItems(merged, u.typ, lastSet)
	// addBackOwnedItems
	owned := fp.NewSet()
	for _, vs := range managers {
		owned = owned.Union(vs.set)
	}
	mergedSet := typed.ToFieldSetEnsured(merged, u.typ)
	prunedSet := typed.ToFieldSetEnsured(pruned, u.typ)
	pruned = typed.RemoveItems(merged, u.typ, mergedSet.Difference(prunedSet.Union(ensure(owned))))
	// addBackDanglingItems
	prunedSet = typed.ToFieldSetEnsured(pruned, u.typ)
	return typed.RemoveItems(merged, u.typ, mergedSet.Difference(prunedSet).Intersection(lastSet))
}

func equalObjects(a, b any) bool { return fp.EqualValues(a, b) }
