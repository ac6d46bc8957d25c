package apiregistration

import (
	"fmt"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// apiServiceStrategy mirrors apiServerStrategy and apiServerStatusStrategy.
type apiServiceStrategy struct{ rest.Base }

// APIServices is the apiservices resource, with its status subresource
// (kube-aggregator pkg/registry/apiservice/etcd).
func APIServices() rest.Kind {
	return rest.Kind{Group: Group, Resource: "apiservices", Kind: "APIService", Categories: []string{"api-extensions"},
		Fields: clusterScopedFields(), Bootstrap: Builtin,
		Strategy: apiServiceStrategy{rest.Base{GVK: gvk(), Cluster: true, Status: true}}}
}

// PrepareForCreate implements rest.Strategy: the status is reset, and a local APIService
// (no service) is Available from the start.
func (apiServiceStrategy) PrepareForCreate(ctx rest.Context, obj *api.Unstructured) {
	status := map[string]any{}
	if child(obj.Object, "spec")["service"] == nil {
		status["conditions"] = []any{localAvailable(ctx.Now.Time)}
	}
	obj.Object["status"] = status
}

// localAvailable mirrors NewLocalAvailableAPIServiceCondition.
func localAvailable(now time.Time) map[string]any {
	return map[string]any{
		"type": "Available", "status": "True", "lastTransitionTime": now.UTC().Format(time.RFC3339),
		"reason": "Local", "message": "Local APIServices are always available",
	}
}

// NameIsUnchecked implements rest.UncheckedNamer: the name is checked against the spec
// instead ("v1." is a valid one).
func (apiServiceStrategy) NameIsUnchecked() bool { return true }

// Validate implements rest.Strategy (ValidateAPIService).
func (apiServiceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec := child(obj.Object, "spec")
	group, version := str(spec, "group"), str(spec, "version")
	var causes []api.StatusCause
	if name := obj.GetName(); name != "" {
		if msgs := pathSegmentProblems(name); len(msgs) > 0 {
			for _, m := range msgs {
				causes = append(causes, validation.Invalid("metadata.name", name, m))
			}
		} else if want := version + "." + group; name != want {
			causes = append(causes, validation.Invalid("metadata.name", name, fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", want)))
		}
	}
	if group == "" && version != "v1" {
		causes = append(causes, validation.Required("spec.group", "only v1 may have an empty group and it better be legacy kube"))
	}
	if group != "" {
		for _, e := range validation.IsDNS1123Subdomain(group) {
			causes = append(causes, validation.Invalid("spec.group", group, e))
		}
	}
	for _, e := range validation.IsDNS1035Label(version) {
		causes = append(causes, validation.Invalid("spec.version", version, e))
	}
	if p, _ := spec["groupPriorityMinimum"].(int64); p <= 0 || p > 20000 {
		causes = append(causes, validation.Invalid("spec.groupPriorityMinimum", p, "must be positive and less than 20000"))
	}
	if p, _ := spec["versionPriority"].(int64); p <= 0 || p > 1000 {
		causes = append(causes, validation.Invalid("spec.versionPriority", p, "must be positive and less than 1000"))
	}
	insecure, _ := spec["insecureSkipTLSVerify"].(bool)
	caBundle := str(spec, "caBundle")
	svc := child(spec, "service")
	if svc == nil {
		if caBundle != "" {
			causes = append(causes, validation.Invalid("spec.caBundle", fmt.Sprintf("%d bytes", decodedLen(caBundle)), "local APIServices may not have a caBundle"))
		}
		if insecure {
			causes = append(causes, validation.Invalid("spec.insecureSkipTLSVerify", true, "local APIServices may not have insecureSkipTLSVerify"))
		}
		return append(causes, statusCauses(obj.Object)...)
	}
	if str(svc, "namespace") == "" {
		causes = append(causes, validation.Required("spec.service.namespace", ""))
	}
	if str(svc, "name") == "" {
		causes = append(causes, validation.Required("spec.service.name", ""))
	}
	if port, _ := svc["port"].(int64); port < 1 || port > 65535 {
		causes = append(causes, validation.Invalid("spec.service.port", port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if insecure && caBundle != "" {
		causes = append(causes, validation.Invalid("spec.insecureSkipTLSVerify", true, "may not be true if caBundle is present"))
	}
	return append(causes, statusCauses(obj.Object)...)
}

// statusCauses mirrors ValidateAPIServiceStatus: each condition's status is True, False or
// Unknown. (The real create and update do not run it; nothing but the status subresource
// writes a status, so it only ever finds what a status write brought.)
func statusCauses(obj map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	conds, _ := child(obj, "status")["conditions"].([]any)
	for i, c := range conds {
		m, _ := c.(map[string]any)
		switch s := str(m, "status"); s {
		case "True", "False", "Unknown":
		default:
			causes = append(causes, validation.NotSupported(fmt.Sprintf("status.conditions[%d].status", i), s, []string{"True", "False", "Unknown"}))
		}
	}
	return causes
}

// pathSegmentProblems mirrors content.IsPathSegmentName.
func pathSegmentProblems(name string) []string {
	if name == "." || name == ".." {
		return []string{"may not be '" + name + "'"}
	}
	var out []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			out = append(out, "may not contain '"+bad+"'")
		}
	}
	return out
}

// decodedLen is the length of a base64 []byte member once decoded.
func decodedLen(b64 string) int {
	n := len(b64) / 4 * 3
	switch {
	case strings.HasSuffix(b64, "=="):
		n -= 2
	case strings.HasSuffix(b64, "="):
		n--
	}
	return n
}
