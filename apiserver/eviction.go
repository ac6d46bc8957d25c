package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The pods/eviction subresource (EvictionREST of pkg/registry/core/pod/storage/eviction.go):
// a pod is deleted only if the PodDisruptionBudget that selects it allows one more
// disruption, which the eviction then takes by decrementing status.disruptionsAllowed and
// recording the pod in status.disruptedPods. A pod that is not running (Pending, Succeeded,
// Failed, or already deleting) needs no budget. Refusals are 429 TooManyRequests with a
// DisruptionBudget cause saying why; kubectl drain retries them.

var (
	evictionGVK = api.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}
	pdbGR       = api.GroupResource{Group: "policy", Resource: "poddisruptionbudget"}
)

// maxDisruptedPods mirrors MaxDisruptedPodSize.
const maxDisruptedPods = 2000

// evictionRetries bounds the conflict retries, as EvictionsRetry's 20 steps do.
const evictionRetries = 20

// serveEviction serves POST …/pods/{name}/eviction.
func serveEviction(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	ev, wo, ok := s.decodeKindBody(w, r, evictionGVK, api.GroupVersionKind{Group: "policy", Kind: "Eviction"})
	if !ok {
		return
	}
	if ev.GetName() != info.name {
		writeError(w, api.NewBadRequest("name in URL does not match name in Eviction object"))
		return
	}
	opts, err := evictionDeleteOptions(ev, wo)
	if err != nil {
		writeError(w, err)
		return
	}
	result, err := s.evict(r.Context(), info.namespace, info.name, opts)
	if err != nil {
		writeError(w, err)
		return
	}
	if result != nil {
		// A Failure Status as the REST's result, not its error: written with the create's 201.
		writeStatusBody(w, http.StatusCreated, result)
		return
	}
	writeCreatedStatus(w)
}

// evictionDeleteOptions reads the Eviction's deleteOptions and joins the request's dryRun
// to them, as propagateDryRun does.
func evictionDeleteOptions(ev *api.Unstructured, wo decode.WriteOptions) (api.DeleteOptions, error) {
	var opts api.DeleteOptions
	raw, hasOpts := ev.Object["deleteOptions"].(map[string]any)
	if hasOpts {
		if v, _ := raw["ignoreStoreReadErrorWithClusterBreakingPotential"].(bool); v {
			return opts, api.NewInvalid(api.GroupKind{Group: "policy", Kind: "Eviction"}, ev.GetName(), []api.StatusCause{{
				Type: api.CauseTypeFieldValueInvalid, Field: "deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential",
				Message: "Invalid value: true: can not be set for pod eviction, try after removing the option"}})
		}
		data, _ := json.Marshal(raw)
		if err := json.Unmarshal(data, &opts); err != nil {
			return opts, api.NewBadRequest(err.Error())
		}
	}
	var query []string
	if wo.DryRun {
		query = []string{api.DryRunAll}
	}
	switch {
	case len(opts.DryRun) == 0:
		opts.DryRun = query
	case len(query) > 0 && !reflect.DeepEqual(query, opts.DryRun):
		return opts, aggregateError([]string{fmt.Sprintf("Non-matching dry-run options in request and content: %v and %v", query, opts.DryRun)})
	}
	return opts, nil
}

