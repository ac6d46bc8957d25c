package defaulting

// defaultFlowSchema mirrors SetObjectDefaults_FlowSchema in pkg/apis/flowcontrol/v1:
// SetDefaults_FlowSchemaSpec (matchingPrecedence is a plain int32, so 0 is unset).
func defaultFlowSchema(obj map[string]any) {
	if spec := ensure(obj, "spec"); spec != nil {
		setInt(spec, "matchingPrecedence", 1000)
	}
}

// defaultPriorityLevelConfiguration mirrors SetObjectDefaults_PriorityLevelConfiguration:
// SetDefaults_LimitedPriorityLevelConfiguration, SetDefaults_QueuingConfiguration and
// SetDefaults_ExemptPriorityLevelConfiguration.
func defaultPriorityLevelConfiguration(obj map[string]any) {
	spec := child(obj, "spec")
	if lim := child(spec, "limited"); lim != nil {
		setPtr(lim, "nominalConcurrencyShares", int64(30))
		setPtr(lim, "lendablePercent", int64(0))
		if q := path(lim, "limitResponse", "queuing"); q != nil {
			setInt(q, "handSize", 8)
			setInt(q, "queues", 64)
			setInt(q, "queueLengthLimit", 50)
		}
	}
	if ex := child(spec, "exempt"); ex != nil {
		setPtr(ex, "nominalConcurrencyShares", int64(0))
		setPtr(ex, "lendablePercent", int64(0))
	}
}

// defaultAPIService mirrors SetObjectDefaults_APIService in kube-aggregator
// pkg/apis/apiregistration/v1: SetDefaults_ServiceReference.
func defaultAPIService(obj map[string]any) {
	if svc := path(obj, "spec", "service"); svc != nil {
		setPtr(svc, "port", int64(443))
	}
}
