package printers

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
)

// Printer is one resource's table layout: the columns, and the cells of one object's row.
// It mirrors the TableConvertor a registry has, built from printers.TableGenerator and the
// handlers AddHandlers registers in k8s.io/kubernetes pkg/printers/internalversion.
type Printer struct {
	specs []col
	// once resolves specs into defs on the first Table of the kind: the descriptions are
	// read from the embedded OpenAPI documents then, not at start-up.
	once sync.Once
	defs []api.TableColumnDefinition
	// cells reads one object's generic tree and returns exactly one value per column, plus
	// the row's conditions. The server prints wide, so every column has its cell.
	cells func(o object, now time.Time) ([]any, []api.TableRowCondition)
}

// col is one column: its definition, and where its description comes from.
type col struct {
	def  api.TableColumnDefinition
	desc description
}

// columns are the printer's column definitions, descriptions included.
func (p *Printer) columns() []api.TableColumnDefinition {
	p.once.Do(func() {
		p.defs = make([]api.TableColumnDefinition, len(p.specs))
		for i, c := range p.specs {
			p.defs[i] = c.def
			p.defs[i].Description = c.desc.resolve()
		}
	})
	return p.defs
}

// groupKind keys the printers of the built-in kinds.
type groupKind struct{ group, kind string }

// builtinPrinters maps each built-in kind we print to its layout, as AddHandlers does.
var builtinPrinters = map[groupKind]*Printer{
	{"", "Pod"}:                           podPrinter,
	{"", "ConfigMap"}:                     configMapPrinter,
	{"", "Namespace"}:                     namespacePrinter,
	{"", "Node"}:                          nodePrinter,
	{"", "Service"}:                       servicePrinter,
	{"", "Endpoints"}:                     endpointsPrinter,
	{"", "Secret"}:                        secretPrinter,
	{"", "ServiceAccount"}:                serviceAccountPrinter,
	{"", "Event"}:                         eventPrinter,
	{"", "PersistentVolumeClaim"}:         pvcPrinter,
	{"apps", "Deployment"}:                deploymentPrinter,
	{"apps", "ReplicaSet"}:                replicaSetPrinter,
	{"apps", "StatefulSet"}:               statefulSetPrinter,
	{"apps", "DaemonSet"}:                 daemonSetPrinter,
	{"batch", "Job"}:                      jobPrinter,
	{"batch", "CronJob"}:                  cronJobPrinter,
	{"coordination.k8s.io", "Lease"}:      leasePrinter,
	{"events.k8s.io", "Event"}:            eventsV1Printer,
	{"discovery.k8s.io", "EndpointSlice"}: endpointSlicePrinter,
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"}:   webhookConfigurationPrinter,
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"}:     webhookConfigurationPrinter,
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"}:        validatingAdmissionPolicyPrinter,
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicy"}:          mutatingAdmissionPolicyPrinter,
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"}: policyBindingPrinter,
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"}:   policyBindingPrinter,
	{"flowcontrol.apiserver.k8s.io", "FlowSchema"}:                       flowSchemaPrinter,
	{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"}:       priorityLevelPrinter,
	{"certificates.k8s.io", "CertificateSigningRequest"}:                 certificateSigningRequestPrinter,
	{"apiregistration.k8s.io", "APIService"}:                             apiServicePrinter,
	{"", "ComponentStatus"}:                                              componentStatusPrinter,
	{"", "LimitRange"}:                                                   createdAtPrinter, // no printer upstream
	{"", "PersistentVolume"}:                                             persistentVolumePrinter,
	{"", "PodTemplate"}:                                                  podTemplatePrinter,
	{"", "ReplicationController"}:                                        replicationControllerPrinter,
	{"", "ResourceQuota"}:                                                resourceQuotaPrinter,
	{"apps", "ControllerRevision"}:                                       controllerRevisionPrinter,
	{"autoscaling", "HorizontalPodAutoscaler"}:                           hpaPrinter,
	{"policy", "PodDisruptionBudget"}:                                    podDisruptionBudgetPrinter,
	{"scheduling.k8s.io", "PriorityClass"}:                               priorityClassPrinter,
	// CRDs have no printer upstream: the default convertor's Name and Created At.
	{"apiextensions.k8s.io", "CustomResourceDefinition"}: createdAtPrinter,

	{"networking.k8s.io", "Ingress"}:       ingressPrinter,
	{"networking.k8s.io", "IngressClass"}:  ingressClassPrinter,
	{"networking.k8s.io", "NetworkPolicy"}: networkPolicyPrinter,
	{"networking.k8s.io", "IPAddress"}:     ipAddressPrinter,
	{"networking.k8s.io", "ServiceCIDR"}:   serviceCIDRPrinter,
	{"node.k8s.io", "RuntimeClass"}:        runtimeClassPrinter,
	{"storage.k8s.io", "CSIDriver"}:        csiDriverPrinter,
	{"storage.k8s.io", "CSINode"}:          csiNodePrinter,
	// The csistoragecapacities storage has the default convertor, not a printer.
	{"storage.k8s.io", "CSIStorageCapacity"}:     createdAtPrinter,
	{"storage.k8s.io", "StorageClass"}:           storageClassPrinter,
	{"storage.k8s.io", "VolumeAttachment"}:       volumeAttachmentPrinter,
	{"storage.k8s.io", "VolumeAttributesClass"}:  volumeAttributesClassPrinter,
	{"resource.k8s.io", "DeviceClass"}:           deviceClassPrinter,
	{"resource.k8s.io", "ResourceClaim"}:         resourceClaimPrinter,
	{"resource.k8s.io", "ResourceClaimTemplate"}: resourceClaimTemplatePrinter,
	{"resource.k8s.io", "ResourceSlice"}:         resourceSlicePrinter,
	// Nor have Roles and ClusterRoles.
	{"rbac.authorization.k8s.io", "Role"}:               createdAtPrinter,
	{"rbac.authorization.k8s.io", "ClusterRole"}:        createdAtPrinter,
	{"rbac.authorization.k8s.io", "RoleBinding"}:        roleBindingPrinter,
	{"rbac.authorization.k8s.io", "ClusterRoleBinding"}: clusterRoleBindingPrinter,
}

// For picks the printer of a kind by its API group ("" for core) and kind. A built-in kind
// (builtin true) we know gets its kube-apiserver columns; any other kind, and every kind
// registered as a custom resource (builtin false), gets NAME and AGE.
func For(group, kind string, builtin bool) *Printer {
	if builtin {
		if p, ok := builtinPrinters[groupKind{group, kind}]; ok {
			return p
		}
	}
	return defaultPrinter
}

// defaultPrinter gives NAME and AGE, the columns kubectl shows for a custom resource without
// additionalPrinterColumns. (The real default convertor of kinds without a printer says
// "Created At" with an RFC 3339 cell; NAME AGE reads better in a workshop.)
var defaultPrinter = &Printer{
	specs: []col{nameColumn(), ageColumn()},
	cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
		return []any{o.name(), age(o, now)}, nil
	},
}

