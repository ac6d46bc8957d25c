package runner

import (
	"encoding/json"
	"mime"
	"net"
	"regexp"
	"sort"
	"strings"
)

// Observation is an Outcome after normalisation: every field here is compared as is.
type Observation struct {
	Code     int      `json:"code"`
	Media    string   `json:"media,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Message  string   `json:"message,omitempty"`
	Causes   []string `json:"causes,omitempty"`
	Details  string   `json:"details,omitempty"` // Status details: group/kind/name
	Warnings []string `json:"warnings,omitempty"`
	Body     any      `json:"body,omitempty"`
	Events   []any    `json:"events,omitempty"`
	Text     string   `json:"text,omitempty"` // non-JSON output (kubectl)
	Stderr   string   `json:"stderr,omitempty"`
	Err      string   `json:"err,omitempty"`
}

// NormaliseOptions say what a step compares.
type NormaliseOptions struct {
	KeepManagedFields bool
	IgnoreBody        bool
	Kubectl           bool
	// ServerURLs are replaced by "<server>" in texts (kubectl messages name the server).
	ServerURLs []string
}

var (
	uuidRE      = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timeRE      = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?( [+-]\d{4} UTC)?`)
	tooOldRE    = regexp.MustCompile(`too old resource version: \d+ \(\d+\)`)
	rvInMsgRE   = regexp.MustCompile(`(resource ?version[ :=]*"?)\d+`)
	currentRE   = regexp.MustCompile(`current: \d+`)
	apiAccessRE = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
	ageRE       = regexp.MustCompile(`^(\d+(ms|s|m|h|d|y))+$|^<invalid>$`)
	ipRE        = regexp.MustCompile(`\b10\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`)
	kubectlAge  = regexp.MustCompile(`(\s)(\d+(ms|s|m|h|d|y))+(\s|$)`)
	portLineRE  = regexp.MustCompile(`(\d+):(3\d{4})/`)
	spacesRE    = regexp.MustCompile(` {2,}`)
)

// Normalise turns an Outcome into an Observation: it decodes Status objects, sorts causes
// and warnings, and replaces every value a server chooses freely (uid, timestamps,
// resourceVersion, generated names, allocated IPs and node ports, managedFields) by a
// placeholder.
func Normalise(o Outcome, opt NormaliseOptions) Observation {
	obs := Observation{Code: o.Code, Err: o.Err}
	if o.ContentType != "" {
		obs.Media = normaliseMedia(o.ContentType)
	}
	for _, w := range o.Warnings {
		obs.Warnings = append(obs.Warnings, normaliseText(w, opt.ServerURLs))
	}
	sort.Strings(obs.Warnings)
	if opt.Kubectl {
		obs.Stderr = normaliseKubectlText(o.Stderr, opt.ServerURLs)
	}
	for _, ev := range o.Events {
		var v any
		if json.Unmarshal(ev, &v) != nil {
			obs.Events = append(obs.Events, string(ev))
			continue
		}
		obs.Events = append(obs.Events, NormaliseJSON(v, opt.KeepManagedFields))
	}
	if len(o.Body) == 0 {
		return obs
	}
	var v any
	if err := json.Unmarshal(o.Body, &v); err != nil {
		if opt.Kubectl {
			obs.Text = normaliseKubectlText(string(o.Body), opt.ServerURLs)
		} else {
			obs.Text = normaliseText(strings.TrimSpace(string(o.Body)), opt.ServerURLs)
		}
		return obs
	}
	if m, ok := v.(map[string]any); ok && m["kind"] == "Status" {
		obs.Reason, _ = m["reason"].(string)
		msg, _ := m["message"].(string)
		obs.Message = normaliseText(msg, opt.ServerURLs)
		if d, ok := m["details"].(map[string]any); ok {
			g, _ := d["group"].(string)
			k, _ := d["kind"].(string)
			n, _ := d["name"].(string)
			obs.Details = g + "/" + k + "/" + n
			if cs, ok := d["causes"].([]any); ok {
				for _, c := range cs {
					cm, _ := c.(map[string]any)
					f, _ := cm["field"].(string)
					r, _ := cm["reason"].(string)
					obs.Causes = append(obs.Causes, f+": "+r)
				}
				sort.Strings(obs.Causes)
			}
		}
		return obs
	}
	if opt.IgnoreBody {
		return obs
	}
	obs.Body = NormaliseJSON(v, opt.KeepManagedFields)
	return obs
}

