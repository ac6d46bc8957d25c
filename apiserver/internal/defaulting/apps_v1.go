package defaulting

// The apps/v1 kinds, as SetObjectDefaults_* in pkg/apis/apps/v1/zz_generated.defaults.go
// apply them: the kind's own defaults, then the template's pod spec.

// defaultTemplateSpec applies the shared pod spec defaults to spec.template.spec.
func defaultTemplateSpec(spec map[string]any) {
	if tspec := path(spec, "template", "spec"); tspec != nil {
		defaultPodSpec(tspec)
	}
}

// defaultDeployment mirrors SetDefaults_Deployment.
func defaultDeployment(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "replicas", int64(1))
	if strategy := ensure(spec, "strategy"); strategy != nil {
		setString(strategy, "type", "RollingUpdate")
		if str(strategy, "type") == "RollingUpdate" {
			if ru := ensure(strategy, "rollingUpdate"); ru != nil {
				setPtr(ru, "maxUnavailable", "25%")
				setPtr(ru, "maxSurge", "25%")
			}
		}
	}
	setPtr(spec, "revisionHistoryLimit", int64(10))
	setPtr(spec, "progressDeadlineSeconds", int64(600))
	defaultTemplateSpec(spec)
}

// defaultReplicaSet mirrors SetDefaults_ReplicaSet.
func defaultReplicaSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "replicas", int64(1))
	defaultTemplateSpec(spec)
}

// defaultDaemonSet mirrors SetDefaults_DaemonSet.
func defaultDaemonSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if us := ensure(spec, "updateStrategy"); us != nil {
		setString(us, "type", "RollingUpdate")
		if str(us, "type") == "RollingUpdate" {
			if ru := ensure(us, "rollingUpdate"); ru != nil {
				setPtr(ru, "maxUnavailable", int64(1))
				setPtr(ru, "maxSurge", int64(0))
			}
		}
	}
	setPtr(spec, "revisionHistoryLimit", int64(10))
	defaultTemplateSpec(spec)
}

// defaultStatefulSet mirrors SetDefaults_StatefulSet. Its maxUnavailable default belongs
// to the MaxUnavailableStatefulSet gate, beta and off in v1.36, so it is not applied.
func defaultStatefulSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setString(spec, "podManagementPolicy", "OrderedReady")
	if us := ensure(spec, "updateStrategy"); us != nil {
		// rollingUpdate is created only together with the defaulted type: an explicit
		// RollingUpdate without it gets no partition.
		if unsetString(us, "type") {
			us["type"] = "RollingUpdate"
			ensure(us, "rollingUpdate")
		}
		if ru := child(us, "rollingUpdate"); ru != nil && str(us, "type") == "RollingUpdate" {
			setPtr(ru, "partition", int64(0))
		}
	}
	if policy := ensure(spec, "persistentVolumeClaimRetentionPolicy"); policy != nil {
		setString(policy, "whenDeleted", "Retain")
		setString(policy, "whenScaled", "Retain")
	}
	setPtr(spec, "replicas", int64(1))
	setPtr(spec, "revisionHistoryLimit", int64(10))
	defaultTemplateSpec(spec)
	each(spec, "volumeClaimTemplates", defaultPVC)
	each(spec, "volumeClaimTemplates", setClaimTemplateTypeMeta)
}

// setClaimTemplateTypeMeta mirrors Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec: v1
// writes apiVersion v1 and kind PersistentVolumeClaim into every claim template, whatever
// the request carried (the conversion to the internal version clears them). Doing it once at
// decode gives every answer the same fields.
func setClaimTemplateTypeMeta(pvc map[string]any) {
	pvc["apiVersion"] = "v1"
	pvc["kind"] = "PersistentVolumeClaim"
}