// evict mirrors EvictionREST.Create. A non-nil Status is a result to answer with (a pod
// under several budgets), an error the refusal.
func (s *endpoints) evict(ctx context.Context, ns, name string, opts api.DeleteOptions) (*api.Status, error) {
	pods := s.table.Get("", "pods")
	rvPrecondition := opts.Preconditions != nil && opts.Preconditions.ResourceVersion != nil
	var pod *api.Unstructured
	for attempt := 0; ; attempt++ {
		rec, err := s.reg.Get(ctx, pods, ns, name, 0)
		if err != nil {
			return nil, err
		}
		pod = rec.Obj
		if !canIgnoreBudget(pod) {
			break
		}
		// A pod that is not running has disrupted nothing the budget counts: it goes at once.
		del := opts
		if !terminalOrDeleting(pod) && !rvPrecondition {
			del = withRVPrecondition(opts, pod.GetResourceVersion())
		}
		err = s.markAndDeletePod(ctx, ns, name, del)
		if err != nil && api.IsConflict(err) && !rvPrecondition && attempt < evictionRetries {
			continue
		}
		return nil, err
	}

	budgets := s.budgetsOf(ns, pod)
	if len(budgets) > 1 {
		return &api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure, Code: http.StatusInternalServerError,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}, nil
	}
	pinRV := false
	if len(budgets) == 1 {
		pdb := budgets[0]
		st, _ := pdb.Object["status"].(map[string]any)
		policy, _, _ := api.NestedString(pdb.Object, "spec", "unhealthyPodEvictionPolicy")
		current, desired := intOf(st, "currentHealthy"), intOf(st, "desiredHealthy")
		switch {
		case podReady(pod):
			if err := s.takeDisruption(ctx, ns, name, pdb, len(opts.DryRun) > 0); err != nil {
				return nil, err
			}
		case policy == "AlwaysAllow", current >= desired && desired > 0:
			// An unready pod does not count towards the budget: it may go, if it has not
			// become ready meanwhile (the resourceVersion precondition).
			pinRV = true
		default:
			if err := s.takeDisruption(ctx, ns, name, pdb, len(opts.DryRun) > 0); err != nil {
				return nil, err
			}
		}
		if pinRV {
			opts = withRVPrecondition(opts, pod.GetResourceVersion())
		}
		err := s.markAndDeletePod(ctx, ns, name, opts)
		if err != nil && api.IsConflict(err) && pinRV && !rvPrecondition {
			return nil, budgetPending(pdb.GetName())
		}
		return nil, err
	}
	return nil, s.markAndDeletePod(ctx, ns, name, opts)
}

// canIgnoreBudget mirrors canIgnorePDB.
func canIgnoreBudget(pod *api.Unstructured) bool {
	phase, _, _ := api.NestedString(pod.Object, "status", "phase")
	return phase == "Succeeded" || phase == "Failed" || phase == "Pending" || pod.GetDeletionTimestamp() != nil
}

// terminalOrDeleting is the negation of shouldEnforceResourceVersion.
func terminalOrDeleting(pod *api.Unstructured) bool {
	phase, _, _ := api.NestedString(pod.Object, "status", "phase")
	return phase == "Succeeded" || phase == "Failed" || pod.GetDeletionTimestamp() != nil
}

// podReady mirrors IsPodReady: a Ready condition with status True.
func podReady(pod *api.Unstructured) bool {
	conds, _ := nestedValue(pod.Object, "status", "conditions").([]any)
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == "Ready" {
			return m["status"] == "True"
		}
	}
	return false
}

func withRVPrecondition(opts api.DeleteOptions, rv string) api.DeleteOptions {
	out := opts
	pre := api.Preconditions{}
	if opts.Preconditions != nil {
		pre = *opts.Preconditions
	}
	pre.ResourceVersion = &rv
	out.Preconditions = &pre
	return out
}

func intOf(m map[string]any, key string) int64 {
	n, _ := api.AsInt64(m[key])
	return n
}

// budgetsOf mirrors getPodDisruptionBudgets: the budgets of the pod's namespace whose
// selector matches its labels. A budget without a selector, or with a bad one, matches none.
func (s *endpoints) budgetsOf(ns string, pod *api.Unstructured) []*api.Unstructured {
	res := s.table.Get("policy", "poddisruptionbudgets")
	var out []*api.Unstructured
	_ = s.store.View(func(tx *storage.Tx) error {
		for _, key := range tx.KeysIn(res.Coll, ns) {
			rec := tx.Get(res.Coll, key)
			if rec == nil {
				continue
			}
			sel, ok := labelSelectorOf(nestedValue(rec.Obj.Object, "spec", "selector"))
			if ok && sel.Matches(labels.Set(pod.GetLabels())) {
				out = append(out, rec.Obj)
			}
		}
		return nil
	})
	return out
}

