package defaulting

// defaultStorageClass mirrors SetDefaults_StorageClass of pkg/apis/storage/v1.
func defaultStorageClass(obj map[string]any) {
	setPtr(obj, "reclaimPolicy", "Delete")
	setPtr(obj, "volumeBindingMode", "Immediate")
}

// defaultCSIDriver mirrors SetDefaults_CSIDriver with the v1.36 gates: SELinuxMountReadWriteOncePod
// on (seLinuxMount defaults to false), VolumeLimitScaling off (no
// preventPodSchedulingIfMissing).
func defaultCSIDriver(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "attachRequired", true)
	setPtr(spec, "podInfoOnMount", false)
	setPtr(spec, "storageCapacity", false)
	setPtr(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType")
	if isEmptyList(spec, "volumeLifecycleModes") {
		spec["volumeLifecycleModes"] = []any{"Persistent"}
	}
	setPtr(spec, "requiresRepublish", false)
	setPtr(spec, "seLinuxMount", false)
}

// defaultVolumeAttachment mirrors SetObjectDefaults_VolumeAttachment: the generated source
// defaults of an inline persistent volume spec. status.attached has no omitempty, so a
// typed server always writes it out.
func defaultVolumeAttachment(obj map[string]any) {
	if pv := path(obj, "spec", "source", "inlineVolumeSpec"); pv != nil {
		if s := child(pv, "hostPath"); s != nil {
			setPtr(s, "type", "")
		}
		if s := child(pv, "rbd"); s != nil {
			defaultRBD(s)
		}
		if s := child(pv, "iscsi"); s != nil {
			setString(s, "iscsiInterface", "default")
		}
		if s := child(pv, "azureDisk"); s != nil {
			defaultAzureDisk(s)
		}
		if s := child(pv, "scaleIO"); s != nil {
			defaultScaleIO(s)
		}
	}
	if status := ensure(obj, "status"); status != nil {
		setPtr(status, "attached", false)
	}
}
