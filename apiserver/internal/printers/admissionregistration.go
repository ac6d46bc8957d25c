package printers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of admissionregistration.k8s.io: printValidatingWebhook, printMutatingWebhook,
// printValidatingAdmissionPolicy, printMutatingAdmissionPolicy and their bindings'.
var (
	webhookConfigurationPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Webhooks", "integer", text("Webhooks indicates the number of webhooks registered in this configuration")),
			ageColumn(),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), int64(len(o.list("webhooks"))), age(o, now)}, nil
		},
	}

	validatingAdmissionPolicyPrinter = policyPrinter("Validations", "Validations indicates the number of validation rules defined in this configuration", "validations")
	mutatingAdmissionPolicyPrinter   = policyPrinter("Mutations", "Mutation indicates the number of mutations rules defined in this configuration", "mutations")

	policyBindingPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("PolicyName", "string", text("PolicyName indicates the policy definition which the policy binding binded to")),
			column("ParamRef", "string", text("ParamRef indicates the param resource which sets the configuration param")),
			ageColumn(),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("spec", "policyName"), paramRefCell(o.obj("spec", "paramRef")), age(o, now)}, nil
		},
	}
)

// policyPrinter is the layout of an admission policy: how many of its rules, its param kind.
func policyPrinter(column0, description, member string) *Printer {
	return &Printer{
		specs: []col{
			nameColumn(),
			column(column0, "integer", text(description)),
			column("ParamKind", "string", text("ParamKind specifies the kind of resources used to parameterize this policy")),
			ageColumn(),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			paramKind := "<unset>"
			if pk := o.obj("spec", "paramKind"); pk != nil {
				paramKind = pk.str("apiVersion") + "/" + pk.str("kind")
			}
			return []any{o.name(), int64(len(o.list("spec", member))), paramKind, age(o, now)}, nil
		},
	}
}

// paramRefCell mirrors the ParamRef cell: namespace/name, */name without a namespace, or
// the selector as its generated String method prints it.
func paramRefCell(pr object) string {
	switch {
	case pr == nil:
		return "<unset>"
	case pr.str("name") != "" && pr.str("namespace") != "":
		return pr.str("namespace") + "/" + pr.str("name")
	case pr.str("name") != "":
		return "*/" + pr.str("name")
	case pr.has("selector"):
		return goStringOfSelector(pr.obj("selector"))
	}
	return "<unset>"
}

// goStringOfSelector prints a LabelSelector as the String method generated for
// metav1.LabelSelector does: Go-ish, labels sorted by key.
func goStringOfSelector(sel object) string {
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	labels := sel.stringMap("matchLabels")
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%v: %v,", k, labels[k])
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{")
	for _, e := range sel.objects("matchExpressions") {
		fmt.Fprintf(&b, "LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", e.str("key"), e.str("operator"), e.strings("values"))
	}
	b.WriteString("},}")
	return b.String()
}
