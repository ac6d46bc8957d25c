package fieldmanager

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// DefaultMaxUpdateManagers mirrors the constant of the same name: beyond this many Update
// entries, the oldest are bucketed into "ancient-changes".
const DefaultMaxUpdateManagers = 10

const (
	currentOperation   = "current-operation"
	beforeFirstApply   = "before-first-apply"
	ancientChanges     = "ancient-changes"
	unknownManager     = "unknown"
	kubectlManagerName = "kubectl"
)

// FieldManager mirrors managedfields.FieldManager with the chain
// NewDefaultFieldManager builds (versionCheck → lastAppliedUpdater → lastAppliedManager →
// skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta →
// structuredMerge) for one kind at one version.
type FieldManager struct {
	typ  *typed.Atom
	gvk  api.GroupVersionKind
	zero func() map[string]any
	// shared is one zero object made at New, never changed: what a create compares
	// against when no other manager's set needs the objects converted (Update).
	shared map[string]any
	reset  map[string]*fp.Set
	max    int
	// versions are the apiVersions a manager's entry may be at and still count.
	versions map[string]bool
	convert  Converter
	// sharedErr is shared's validation, the same on every create: made once, on the first.
	sharedOnce sync.Once
	sharedErr  error
}

// Converter mirrors the fieldmanager's versionConverter: it returns obj, an object of the
// field manager's kind at its version (nil for none), converted to apiVersion, with that
// version's type. known is false when apiVersion cannot be reached
// (IsMissingVersionError: the manager at it is dropped).
type Converter func(obj map[string]any, apiVersion string) (converted map[string]any, model *typed.Atom, known bool, err error)

// WithConverter mirrors the version converter NewDefaultFieldManager is given: the sets of
// managers at another version are compared on the objects converted to it, so that a
// write at one version takes from a manager at another the fields it changed in that
// version's terms. Without one, every version's sets are taken as this version's (a
// custom resource with conversion None). It returns f.
func (f *FieldManager) WithConverter(c Converter) *FieldManager {
	f.convert = c
	return f
}

// New mirrors NewDefaultFieldManager: model is the kind's type (typed.ForBuiltin, or a
// custom resource's from its schema), gvk the kind and version objects are written at.
func New(model *typed.Atom, gvk api.GroupVersionKind) *FieldManager {
	f := &FieldManager{typ: model, gvk: gvk, zero: typed.ZeroObject(gvk), reset: map[string]*fp.Set{}, max: DefaultMaxUpdateManagers}
	f.shared = f.emptyObject()
	return f.WithVersions(typed.BuiltinVersions(gvk.Group, gvk.Kind)...)
}

// WithVersions mirrors the versions the CRD handler's converter serves: it sets the apiVersions of the kind (a custom resource's served versions):
// entries at any other are dropped before each write, as upstream drops the managers its
// version converter cannot convert to. The kind's own version always counts. Entries at
// another known version are compared as if written at this one (no conversion here).
func (f *FieldManager) WithVersions(versions ...string) *FieldManager {
	f.versions = map[string]bool{f.gvk.APIVersion(): true}
	for _, v := range versions {
		f.versions[v] = true
	}
	return f
}

// dropUnknownVersions mirrors reconcileManagedFieldsWithSchemaChanges skipping the managers
// whose apiVersion the converter does not know.
func (f *FieldManager) dropUnknownVersions(m *managed) {
	for id, vs := range m.fields {
		if !f.versions[vs.apiVersion] {
			delete(m.fields, id)
		}
	}
}

// WithResetFields mirrors the strategy's GetResetFields for one subresource ("" for the
// main resource): fields a write there never changes, so nobody takes them (the
// IgnoreFilter of structuredMergeManager). It returns f.
func (f *FieldManager) WithResetFields(subresource string, fields *fp.Set) *FieldManager {
	f.reset[subresource] = fields
	return f
}

func (f *FieldManager) updater(subresource string) *updater {
	return &updater{typ: f.typ, ignore: f.reset[subresource], convert: f.convert}
}

// emptyObject mirrors objectCreater.New: the object a create starts from, as the typed
// zero value of the kind converts to unstructured.
func (f *FieldManager) emptyObject() map[string]any {
	if f.zero != nil {
		return f.zero()
	}
	return map[string]any{}
}

func objectOf(u *api.Unstructured) map[string]any {
	if u == nil {
		return nil
	}
	return u.Object
}