func normaliseMedia(ct string) string {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct
	}
	delete(params, "charset")
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(mt)
	for _, k := range keys {
		b.WriteString(";" + k + "=" + params[k])
	}
	return b.String()
}

func normaliseText(s string, urls []string) string {
	for _, u := range urls {
		if u != "" {
			s = strings.ReplaceAll(s, u, "<server>")
			s = strings.ReplaceAll(s, strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "<server>")
		}
	}
	s = uuidRE.ReplaceAllString(s, "<uuid>")
	s = timeRE.ReplaceAllString(s, "<time>")
	s = tooOldRE.ReplaceAllString(s, "too old resource version: <rv> (<rv>)")
	s = rvInMsgRE.ReplaceAllString(s, "${1}<rv>")
	s = currentRE.ReplaceAllString(s, "current: <rv>")
	s = apiAccessRE.ReplaceAllString(s, "kube-api-access-<gen>")
	s = ipRE.ReplaceAllString(s, "<ip>")
	return s
}

func normaliseKubectlText(s string, urls []string) string {
	s = normaliseText(s, urls)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = kubectlAge.ReplaceAllString(l, "$1<age>$4")
		l = kubectlAge.ReplaceAllString(l, "$1<age>$4")
		l = portLineRE.ReplaceAllString(l, "$1:<port>/")
		// Column widths follow the widest cell (an IP of another length): compare cells only.
		lines[i] = strings.TrimRight(spacesRE.ReplaceAllString(l, " "), " ")
	}
	return strings.Join(lines, "\n")
}

// timeKeys are fields whose string value is a server-chosen time.
var timeKeys = map[string]bool{"creationTimestamp": true, "deletionTimestamp": true, "lastTransitionTime": true,
	"lastUpdateTime": true, "lastProbeTime": true, "lastHeartbeatTime": true, "startTime": true, "time": true,
	"completionTime": true, "eventTime": true, "firstTimestamp": true, "lastTimestamp": true, "renewTime": true, "acquireTime": true}

// NormaliseJSON returns a copy of a decoded JSON value with server-chosen values replaced.
func NormaliseJSON(v any, keepManagedFields bool) any {
	gen := map[string]string{}
	collectGenerated(v, gen)
	return normaliseValue(v, "", keepManagedFields, gen)
}

// collectGenerated finds names generated from metadata.generateName, to replace them
// everywhere in the value by prefix+"<gen>".
func collectGenerated(v any, gen map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		if md, ok := t["metadata"].(map[string]any); ok {
			g, _ := md["generateName"].(string)
			n, _ := md["name"].(string)
			if g != "" && strings.HasPrefix(n, g) && len(n) > len(g) {
				gen[n] = g + "<gen>"
			}
		}
		for _, c := range t {
			collectGenerated(c, gen)
		}
	case []any:
		for _, c := range t {
			collectGenerated(c, gen)
		}
	}
}

