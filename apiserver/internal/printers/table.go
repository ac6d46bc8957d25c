package printers

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Row is one object to print.
type Row struct {
	// Object is the decoded object. The printer reads the cells from its generic tree: an
	// *api.Unstructured is read as it is, any other object through JSON.
	Object api.Object
	// JSON is the object's JSON, which the row carries as its object when asked to, and
	// which the cells are read from when Object is not an *api.Unstructured.
	JSON []byte
}

// tree returns the generic tree of the row's object: Unstructured.Object, else JSON decoded
// with numbers as int64 or float64.
func (r Row) tree() (object, bool) {
	if u, ok := r.Object.(*api.Unstructured); ok && u != nil && u.Object != nil {
		return u.Object, true
	}
	var u api.Unstructured
	if err := u.UnmarshalJSON(r.JSON); err != nil || u.Object == nil {
		return nil, false
	}
	return u.Object, true
}

// TableConverter turns the objects of one request into Table JSON. It mirrors asTable in
// k8s.io/apiserver pkg/endpoints/handlers/response.go together with the registry's
// TableConvertor.
type TableConverter struct {
	// Printer is the resource's layout (For).
	Printer *Printer
	// Version is the meta.k8s.io version of the Table: "v1" or "v1beta1".
	Version string
	// Include is the includeObject policy: "", IncludeNone, IncludeMetadata or IncludeObject.
	Include string
	// Now is the time the AGE column counts from.
	Now time.Time
}

// Table encodes a Table of rows with the given list metadata. Without headers,
// columnDefinitions is null, as in every watch event after the first (docs/behaviour/wire.md W21).
func (c *TableConverter) Table(meta api.ListMeta, rows []Row, headers bool) []byte {
	t := api.Table{
		TypeMeta: api.TypeMeta{Kind: "Table", APIVersion: api.MetaGroupName + "/" + c.Version},
		ListMeta: meta,
		Rows:     make([]api.TableRow, 0, len(rows)),
	}
	if headers {
		t.ColumnDefinitions = c.Printer.columns()
	}
	for _, src := range rows {
		o, ok := src.tree()
		if !ok {
			continue // every stored object is a JSON object; skip rather than panic
		}
		cells, conds := c.Printer.cells(o, c.Now)
		row := api.TableRow{Cells: cells, Conditions: conds}
		end, _ := o.annotation(api.InitialEventsAnnotationKey)
		switch {
		case c.Include == IncludeObject:
			row.Object = src.JSON
		case c.Include == IncludeMetadata, c.Include == "", end == "true":
			row.Object = PartialObjectJSON(c.Version, src.JSON)
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

// PartialObjectJSON is an object reduced to a PartialObjectMetadata of meta.k8s.io version:
// kind and apiVersion of meta.k8s.io and the object's metadata, byte for byte. It mirrors
// meta.AsPartialObjectMetadata in k8s.io/apimachinery.
func PartialObjectJSON(version string, objJSON []byte) []byte {
	meta := objectMetadata(objJSON)
	var b bytes.Buffer
	b.Grow(len(meta) + 80)
	b.WriteString(`{"kind":"PartialObjectMetadata","apiVersion":"` + api.MetaGroupName + "/" + version + `","metadata":`)
	b.Write(meta)
	b.WriteByte('}')
	return b.Bytes()
}

// PartialObjectMetadataList encodes a PartialObjectMetadataList of meta.k8s.io version with
// the list metadata meta, one item per object JSON. It mirrors asPartialObjectMetadataList in
// k8s.io/apiserver pkg/endpoints/handlers/response.go.
func PartialObjectMetadataList(version string, meta api.ListMeta, objects [][]byte) []byte {
	metaJSON, _ := json.Marshal(meta)
	var b bytes.Buffer
	b.WriteString(`{"kind":"PartialObjectMetadataList","apiVersion":"` + api.MetaGroupName + "/" + version + `","metadata":`)
	b.Write(metaJSON)
	b.WriteString(`,"items":[`)
	for i, obj := range objects {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(PartialObjectJSON(version, obj))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}