// The descriptions of the pod template columns, the printers' own words.
var (
	containersDescription = text("Names of each container in the template.")
	imagesDescription     = text("Images referenced by each container in the template.")
)

// column is a priority-0 column; wide is one kubectl shows only with -o wide.
func column(name, typ string, d description) col {
	return col{def: api.TableColumnDefinition{Name: name, Type: typ}, desc: d}
}

func wide(name, typ string, d description) col {
	return col{def: api.TableColumnDefinition{Name: name, Type: typ, Priority: 1}, desc: d}
}

// nameColumn is the Name column every printer starts with, described as ObjectMeta's name.
func nameColumn() col {
	return col{def: api.TableColumnDefinition{Name: "Name", Type: "string", Format: "name"}, desc: doc(objectMeta, "name")}
}

// ageColumn is the Age column, described as ObjectMeta's creationTimestamp.
func ageColumn() col { return column("Age", "string", doc(objectMeta, "creationTimestamp")) }

// containerCells mirrors layoutContainerCells: the names and the images of a pod template's
// containers, each comma-separated.
func containerCells(template object) (names, images string) {
	var n, i strings.Builder
	for k, c := range template.objects("spec", "containers") {
		if k > 0 {
			n.WriteByte(',')
			i.WriteByte(',')
		}
		n.WriteString(c.str("name"))
		i.WriteString(c.str("image"))
	}
	return n.String(), i.String()
}

// selectorOf mirrors metav1.LabelSelectorAsSelector on a LabelSelector member: nil selects
// nothing, an empty one everything, and a bad operator or value is an error.
func selectorOf(sel object) (labels.Selector, error) {
	if sel == nil {
		return labels.Nothing(), nil
	}
	match, exprs := sel.stringMap("matchLabels"), sel.objects("matchExpressions")
	if len(match)+len(exprs) == 0 {
		return labels.Everything(), nil
	}
	reqs := make([]labels.Requirement, 0, len(match)+len(exprs))
	for k, v := range match {
		r, err := labels.NewRequirement(k, labels.Equals, []string{v})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	for _, e := range exprs {
		op, ok := selectorOperators[e.str("operator")]
		if !ok {
			return nil, fmt.Errorf("%q is not a valid label selector operator", e.str("operator"))
		}
		r, err := labels.NewRequirement(e.str("key"), op, e.strings("values"))
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	return labels.Everything().Add(reqs...), nil
}

// selectorOperators maps the operators of a LabelSelector to those of a selector.
var selectorOperators = map[string]labels.Operator{
	"In": labels.In, "NotIn": labels.NotIn, "Exists": labels.Exists, "DoesNotExist": labels.DoesNotExist,
}

// formatLabelSelector mirrors metav1.FormatLabelSelector: "<none>" for a selector that is
// absent or empty, "<error>" for a bad one.
func formatLabelSelector(sel object) string {
	s, err := selectorOf(sel)
	if err != nil {
		return "<error>"
	}
	return orNone(s.String())
}

// formatLabels mirrors labels.FormatLabels: "k=v" pairs sorted by key, or "<none>".
func formatLabels(m map[string]string) string { return orNone(labels.Set(m).String()) }

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
