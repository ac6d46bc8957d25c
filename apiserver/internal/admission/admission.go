package admission

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
)

// Operation mirrors admission.Operation.
type Operation string

// The operations a plugin may handle.
const (
	Create Operation = "CREATE"
	Update Operation = "UPDATE"
	Delete Operation = "DELETE"
)

// Attributes mirror admission.Attributes: what a plugin knows of one request.
type Attributes struct {
	Operation   Operation
	Resource    api.GroupResource
	Kind        api.GroupKind
	Subresource string
	Version     string // the version the request is served at (request.kind.version)
	Namespace   string // the object's namespace ("" when cluster-scoped)
	Name        string
	Object      *api.Unstructured // the new object (nil for a delete)
	OldObject   *api.Unstructured // the stored object on update and delete
	DryRun      bool
	// Namespaces returns the stored namespace of that name, or nil, as the transaction
	// the plugin runs in sees it.
	Namespaces func(name string) *api.Unstructured
	// Store reads other stored objects as that transaction sees them (the informers'
	// listers of the real plugins); nil when the caller binds none.
	Store Store
	// Authorize answers the admission policies' `authorizer` checks; nil allows them all.
	Authorize AuthorizeFunc
	// Redefault is set by a plugin whose output the real server decodes again, with its
	// defaults (a mutating policy that changed the object): the store defaults it anew.
	Redefault bool
	// Outside, when set, runs a function outside the transaction's lock: the webhook
	// plugins wait on the network there. Store must not be used inside it.
	Outside func(func())
}

// Store is what plugins read and write of the cluster's state: the real plugins' listers
// and clients, bound here to the storage transaction the request runs in.
type Store interface {
	// Get returns the stored object, or nil. group is "" for the core group.
	Get(group, resource, ns, name string) *api.Unstructured
	// List returns the stored objects of a namespace ("" for all, or cluster-scoped ones).
	List(group, resource, ns string) []*api.Unstructured
	// UpdateStatus stores obj, a private copy of a stored object with a new status, as the
	// quota evaluator's status update does. It is an error outside a write transaction.
	UpdateStatus(group, resource string, obj *api.Unstructured) error
}

// get reads through a.Store, nil without one.
func (a *Attributes) get(group, resource, ns, name string) *api.Unstructured {
	if a.Store == nil {
		return nil
	}
	return a.Store.Get(group, resource, ns, name)
}

// list reads through a.Store, nil without one.
func (a *Attributes) list(group, resource, ns string) []*api.Unstructured {
	if a.Store == nil {
		return nil
	}
	return a.Store.List(group, resource, ns)
}

// forbidden mirrors admission.NewForbidden: a 403 that names the request's resource and
// its name (the generateName prefix when the name is still to be made).
func forbidden(a *Attributes, err error) error {
	name := a.Name
	if name == "" && a.Object != nil {
		// Name is "" in the mutating phase of a create whose name is still to be made.
		if name = a.Object.GetGenerateName(); name == "" {
			name = a.Object.GetName()
		}
	}
	if name == "" {
		name = "Unknown"
	}
	return api.NewForbidden(a.Resource, name, err)
}

// isPod reports whether the request is about a pod itself (no subresource).
func isPod(a *Attributes) bool {
	return a.Resource == api.GroupResource{Resource: "pods"} && a.Subresource == "" && a.Object != nil
}

// Interface mirrors admission.Interface.
type Interface interface {
	// Name is the plugin's name, as --enable-admission-plugins spells it.
	Name() string
	// Handles reports whether the plugin acts on op.
	Handles(op Operation) bool
}

// MutationInterface mirrors admission.MutationInterface.
type MutationInterface interface {
	Interface
	Admit(ctx context.Context, a *Attributes) error
}

// ValidationInterface mirrors admission.ValidationInterface.
type ValidationInterface interface {
	Interface
	Validate(ctx context.Context, a *Attributes) error
}

// Rechecker is a plugin whose check the store repeats under the storage's write lock, where
// it must hold at the moment of the write.
type Rechecker interface {
	Interface
	Recheck(ctx context.Context, a *Attributes) error
}

// Chain mirrors admission.chainAdmissionHandler: plugins in order.
type Chain []Interface

