package admission

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// What the ServiceAccount plugin mounts: the volume's name prefix and its mount path.
const (
	serviceAccountVolumePrefix = "kube-api-access-"
	serviceAccountMountPath    = "/var/run/secrets/kubernetes.io/serviceaccount"
	mirrorPodAnnotation        = "kubernetes.io/config.mirror"
	enforceMountableSecrets    = "kubernetes.io/enforce-mountable-secrets"
)

// ServiceAccount mirrors the ServiceAccount plugin of plugin/pkg/admission/serviceaccount:
// a pod runs as a service account that exists ("default" when it names none), gets its
// projected API token volume mounted in every container, and its image pull secrets.
// Without a controller-manager no `default` account is ever made, so, as on such a real
// server, a pod in a fresh namespace is refused until one is created.
//
// AssumeDefault stands in for the service account controller of a full cluster: a missing
// `default` account is taken as one with no settings (it is not stored), so that a server
// without that controller still admits pods the way a real cluster does.
type ServiceAccount struct{ AssumeDefault bool }

// Name implements Interface.
func (ServiceAccount) Name() string { return "ServiceAccount" }

// Handles implements Interface.
func (ServiceAccount) Handles(op Operation) bool { return op == Create || op == Update }

func saIgnores(a *Attributes) bool {
	return a.Object == nil || a.Resource != (api.GroupResource{Resource: "pods"}) ||
		(a.Subresource != "" && a.Subresource != "ephemeralcontainers")
}

// Admit implements MutationInterface (Plugin.Admit).
func (p ServiceAccount) Admit(ctx context.Context, a *Attributes) error {
	if saIgnores(a) || a.Operation != Create {
		return nil
	}
	if _, mirror := a.Object.GetAnnotations()[mirrorPodAnnotation]; mirror {
		return p.Validate(ctx, a)
	}
	spec := podSpec(a)
	name := str(spec, "serviceAccountName")
	if name == "" {
		name = "default"
		spec["serviceAccountName"] = name
		spec["serviceAccount"] = name // the v1 form's deprecated twin
	}
	sa := p.account(a, name)
	if sa == nil {
		return forbidden(a, lookupError(a.Namespace, name))
	}
	if automount(sa, spec) {
		mountToken(spec)
	}
	if len(items(spec, "imagePullSecrets")) == 0 {
		if refs := items(sa.Object, "imagePullSecrets"); len(refs) > 0 {
			out := make([]any, len(refs))
			for i, r := range refs {
				out[i] = map[string]any{"name": str(r, "name")}
			}
			spec["imagePullSecrets"] = out
		}
	}
	return p.Validate(ctx, a)
}

// account mirrors getServiceAccount: the stored account, or nil.
func (p ServiceAccount) account(a *Attributes, name string) *api.Unstructured {
	if sa := a.get("", "serviceaccounts", a.Namespace, name); sa != nil {
		return sa
	}
	if p.AssumeDefault && name == "default" {
		return &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name, "namespace": a.Namespace}}}
	}
	return nil
}

func lookupError(ns, name string) error {
	return fmt.Errorf("error looking up service account %s/%s: serviceaccount %q not found", ns, name, name)
}

// Validate implements ValidationInterface (Plugin.Validate).
func (p ServiceAccount) Validate(_ context.Context, a *Attributes) error {
	if saIgnores(a) {
		return nil
	}
	spec := podSpec(a)
	if a.Operation == Update && a.Subresource == "ephemeralcontainers" {
		return p.ephemeralSecretRefs(a, spec)
	}
	if a.Operation != Create {
		return nil
	}
	if _, mirror := a.Object.GetAnnotations()[mirrorPodAnnotation]; mirror {
		return mirrorPodRefs(a, spec)
	}
	name := str(spec, "serviceAccountName")
	if name == "" {
		return forbidden(a, fmt.Errorf("no service account specified for pod %s/%s", a.Namespace, a.Object.GetName()))
	}
	sa := p.account(a, name)
	if sa == nil {
		return forbidden(a, lookupError(a.Namespace, name))
	}
	if enforcesMountable(sa) {
		if err := limitSecretRefs(sa, spec); err != nil {
			return forbidden(a, err)
		}
	}
	return nil
}

// automount mirrors shouldAutomount: the pod's choice, else the account's, else true.
func automount(sa *api.Unstructured, spec map[string]any) bool {
	if b, ok := boolPtr(spec, "automountServiceAccountToken"); ok {
		return b
	}
	if b, ok := boolPtr(sa.Object, "automountServiceAccountToken"); ok {
		return b
	}
	return true
}

// mountToken mirrors mountServiceAccountToken: a mount in every init and regular container
// that has nothing at the token path, and the projected volume they mount (an existing
// kube-api-access-* volume is reused).
func mountToken(spec map[string]any) {
	volName := ""
	for _, v := range items(spec, "volumes") {
		if n := str(v, "name"); strings.HasPrefix(n, serviceAccountVolumePrefix) {
			volName = n
			break
		}
	}
	hasVolume := volName != ""
	if !hasVolume {
		volName = serviceAccountVolumePrefix + validation.GenerateNameSuffix()
	}
	needed := false
	for _, key := range containerKinds[:2] {
		for _, c := range items(spec, key) {
			mounted := false
			for _, m := range items(c, "volumeMounts") {
				if str(m, "mountPath") == serviceAccountMountPath {
					mounted = true
					break
				}
			}
			if !mounted {
				appendItem(c, "volumeMounts", map[string]any{"name": volName, "readOnly": true, "mountPath": serviceAccountMountPath})
				needed = true
			}
		}
	}
	if !hasVolume && needed {
		appendItem(spec, "volumes", map[string]any{"name": volName, "projected": tokenVolumeSource()})
	}
}

