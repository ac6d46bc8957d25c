package api

import (
	"bytes"
	"encoding/json"
)

// The JSON methods of the typed views: each keeps the JSON it was decoded from and puts the
// members it does not model back when encoded (preserve.go). The plain types have the same
// fields and no methods, so encoding/json handles them without recursion.

type (
	podPlain       Pod
	configMapPlain ConfigMap
	namespacePlain Namespace
	nodePlain      Node
)

// UnmarshalJSON decodes a Pod and keeps its JSON.
func (in *Pod) UnmarshalJSON(data []byte) error {
	var p podPlain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	p.Unmodeled = Unmodeled{data: bytes.Clone(data)}
	*in = Pod(p)
	return nil
}

// MarshalJSON encodes a Pod with the members it does not model.
func (in Pod) MarshalJSON() ([]byte, error) {
	return encodePreserving(podPlain(in), in.Unmodeled.json())
}

// UnmarshalJSON decodes a ConfigMap and keeps its JSON.
func (in *ConfigMap) UnmarshalJSON(data []byte) error {
	var p configMapPlain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	p.Unmodeled = Unmodeled{data: bytes.Clone(data)}
	*in = ConfigMap(p)
	return nil
}

// MarshalJSON encodes a ConfigMap with the members it does not model.
func (in ConfigMap) MarshalJSON() ([]byte, error) {
	return encodePreserving(configMapPlain(in), in.Unmodeled.json())
}

// UnmarshalJSON decodes a Namespace and keeps its JSON.
func (in *Namespace) UnmarshalJSON(data []byte) error {
	var p namespacePlain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	p.Unmodeled = Unmodeled{data: bytes.Clone(data)}
	*in = Namespace(p)
	return nil
}

// MarshalJSON encodes a Namespace with the members it does not model.
func (in Namespace) MarshalJSON() ([]byte, error) {
	return encodePreserving(namespacePlain(in), in.Unmodeled.json())
}

// UnmarshalJSON decodes a Node and keeps its JSON.
func (in *Node) UnmarshalJSON(data []byte) error {
	var p nodePlain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	p.Unmodeled = Unmodeled{data: bytes.Clone(data)}
	*in = Node(p)
	return nil
}

// MarshalJSON encodes a Node with the members it does not model.
func (in Node) MarshalJSON() ([]byte, error) {
	return encodePreserving(nodePlain(in), in.Unmodeled.json())
}
