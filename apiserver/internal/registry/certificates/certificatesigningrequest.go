package certificates

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Condition types the strategies and validation treat apart.
const (
	approved = "Approved"
	denied   = "Denied"
	failed   = "Failed"
)

// csrStrategy mirrors csrStrategy, csrStatusStrategy and csrApprovalStrategy of
// pkg/registry/certificates/certificates/strategy.go.
type csrStrategy struct{ rest.Base }

// CertificateSigningRequests is the certificatesigningrequests resource, with its status and
// approval subresources (pkg/registry/certificates/certificates/storage).
func CertificateSigningRequests() rest.Kind {
	return rest.Kind{Group: Group, Resource: "certificatesigningrequests", Kind: "CertificateSigningRequest", ShortNames: []string{"csr"},
		Fields:       map[string]rest.FieldRead{"spec.signerName": rest.TextField("spec.signerName")},
		Subresources: []rest.Subresource{{Name: "approval", Kind: api.GroupVersionKind{Kind: "CertificateSigningRequest"}, Verbs: rest.StatusVerbs}},
		Strategy: csrStrategy{rest.Base{GVK: api.GroupVersionKind{Group: Group, Version: "v1", Kind: "CertificateSigningRequest"},
			Cluster: true, Status: true, Unconditional: true}}}
}

// PrepareForCreate implements rest.Strategy: who asked is the requesting user, never what the
// body claims, and the status starts empty.
func (csrStrategy) PrepareForCreate(ctx rest.Context, obj *api.Unstructured) {
	spec, ok := obj.Object["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		obj.Object["spec"] = spec
	}
	for _, k := range []string{"username", "uid", "groups", "extra"} {
		delete(spec, k)
	}
	if u := ctx.User; u != nil {
		if u.Name != "" {
			spec["username"] = u.Name
		}
		if u.UID != "" {
			spec["uid"] = u.UID
		}
		if len(u.Groups) > 0 {
			groups := make([]any, len(u.Groups))
			for i, g := range u.Groups {
				groups[i] = g
			}
			spec["groups"] = groups
		}
		if len(u.Extra) > 0 {
			extra := make(map[string]any, len(u.Extra))
			for k, vs := range u.Extra {
				values := make([]any, len(vs))
				for i, v := range vs {
					values[i] = v
				}
				extra[k] = values
			}
			spec["extra"] = extra
		}
	}
	obj.Object["status"] = map[string]any{}
}

// PrepareForUpdate implements rest.Strategy: the main resource changes only metadata.
func (csrStrategy) PrepareForUpdate(_ rest.Context, obj, old *api.Unstructured) {
	rest.KeepFields(obj, old, "spec", "status")
}

// GetResetFields implements rest.Strategy.
func (csrStrategy) GetResetFields() map[string][]string {
	return map[string][]string{"v1": {"spec", "status"}}
}

// NameIsUnchecked implements rest.UncheckedNamer: ValidateCertificateRequestName accepts
// every name.
func (csrStrategy) NameIsUnchecked() bool { return true }

// Validate implements rest.Strategy (ValidateCertificateSigningRequestCreate).
func (csrStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return validateCSR(obj.Object)
}

// ValidateUpdate implements rest.Strategy: the rule of every update path, that no Approved,
// Denied or Failed condition goes away (the others are the subresources').
func (csrStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	for _, t := range []string{approved, denied, failed} {
		if len(conditionsOf(obj.Object, t)) < len(conditionsOf(old.Object, t)) {
			causes = append(causes, forbiddenConditions("updates may not remove a condition of type %q", t))
		}
	}
	return causes
}

// PreparesSubresource implements rest.SubresourceStrategy.
func (csrStrategy) PreparesSubresource(sub string) bool { return sub == "status" || sub == "approval" }

