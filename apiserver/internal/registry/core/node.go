package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// Nodes is the nodes resource (pkg/registry/core/node). A node keeps the status it is
// created with: the kubelet registers it with one.
func Nodes() rest.Kind {
	return rest.Kind{Resource: "nodes", Kind: "Node", ShortNames: []string{"no"},
		Fields:       map[string]rest.FieldRead{"spec.unschedulable": rest.BoolField("spec.unschedulable")},
		Subresources: []rest.Subresource{{Name: "proxy", Kind: gvk("NodeProxyOptions"), Verbs: rest.ProxyVerbs}},
		Strategy:     nodeStrategy{rest.Base{GVK: gvk("Node"), Cluster: true, Status: true, Unconditional: true}}}
}