// tokenVolumeSource mirrors TokenVolumeSource: the bound token (3607 s, the warn-only
// expiry), the cluster's CA bundle and the pod's namespace.
func tokenVolumeSource() map[string]any {
	return map[string]any{
		"defaultMode": int64(420),
		"sources": []any{
			map[string]any{"serviceAccountToken": map[string]any{"path": "token", "expirationSeconds": int64(3607)}},
			map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt",
				"items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}}},
			map[string]any{"downwardAPI": map[string]any{"items": []any{map[string]any{"path": "namespace",
				"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.namespace"}}}}},
		},
	}
}

func enforcesMountable(sa *api.Unstructured) bool {
	v, ok := sa.GetAnnotations()[enforceMountableSecrets]
	if !ok {
		return false
	}
	b, _ := strconv.ParseBool(v)
	return b
}

func nameSet(l []map[string]any) map[string]bool {
	out := make(map[string]bool, len(l))
	for _, x := range l {
		out[str(x, "name")] = true
	}
	return out
}

// secretEnvRefs returns the first secret reference of a container's env and envFrom that
// is not allowed, as the message's tail, or "".
func secretEnvRefs(c map[string]any, allowed map[string]bool, who, sa string) error {
	for _, e := range items(c, "env") {
		if ref := child(child(e, "valueFrom"), "secretKeyRef"); ref != nil && !allowed[str(ref, "name")] {
			return fmt.Errorf("%s %s with envVar %s referencing secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret",
				who, str(c, "name"), str(e, "name"), str(ref, "name"), sa)
		}
	}
	for _, e := range items(c, "envFrom") {
		if ref := child(e, "secretRef"); ref != nil && !allowed[str(ref, "name")] {
			return fmt.Errorf("%s %s with envFrom referencing secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret",
				who, str(c, "name"), str(ref, "name"), sa)
		}
	}
	return nil
}

// limitSecretRefs mirrors limitSecretReferences.
func limitSecretRefs(sa *api.Unstructured, spec map[string]any) error {
	allowed := nameSet(items(sa.Object, "secrets"))
	for _, v := range items(spec, "volumes") {
		if s := child(v, "secret"); s != nil && !allowed[str(s, "secretName")] {
			return fmt.Errorf("volume with secret.secretName=\"%s\" is not allowed because service account %s does not reference that secret", str(s, "secretName"), sa.GetName())
		}
	}
	for i, key := range []string{"initContainers", "containers"} {
		who := [...]string{"init container", "container"}[i]
		for _, c := range items(spec, key) {
			if err := secretEnvRefs(c, allowed, who, sa.GetName()); err != nil {
				return err
			}
		}
	}
	pull := nameSet(items(sa.Object, "imagePullSecrets"))
	for i, r := range items(spec, "imagePullSecrets") {
		if !pull[str(r, "name")] {
			return fmt.Errorf(`imagePullSecrets[%d].name="%s" is not allowed because service account %s does not reference that imagePullSecret`, i, str(r, "name"), sa.GetName())
		}
	}
	return nil
}

// ephemeralSecretRefs mirrors limitEphemeralContainerSecretReferences.
func (p ServiceAccount) ephemeralSecretRefs(a *Attributes, spec map[string]any) error {
	name := str(spec, "serviceAccountName")
	if name == "" {
		return forbidden(a, fmt.Errorf("no service account specified for pod %s/%s", a.Namespace, a.Object.GetName()))
	}
	sa := p.account(a, name)
	if sa == nil {
		return forbidden(a, lookupError(a.Namespace, name))
	}
	if !enforcesMountable(sa) {
		return nil
	}
	allowed := nameSet(items(sa.Object, "secrets"))
	for _, c := range items(spec, "ephemeralContainers") {
		if err := secretEnvRefs(c, allowed, "ephemeral container", sa.GetName()); err != nil {
			return err // upstream returns it bare: a 500
		}
	}
	return nil
}

// mirrorPodRefs mirrors the mirror pod's checks: no service account, secret or token.
func mirrorPodRefs(a *Attributes, spec map[string]any) error {
	if str(spec, "serviceAccountName") != "" {
		return forbidden(a, fmt.Errorf("a mirror pod may not reference service accounts"))
	}
	if podReferencesSecrets(spec) {
		return forbidden(a, fmt.Errorf("a mirror pod may not reference secrets"))
	}
	for _, v := range items(spec, "volumes") {
		for _, src := range items(child(v, "projected"), "sources") {
			if child(src, "serviceAccountToken") != nil {
				return forbidden(a, fmt.Errorf("a mirror pod may not use ServiceAccountToken volume projections"))
			}
		}
	}
	return nil
}

// podReferencesSecrets mirrors VisitPodSecretNames finding any name.
func podReferencesSecrets(spec map[string]any) bool {
	if len(items(spec, "imagePullSecrets")) > 0 {
		return true
	}
	for _, key := range containerKinds {
		for _, c := range items(spec, key) {
			for _, e := range items(c, "envFrom") {
				if child(e, "secretRef") != nil {
					return true
				}
			}
			for _, e := range items(c, "env") {
				if child(child(e, "valueFrom"), "secretKeyRef") != nil {
					return true
				}
			}
		}
	}
	for _, v := range items(spec, "volumes") {
		for _, k := range []string{"secret", "azureFile", "cephfs", "cinder", "flexVolume", "iscsi", "rbd", "scaleIO", "storageos", "csi"} {
			if src := child(v, k); src != nil && (k == "secret" || child(src, "secretRef") != nil || child(src, "nodePublishSecretRef") != nil || str(src, "secretName") != "") {
				return true
			}
		}
		for _, src := range items(child(v, "projected"), "sources") {
			if child(src, "secret") != nil {
				return true
			}
		}
	}
	return false
}