// labelSelectorOf mirrors metav1.LabelSelectorAsSelector: nil selects nothing, an empty
// selector everything; ok is false for a selector that does not parse.
func labelSelectorOf(v any) (labels.Selector, bool) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return labels.Nothing(), true
	}
	var reqs []labels.Requirement
	ml, _ := m["matchLabels"].(map[string]any)
	for k, val := range ml {
		s, _ := val.(string)
		r, err := labels.NewRequirement(k, labels.Equals, []string{s})
		if err != nil {
			return nil, false
		}
		reqs = append(reqs, *r)
	}
	exprs, _ := m["matchExpressions"].([]any)
	ops := map[string]labels.Operator{"In": labels.In, "NotIn": labels.NotIn, "Exists": labels.Exists, "DoesNotExist": labels.DoesNotExist}
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		op, known := ops[fmt.Sprint(em["operator"])]
		if !known {
			return nil, false
		}
		var vals []string
		list, _ := em["values"].([]any)
		for _, x := range list {
			s, _ := x.(string)
			vals = append(vals, s)
		}
		key, _ := em["key"].(string)
		r, err := labels.NewRequirement(key, op, vals)
		if err != nil {
			return nil, false
		}
		reqs = append(reqs, *r)
	}
	if len(reqs) == 0 {
		return labels.Everything(), true
	}
	return labels.Everything().Add(reqs...), true
}

// takeDisruption mirrors checkAndDecrement under RetryOnConflict: it refuses when the budget
// allows no disruption now, else writes its status with one disruption fewer and the pod
// among the disrupted ones (nothing is written on a dry run).
func (s *endpoints) takeDisruption(ctx context.Context, ns, podName string, pdb *api.Unstructured, dryRun bool) error {
	res := s.table.Get("policy", "poddisruptionbudgets")
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			rec, err := s.reg.Get(ctx, res, ns, pdb.GetName(), 0)
			if err != nil {
				return err
			}
			pdb = rec.Obj
		}
		next, err := s.decrementBudget(pdb, podName)
		if err != nil || dryRun {
			return err
		}
		_, err = s.reg.Update(ctx, res, ns, next, updateOptions{Subresource: "status"})
		if err == nil || !api.IsConflict(err) || attempt >= evictionRetries {
			return err
		}
	}
}

// decrementBudget returns the budget's next state, or the refusal.
func (s *endpoints) decrementBudget(pdb *api.Unstructured, podName string) (*api.Unstructured, error) {
	name := pdb.GetName()
	st, _ := pdb.Object["status"].(map[string]any)
	if observed, _ := api.AsInt64(st["observedGeneration"]); observed < pdb.GetGeneration() {
		return nil, budgetPending(name)
	}
	allowed := intOf(st, "disruptionsAllowed")
	disrupted, _ := st["disruptedPods"].(map[string]any)
	switch {
	case allowed < 0:
		return nil, api.NewForbidden(pdbGR, name, errors.New("pdb disruptions allowed is negative"))
	case len(disrupted) > maxDisruptedPods:
		return nil, api.NewForbidden(pdbGR, name, errors.New("DisruptedPods map too big - too many evictions not confirmed by PDB controller"))
	case allowed == 0:
		err := api.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0)
		err.Details.Causes = append(err.Details.Causes, api.StatusCause{Type: "DisruptionBudget", Message: budgetMessage(name, st)})
		return nil, err
	}
	next := pdb.DeepCopy()
	nst := next.Object["status"].(map[string]any)
	nst["disruptionsAllowed"] = allowed - 1
	now := s.reg.Now()
	if allowed-1 == 0 {
		setAllowedCondition(nst, now)
	}
	pods, _ := nst["disruptedPods"].(map[string]any)
	if pods == nil {
		pods = map[string]any{}
		nst["disruptedPods"] = pods
	}
	pods[podName] = now.UTC().Format("2006-01-02T15:04:05Z")
	return next, nil
}

