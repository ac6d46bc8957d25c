package patch

import (
	"fmt"
	"strings"
)

// The patch metadata of Pod, ConfigMap and Namespace as it was written out by hand, from the
// Go types of k8s.io/api, before strategic_openapi.go built it from the OpenAPI documents.
// strategic_openapi_test.go compares the two.

// smpStruct describes the Go struct goType: fieldList names every JSON field with its kind
// marker ("volumes[]", "securityContext*", "labels{}", "name"), special the fields with
// patch metadata. Map fields lead to smpMapLevel unless special says otherwise.
func smpStruct(goType, fieldList string, special map[string]smpField) *smpSchema {
	s := &smpSchema{goType: goType, fields: map[string]string{}, special: map[string]smpField{}}
	for _, f := range strings.Fields(fieldList) {
		name, kind := f, ""
		for _, marker := range []string{"[][]", "[]", "*", "{}"} {
			if n, ok := strings.CutSuffix(f, marker); ok {
				name, kind = n, marker
				break
			}
		}
		s.fields[name] = kind
		if kind == "{}" {
			s.special[name] = smpField{sub: smpMapLevel}
		}
	}
	for name, f := range special {
		if _, ok := s.fields[name]; !ok {
			panic(fmt.Sprintf("smp schema of %s: %s is not one of its fields", goType, name))
		}
		s.special[name] = f
	}
	return s
}

// smpMergeBy is a list with the merge strategy whose elements are the objects of sub.
func smpMergeBy(mergeKey string, sub *smpSchema) smpField {
	return smpField{strategy: smpMerge, mergeKey: mergeKey, sub: sub}
}

