package gen

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

// dryRunOnly kinds change how the reference treats every other request (webhooks, aggregated
// APIs, admission policies, cluster defaults): they are only ever created with dryRun=All.
var dryRunOnly = map[string]bool{
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"MutatingAdmissionPolicy": true, "MutatingAdmissionPolicyBinding": true,
	"APIService": true, "PriorityClass": true, "StorageClass": true, "IngressClass": true,
	"FlowSchema": true, "PriorityLevelConfiguration": true, "DeviceClass": true,
}

// Options bound the generated cases.
type Options struct {
	// MaxSchemaMutations per manifest (after deduplication by schema path).
	MaxSchemaMutations int
	// KubectlManifests is how many served manifests also get a kubectl case.
	KubectlManifests int
}

// Stats count what generation skipped.
type Stats struct {
	UnservedKinds map[string]int // apiVersion|Kind not served by the reference -> documents
	NoName        int
}

const (
	ctJSON      = "application/json"
	ctMerge     = "application/merge-patch+json"
	ctJSONPatch = "application/json-patch+json"
	ctSMP       = "application/strategic-merge-patch+json"
	acceptTable = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
)

// prepared is a corpus object made ready for one case.
type prepared struct {
	obj       map[string]any
	res       Resource
	name      string // "" if generated
	itemPath  string // path of the object, or with ${name} if generated
	dryRun    bool
	isCRD     bool
	generated bool
}

func prepare(obj map[string]any, res Resource) prepared {
	c := deepCopy(obj)
	md, _ := c["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		c["metadata"] = md
	}
	p := prepared{obj: c, res: res, dryRun: dryRunOnly[res.Kind], isCRD: res.Kind == "CustomResourceDefinition"}
	if res.Namespaced {
		md["namespace"] = runner.NSPlaceholder
	} else {
		delete(md, "namespace")
	}
	name, _ := md["name"].(string)
	switch {
	case p.isCRD:
		renameCRD(c)
		name, _ = md["name"].(string)
	case !res.Namespaced && name != "":
		if len(name) > 50 {
			name = strings.TrimRight(name[:50], ".-")
		}
		name += "-" + runner.SuffixPlaceholder
		md["name"] = name
	}
	p.name = name
	if name == "" {
		p.generated = true
		p.itemPath = res.CollectionPath() + "/${name}"
	} else {
		p.itemPath = res.CollectionPath() + "/" + name
	}
	return p
}

