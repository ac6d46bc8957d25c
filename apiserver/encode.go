package apiserver

import (
	"bytes"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/internal/jsonstr"
)

// Encoding a stored object. The real server encodes a built-in kind from its Go struct, so
// kind, apiVersion and metadata lead, metadata's members come in ObjectMeta's field order and
// status comes last; a custom resource is a map, encoded with sorted keys. Clients parse
// either; people reading `curl` output and byte-level golden files see the familiar order.

// objectMetaOrder is the field order of metav1.ObjectMeta.
var objectMetaOrder = []string{
	"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
	"annotations", "ownerReferences", "finalizers", "managedFields",
}

// builtinGroups are the groups whose kinds are encoded in Go struct order.
var builtinGroups = map[string]bool{"": true, "apps": true, "batch": true,
	"coordination.k8s.io": true, "events.k8s.io": true, "discovery.k8s.io": true}

// encodeStored encodes one stored object.
func encodeStored(obj map[string]any) ([]byte, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	if !builtinGroups[group] {
		return appendJSON(nil, obj)
	}
	var b bytes.Buffer
	b.Grow(1024)
	b.WriteByte('{')
	n := 0
	member := func(k string, v any) error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(jsonstr.Append(b.AvailableBuffer(), k))
		b.WriteByte(':')
		if k == "metadata" {
			if md, ok := v.(map[string]any); ok {
				return writeOrdered(&b, md, objectMetaOrder)
			}
		}
		vb, err := appendJSON(b.AvailableBuffer(), v)
		b.Write(vb)
		return err
	}
	for _, k := range []string{"kind", "apiVersion", "metadata"} {
		if v, ok := obj[k]; ok {
			if err := member(k, v); err != nil {
				return nil, err
			}
		}
	}
	rest := make([]string, 0, len(obj))
	for k := range obj {
		switch k {
		case "kind", "apiVersion", "metadata", "status":
		default:
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	if _, ok := obj["status"]; ok {
		rest = append(rest, "status")
	}
	for _, k := range rest {
		if err := member(k, obj[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeOrdered writes m with the keys of order first, in that order, then any others sorted.
func writeOrdered(b *bytes.Buffer, m map[string]any, order []string) error {
	b.WriteByte('{')
	n := 0
	write := func(k string) error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(jsonstr.Append(b.AvailableBuffer(), k))
		b.WriteByte(':')
		vb, err := appendJSON(b.AvailableBuffer(), m[k])
		b.Write(vb)
		return err
	}
	for _, k := range order {
		if _, ok := m[k]; ok {
			if err := write(k); err != nil {
				return err
			}
		}
	}
	if len(m) > n {
		var extra []string
		for k := range m {
			if !slices.Contains(order, k) {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			if err := write(k); err != nil {
				return err
			}
		}
	}
	b.WriteByte('}')
	return nil
}
