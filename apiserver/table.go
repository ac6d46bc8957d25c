package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Server-side printing (wire spec K15, W21, E43): the TableConvertor of each registry
// (k8s.io/kubernetes pkg/printers/internalversion for pods, configmaps and namespaces; the
// default convertor of k8s.io/apiserver pkg/registry/rest/table.go for everything else) and
// asTable in k8s.io/apiserver pkg/endpoints/handlers/response.go, which decides what each row's
// object is.

// The includeObject policies of metav1.TableOptions.
const (
	includeNone     = "None"
	includeMetadata = "Metadata"
	includeObject   = "Object"
)

// parseIncludeObject reads ?includeObject for a Table request (E43).
func parseIncludeObject(q url.Values) (string, error) {
	v := q.Get("includeObject")
	switch v {
	case "", includeNone, includeMetadata, includeObject:
		return v, nil
	}
	return "", api.NewBadRequest(fmt.Sprintf(
		"Unable to convert to Table as requested: includeObject: Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", v))
}

// printer is one resource's table layout: the columns, and the cells of one object's row.
// cells returns exactly one value per column.
type printer struct {
	columns []api.TableColumnDefinition
	cells   func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition)
}

const (
	nameDescription = "Name must be unique within a namespace. It identifies the object to clients and is the key of the object in storage."
	ageDescription  = "CreationTimestamp is when the server created the object, shown as the time since then."
)

func nameColumn() api.TableColumnDefinition {
	return api.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: nameDescription}
}

func ageColumn() api.TableColumnDefinition {
	return api.TableColumnDefinition{Name: "Age", Type: "string", Description: ageDescription}
}

// The printers of the built-in kinds and the default one, built once.
var (
	podPrinter = &printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Ready", Type: "string", Description: "How many of the pod's containers are ready, out of how many."},
			{Name: "Status", Type: "string", Description: "The aggregate status of the pod: its phase, or Terminating once deletion has begun."},
			{Name: "Restarts", Type: "string", Description: "How often the pod's containers have restarted."},
			ageColumn(),
			{Name: "IP", Type: "string", Priority: 1, Description: "The IP address allocated to the pod."},
			{Name: "Node", Type: "string", Priority: 1, Description: "The node the pod is bound to."},
			{Name: "Nominated Node", Type: "string", Priority: 1, Description: "The node the scheduler nominated for a preempting pod."},
			{Name: "Readiness Gates", Type: "string", Priority: 1, Description: "Extra conditions that must hold before the pod counts as ready."},
		},
		cells: podCells,
	}
	configMapPrinter = &printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Data", Type: "integer", Description: "How many keys the data and binaryData maps hold together."},
			ageColumn(),
		},
		cells: func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			n := 0
			if cm, ok := obj.(*api.ConfigMap); ok {
				n = len(cm.Data) + len(cm.BinaryData)
			}
			return []any{m.GetName(), int64(n), age(m, now)}, nil
		},
	}
	namespacePrinter = &printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Status", Type: "string", Description: "The phase of the namespace: Active, or Terminating while it is being deleted."},
			ageColumn(),
		},
		cells: func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			phase := ""
			if ns, ok := obj.(*api.Namespace); ok {
				phase = string(ns.Status.Phase)
			}
			return []any{m.GetName(), phase, age(m, now)}, nil
		},
	}
	// defaultPrinter gives NAME and AGE, the columns kubectl shows for a custom resource
	// without additionalPrinterColumns. (The real default convertor of kinds without a
	// printer says "Created At" with an RFC 3339 cell; NAME AGE reads better in a workshop.)
	defaultPrinter = &printer{
		columns: []api.TableColumnDefinition{nameColumn(), ageColumn()},
		cells: func(_ api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{m.GetName(), age(m, now)}, nil
		},
	}
)

// printerFor picks a resource's printer: the built-in kinds have their own columns.
func printerFor(res *resource) *printer {
	if res.info.builtin {
		switch res.info.Kind {
		case "Pod":
			return podPrinter
		case "ConfigMap":
			return configMapPrinter
		case "Namespace":
			return namespacePrinter
		}
	}
	return defaultPrinter
}

// podCells mirrors printPod. We keep no container statuses, so READY counts every container
// as ready when the pod's Ready condition is True and none otherwise, and RESTARTS is 0.
func podCells(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
	p, ok := obj.(*api.Pod)
	if !ok {
		p = &api.Pod{}
	}
	total, ready := len(p.Spec.Containers), 0
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady && c.Status == api.ConditionTrue {
			ready = total
		}
	}
	status := string(p.Status.Phase)
	if m.GetDeletionTimestamp() != nil {
		status = "Terminating"
	}
	cells := []any{m.GetName(), fmt.Sprintf("%d/%d", ready, total), status, "0", age(m, now),
		orNone(p.Status.PodIP), orNone(p.Spec.NodeName), "<none>", "<none>"}
	var conds []api.TableRowCondition
	switch p.Status.Phase {
	case api.PodSucceeded:
		conds = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: string(p.Status.Phase), Message: "The pod has completed successfully."}}
	case api.PodFailed:
		conds = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: string(p.Status.Phase), Message: "The pod failed."}}
	}
	return cells, conds
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// age mirrors translateTimestampSince: "<unknown>" for a zero timestamp, else humanDuration.
func age(m api.MetaObject, now time.Time) string {
	ts := m.GetCreationTimestamp()
	if ts.IsZero() {
		return "<unknown>"
	}
	return humanDuration(now.Sub(ts.Time))
}

