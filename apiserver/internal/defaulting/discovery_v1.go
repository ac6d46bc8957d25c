package defaulting

// defaultEndpointSlice mirrors SetDefaults_EndpointPort in pkg/apis/discovery/v1: both
// fields are pointers, so the empty name prints.
func defaultEndpointSlice(obj map[string]any) {
	each(obj, "ports", func(p map[string]any) {
		setPtr(p, "name", "")
		setPtr(p, "protocol", "TCP")
	})
}