var (
	smpOwnerReference = smpStruct("OwnerReference", "apiVersion kind name uid controller* blockOwnerDeletion*", nil)
	smpObjectMeta     = smpStruct("ObjectMeta", "name generateName namespace selfLink uid resourceVersion generation "+
		"creationTimestamp deletionTimestamp* deletionGracePeriodSeconds* labels{} annotations{} ownerReferences[] "+
		"finalizers[] managedFields[]", map[string]smpField{
		"finalizers":      {strategy: smpMerge},
		"ownerReferences": smpMergeBy("uid", smpOwnerReference),
	})

	smpContainerFields = "name image command[] args[] workingDir ports[] envFrom[] env[] resources resizePolicy[] " +
		"restartPolicy* restartPolicyRules[] volumeMounts[] volumeDevices[] livenessProbe* readinessProbe* startupProbe* " +
		"lifecycle* terminationMessagePath terminationMessagePolicy imagePullPolicy securityContext* stdin stdinOnce tty"
	smpContainerSpecial = map[string]smpField{
		"ports":         smpMergeBy("containerPort", smpStruct("ContainerPort", "name hostPort containerPort protocol hostIP", nil)),
		"env":           smpMergeBy("name", smpStruct("EnvVar", "name value valueFrom*", nil)),
		"volumeMounts":  smpMergeBy("mountPath", smpStruct("VolumeMount", "name readOnly recursiveReadOnly* mountPath subPath mountPropagation* subPathExpr bindMountOptions[]", nil)),
		"volumeDevices": smpMergeBy("devicePath", smpStruct("VolumeDevice", "name devicePath", nil)),
	}
	smpContainer          = smpStruct("Container", smpContainerFields, smpContainerSpecial)
	smpEphemeralContainer = smpStruct("EphemeralContainer", smpContainerFields+" targetContainerName", smpContainerSpecial)

	smpPodSpec = smpStruct("PodSpec", "volumes[] initContainers[] containers[] ephemeralContainers[] restartPolicy "+
		"terminationGracePeriodSeconds* activeDeadlineSeconds* dnsPolicy nodeSelector{} serviceAccountName serviceAccount "+
		"automountServiceAccountToken* nodeName hostNetwork hostPID hostIPC shareProcessNamespace* securityContext* "+
		"imagePullSecrets[] hostname subdomain affinity* schedulerName tolerations[] hostAliases[] priorityClassName "+
		"priority* dnsConfig* readinessGates[] runtimeClassName* enableServiceLinks* preemptionPolicy* overhead{} "+
		"topologySpreadConstraints[] setHostnameAsFQDN* os* hostUsers* schedulingGates[] resourceClaims[] resources* "+
		"hostnameOverride* schedulingGroup* evictionResponders[]", map[string]smpField{
		// volumes and resourceClaims also carry retainKeys, which needs no metadata here.
		"volumes": smpMergeBy("name", smpStruct("Volume", "name hostPath* emptyDir* gcePersistentDisk* awsElasticBlockStore* "+
			"gitRepo* secret* nfs* iscsi* glusterfs* persistentVolumeClaim* rbd* flexVolume* cinder* cephfs* flocker* "+
			"downwardAPI* fc* azureFile* configMap* vsphereVolume* quobyte* azureDisk* photonPersistentDisk* projected* "+
			"portworxVolume* scaleIO* storageos* csi* ephemeral* image*", nil)),
		"initContainers":            smpMergeBy("name", smpContainer),
		"containers":                smpMergeBy("name", smpContainer),
		"ephemeralContainers":       smpMergeBy("name", smpEphemeralContainer),
		"imagePullSecrets":          smpMergeBy("name", smpStruct("LocalObjectReference", "name", nil)),
		"hostAliases":               smpMergeBy("ip", smpStruct("HostAlias", "ip hostnames[]", nil)),
		"topologySpreadConstraints": smpMergeBy("topologyKey", smpStruct("TopologySpreadConstraint", "maxSkew topologyKey whenUnsatisfiable labelSelector* minDomains* nodeAffinityPolicy* nodeTaintsPolicy* matchLabelKeys[]", nil)),
		"schedulingGates":           smpMergeBy("name", smpStruct("PodSchedulingGate", "name", nil)),
		"resourceClaims":            smpMergeBy("name", smpStruct("PodResourceClaim", "name resourceClaimName* resourceClaimTemplateName*", nil)),
		"evictionResponders":        smpMergeBy("name", smpStruct("EvictionResponder", "name priority*", nil)),
	})

	smpPodStatus = smpStruct("PodStatus", "observedGeneration phase conditions[] message reason nominatedNodeName hostIP "+
		"hostIPs[] podIP podIPs[] startTime* initContainerStatuses[] containerStatuses[] qosClass ephemeralContainerStatuses[] "+
		"resize resourceClaimStatuses[] extendedResourceClaimStatus* allocatedResources{} resources* "+
		"nodeAllocatableResourceClaimStatuses[] volumeHealth[]", map[string]smpField{
		"conditions":            smpMergeBy("type", smpStruct("PodCondition", "type observedGeneration status lastProbeTime lastTransitionTime reason message", nil)),
		"hostIPs":               smpMergeBy("ip", smpStruct("HostIP", "ip", nil)),
		"podIPs":                smpMergeBy("ip", smpStruct("PodIP", "ip", nil)),
		"resourceClaimStatuses": smpMergeBy("name", smpStruct("PodResourceClaimStatus", "name resourceClaimName*", nil)),
		// Its mapping and overhead lists merge too, a level this file does not describe.
		"nodeAllocatableResourceClaimStatuses": smpMergeBy("resourceClaimName", nil),
	})

	// handWritten holds the schemas once written out by hand, from the Go types of
	// k8s.io/api v0.37: the cross-check of the ones built from the OpenAPI documents.
	handWritten = map[string]*smpSchema{
		"Pod": smpStruct("Pod", "kind apiVersion metadata spec status", map[string]smpField{
			"metadata": {sub: smpObjectMeta},
			"spec":     {sub: smpPodSpec},
			"status":   {sub: smpPodStatus},
		}),
		"ConfigMap": smpStruct("ConfigMap", "kind apiVersion metadata immutable* data{} binaryData{}", map[string]smpField{
			"metadata": {sub: smpObjectMeta},
		}),
		"Namespace": smpStruct("Namespace", "kind apiVersion metadata spec status", map[string]smpField{
			"metadata": {sub: smpObjectMeta},
			"spec":     {sub: smpStruct("NamespaceSpec", "finalizers[]", nil)},
			"status": {sub: smpStruct("NamespaceStatus", "phase conditions[]", map[string]smpField{
				"conditions": smpMergeBy("type", smpStruct("NamespaceCondition", "type status lastTransitionTime reason message", nil)),
			})},
		}),
	}
)