// renameCRD moves a CRD to a group of the case's own, so many cases can create it.
func renameCRD(c map[string]any) {
	spec, _ := c["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ := spec["group"].(string)
	plural, _ := names["plural"].(string)
	ng := "c" + runner.SuffixPlaceholder + "." + group
	spec["group"] = ng
	md, _ := c["metadata"].(map[string]any)
	md["name"] = plural + "." + ng
}

func (p prepared) createPath() string {
	if p.dryRun {
		return p.res.CollectionPath() + "?dryRun=All"
	}
	return p.res.CollectionPath()
}

// createSteps POSTs the object and reads it back.
func (p prepared) createSteps(obj map[string]any, query string) []runner.Step {
	body, _ := json.Marshal(obj)
	path := p.createPath()
	if query != "" {
		if strings.Contains(path, "?") {
			path += "&" + query
		} else {
			path += "?" + query
		}
	}
	create := runner.Step{Name: "create", Method: http.MethodPost, Path: path, Body: body}
	if p.generated {
		create.Capture = map[string]string{"name": "metadata.name"}
	}
	steps := []runner.Step{create}
	if !p.dryRun {
		steps = append(steps, runner.Step{Name: "read-back", Method: http.MethodGet, Path: p.itemPath})
	}
	if p.isCRD && !p.dryRun {
		// A CRD case cleans up after itself: the reference builds handlers and OpenAPI per CRD.
		steps = append(steps, runner.Step{Name: "cleanup", Method: http.MethodDelete, Path: p.itemPath, IgnoreBody: true})
	}
	return steps
}

// FromCorpus builds the corpus-driven cases.
func FromCorpus(docs []corpus.Doc, disc Discovery, schemas *Schemas, opt Options) ([]runner.Case, Stats) {
	st := Stats{UnservedKinds: map[string]int{}}
	var cases []runner.Case
	kubectlLeft := opt.KubectlManifests
	ids := map[string]int{}
	for _, d := range docs {
		res, ok := disc.Lookup(d.APIVersion(), d.Kind())
		if !ok {
			st.UnservedKinds[d.APIVersion()+"|"+d.Kind()]++
			continue
		}
		base := d.Source
		if n := ids[base]; n > 0 {
			base = fmt.Sprintf("%s~%d", base, n)
		}
		ids[d.Source]++
		p := prepare(d.Object, res)
		catPrefix := ""
		if p.isCRD {
			catPrefix = "crd-"
		}
		add := func(category, variant string, steps []runner.Step) {
			id := category + "/" + base
			if variant != "" {
				id += "/" + variant
			}
			cases = append(cases, runner.Case{ID: id, Category: category, Source: d.Source, Kind: KindOf(res.Group(), res.Kind),
				Steps: steps, NoNamespace: !res.Namespaced})
		}

		// The plain create and read-back; then, in a case of its own, the collection as a Table.
		add(catPrefix+"create", "", p.createSteps(p.obj, ""))
		if !p.dryRun && !p.isCRD && (p.res.Namespaced || !p.generated) {
			steps := append(p.createSteps(p.obj, ""), runner.Step{Name: "table", Method: http.MethodGet, Path: p.res.CollectionPath() + tableSelector(p), Headers: map[string]string{"Accept": acceptTable}})
			add("table", "", steps)
		}

		// Dry run and unknown fields.
		if !p.dryRun {
			dry := p
			dry.dryRun = true
			add(catPrefix+"dry-run", "create", append(dry.createSteps(p.obj, ""), runner.Step{Name: "read-back", Method: http.MethodGet, Path: p.itemPath}))
		}
		unknown := deepCopy(p.obj)
		unknown["notAField"] = "x"
		if spec, ok := unknown["spec"].(map[string]any); ok {
			spec["notAFieldEither"] = 1
		}
		add(catPrefix+"unknown-field", "strict", p.createSteps(unknown, "fieldValidation=Strict"))
		add(catPrefix+"unknown-field", "warn", p.createSteps(unknown, ""))

		// Metadata and schema mutations.
		var muts []Mutation
		if !p.isCRD {
			muts = append(muts, MetadataMutations(p.obj, !res.Namespaced)...)
		}
		if root, ok := schemas.Root(res.Group(), versionOf(res.GroupVersion), res.Kind); ok {
			sm := Mutations(p.obj, root)
			max := opt.MaxSchemaMutations
			if p.isCRD {
				max = 6
			}
			if len(sm) > max {
				sm = sm[:max]
			}
			muts = append(muts, sm...)
		}
		for _, m := range muts {
			mp := p
			if m.Variant == "name-underscore" || m.Variant == "name-too-long" {
				mp.itemPath = res.CollectionPath() + "/" + fmt.Sprint(m.Value)
			}
			add(catPrefix+m.Category, m.Variant, mp.createSteps(m.Apply(p.obj), ""))
		}

		// Updates of immutable (and, as controls, mutable) fields.
		if !p.dryRun && !p.isCRD {
			for _, u := range updatesFor(p) {
				add("immutable", u.variant, append(p.createSteps(p.obj, ""), u.steps...))
			}
		}

		// kubectl: client-side apply, get as a table and as JSON.
		if kubectlLeft > 0 && !p.dryRun && !p.isCRD && !p.generated {
			kubectlLeft--
			add("kubectl", "apply-get", kubectlSteps(p))
		}
	}
	return cases, st
}

func versionOf(gv string) string {
	if i := strings.Index(gv, "/"); i >= 0 {
		return gv[i+1:]
	}
	return gv
}

// tableSelector narrows a cluster-scoped table to the case's object.
func tableSelector(p prepared) string {
	if p.res.Namespaced || p.name == "" {
		return ""
	}
	return "?fieldSelector=metadata.name%3D" + p.name
}

func kubectlSteps(p prepared) []runner.Step {
	b, _ := json.Marshal(p.obj)
	res := p.res.Plural
	if g := p.res.Group(); g != "" {
		res += "." + g
	}
	ns := []string{}
	if p.res.Namespaced {
		ns = []string{"-n", runner.NSPlaceholder}
	}
	return []runner.Step{
		{Name: "kubectl-apply", Kubectl: append([]string{"apply", "-f", "-"}, ns...), Stdin: b},
		{Name: "kubectl-get", Kubectl: append([]string{"get", res, p.name}, ns...)},
		{Name: "kubectl-get-json", Kubectl: append([]string{"get", res, p.name, "-o", "json"}, ns...)},
	}
}

// SortedKinds lists map keys in order (for reports).
func SortedKinds(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// globalAllocation matches a body that asks for a node port or cluster IP of its own: those
// come from ranges shared by all namespaces, so two concurrent cases could take each other's.
var globalAllocation = regexp.MustCompile(`"(nodePort|healthCheckNodePort)":\s*[1-9]|"clusterIPs?":\s*\[?\s*"[0-9]`)

// SerialiseGlobalAllocations marks every case that requests a specific node port or cluster IP
// as serial, so such cases run one at a time, in a fixed order, before the concurrent ones:
// which of them finds a port already taken is then the same in every run.
func SerialiseGlobalAllocations(cases []runner.Case) int {
	n := 0
	for i := range cases {
		for _, s := range cases[i].Steps {
			if globalAllocation.Match(s.Body) || globalAllocation.Match(s.Stdin) {
				cases[i].Serial = true
				n++
				break
			}
		}
	}
	return n
}
