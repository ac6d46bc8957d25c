package defaulting

import "strings"

// The pod spec defaults every kind with a pod template shares. The Pod-only ones
// (enableServiceLinks, requests from limits, host ports, pod-level requests) are in pod.go:
// upstream keeps them off templates so that adding a default does not roll every workload.

// Default file modes of the volume sources, 0644 in octal.
const defaultVolumeMode = int64(420)

// defaultPodSpec mirrors what the generated SetObjectDefaults_* functions of core/v1, apps/v1
// and batch/v1 apply to a PodSpec: SetDefaults_PodSpec, then each volume and container.
func defaultPodSpec(spec map[string]any) {
	setString(spec, "dnsPolicy", "ClusterFirst")
	setString(spec, "restartPolicy", "Always")
	ensure(spec, "securityContext")
	setPtr(spec, "terminationGracePeriodSeconds", int64(30))
	setString(spec, "schedulerName", "default-scheduler")
	convertServiceAccount(spec)
	each(spec, "volumes", defaultVolume)
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		each(spec, key, defaultContainer)
	}
}

// convertServiceAccount is the v1 conversion of the account's name, on every write:
// serviceAccountName falls back to the deprecated serviceAccount, which is then written as
// its copy; both are left out when empty.
func convertServiceAccount(spec map[string]any) {
	for _, k := range []string{"serviceAccountName", "serviceAccount"} {
		if v, ok := spec[k]; ok && v != nil {
			if _, isString := v.(string); !isString {
				return // left to the decoder's type error
			}
		}
	}
	name, _ := spec["serviceAccountName"].(string)
	if name == "" {
		name, _ = spec["serviceAccount"].(string)
	}
	if name == "" {
		delete(spec, "serviceAccountName")
		delete(spec, "serviceAccount")
		return
	}
	spec["serviceAccountName"] = name
	spec["serviceAccount"] = name
}

// defaultContainer mirrors SetDefaults_Container and the defaults generated for a
// container's ports, env, probes and lifecycle handlers.
func defaultContainer(c map[string]any) {
	if unsetString(c, "imagePullPolicy") {
		c["imagePullPolicy"] = pullPolicyFor(str(c, "image"))
	}
	setString(c, "terminationMessagePath", "/dev/termination-log")
	setString(c, "terminationMessagePolicy", "File")
	// ResourceRequirements is a struct, not a pointer: a typed server always prints it.
	ensure(c, "resources")
	each(c, "ports", func(p map[string]any) { setString(p, "protocol", "TCP") })
	each(c, "env", func(e map[string]any) {
		from := child(e, "valueFrom")
		if from == nil {
			return
		}
		if ref := child(from, "fieldRef"); ref != nil {
			setString(ref, "apiVersion", "v1")
		}
		if ref := child(from, "fileKeyRef"); ref != nil {
			setPtr(ref, "optional", false)
		}
	})
	for _, key := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if p := child(c, key); p != nil {
			defaultProbe(p)
		}
	}
	if lc := child(c, "lifecycle"); lc != nil {
		for _, key := range []string{"postStart", "preStop"} {
			if get := path(lc, key, "httpGet"); get != nil {
				defaultHTTPGet(get)
			}
		}
	}
}

// defaultProbe mirrors SetDefaults_Probe, SetDefaults_HTTPGetAction and the generated
// default of GRPCAction.Service (a pointer serialised without omitempty, so "" shows).
func defaultProbe(p map[string]any) {
	setInt(p, "timeoutSeconds", 1)
	setInt(p, "periodSeconds", 10)
	setInt(p, "successThreshold", 1)
	setInt(p, "failureThreshold", 3)
	if get := child(p, "httpGet"); get != nil {
		defaultHTTPGet(get)
	}
	if g := child(p, "grpc"); g != nil {
		setPtr(g, "service", "")
	}
}

// defaultHTTPGet mirrors SetDefaults_HTTPGetAction.
func defaultHTTPGet(get map[string]any) {
	setString(get, "path", "/")
	setString(get, "scheme", "HTTP")
}