// budgetMessage is the cause of a refusal with no disruption allowed (checkAndDecrement).
func budgetMessage(name string, st map[string]any) string {
	var cond map[string]any
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == "DisruptionAllowed" {
			cond = m
			break
		}
	}
	condFalse := cond != nil && cond["status"] == "False" && fmt.Sprint(cond["message"]) != "" && cond["message"] != nil
	current, desired := intOf(st, "currentHealthy"), intOf(st, "desiredHealthy")
	switch {
	case condFalse && cond["reason"] == "SyncFailed":
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %v", name, cond["message"])
	case current <= desired:
		return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", name, desired, current)
	case condFalse:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%v): %v", name, cond["reason"], cond["message"])
	}
	return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", name)
}

// setAllowedCondition mirrors UpdateDisruptionAllowedCondition once no disruption is left:
// DisruptionAllowed False, InsufficientPods, through SetStatusCondition (the transition time
// moves only with the status).
func setAllowedCondition(st map[string]any, now api.Time) {
	cond := map[string]any{"type": "DisruptionAllowed", "status": "False", "reason": "InsufficientPods", "message": "",
		"observedGeneration": st["observedGeneration"], "lastTransitionTime": now.UTC().Format("2006-01-02T15:04:05Z")}
	if cond["observedGeneration"] == nil {
		cond["observedGeneration"] = int64(0)
	}
	conds, _ := st["conditions"].([]any)
	for i, c := range conds {
		old, _ := c.(map[string]any)
		if old["type"] != "DisruptionAllowed" {
			continue
		}
		if old["status"] == "False" {
			cond["lastTransitionTime"] = old["lastTransitionTime"]
		}
		conds[i] = cond
		return
	}
	st["conditions"] = append(conds, cond)
}

// budgetPending mirrors createTooManyRequestsError.
func budgetPending(name string) *api.Status {
	err := api.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10)
	err.Details.Causes = append(err.Details.Causes, api.StatusCause{Type: "DisruptionBudget",
		Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", name)})
	return err
}

// markAndDeletePod mirrors addConditionAndDeletePod: the pod first gets the
// DisruptionTarget condition (unless this is a dry run), checked against opts'
// preconditions, then is deleted with opts, whose resourceVersion precondition follows the
// condition's write.
func (s *endpoints) markAndDeletePod(ctx context.Context, ns, name string, opts api.DeleteOptions) error {
	pods := s.table.Get("", "pods")
	dryRun := len(opts.DryRun) > 0
	if !dryRun {
		now := s.reg.Now()
		podGR := api.GroupResource{Resource: "Pod"}
		rec, _, err := s.store.GuaranteedUpdate(ctx, pods.Coll, objectKey(ns, name), nil, func(_ *storage.Tx, old *record) (*api.Unstructured, error) {
			if p := opts.Preconditions; p != nil {
				if p.UID != nil && *p.UID != "" && *p.UID != old.Obj.GetUID() {
					return nil, api.NewConflict(podGR, name, fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *p.UID, old.Obj.GetUID()))
				}
				if rv := strconv.FormatUint(old.RV, 10); p.ResourceVersion != nil && *p.ResourceVersion != "" && *p.ResourceVersion != rv {
					return nil, api.NewConflict(podGR, name, fmt.Errorf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *p.ResourceVersion, rv))
				}
			}
			pod := old.Obj.DeepCopy()
			setPodCondition(pod.Object, map[string]any{"type": "DisruptionTarget", "status": "True",
				"reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"}, now)
			return pod, nil
		}, storage.UpdateOptions{})
		if errors.Is(err, storage.ErrKeyNotFound) {
			return api.NewNotFound(api.GroupResource{Resource: "pods"}, name)
		}
		if err != nil {
			return err
		}
		if opts.Preconditions != nil && opts.Preconditions.ResourceVersion != nil {
			opts = withRVPrecondition(opts, strconv.FormatUint(rec.RV, 10))
		}
	}
	_, err := s.reg.Delete(ctx, pods, ns, name, opts, dryRun)
	return err
}
