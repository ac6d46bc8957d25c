package fieldmanager

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// The operations a managedFields entry records.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

// versionedSet mirrors fieldpath.VersionedSet: a manager's fields at the apiVersion it
// wrote them in, and whether it applied them.
type versionedSet struct {
	set        *fp.Set
	apiVersion string
	applied    bool
}

// managed mirrors the internal Managed interface: each manager's set and the time of its
// last change, keyed by the manager identifier (BuildManagerIdentifier).
type managed struct {
	fields map[string]*versionedSet
	times  map[string]*time.Time
}

func newManaged() *managed {
	return &managed{fields: map[string]*versionedSet{}, times: map[string]*time.Time{}}
}

// identity is the part of a managedFields entry that names its manager; its JSON (fields in
// metav1.ManagedFieldsEntry's order, empty ones left out) is the manager identifier.
type identity struct {
	Manager     string `json:"manager,omitempty"`
	Operation   string `json:"operation,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// buildIdentifier mirrors BuildManagerIdentifier: an Apply entry is one manager whatever
// the apiVersion it applied at.
func buildIdentifier(id identity) string {
	if id.Operation == OperationApply {
		id.APIVersion = ""
	}
	if s, ok := identifiers.built.Load(id); ok {
		return s.(string)
	}
	b, _ := json.Marshal(id) // strings only: cannot fail
	s := string(b)
	identifiers.remember(id, s)
	return s
}

func parseIdentifier(s string) identity {
	if id, ok := identifiers.parsed.Load(s); ok {
		return id.(identity)
	}
	var id identity
	if json.Unmarshal([]byte(s), &id) == nil {
		identifiers.remember(id, s)
	}
	return id
}

// identifiers caches manager identifiers both ways: every write builds and parses them
// through encoding/json's reflection, for the few managers a server sees. A client that
// invents manager names fills it once; identifiers are then made as before.
var identifiers identifierCache

const maxCachedIdentifiers = 1024

type identifierCache struct {
	built  sync.Map // identity → identifier
	parsed sync.Map // identifier → identity
	n      atomic.Int64
}

// remember caches the pair id ↔ s, unless the cache is full. id must be what s parses to
// and s what id builds to: parseIdentifier passes a pair only when s is canonical.
func (c *identifierCache) remember(id identity, s string) {
	if c.n.Load() >= maxCachedIdentifiers {
		return
	}
	if canonical, _ := json.Marshal(id); string(canonical) != s {
		return // s parses to id but is written another way (spacing, order, escapes)
	}
	if _, loaded := c.parsed.LoadOrStore(s, id); !loaded {
		c.n.Add(1)
		c.built.Store(id, s)
	}
}

// entryOf reads one managedFields entry from an unstructured object.
type entry struct {
	identity
	time       *time.Time
	fieldsType string
	fieldsV1   []byte
	fieldsTree map[string]any // FieldsV1 as a decoded JSON tree, when read back so
	hasFields  bool
	empty      bool // no member at all: the reset marker [{}]
}

func stringMember(m map[string]any, k string) (string, error) {
	v, ok := m[k]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: expected a string, got %T", k, v)
	}
	return s, nil
}

func readEntry(v any) (entry, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return entry{}, fmt.Errorf("managedFields entry: expected an object, got %T", v)
	}
	var e entry
	var err error
	e.empty = len(m) == 0
	for _, f := range []struct {
		k string
		p *string
	}{{"manager", &e.Manager}, {"operation", &e.Operation}, {"apiVersion", &e.APIVersion}, {"subresource", &e.Subresource}, {"fieldsType", &e.fieldsType}} {
		if *f.p, err = stringMember(m, f.k); err != nil {
			return entry{}, err
		}
	}
	ts, err := stringMember(m, "time")
	if err != nil {
		return entry{}, err
	}
	if ts != "" {
		t, err := time.Parse(time.RFC3339, ts)
		if err != nil {
			return entry{}, fmt.Errorf("time: %v", err)
		}
		e.time = &t
	}
	switch fv := m["fieldsV1"].(type) {
	case nil:
	case json.RawMessage:
		e.fieldsV1, e.hasFields = fv, true
	case []byte:
		e.fieldsV1, e.hasFields = fv, true
	case map[string]any:
		e.fieldsTree, e.hasFields = fv, true
	default:
		return entry{}, fmt.Errorf("fieldsV1: expected an object, got %T", fv)
	}
	return e, nil
}

// managedFieldsOf returns the entries of obj's metadata.managedFields and whether the
// member is present (an empty list present is the reset marker).
func managedFieldsOf(obj *api.Unstructured) ([]any, bool) {
	if obj == nil {
		return nil, false
	}
	md, _ := obj.Object["metadata"].(map[string]any)
	v, ok := md["managedFields"]
	if !ok || v == nil {
		return nil, false
	}
	l, _ := v.([]any)
	return l, true
}

// isReset mirrors isResetManagedFields: an empty list, or a list of one empty entry.
func isReset(obj *api.Unstructured) bool {
	l, present := managedFieldsOf(obj)
	if !present {
		return false
	}
	if len(l) == 0 {
		return true
	}
	if len(l) == 1 {
		e, err := readEntry(l[0])
		return err == nil && e.empty
	}
	return false
}

// decodeManaged mirrors DecodeManagedFields on an object's entries.
func decodeManaged(obj *api.Unstructured) (*managed, error) {
	l, _ := managedFieldsOf(obj)
	return decodeEntries(l)
}

// decodeEntries mirrors DecodeManagedFields.
func decodeEntries(l []any) (*managed, error) {
	m := newManaged()
	for i, v := range l {
		e, err := readEntry(v)
		if err != nil {
			return nil, err
		}
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return nil, errors.New("operation must be `Apply` or `Update`")
		}
		if e.APIVersion == "" {
			return nil, errors.New("apiVersion must not be empty")
		}
		switch e.fieldsType {
		case "FieldsV1":
		case "":
			return nil, fmt.Errorf("missing fieldsType in managed fields entry %d", i)
		default:
			return nil, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.fieldsType, i)
		}
		id := buildIdentifier(e.identity)
		var set *fp.Set
		switch {
		case e.fieldsTree != nil:
			set, err = fp.FromUnstructured(e.fieldsTree)
		case e.hasFields:
			set, err = fp.FromJSON(e.fieldsV1)
		default:
			set = fp.NewSet()
		}
		if err != nil {
			return nil, fmt.Errorf("error decoding versioned set from %v: error decoding set: %v", id, err)
		}
		m.fields[id] = &versionedSet{set: set, apiVersion: e.APIVersion, applied: e.Operation == OperationApply}
		m.times[id] = e.time
	}
	return m, nil
}

// encodeManaged mirrors encodeManagedFields: entries sorted by operation (Apply first),
// time, manager, apiVersion and subresource. An empty result is no member at all.
func encodeManaged(m *managed) ([]any, error) {
	if len(m.fields) == 0 {
		return nil, nil
	}
	type enc struct {
		id     identity
		t      *time.Time
		fields []byte
	}
	all := make([]enc, 0, len(m.fields))
	for key, vs := range m.fields {
		id := parseIdentifier(key)
		id.APIVersion = vs.apiVersion
		if vs.applied {
			id.Operation = OperationApply
		}
		b, err := vs.set.ToJSON()
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: %v", key, err)
		}
		all = append(all, enc{id: id, t: m.times[key], fields: b})
	}
	// Identifiers are unique, so the order is total and any sort gives it; SortFunc needs no
	// reflective swapper.
	slices.SortFunc(all, func(p, q enc) int {
		if c := strings.Compare(p.id.Operation, q.id.Operation); c != 0 {
			return c
		}
		if c := cmp.Compare(seconds(p.t), seconds(q.t)); c != 0 {
			return c
		}
		if c := strings.Compare(p.id.Manager, q.id.Manager); c != 0 {
			return c
		}
		if c := strings.Compare(p.id.APIVersion, q.id.APIVersion); c != 0 {
			return c
		}
		return strings.Compare(p.id.Subresource, q.id.Subresource)
	})
	out := make([]any, len(all))
	for i, e := range all {
		entry := make(map[string]any, 7)
		if e.id.Manager != "" {
			entry["manager"] = boxed(e.id.Manager)
		}
		if e.id.Operation != "" {
			entry["operation"] = boxed(e.id.Operation)
		}
		if e.id.APIVersion != "" {
			entry["apiVersion"] = boxed(e.id.APIVersion)
		}
		if e.t != nil && !e.t.IsZero() {
			entry["time"] = formatTime(*e.t)
		}
		entry["fieldsType"] = "FieldsV1"
		entry["fieldsV1"] = json.RawMessage(e.fields)
		if e.id.Subresource != "" {
			entry["subresource"] = boxed(e.id.Subresource)
		}
		out[i] = entry
	}
	return out, nil
}

func seconds(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

// setManagedFields writes entries into obj (removing the member when there are none), as
// EncodeObjectManagedFields and RemoveObjectManagedFields do.
func setManagedFields(obj *api.Unstructured, entries []any) {
	md, _ := obj.Object["metadata"].(map[string]any)
	if entries == nil {
		if md != nil {
			delete(md, "managedFields")
		}
		return
	}
	if md == nil {
		md = map[string]any{}
		obj.Object["metadata"] = md
	}
	md["managedFields"] = entries
}