// withoutManagedFields is obj's tree with metadata.managedFields left out, sharing the rest:
// what the type converter sees upstream (the entries are owned by nobody).
func withoutManagedFields(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	if _, has := md["managedFields"]; !has {
		return obj
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	md2 := make(map[string]any, len(md))
	for k, v := range md {
		if k != "managedFields" {
			md2[k] = v
		}
	}
	out["metadata"] = md2
	return out
}

// Update mirrors FieldManager.Update (UpdateNoErrors): the ownership of a non-apply write.
// live is nil on create. obj's metadata.managedFields is set as the real server sets it and
// obj is returned. Entries sent in the request count only when valid and not the reset
// marker (an empty list, or one empty entry), and never on a subresource.
func (f *FieldManager) Update(live, obj *api.Unstructured, manager, subresource string, now api.Time) (*api.Unstructured, error) {
	m := f.managedForUpdate(live, obj, subresource)
	if obj.Object == nil {
		obj.Object = map[string]any{}
	}
	obj.Object, _ = typed.JSONTree(obj.Object).(map[string]any)
	setManagedFields(obj, nil)
	liveObj, _ := typed.JSONTree(objectOf(live)).(map[string]any)
	fromShared := false
	if liveObj == nil {
		// Validate and Compare only read it; a manager at another version would have it
		// converted, so then it is a copy of its own.
		liveObj = f.shared
		fromShared = liveObj != nil && len(m.fields) == 0
		if !fromShared {
			liveObj = f.emptyObject()
		}
	}
	// skipNonApplied: an existing object nobody manages stays unmanaged.
	if len(m.fields) == 0 && live != nil && live.GetUID() != "" {
		return obj, nil
	}
	if err := f.update(liveObj, obj.Object, m, manager, subresource, now.Time, fromShared); err != nil {
		return nil, err
	}
	entries, err := encodeManaged(m)
	if err != nil {
		return nil, fmt.Errorf("failed to encode managed fields: %v", err)
	}
	setManagedFields(obj, entries)
	return obj, nil
}

// UpdateNoErrors mirrors FieldManager.UpdateNoErrors, what the handlers call: when the
// field manager fails (an object its type refuses), the write goes on with no
// managedFields at all rather than fail.
func (f *FieldManager) UpdateNoErrors(live, obj *api.Unstructured, manager, subresource string, now api.Time) *api.Unstructured {
	out, err := f.Update(live, obj, manager, subresource, now)
	if err != nil {
		setManagedFields(obj, nil)
		return obj
	}
	return out
}

func (f *FieldManager) managedForUpdate(live, obj *api.Unstructured, subresource string) *managed {
	fromLive := func() *managed {
		m, err := decodeManaged(live)
		if err != nil {
			return newManaged()
		}
		return m
	}
	if subresource != "" {
		return fromLive()
	}
	if isReset(obj) {
		return newManaged()
	}
	m, err := decodeManaged(obj)
	if err != nil || len(m.fields) == 0 {
		if err == nil && live == nil {
			return m // a create: nothing to take from live, and m is already empty
		}
		return fromLive()
	}
	return m
}

// update runs capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta →
// structuredMerge for a non-apply write. fromShared: live is the zero object (f.shared or
// an equal copy) and no manager has a set yet (a create that sent no managedFields, or
// the existing fields given to before-first-apply).
func (f *FieldManager) update(live, obj map[string]any, m *managed, manager, subresource string, now time.Time, fromShared bool) error {
	id := f.identifier(manager, OperationUpdate, subresource)
	u := f.updater(subresource)
	f.dropUnknownVersions(m)
	newObj, liveObj := withoutManagedFields(obj), withoutManagedFields(live)
	if err := typed.Validate(newObj, f.typ, true); err != nil {
		return fmt.Errorf("failed to convert new object (%s) to smd typed: %v", f.describe(obj), err)
	}
	if err := f.validateLive(liveObj, fromShared); err != nil {
		return err
	}
	if !fromShared || !f.updateFromShared(u, liveObj, newObj, m) {
		err := u.Update(liveObj, newObj, f.gvk.APIVersion(), m.fields, currentOperation)
		if err != nil {
			return fmt.Errorf("failed to update ManagedFields (%s): %v", f.describe(obj), err)
		}
		stripMeta(m, currentOperation)
	}
	if vs, ok := m.fields[currentOperation]; ok {
		delete(m.fields, currentOperation)
		if prev, ok := m.fields[id]; ok {
			m.fields[id] = &versionedSet{set: vs.set.Union(prev.set), apiVersion: vs.apiVersion, applied: vs.applied}
		} else {
			m.fields[id] = vs
		}
		t := now.UTC()
		m.times[id] = &t
	}
	f.capUpdateManagers(m)
	return nil
}

// validateLive is the live object's check of update; shared's, the same every time, is
// made once.
func (f *FieldManager) validateLive(live map[string]any, shared bool) error {
	check := func() error {
		if err := typed.Validate(live, f.typ, true); err != nil {
			return fmt.Errorf("failed to convert live object (%s) to smd typed: %v", f.describe(live), err)
		}
		return nil
	}
	if !shared {
		return check()
	}
	f.sharedOnce.Do(func() { f.sharedErr = check() })
	return f.sharedErr
}

// updateFromShared is Updater.Update followed by stripMeta for a create with no manager
// yet: the manager's set is Compare(shared, obj)'s Added ∪ Modified (typed.CreatedFields,
// one walk) less stripMeta's paths and the reset fields; nobody else has fields to lose.
// false: CreatedFields left it to Compare.
func (f *FieldManager) updateFromShared(u *updater, shared, obj map[string]any, m *managed) bool {
	set, ok := typed.CreatedFields(shared, obj, u.typ, stripMetaPaths)
	if !ok {
		return false
	}
	if set = u.filter(set); !set.Empty() {
		m.fields[currentOperation] = &versionedSet{set: set, apiVersion: f.gvk.APIVersion()}
	}
	return true
}

// identifier mirrors buildManagerInfo: an empty manager is "unknown".
func (f *FieldManager) identifier(manager, operation, subresource string) string {
	if manager == "" {
		manager = unknownManager
	}
	return buildIdentifier(identity{Manager: manager, Operation: operation, APIVersion: f.gvk.APIVersion(), Subresource: subresource})
}

func (f *FieldManager) describe(obj map[string]any) string {
	u := &api.Unstructured{Object: obj}
	ns, name := u.GetNamespace(), u.GetName()
	return fmt.Sprintf("%v/%v; %v", ns, name, gvkString(u.GroupVersionKind()))
}

// gvkString prints a GroupVersionKind as schema.GroupVersionKind.String does.
func gvkString(gvk api.GroupVersionKind) string {
	return gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
}

// stripMetaPaths mirrors stripMetaManager's set: fields of the envelope nobody owns.
var stripMetaPaths = fp.NewSet(
	fp.MakePath("apiVersion"),
	fp.MakePath("kind"),
	fp.MakePath("metadata"),
	fp.MakePath("metadata", "name"),
	fp.MakePath("metadata", "namespace"),
	fp.MakePath("metadata", "creationTimestamp"),
	fp.MakePath("metadata", "selfLink"),
	fp.MakePath("metadata", "uid"),
	fp.MakePath("metadata", "clusterName"),
	fp.MakePath("metadata", "generation"),
	fp.MakePath("metadata", "managedFields"),
	fp.MakePath("metadata", "resourceVersion"),
)

// stripMeta mirrors stripMetaManager.stripFields.
func stripMeta(m *managed, manager string) {
	vs, ok := m.fields[manager]
	if !ok {
		return
	}
	s := vs.set.Difference(stripMetaPaths)
	if s.Empty() {
		delete(m.fields, manager)
		return
	}
	m.fields[manager] = &versionedSet{set: s, apiVersion: vs.apiVersion, applied: vs.applied}
}

// capUpdateManagers mirrors capManagersManager.capUpdateManagers: past the limit, the
// oldest Update entries (by time, then identifier) merge, per apiVersion, into one
// "ancient-changes" entry that takes the time of the last one merged.
func (f *FieldManager) capUpdateManagers(m *managed) {
	var updaters []string
	for id, vs := range m.fields {
		if !vs.applied {
			updaters = append(updaters, id)
		}
	}
	if len(updaters) <= f.max {
		return
	}
	sort.Slice(updaters, func(i, j int) bool {
		a, b := seconds(m.times[updaters[i]]), seconds(m.times[updaters[j]])
		if a != b {
			return a < b
		}
		return updaters[i] < updaters[j]
	})
	first := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > f.max; i++ {
		id := updaters[i]
		vs := m.fields[id]
		t := m.times[id]
		bucket := buildIdentifier(identity{Manager: ancientChanges, Operation: OperationUpdate, APIVersion: vs.apiVersion})
		if firstID, ok := first[vs.apiVersion]; ok {
			if _, ok := m.fields[bucket]; !ok {
				s := m.fields[firstID]
				delete(m.fields, firstID)
				m.fields[bucket] = s
			}
			m.fields[bucket] = &versionedSet{set: vs.set.Union(m.fields[bucket].set), apiVersion: vs.apiVersion, applied: vs.applied}
			delete(m.fields, id)
			n--
			m.times[bucket] = t
		} else {
			first[vs.apiVersion] = id
		}
	}
}
