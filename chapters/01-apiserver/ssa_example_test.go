package ch01_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver"
)

// applyAs sends one server-side apply as manager and prints the outcome: the status, a
// conflict's message, and who owns which fields afterwards.
func (l *lab) applyAs(manager string, force bool, body string) {
	q := "?fieldManager=" + manager
	if force {
		q += "&force=true"
	}
	fmt.Printf("%s applies%s: %s\n", manager, map[bool]string{true: " with force", false: ""}[force], body)
	req, _ := http.NewRequest(http.MethodPatch, l.base+"/apis/apps/v1/namespaces/default/deployments/web"+q, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/apply-patch+yaml")
	resp, err := l.hc.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	fmt.Println(" ", resp.Status)
	var obj struct {
		Message  string `json:"message"`
		Metadata struct {
			ManagedFields []struct {
				Manager     string         `json:"manager"`
				Operation   string         `json:"operation"`
				Subresource string         `json:"subresource"`
				FieldsV1    map[string]any `json:"fieldsV1"`
			} `json:"managedFields"`
		} `json:"metadata"`
		Spec struct {
			Replicas int `json:"replicas"`
		} `json:"spec"`
	}
	_ = json.Unmarshal(data, &obj)
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		fmt.Println(" ", obj.Message)
		return
	}
	fmt.Println("  replicas:", obj.Spec.Replicas)
	// The server orders entries by operation, then time to the second, then name: by name
	// here, so the output does not depend on when the second ticks.
	entries := obj.Metadata.ManagedFields
	sort.Slice(entries, func(i, j int) bool { return entries[i].Manager < entries[j].Manager })
	for _, e := range entries {
		fmt.Printf("  %s (%s): %s\n", e.Manager, e.Operation, strings.Join(leaves(e.FieldsV1, ""), " "))
	}
}

// leaves flattens a FieldsV1 set into the paths of its owned fields, as the conflict
// messages print them: f:name is .name, k:{"name":"web"} is [name="web"]; "." (the element
// itself) is left out when it has members of its own.
func leaves(set map[string]any, prefix string) []string {
	var out []string
	for k, v := range set {
		var p string
		switch {
		case k == ".":
			continue
		case strings.HasPrefix(k, "f:"):
			p = prefix + "." + k[2:]
		case strings.HasPrefix(k, "k:"):
			var key map[string]any
			_ = json.Unmarshal([]byte(k[2:]), &key)
			var kv []string
			for n, x := range key {
				kv = append(kv, fmt.Sprintf("%s=%q", n, fmt.Sprint(x)))
			}
			sort.Strings(kv)
			p = prefix + "[" + strings.Join(kv, ",") + "]"
		default:
			p = prefix + "[" + k + "]"
		}
		if sub, _ := v.(map[string]any); len(sub) > 0 {
			out = append(out, leaves(sub, p)...)
		} else {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Example_twoControllersShareADeployment: a deployer applies the Deployment it wants, an
// autoscaler applies only the replicas it computes. Server-side apply keeps one owner per
// field: the autoscaler's first apply conflicts (409, naming the deployer and the field),
// its forced apply takes replicas over, the deployer's next apply with its stale replicas
// conflicts in turn, and once the deployer leaves replicas out of its configuration both
// apply without conflicts, each keeping its own fields.
func Example_twoControllersShareADeployment() {
	l := newLab(apiserver.Options{})
	defer l.close()
	deployer := func(replicas string) string {
		r := ""
		if replicas != "" {
			r = `"replicas":` + replicas + `,`
		}
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{` + r +
			`"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}`
	}
	autoscaler := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5}}`

	l.applyAs("deployer", false, deployer("2"))
	l.applyAs("autoscaler", false, autoscaler)
	l.applyAs("autoscaler", true, autoscaler)
	l.applyAs("deployer", false, deployer("2"))
	l.applyAs("deployer", false, deployer(""))
	// Output:
	// deployer applies: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}
	//   201 Created
	//   replicas: 2
	//   deployer (Apply): .spec.replicas .spec.selector .spec.template.metadata.labels.app .spec.template.spec.containers[name="web"].image .spec.template.spec.containers[name="web"].name
	// autoscaler applies: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5}}
	//   409 Conflict
	//   Apply failed with 1 conflict: conflict with "deployer": .spec.replicas
	// autoscaler applies with force: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5}}
	//   200 OK
	//   replicas: 5
	//   autoscaler (Apply): .spec.replicas
	//   deployer (Apply): .spec.selector .spec.template.metadata.labels.app .spec.template.spec.containers[name="web"].image .spec.template.spec.containers[name="web"].name
	// deployer applies: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}
	//   409 Conflict
	//   Apply failed with 1 conflict: conflict with "autoscaler": .spec.replicas
	// deployer applies: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}
	//   200 OK
	//   replicas: 5
	//   autoscaler (Apply): .spec.replicas
	//   deployer (Apply): .spec.selector .spec.template.metadata.labels.app .spec.template.spec.containers[name="web"].image .spec.template.spec.containers[name="web"].name
}