// pullPolicyFor mirrors the image rule of SetDefaults_Container: Always for the tag
// "latest", written or implied, IfNotPresent for any other tag, for a digest, and for a
// name the reference parser would refuse.
func pullPolicyFor(image string) string {
	if imageTag(image) == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// imageTag approximates the tag that ParseImageName in pkg/util/parsers returns: "latest"
// when neither tag nor digest is given, "" when the name does not parse.
func imageTag(image string) string {
	name, digest, hasDigest := strings.Cut(image, "@")
	if hasDigest && digest == "" {
		return ""
	}
	tag := ""
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, tag = name[:i], name[i+1:]
		if !validTag(tag) {
			return ""
		}
	}
	if !validRepository(name) {
		return ""
	}
	if tag == "" && !hasDigest {
		return "latest"
	}
	return tag
}

// validTag checks the reference grammar's tag: [\w][\w.-]{0,127}.
func validTag(tag string) bool {
	if tag == "" || len(tag) > 128 || tag[0] == '.' || tag[0] == '-' {
		return false
	}
	for _, r := range tag {
		if !isWordRune(r) && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// validRepository is a loose check of a repository path: not empty, no upper case outside
// the registry host, no blanks. Enough to tell the parser's errors from its results.
func validRepository(name string) bool {
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return false
	}
	repo := name
	host, rest, ok := strings.Cut(name, "/")
	if ok && (strings.ContainsAny(host, ".:") || host == "localhost") {
		repo = rest // a registry host may carry upper case and a port
	}
	return repo != "" && strings.ToLower(repo) == repo
}

func isWordRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// defaultVolume mirrors SetDefaults_Volume and the source defaults generated for a volume.
func defaultVolume(v map[string]any) {
	if !hasVolumeSource(v) {
		v["emptyDir"] = map[string]any{}
	}
	if s := child(v, "hostPath"); s != nil {
		setPtr(s, "type", "")
	}
	for _, key := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if s := child(v, key); s != nil {
			setPtr(s, "defaultMode", defaultVolumeMode)
		}
	}
	if s := child(v, "downwardAPI"); s != nil {
		each(s, "items", defaultDownwardAPIFile)
	}
	if s := child(v, "projected"); s != nil {
		each(s, "sources", func(src map[string]any) {
			if d := child(src, "downwardAPI"); d != nil {
				each(d, "items", defaultDownwardAPIFile)
			}
			if t := child(src, "serviceAccountToken"); t != nil {
				setPtr(t, "expirationSeconds", int64(3600))
			}
		})
	}
	if s := child(v, "iscsi"); s != nil {
		setString(s, "iscsiInterface", "default")
	}
	if s := child(v, "rbd"); s != nil {
		defaultRBD(s)
	}
	if s := child(v, "azureDisk"); s != nil {
		defaultAzureDisk(s)
	}
	if s := child(v, "scaleIO"); s != nil {
		defaultScaleIO(s)
	}
	if t := path(v, "ephemeral", "volumeClaimTemplate"); t != nil {
		if spec := child(t, "spec"); spec != nil {
			setPtr(spec, "volumeMode", "Filesystem")
		}
	}
	if s := child(v, "image"); s != nil && unsetString(s, "pullPolicy") {
		// The ImageVolume gate is GA and locked on in v1.36.
		s["pullPolicy"] = pullPolicyFor(str(s, "reference"))
	}
}

// hasVolumeSource reports whether any member besides the name is set: every other member
// of a Volume is a source pointer.
func hasVolumeSource(v map[string]any) bool {
	for k, val := range v {
		if k != "name" && val != nil {
			return true
		}
	}
	return false
}

func defaultDownwardAPIFile(item map[string]any) {
	if ref := child(item, "fieldRef"); ref != nil {
		setString(ref, "apiVersion", "v1")
	}
}

// defaultRBD, defaultAzureDisk and defaultScaleIO are the +default markers of those
// sources in k8s.io/api core/v1 types.go, shared by volumes and persistent volumes.
func defaultRBD(s map[string]any) {
	setString(s, "pool", "rbd")
	setString(s, "user", "admin")
	setString(s, "keyring", "/etc/ceph/keyring")
}

func defaultAzureDisk(s map[string]any) {
	setPtr(s, "cachingMode", "ReadWrite")
	setPtr(s, "fsType", "ext4")
	setPtr(s, "readOnly", false)
	setPtr(s, "kind", "Shared")
}

func defaultScaleIO(s map[string]any) {
	setString(s, "storageMode", "ThinProvisioned")
	setString(s, "fsType", "xfs")
}