// DefaultOnPlugins are the plugins a kube-apiserver v1.36 enables by default, in the order
// it runs them (AllOrderedPlugins and DefaultOffAdmissionPlugins of
// pkg/kubeapiserver/options/plugins.go; those a default feature gate leaves inactive are
// left out). Mutating plugins run in this order, then validating ones in this order.
var DefaultOnPlugins = []string{
	"NamespaceLifecycle", "LimitRanger", "ServiceAccount", "TaintNodesByCondition", "PodSecurity",
	"Priority", "DefaultTolerationSeconds", "DefaultStorageClass", "StorageObjectInUseProtection",
	"PodGroupProtection", "PersistentVolumeClaimResize", "RuntimeClass", "CertificateApproval",
	"CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction",
	"DefaultIngressClass", "PodResizeValidator", "MutatingAdmissionPolicy",
	"MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook",
	"ResourceQuota",
}

// implemented are this simulator's plugins by name.
var implemented = map[string]Interface{
	"NamespaceLifecycle":            NamespaceLifecycle{},
	"LimitRanger":                   LimitRanger{},
	"ResourceQuota":                 ResourceQuota{},
	"ServiceAccount":                ServiceAccount{},
	"TaintNodesByCondition":         TaintNodesByCondition{},
	"Priority":                      Priority{},
	"DefaultTolerationSeconds":      DefaultTolerationSeconds{},
	"DefaultStorageClass":           DefaultStorageClass{},
	"StorageObjectInUseProtection":  StorageObjectInUseProtection{},
	"RuntimeClass":                  RuntimeClass{},
	"DefaultIngressClass":           DefaultIngressClass{},
	"PodSecurity":                   PodSecurity{},
	"CertificateSubjectRestriction": CertificateSubjectRestriction{},
	"ValidatingAdmissionPolicy":     ValidatingAdmissionPolicy{},
	"MutatingAdmissionPolicy":       MutatingAdmissionPolicy{},
	"MutatingAdmissionWebhook":      MutatingAdmissionWebhook{},
	"ValidatingAdmissionWebhook":    ValidatingAdmissionWebhook{},
}

// Config is what the server's options say of the plugins.
type Config struct {
	// StrictServiceAccounts makes the ServiceAccount plugin act as on a kube-apiserver
	// without a controller-manager: a pod whose `default` account was never created is
	// refused. Otherwise the plugin assumes that account (ServiceAccount.AssumeDefault).
	StrictServiceAccounts bool
	// WebhookFaults is the server's webhook-timeout fault, shared by both webhook plugins.
	WebhookFaults *WebhookFaults
}

// NewChain returns the default chain: the plugins of DefaultOnPlugins this simulator
// implements, in that order. A plugin added to implemented takes its place by name.
func NewChain(cfg Config) Chain {
	var c Chain
	for _, name := range DefaultOnPlugins {
		if p, ok := implemented[name]; ok {
			if name == "ServiceAccount" {
				p = ServiceAccount{AssumeDefault: !cfg.StrictServiceAccounts}
			}
			if name == "MutatingAdmissionWebhook" {
				p = MutatingAdmissionWebhook{Faults: cfg.WebhookFaults}
			}
			if name == "ValidatingAdmissionWebhook" {
				p = ValidatingAdmissionWebhook{Faults: cfg.WebhookFaults}
			}
			c = append(c, p)
		}
	}
	return c
}

// Names lists the plugins' names in order.
func (c Chain) Names() []string {
	out := make([]string, len(c))
	for i, p := range c {
		out[i] = p.Name()
	}
	return out
}

// Admit runs the mutating phase.
func (c Chain) Admit(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if m, ok := p.(MutationInterface); ok && p.Handles(a.Operation) {
			if err := m.Admit(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// Validate runs the validating phase.
func (c Chain) Validate(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if v, ok := p.(ValidationInterface); ok && p.Handles(a.Operation) {
			if err := v.Validate(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// Recheck runs the Rechecker plugins.
func (c Chain) Recheck(ctx context.Context, a *Attributes) error {
	for _, p := range c {
		if r, ok := p.(Rechecker); ok && p.Handles(a.Operation) {
			if err := r.Recheck(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}