// humanDuration mirrors duration.HumanDuration in apimachinery pkg/util/duration: two units
// while the larger one is small ("3m20s", "5h12m", "3d4h", "2y45d"), one unit after that.
// A clock skew of up to two seconds reads as "0s".
func humanDuration(d time.Duration) string {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	sec := int64(d / time.Second)
	switch {
	case sec < -1:
		return "<invalid>"
	case sec < 0:
		return "0s"
	case d < 2*time.Minute:
		return strconv.FormatInt(sec, 10) + "s"
	case d < 10*time.Minute:
		return twoUnits(d, time.Minute, "m", time.Second, "s")
	case d < 3*time.Hour:
		return unit(d, time.Minute, "m")
	case d < 8*time.Hour:
		return twoUnits(d, time.Hour, "h", time.Minute, "m")
	case d < 2*day:
		return unit(d, time.Hour, "h")
	case d < 8*day:
		return twoUnits(d, day, "d", time.Hour, "h")
	case d < 2*year:
		return unit(d, day, "d")
	case d < 8*year:
		return twoUnits(d, year, "y", day, "d")
	}
	return unit(d, year, "y")
}

func unit(d, u time.Duration, name string) string {
	return strconv.FormatInt(int64(d/u), 10) + name
}

// twoUnits prints d in the big unit, then the remainder in the small one unless it is zero.
func twoUnits(d, big time.Duration, bigName string, small time.Duration, smallName string) string {
	rest := (d % big) / small
	if rest == 0 {
		return unit(d, big, bigName)
	}
	return unit(d, big, bigName) + strconv.FormatInt(int64(rest), 10) + smallName
}

// rowSource is one object to print: the decoded object and its JSON.
type rowSource struct {
	obj  api.Object
	json []byte
}

func recordRows(recs []*record) []rowSource {
	out := make([]rowSource, len(recs))
	for i, r := range recs {
		out[i] = rowSource{obj: r.obj, json: r.json()}
	}
	return out
}

// tableConverter turns objects into Table JSON for one request (asTable).
type tableConverter struct {
	p       *printer
	version string // meta.k8s.io version: "v1" or "v1beta1"
	include string // includeObject: "", None, Metadata or Object
	now     time.Time
}

// table encodes a Table of rows with the given list metadata. Without headers,
// columnDefinitions is null, as in every watch event after the first (W21).
func (c *tableConverter) table(meta api.ListMeta, rows []rowSource, headers bool) []byte {
	t := api.Table{
		TypeMeta: api.TypeMeta{Kind: "Table", APIVersion: api.MetaGroupName + "/" + c.version},
		ListMeta: meta,
		Rows:     make([]api.TableRow, 0, len(rows)),
	}
	if headers {
		t.ColumnDefinitions = c.p.columns
	}
	for _, src := range rows {
		m, err := api.Accessor(src.obj)
		if err != nil {
			continue // every stored object has metadata; skip rather than panic
		}
		cells, conds := c.p.cells(src.obj, m, c.now)
		row := api.TableRow{Cells: cells, Conditions: conds}
		switch {
		case c.include == includeObject:
			row.Object = src.json
		case c.include == includeMetadata, c.include == "", m.GetAnnotations()[api.InitialEventsAnnotationKey] == "true":
			row.Object = partialObjectJSON(c.version, src.json)
		}
		t.Rows = append(t.Rows, row)
	}
	data, err := json.Marshal(&t)
	if err != nil {
		// Cells are strings and integers and rows are valid JSON, so this cannot happen; an
		// empty table keeps the response decodable if it ever does.
		return []byte(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":null,"rows":[]}`)
	}
	return data
}

// objectMetadata extracts the raw "metadata" member of an object's JSON.
func objectMetadata(objJSON []byte) json.RawMessage {
	var o struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(objJSON, &o); err != nil || len(o.Metadata) == 0 {
		return json.RawMessage(`{}`)
	}
	return o.Metadata
}

// partialObjectJSON is an object reduced to a PartialObjectMetadata (meta.AsPartialObjectMetadata):
// kind and apiVersion of meta.k8s.io and the object's metadata, byte for byte.
func partialObjectJSON(version string, objJSON []byte) []byte {
	meta := objectMetadata(objJSON)
	var b bytes.Buffer
	b.Grow(len(meta) + 80)
	b.WriteString(`{"kind":"PartialObjectMetadata","apiVersion":"` + api.MetaGroupName + "/" + version + `","metadata":`)
	b.Write(meta)
	b.WriteByte('}')
	return b.Bytes()
}

// encodePartialList encodes a PartialObjectMetadataList (asPartialObjectMetadataList).
func encodePartialList(version string, lr listResult) []byte {
	meta, _ := json.Marshal(listMetaOf(lr))
	var b bytes.Buffer
	b.WriteString(`{"kind":"PartialObjectMetadataList","apiVersion":"` + api.MetaGroupName + "/" + version + `","metadata":`)
	b.Write(meta)
	b.WriteString(`,"items":[`)
	for i, r := range lr.items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(partialObjectJSON(version, r.json()))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// listMetaOf is the metadata a list response carries (L1, K15).
func listMetaOf(lr listResult) api.ListMeta {
	return api.ListMeta{ResourceVersion: strconv.FormatUint(lr.rv, 10), Continue: lr.cont, RemainingItemCount: lr.remaining}
}
