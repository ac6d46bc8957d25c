package defaulting

import "encoding/base64"

// The core/v1 kinds other than Pod and Service, as SetObjectDefaults_* in
// pkg/apis/core/v1/zz_generated.defaults.go apply them.

// labelMetadataName is the label every named namespace carries.
const labelMetadataName = "kubernetes.io/metadata.name"

// defaultSecret mirrors SetDefaults_Secret and, ahead of it, the stringData rule of
// Convert_v1_Secret_To_core_Secret: every stringData entry overwrites data's entry of the
// same key, base64-encoded as data is on the wire, and stringData itself goes, since the
// stored form has no such field. Being conversion, it runs on every decoded write.
func defaultSecret(obj map[string]any) {
	if sd, ok := obj["stringData"].(map[string]any); ok && len(sd) > 0 {
		if data := ensure(obj, "data"); data != nil {
			for k, v := range sd {
				if s, isString := v.(string); isString {
					data[k] = base64.StdEncoding.EncodeToString([]byte(s))
				}
			}
		}
	}
	if _, ok := obj["stringData"].(map[string]any); ok || obj["stringData"] == nil {
		delete(obj, "stringData")
	}
	setString(obj, "type", "Opaque")
}

// defaultNamespace mirrors SetDefaults_Namespace and SetDefaults_NamespaceStatus: a named
// namespace is labelled with its own name, and its phase is Active.
func defaultNamespace(obj map[string]any) {
	if meta := child(obj, "metadata"); meta != nil {
		if name := str(meta, "name"); name != "" {
			if labels := ensure(meta, "labels"); labels != nil {
				labels[labelMetadataName] = name
			}
		}
	}
	if status := ensure(obj, "status"); status != nil {
		setString(status, "phase", "Active")
	}
}

// defaultNode mirrors SetDefaults_NodeStatus: without allocatable, all the capacity is
// allocatable.
func defaultNode(obj map[string]any) {
	status := child(obj, "status")
	if capacity := child(status, "capacity"); capacity != nil && status["allocatable"] == nil {
		alloc := make(map[string]any, len(capacity))
		for k, v := range capacity {
			alloc[k] = v
		}
		status["allocatable"] = alloc
	}
}

// defaultEndpoints mirrors SetDefaults_Endpoints.
func defaultEndpoints(obj map[string]any) {
	each(obj, "subsets", func(ss map[string]any) {
		each(ss, "ports", func(p map[string]any) { setString(p, "protocol", "TCP") })
	})
}

// defaultPVC mirrors SetDefaults_PersistentVolumeClaim and its spec's defaults; a
// volumeClaimTemplate of a StatefulSet gets the same.
func defaultPVC(obj map[string]any) {
	if status := ensure(obj, "status"); status != nil {
		setString(status, "phase", "Pending")
	}
	if spec := ensure(obj, "spec"); spec != nil {
		setPtr(spec, "volumeMode", "Filesystem")
	}
}

// defaultPV mirrors SetDefaults_PersistentVolume and the generated source defaults.
func defaultPV(obj map[string]any) {
	if status := ensure(obj, "status"); status != nil {
		setString(status, "phase", "Pending")
	}
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setString(spec, "persistentVolumeReclaimPolicy", "Retain")
	setPtr(spec, "volumeMode", "Filesystem")
	if s := child(spec, "hostPath"); s != nil {
		setPtr(s, "type", "")
	}
	if s := child(spec, "rbd"); s != nil {
		defaultRBD(s)
	}
	if s := child(spec, "iscsi"); s != nil {
		setString(s, "iscsiInterface", "default")
	}
	if s := child(spec, "azureDisk"); s != nil {
		defaultAzureDisk(s)
	}
	if s := child(spec, "scaleIO"); s != nil {
		defaultScaleIO(s)
	}
}

// defaultReplicationController mirrors SetDefaults_ReplicationController and the
// +default=1 of its replicas: the template's labels become the selector and the object's
// labels when those are empty.
func defaultReplicationController(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if labels, ok := path(spec, "template", "metadata")["labels"].(map[string]any); ok {
		if isEmptyObject(spec, "selector") {
			spec["selector"] = copyMap(labels)
		}
		if meta := ensure(obj, "metadata"); meta != nil && isEmptyObject(meta, "labels") {
			meta["labels"] = copyMap(labels)
		}
	}
	setPtr(spec, "replicas", int64(1))
	if tspec := path(spec, "template", "spec"); tspec != nil {
		defaultPodSpec(tspec)
	}
}

// defaultPodTemplate mirrors SetObjectDefaults_PodTemplate.
func defaultPodTemplate(obj map[string]any) {
	if spec := path(obj, "template", "spec"); spec != nil {
		defaultPodSpec(spec)
	}
}

func copyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
