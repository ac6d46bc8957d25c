package printers

import "testing"

// TestCh01_Printers_PersistentVolumeQuotaComponent checks printPersistentVolume,
// printResourceQuota and printComponentStatus.
func TestCh01_Printers_PersistentVolumeQuotaComponent(t *testing.T) {
	assertColumns(t, persistentVolumePrinter, "Name|string|name|0", "Capacity|string||0", "Access Modes|string||0",
		"Reclaim Policy|string||0", "Status|string||0", "Claim|string||0", "StorageClass|string||0", "VolumeAttributesClass|string||0",
		"Reason|string||0", "Age|string||0", "VolumeMode|string||1")
	runCellCases(t, persistentVolumePrinter, []cellCase{
		{
			name: "bound",
			json: withMeta("pv1", `,"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce","ReadOnlyMany"],
				"persistentVolumeReclaimPolicy":"Retain","claimRef":{"namespace":"ns","name":"data"},"storageClassName":"standard",
				"volumeMode":"Filesystem"},"status":{"phase":"Bound"}`),
			want: []any{"pv1", "1Gi", "RWO,ROX", "Retain", "Bound", "ns/data", "standard", "<unset>", "", "5m", "Filesystem"},
		},
		{
			name: "deleting, no capacity, beta class annotation, failed",
			json: `{"metadata":{"name":"old","creationTimestamp":"` + created + `","deletionTimestamp":"` + created + `",
				"annotations":{"volume.beta.kubernetes.io/storage-class":"fast"}},"spec":{"volumeAttributesClassName":"gold"},
				"status":{"phase":"Failed","reason":"RecyclerFailed"}}`,
			want: []any{"old", "0", "", "", "Terminating", "", "fast", "gold", "RecyclerFailed", "5m", "<unset>"},
		},
	})

	assertColumns(t, resourceQuotaPrinter, "Name|string|name|0", "Request|string||0", "Limit|string||0", "Age|string||0")
	runCellCases(t, resourceQuotaPrinter, []cellCase{
		{
			name: "used and hard, limits apart, by name",
			json: withMeta("q", `,"status":{"hard":{"pods":"10","requests.cpu":"2","limits.cpu":"4","limits.memory":"1Gi"},
				"used":{"pods":"3","requests.cpu":"500m"}}`),
			want: []any{"q", "pods: 3/10, requests.cpu: 500m/2", "limits.cpu: 0/4, limits.memory: 0/1Gi", "5m"},
		},
		{name: "no status yet", json: withMeta("new", `,"spec":{"hard":{"pods":"1"}}`), want: []any{"new", "", "", "5m"}},
	})

	assertColumns(t, componentStatusPrinter, "Name|string|name|0", "Status|string||0", "Message|string||0", "Error|string||0")
	runCellCases(t, componentStatusPrinter, []cellCase{
		{name: "healthy", json: `{"metadata":{"name":"etcd-0"},"conditions":[{"type":"Healthy","status":"True","message":"ok"}]}`,
			want: []any{"etcd-0", "Healthy", "ok", ""}},
		{name: "unhealthy", json: `{"metadata":{"name":"scheduler"},"conditions":[{"type":"Healthy","status":"False","message":"refused","error":"e"}]}`,
			want: []any{"scheduler", "Unhealthy", "refused", "e"}},
		{name: "no condition", json: `{"metadata":{"name":"x"}}`, want: []any{"x", "Unknown", "", ""}},
	})
}

// TestCh01_Printers_ControllersAndTemplates checks printReplicationController,
// printPodTemplate and printControllerRevision.
func TestCh01_Printers_ControllersAndTemplates(t *testing.T) {
	assertColumns(t, replicationControllerPrinter, "Name|string|name|0", "Desired|integer||0", "Current|integer||0", "Ready|integer||0",
		"Age|string||0", "Containers|string||1", "Images|string||1", "Selector|string||1")
	runCellCases(t, replicationControllerPrinter, []cellCase{
		{
			name: "running",
			json: withMeta("rc", `,"spec":{"replicas":3,"selector":{"tier":"web","app":"a"},"template":{"spec":{"containers":[
				{"name":"c1","image":"nginx"},{"name":"c2","image":"busybox"}]}}},"status":{"replicas":2,"readyReplicas":1}`),
			want: []any{"rc", int64(3), int64(2), int64(1), "5m", "c1,c2", "nginx,busybox", "app=a,tier=web"},
		},
		{name: "bare", json: withMeta("bare", ""), want: []any{"bare", int64(0), int64(0), int64(0), "5m", "", "", "<none>"}},
	})

	assertColumns(t, podTemplatePrinter, "Name|string|name|0", "Containers|string||0", "Images|string||0", "Pod Labels|string||0")
	runCellCases(t, podTemplatePrinter, []cellCase{
		{name: "labelled", json: withMeta("t", `,"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"x"}]}}`),
			want: []any{"t", "c", "x", "app=a"}},
		{name: "no labels", json: withMeta("u", `,"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}`),
			want: []any{"u", "c", "x", "<none>"}},
	})

	assertColumns(t, controllerRevisionPrinter, "Name|string|name|0", "Controller|string||0", "Revision|string||0", "Age|string||0")
	runCellCases(t, controllerRevisionPrinter, []cellCase{
		{
			name: "owned by a stateful set",
			json: `{"metadata":{"name":"web-1","creationTimestamp":"` + created + `","ownerReferences":[
				{"apiVersion":"v1","kind":"Pod","name":"other","uid":"u1"},
				{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"u2","controller":true}]},"revision":2,"data":{}}`,
			want: []any{"web-1", "statefulset.apps/web", int64(2), "5m"},
		},
		{
			name: "core owner, no group",
			json: `{"metadata":{"name":"r","creationTimestamp":"` + created + `","ownerReferences":[
				{"apiVersion":"v1","kind":"ReplicationController","name":"rc","uid":"u","controller":true}]},"revision":1}`,
			want: []any{"r", "replicationcontroller/rc", int64(1), "5m"},
		},
		{name: "no controller", json: withMeta("free", `,"revision":7`), want: []any{"free", "<none>", int64(7), "5m"}},
	})
}

