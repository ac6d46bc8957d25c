package defaulting

// The defaults of the kinds served beside the core workloads: LimitRange (core/v1),
// HorizontalPodAutoscaler (autoscaling/v2 and v1) and PriorityClass (scheduling.k8s.io/v1),
// as their zz_generated.defaults.go apply them. ResourceQuota, ControllerRevision,
// PodDisruptionBudget, ComponentStatus and Binding have none.

// defaultLimitRange mirrors SetDefaults_LimitRangeItem for each limit: a Container limit's
// default limit comes from max, and its default request from the default limit, else min.
func defaultLimitRange(obj map[string]any) {
	each(child(obj, "spec"), "limits", func(item map[string]any) {
		if str(item, "type") != "Container" {
			return
		}
		def, req := ensure(item, "default"), ensure(item, "defaultRequest")
		if def == nil || req == nil {
			return
		}
		fill := func(to, from map[string]any) {
			for k, v := range from {
				if _, ok := to[k]; !ok {
					to[k] = v
				}
			}
		}
		fill(def, child(item, "max"))
		fill(req, def)
		fill(req, child(item, "min"))
		// Empty maps are not written out (omitempty).
		for _, k := range []string{"default", "defaultRequest"} {
			if isEmptyObject(item, k) {
				delete(item, k)
			}
		}
	})
}

// defaultHPAV2 mirrors SetDefaults_HorizontalPodAutoscaler of autoscaling/v2: minReplicas 1,
// a CPU utilization target of 80% when there is no metric, and a behavior present is filled
// in rule by rule (SetDefaults_HorizontalPodAutoscalerBehavior).
func defaultHPAV2(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "minReplicas", int64(1))
	if isEmptyList(spec, "metrics") {
		spec["metrics"] = []any{map[string]any{"type": "Resource", "resource": map[string]any{
			"name": "cpu", "target": map[string]any{"type": "Utilization", "averageUtilization": int64(80)}}}}
	}
	b := child(spec, "behavior")
	if b == nil {
		return
	}
	up := ensure(b, "scaleUp")
	if up != nil {
		setPtr(up, "stabilizationWindowSeconds", int64(0))
		setPtr(up, "selectPolicy", "Max")
		if up["policies"] == nil {
			up["policies"] = []any{
				map[string]any{"type": "Pods", "value": int64(4), "periodSeconds": int64(15)},
				map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)},
			}
		}
	}
	// Scale-down has no default stabilization window: the controller's flag decides.
	if down := ensure(b, "scaleDown"); down != nil {
		setPtr(down, "selectPolicy", "Max")
		if down["policies"] == nil {
			down["policies"] = []any{map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)}}
		}
	}
}

// defaultHPAV1 mirrors SetDefaults_HorizontalPodAutoscaler of autoscaling/v1: minReplicas 1
// (the CPU default is applied by the conversion to v2, which sees the annotations).
func defaultHPAV1(obj map[string]any) {
	if spec := ensure(obj, "spec"); spec != nil {
		setPtr(spec, "minReplicas", int64(1))
	}
}

// defaultPriorityClass mirrors SetDefaults_PriorityClass.
func defaultPriorityClass(obj map[string]any) {
	setPtr(obj, "preemptionPolicy", "PreemptLowerPriority")
}
