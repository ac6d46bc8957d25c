package gen

import (
	"net/http"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// delWith is a DELETE with a DeleteOptions body.
func delWith(name, path string, opts map[string]any) runner.Step {
	return runner.Step{Name: name, Method: http.MethodDelete, Path: path, Body: js(opts)}
}

// gcScenarios: the server's side of deletion propagation. Without a garbage collector a
// Foreground or Orphan delete leaves the object marked with the collector's finalizer (200
// with the object), Background deletes at once, the batch/v1 Job orphans by default, and a
// second delete may switch the finalizer. Each case clears the finalizers at the end, so
// the object goes.
func gcScenarios() []runner.Case {
	var cs []runner.Case
	clear := func(item string) []runner.Step {
		return []runner.Step{
			patchStep("clear-finalizers", item, ctMerge, map[string]any{"metadata": map[string]any{"finalizers": nil}}),
			getStep("gone", item),
		}
	}
	fg := map[string]any{"propagationPolicy": "Foreground"}
	orphan := map[string]any{"propagationPolicy": "Orphan"}
	bg := map[string]any{"propagationPolicy": "Background"}
	cmItem := cmPath + "/c"
	cs = append(cs, runner.Case{ID: "lifecycle/delete-foreground", Category: "lifecycle", Steps: append([]runner.Step{
		post("create", cmPath, cm("c", map[string]any{"a": "1"})),
		delWith("delete-dry-run", cmItem+"?dryRun=All", fg),
		delWith("delete", cmItem, fg),
		getStep("read", cmItem),
		delWith("delete-again", cmItem, fg),
		delWith("delete-orphan", cmItem, orphan),
		getStep("read-orphan", cmItem),
	}, clear(cmItem)...)})
	depItem := depPath + "/d"
	dep := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
	cs = append(cs, runner.Case{ID: "lifecycle/delete-orphan", Category: "lifecycle", Steps: append([]runner.Step{
		post("create", depPath, dep),
		delWith("delete", depItem, orphan),
		getStep("read", depItem),
		delWith("delete-both", depItem, map[string]any{"propagationPolicy": "Orphan", "orphanDependents": true}),
		delWith("delete-orphan-dependents-false", depItem, map[string]any{"orphanDependents": false}),
		getStep("read-after", depItem),
	}, clear(depItem)...)})
	job := obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`)
	jobItem := jobPath + "/j"
	cs = append(cs, runner.Case{ID: "lifecycle/delete-default-job", Category: "lifecycle", Steps: append([]runner.Step{
		post("create", jobPath, job),
		del("delete", jobItem),
		getStep("read", jobItem),
		delWith("delete-background", jobItem, bg),
	}, getStep("gone", jobItem))})
	cs = append(cs, runner.Case{ID: "lifecycle/delete-background", Category: "lifecycle", Steps: []runner.Step{
		post("create", cmPath, cm("b", nil)),
		delWith("delete", cmPath+"/b", bg),
		getStep("gone", cmPath+"/b"),
		post("create-with-finalizer", cmPath, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "f", "finalizers": []any{"example.com/x"}}}),
		delWith("delete-finalized", cmPath+"/f", fg),
		getStep("read", cmPath+"/f"),
		patchStep("clear-finalizers", cmPath+"/f", ctMerge, map[string]any{"metadata": map[string]any{"finalizers": nil}}),
		getStep("gone-finalized", cmPath+"/f"),
	}})
	bound := pod("p", func(spec map[string]any) { spec["nodeName"] = "node-a" })
	podItem := podsPath + "/p"
	cs = append(cs, runner.Case{ID: "lifecycle/delete-foreground-bound-pod", Category: "lifecycle", Steps: append([]runner.Step{
		post("create", podsPath, bound),
		delWith("delete-dry-run", podItem+"?dryRun=All", fg),
		delWith("delete", podItem, fg),
		getStep("read", podItem),
		delWith("delete-now", podItem, map[string]any{"gracePeriodSeconds": 0}),
		getStep("read-now", podItem),
	}, clear(podItem)...)})
	return cs
}