// TestCh01_Printers_BudgetsClassesAutoscalers checks printPodDisruptionBudget,
// printPriorityClass and printHorizontalPodAutoscaler with formatHPAMetrics.
func TestCh01_Printers_BudgetsClassesAutoscalers(t *testing.T) {
	assertColumns(t, podDisruptionBudgetPrinter, "Name|string|name|0", "Min Available|string||0", "Max Unavailable|string||0",
		"Allowed Disruptions|integer||0", "Age|string||0")
	runCellCases(t, podDisruptionBudgetPrinter, []cellCase{
		{name: "count", json: withMeta("p", `,"spec":{"minAvailable":2},"status":{"disruptionsAllowed":1}`), want: []any{"p", "2", "N/A", int64(1), "5m"}},
		{name: "percent", json: withMeta("q", `,"spec":{"maxUnavailable":"25%"}`), want: []any{"q", "N/A", "25%", int64(0), "5m"}},
	})

	assertColumns(t, priorityClassPrinter, "Name|string|name|0", "Value|integer||0", "Global-Default|boolean||0", "Age|string||0",
		"PreemptionPolicy|string||0")
	runCellCases(t, priorityClassPrinter, []cellCase{
		{name: "default", json: withMeta("high", `,"value":1000,"globalDefault":true,"preemptionPolicy":"Never"`),
			want: []any{"high", int64(1000), true, "5m", "Never"}},
		{name: "plain", json: withMeta("low", `,"value":-5`), want: []any{"low", int64(-5), false, "5m", ""}},
	})

	assertColumns(t, hpaPrinter, "Name|string|name|0", "Reference|string||0", "Targets|string||0", "MinPods|string||0",
		"MaxPods|string||0", "Replicas|string||0", "Age|string||0")
	ref := `"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"}`
	runCellCases(t, hpaPrinter, []cellCase{
		{
			name: "cpu without status",
			json: withMeta("h", `,"spec":{`+ref+`,"minReplicas":2,"maxReplicas":5,"metrics":[
				{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]},
				"status":{"desiredReplicas":0,"currentMetrics":null}`),
			want: []any{"h", "Deployment/web", "cpu: <unknown>/80%", "2", int64(5), int64(0), "5m"},
		},
		{
			name: "three metrics with status",
			json: withMeta("h", `,"spec":{`+ref+`,"maxReplicas":5,"metrics":[
				{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"500Mi"}}},
				{"type":"External","external":{"metric":{"name":"q"},"target":{"type":"AverageValue","averageValue":"30"}}},
				{"type":"Pods","pods":{"metric":{"name":"p"},"target":{"type":"AverageValue","averageValue":"1k"}}}]},
				"status":{"currentReplicas":3,"currentMetrics":[
				{"type":"Resource","resource":{"name":"memory","current":{"averageValue":"200Mi"}}},
				{"type":"External","external":{"metric":{"name":"q"},"current":{"averageValue":"12"}}}]}`),
			want: []any{"h", "Deployment/web", "memory: 200Mi/500Mi, 12/30 (avg) + 1 more...", "<unset>", int64(5), int64(3), "5m"},
		},
		{
			name: "object value, container utilization, no metrics",
			json: withMeta("h", `,"spec":{`+ref+`,"maxReplicas":1,"metrics":[
				{"type":"Object","object":{"metric":{"name":"rps"},"target":{"type":"Value","value":"10k"}}},
				{"type":"ContainerResource","containerResource":{"name":"cpu","container":"app","target":{"type":"Utilization"}}}]},
				"status":{"currentMetrics":[{"type":"Object","object":{"metric":{"name":"rps"},"current":{"value":"9k"}}},
				{"type":"ContainerResource","containerResource":{"name":"cpu","container":"app","current":{"averageUtilization":55}}}]}`),
			want: []any{"h", "Deployment/web", "9k/10k, cpu: 55%/<auto>", "<unset>", int64(1), int64(0), "5m"},
		},
		{name: "no metrics", json: withMeta("h", `,"spec":{"maxReplicas":1}`), want: []any{"h", "/", "<none>", "<unset>", int64(1), int64(0), "5m"}},
	})
}