func normaliseValue(v any, key string, keepMF bool, gen map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			switch {
			case k == "managedFields" && !keepMF:
				continue
			case k == "managedFields":
				out[k] = sortManagedFields(normaliseValue(c, k, keepMF, gen))
				continue
			case k == "uid" || k == "resourceVersion":
				if s, ok := c.(string); ok && s != "" {
					out[k] = "<" + k + ">"
					continue
				}
			case k == "continue":
				if s, ok := c.(string); ok && s != "" {
					out[k] = "<continue>"
					continue
				}
			case k == "nodePort" || k == "healthCheckNodePort":
				if n, ok := c.(float64); ok && n != 0 {
					out[k] = "<port>"
					continue
				}
			case k == "clusterIP" || k == "clusterIPs":
				out[k] = normaliseIPs(c)
				continue
			}
			out[k] = normaliseValue(c, k, keepMF, gen)
		}
		if out["kind"] == "Table" {
			normaliseTable(out)
		}
		if out["kind"] == "CustomResourceDefinition" {
			normaliseCRDStatus(out)
		}
		if k, _ := out["kind"].(string); strings.HasSuffix(k, "List") {
			stripItemTypeMeta(out)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = normaliseValue(c, key, keepMF, gen)
		}
		return out
	case string:
		if timeKeys[key] && t != "" {
			return "<time>"
		}
		s := t
		if r, ok := gen[s]; ok {
			return r
		}
		for g, r := range gen {
			s = strings.ReplaceAll(s, g, r)
		}
		s = uuidRE.ReplaceAllString(s, "<uuid>")
		s = apiAccessRE.ReplaceAllString(s, "kube-api-access-<gen>")
		if timeRE.MatchString(s) && len(s) < 40 {
			s = timeRE.ReplaceAllString(s, "<time>")
		}
		return s
	}
	return v
}

func normaliseIPs(v any) any {
	switch t := v.(type) {
	case string:
		if net.ParseIP(t) != nil {
			return "<ip>"
		}
		return t
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = normaliseIPs(c)
		}
		return out
	}
	return v
}

// normaliseTable replaces the cells of date columns (Age) by "<age>".
func normaliseTable(t map[string]any) {
	cols, _ := t["columnDefinitions"].([]any)
	var idx []int
	for i, c := range cols {
		cm, _ := c.(map[string]any)
		if cm["format"] == "date" || cm["name"] == "Age" {
			idx = append(idx, i)
		}
	}
	rows, _ := t["rows"].([]any)
	for _, r := range rows {
		rm, _ := r.(map[string]any)
		cells, _ := rm["cells"].([]any)
		for _, i := range idx {
			if i < len(cells) {
				if s, ok := cells[i].(string); ok && (ageRE.MatchString(s) || s == "<time>") {
					cells[i] = "<age>"
				}
			}
		}
		for i, c := range cells {
			if s, ok := c.(string); ok {
				s = ipRE.ReplaceAllString(s, "<ip>")
				cells[i] = portLineRE.ReplaceAllString(s, "$1:<port>/")
			}
		}
	}
}

// stripItemTypeMeta drops kind and apiVersion from the items of a list. The real server omits
// them in typed lists; the simulator includes them by design (harmless to clients, and needed
// by a generic store), so the comparison ignores them.
func stripItemTypeMeta(list map[string]any) {
	items, _ := list["items"].([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			delete(m, "kind")
			delete(m, "apiVersion")
		}
	}
}

// normaliseCRDStatus replaces what a CRD's naming and establishing controllers write
// (status.acceptedNames and status.conditions) by a marker. The reference runs them after
// its create answers, so a read-back races them and finds their work done, half done or not
// begun from one run to the next; the simulator writes them within the create. Compared as
// they are, the same case would agree in one run and differ in the next.
func normaliseCRDStatus(crd map[string]any) {
	st, ok := crd["status"].(map[string]any)
	if !ok {
		return
	}
	for _, k := range []string{"acceptedNames", "conditions"} {
		if _, ok := st[k]; ok {
			st[k] = "<written by the CRD controllers>"
		}
	}
}

// sortManagedFields puts managedFields entries in one order both servers can agree on:
// operation, manager, subresource, apiVersion. The servers order entries of one operation by
// their time in seconds first, and the times are masked: two managers writing in the same
// second on one server and across a second boundary on the other would otherwise differ.
func sortManagedFields(v any) any {
	entries, ok := v.([]any)
	if !ok {
		return v
	}
	field := func(e any, name string) string {
		m, _ := e.(map[string]any)
		s, _ := m[name].(string)
		return s
	}
	sort.SliceStable(entries, func(i, j int) bool {
		for _, name := range []string{"operation", "manager", "subresource", "apiVersion"} {
			if a, b := field(entries[i], name), field(entries[j], name); a != b {
				return a < b
			}
		}
		return false
	})
	return entries
}