// PrepareForSubresourceUpdate implements rest.SubresourceStrategy. Both subresources keep
// the stored spec. The status one keeps the stored Approved and Denied conditions where
// the body has as many of them; the approval one keeps the whole stored status but its
// conditions. Metadata is the body's, as rest.BeforeUpdate leaves it, but for what no
// update changes.
func (csrStrategy) PrepareForSubresourceUpdate(ctx rest.Context, sub string, obj, old *api.Unstructured) *api.Unstructured {
	next := obj.DeepCopy()
	next.SetUID(old.GetUID())
	next.SetCreationTimestamp(old.GetCreationTimestamp())
	next.SetDeletionTimestamp(old.GetDeletionTimestamp().DeepCopy())
	next.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
	next.SetGeneration(old.GetGeneration())
	rest.KeepFields(next, old, "spec")
	status, _ := next.Object["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
	}
	switch sub {
	case "status":
		for _, t := range []string{approved, denied} {
			preserveConditions(status, child(old.Object, "status"), t)
		}
		populateConditionTimestamps(ctx.Now, status, child(old.Object, "status"))
		next.Object["status"] = status
	case "approval":
		populateConditionTimestamps(ctx.Now, status, child(old.Object, "status"))
		kept := map[string]any{}
		for k, v := range child(old.Object, "status") {
			if k != "conditions" {
				kept[k] = api.DeepCopyJSONValue(v)
			}
		}
		if c, ok := status["conditions"].([]any); ok && len(c) > 0 {
			kept["conditions"] = c
		}
		next.Object["status"] = kept
	}
	return next
}

// ValidateSubresourceUpdate implements rest.SubresourceStrategy: a status write may not add
// or change an Approved or Denied condition, nor change a certificate already issued. (An
// approval write keeps the stored certificate, and the main resource the whole status.)
func (csrStrategy) ValidateSubresourceUpdate(sub string, obj, old *api.Unstructured) []api.StatusCause {
	if sub != "status" {
		return nil
	}
	var causes []api.StatusCause
	for _, t := range []string{approved, denied} {
		before, after := conditionsOf(old.Object, t), conditionsOf(obj.Object, t)
		switch {
		case len(after) < len(before): // ValidateUpdate's
		case len(after) > len(before):
			causes = append(causes, forbiddenConditions("updates may not add a condition of type %q", t))
		case !slices.EqualFunc(before, after, func(a, b any) bool { return jsonEqual(a, b) }):
			causes = append(causes, forbiddenConditions("updates may not modify a condition of type %q", t))
		}
	}
	oldCert, newCert := str(child(old.Object, "status"), "certificate"), str(child(obj.Object, "status"), "certificate")
	if oldCert != "" && newCert != oldCert {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeForbidden, Field: "status.certificate",
			Message: "Forbidden: updates may not modify existing certificate content"})
	}
	return causes
}

// conditionsOf lists the conditions of type t in obj's status.
func conditionsOf(obj map[string]any, t string) []any {
	var out []any
	for _, c := range list(child(obj, "status"), "conditions") {
		if m, ok := c.(map[string]any); ok && str(m, "type") == t {
			out = append(out, m)
		}
	}
	return out
}

// preserveConditions mirrors preserveConditionInstances: when status has as many conditions
// of type t as stored, each takes the stored one's place, in order.
func preserveConditions(status, stored map[string]any, t string) {
	conds, oldConds := list(status, "conditions"), list(stored, "conditions")
	idx := func(l []any) []int {
		var out []int
		for i, c := range l {
			if m, ok := c.(map[string]any); ok && str(m, "type") == t {
				out = append(out, i)
			}
		}
		return out
	}
	newIdx, oldIdx := idx(conds), idx(oldConds)
	if len(newIdx) != len(oldIdx) {
		return
	}
	for i, o := range oldIdx {
		conds[newIdx[i]] = api.DeepCopyJSONValue(oldConds[o])
	}
}

// populateConditionTimestamps mirrors its namesake: a condition without lastUpdateTime gets
// now; one without lastTransitionTime gets that of a stored condition of the same type and
// status, or now.
func populateConditionTimestamps(now api.Time, status, stored map[string]any) {
	stamp := now.UTC().Format("2006-01-02T15:04:05Z")
	for _, c := range list(status, "conditions") {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if str(m, "lastUpdateTime") == "" {
			m["lastUpdateTime"] = stamp
		}
		if str(m, "lastTransitionTime") != "" {
			continue
		}
		m["lastTransitionTime"] = stamp
		for _, oc := range list(stored, "conditions") {
			om, _ := oc.(map[string]any)
			if str(om, "type") == str(m, "type") && str(om, "status") == str(m, "status") && str(om, "lastTransitionTime") != "" {
				m["lastTransitionTime"] = str(om, "lastTransitionTime")
				break
			}
		}
	}
}
