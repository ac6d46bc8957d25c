package admission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// exemptFromWebhooks is rules.IsExemptAdmissionConfigurationResource: webhooks never see
// the objects that configure admission, so a broken webhook cannot lock itself in.
func exemptFromWebhooks(a *Attributes) bool {
	if a.Kind.Group != "admissionregistration.k8s.io" {
		return false
	}
	switch a.Kind.Kind {
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
		"ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding":
		return true
	}
	return false
}

// selected returns the webhooks of a configuration resource that a must be sent to, or the
// error that ends the request (a failing match condition under failurePolicy Fail).
func selected(ctx context.Context, a *Attributes, resource string) ([]*hook, error) {
	if exemptFromWebhooks(a) || a.Store == nil {
		return nil, nil
	}
	hooks := hooksOf(a, resource)
	out := hooks[:0]
	for _, h := range hooks {
		if !h.matches(a) {
			continue
		}
		ok, err := h.conditionsMatch(ctx, a)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// failed is what a *callError becomes: nothing under failurePolicy Ignore, a 500 under Fail
// (the dispatchers' apierrors.NewInternalError).
func (h *hook) failed(err error) error {
	var ce *callError
	if errors.As(err, &ce) {
		if h.ignore {
			return nil
		}
		return api.NewInternalError(err)
	}
	return err
}

// MutatingAdmissionWebhook mirrors plugin/pkg/admission/webhook/mutating: it sends the
// object to each matching webhook of the MutatingWebhookConfigurations in turn and applies
// the JSONPatch each answers with. With reinvocationPolicy IfNeeded a webhook runs once
// more when a later webhook changed the object, as the real reinvocation does (one round).
type MutatingAdmissionWebhook struct {
	// Faults is the server's webhook-timeout fault; nil for none.
	Faults *WebhookFaults
}

// Name is the plugin's name.
func (MutatingAdmissionWebhook) Name() string { return "MutatingAdmissionWebhook" }

// Handles is true for every operation.
func (MutatingAdmissionWebhook) Handles(Operation) bool { return true }

// Admit mirrors mutatingDispatcher.Dispatch, with its reinvocation.
func (p MutatingAdmissionWebhook) Admit(ctx context.Context, a *Attributes) error {
	hooks, err := selected(ctx, a, "mutatingwebhookconfigurations")
	if err != nil || len(hooks) == 0 {
		return err
	}
	invoked := map[string]bool{}  // IfNeeded webhooks already called
	reinvoke := map[string]bool{} // those a later change requires calling again
	again := false
	for round := 0; round < 2; round++ {
		for _, h := range hooks {
			if round == 1 && !reinvoke[h.uid] {
				continue
			}
			changed, err := p.callOne(ctx, a, h)
			if changed {
				for uid := range invoked {
					reinvoke[uid] = true
				}
				invoked = map[string]bool{}
				again = true
			}
			if h.ifNeeded {
				invoked[h.uid] = true
			}
			if err != nil {
				if err = h.failed(err); err != nil {
					return err
				}
			}
		}
		if !again {
			return nil
		}
		again = false
	}
	return nil
}

// callOne is callAttrMutatingHook: it reports whether the webhook changed the object.
func (p MutatingAdmissionWebhook) callOne(ctx context.Context, a *Attributes, h *hook) (bool, error) {
	if a.DryRun && !h.sideEffectFree() {
		return false, dryRunRefusal(h.name)
	}
	out := h.prepare(ctx, a)
	var r *review
	var err error
	outside(a, func() { r, err = out.send(ctx, p.Faults, true) })
	if err != nil {
		return false, err
	}
	rest.AddWarnings(ctx, r.Response.Warnings...)
	if !r.Response.Allowed {
		return false, denied(h.name, r.Response.Result)
	}
	if len(r.Response.Patch) == 0 {
		return false, nil
	}
	var ops []any
	if err := json.Unmarshal(r.Response.Patch, &ops); err != nil {
		return false, &callError{webhook: h.name, reason: fmt.Errorf("received undecodable patch in webhook response: %w", err)}
	}
	if len(ops) == 0 {
		return false, nil
	}
	if a.Object == nil {
		return false, api.NewInternalError(fmt.Errorf("admission webhook %q attempted to modify the object, which is not supported for this operation", h.name))
	}
	orig, err := json.Marshal(a.Object.Object)
	if err != nil {
		return false, api.NewInternalError(err)
	}
	patched, err := patch.ApplyJSONPatchDetailed(orig, r.Response.Patch)
	if err != nil {
		return false, api.NewInternalError(err)
	}
	next := &api.Unstructured{}
	if err := next.UnmarshalJSON(patched); err != nil {
		return false, api.NewInternalError(err)
	}
	if reflect.DeepEqual(next.Object, a.Object.Object) {
		return false, nil
	}
	a.Object.Object = next.Object
	return true, nil
}

// ValidatingAdmissionWebhook mirrors plugin/pkg/admission/webhook/validating: every matching
// webhook of the ValidatingWebhookConfigurations is called at once; the first refusal, in
// the webhooks' order, ends the request.
type ValidatingAdmissionWebhook struct {
	// Faults is the server's webhook-timeout fault; nil for none.
	Faults *WebhookFaults
}

// Name is the plugin's name.
func (ValidatingAdmissionWebhook) Name() string { return "ValidatingAdmissionWebhook" }

// Handles is true for every operation.
func (ValidatingAdmissionWebhook) Handles(Operation) bool { return true }

// Validate mirrors validatingDispatcher.Dispatch.
func (p ValidatingAdmissionWebhook) Validate(ctx context.Context, a *Attributes) error {
	hooks, err := selected(ctx, a, "validatingwebhookconfigurations")
	if err != nil || len(hooks) == 0 {
		return err
	}
	errs := make([]error, len(hooks))
	calls := make([]*outgoing, len(hooks))
	for i, h := range hooks {
		if a.DryRun && !h.sideEffectFree() {
			errs[i] = dryRunRefusal(h.name)
			continue
		}
		calls[i] = h.prepare(ctx, a)
	}
	outside(a, func() {
		var wg sync.WaitGroup
		for i, out := range calls {
			if out == nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := out.send(ctx, p.Faults, false)
				if err != nil {
					errs[i] = out.h.failed(err)
					return
				}
				rest.AddWarnings(ctx, r.Response.Warnings...)
				if !r.Response.Allowed {
					errs[i] = denied(out.h.name, r.Response.Result)
				}
			}()
		}
		wg.Wait()
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
