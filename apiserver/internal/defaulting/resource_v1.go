package defaulting

import "time"

// defaultResourceClaim mirrors SetObjectDefaults_ResourceClaim of pkg/apis/resource/v1: the
// requests of the claim spec, and the tolerations of the allocation results.
func defaultResourceClaim(obj map[string]any) {
	defaultClaimSpec(ensure(obj, "spec"))
	if devices := path(obj, "status", "allocation", "devices"); devices != nil {
		each(devices, "results", func(r map[string]any) { each(r, "tolerations", defaultToleration) })
	}
}

// defaultResourceClaimTemplate mirrors SetObjectDefaults_ResourceClaimTemplate; its
// spec.metadata is an ObjectMeta struct, which a typed server always writes out.
func defaultResourceClaimTemplate(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "metadata", map[string]any{})
	defaultClaimSpec(ensure(spec, "spec"))
}

// defaultClaimSpec defaults a ResourceClaimSpec's requests: each exactly request
// (SetDefaults_ExactDeviceRequest) and each firstAvailable subrequest
// (SetDefaults_DeviceSubRequest) the same way, tolerations included. devices is a struct
// without omitempty: a typed server always writes it out.
func defaultClaimSpec(spec map[string]any) {
	if spec == nil {
		return
	}
	devices := ensure(spec, "devices")
	each(devices, "requests", func(req map[string]any) {
		if exactly := child(req, "exactly"); exactly != nil {
			defaultDeviceRequest(exactly)
		}
		each(req, "firstAvailable", defaultDeviceRequest)
	})
}

// defaultDeviceRequest mirrors SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest:
// ExactCount of one device unless said otherwise, and tolerations that match by Equal.
func defaultDeviceRequest(r map[string]any) {
	setString(r, "allocationMode", "ExactCount")
	if str(r, "allocationMode") == "ExactCount" {
		setInt(r, "count", 1)
	}
	each(r, "tolerations", defaultToleration)
}

// defaultToleration is the +default="Equal" of DeviceToleration.operator.
func defaultToleration(t map[string]any) { setString(t, "operator", "Equal") }

// defaultResourceSlice mirrors SetObjectDefaults_ResourceSlice: a taint without timeAdded
// gets the time of the write (SetDefaults_DeviceTaint), and a node-allocatable resource
// mapping a multiplier of 1 (SetDefaults_Device).
func defaultResourceSlice(obj map[string]any) {
	each(path(obj, "spec"), "devices", func(d map[string]any) {
		if mappings := child(d, "nodeAllocatableResourceMappings"); mappings != nil {
			for _, m := range mappings {
				if mm, ok := m.(map[string]any); ok {
					setPtr(mm, "allocationMultiplier", "1")
				}
			}
		}
		each(d, "taints", func(t map[string]any) {
			setPtr(t, "timeAdded", now().UTC().Truncate(time.Second).Format(time.RFC3339))
		})
	})
}

// defaultDeviceClass writes out what a typed server always writes: the spec, a struct
// without omitempty. DeviceClass has no defaulting function.
func defaultDeviceClass(obj map[string]any) { ensure(obj, "spec") }

// now is the clock of the defaults that take the time; tests replace it.
var now = time.Now
