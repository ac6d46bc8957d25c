package printers

import (
	"bytes"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/jsonpath"
)

// Column is one additionalPrinterColumn of a CustomResourceDefinition version.
type Column struct {
	Name, Type, Format, Description string
	Priority                        int32
	JSONPath                        string // any JSONPath: .spec.replicas, .status.conditions[?(@.type=="Ready")].status
}

// ForColumns is the table convertor of a custom resource version. It mirrors
// tableconvertor.New in k8s.io/apiextensions-apiserver pkg/registry/customresource: a Name
// column, then the declared columns, each a JSONPath evaluated with missing keys allowed
// (package jsonpath); without any, a single Age column (serveDefaultColumnsIfEmpty). A
// column whose path does not parse ends the table there: it and the columns after it are
// left out, as the real convertor returns what it had built when it fails.
func ForColumns(cols []Column) *Printer {
	defaultAge := len(cols) == 0
	if defaultAge {
		cols = []Column{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"}}
	}
	specs := []col{nameColumn()}
	var paths []*jsonpath.JSONPath
	var kept []Column
	for _, c := range cols {
		p := jsonpath.New(c.Name).AllowMissingKeys(true)
		if err := p.Parse("{" + c.JSONPath + "}"); err != nil {
			break
		}
		desc := text(c.Description)
		switch {
		case defaultAge:
			desc = doc(objectMeta, "creationTimestamp")
		case c.Description == "":
			desc = text("Custom resource definition column (in JSONPath format): " + c.JSONPath)
		}
		specs = append(specs, col{
			def:  api.TableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Priority: c.Priority},
			desc: desc,
		})
		paths = append(paths, p)
		kept = append(kept, c)
	}
	return &Printer{
		specs: specs,
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			cells := make([]any, 1, 1+len(kept))
			cells[0] = o.name()
			for i, c := range kept {
				cells = append(cells, columnCell(paths[i], c.Type, map[string]any(o), now))
			}
			return cells, nil
		},
	}
}

// columnCell is one cell, as ConvertToTable makes it: the first value the path finds, a
// string column printed as the JSONPath printer prints it, other types by cellFor; nil
// when the path finds nothing or fails.
func columnCell(p *jsonpath.JSONPath, typ string, obj map[string]any, now time.Time) any {
	results, err := p.FindResults(obj)
	if err != nil || len(results) == 0 || len(results[0]) == 0 {
		return nil
	}
	v := results[0][0]
	if typ == "string" {
		var buf bytes.Buffer
		if err := p.PrintResults(&buf, []any{v}); err != nil {
			return nil
		}
		return buf.String()
	}
	return cellFor(typ, v, now)
}

// createdAtPrinter mirrors the default table convertor of k8s.io/apiserver
// pkg/registry/rest/table.go: Name, and Created At as an RFC 3339 date.
var createdAtPrinter = &Printer{
	specs: []col{
		nameColumn(),
		column("Created At", "date", doc(objectMeta, "creationTimestamp")),
	},
	cells: func(o object, _ time.Time) ([]any, []api.TableRowCondition) {
		return []any{o.name(), o.str("metadata", "creationTimestamp")}, nil
	},
}

// cellFor mirrors cellForJSONValue: the value as the column's type, or nil (an empty
// cell) when it is missing or of another type.
func cellFor(typ string, v any, now time.Time) any {
	if v == nil {
		return nil
	}
	switch typ {
	case "integer":
		switch n := v.(type) {
		case int64:
			return n
		case float64:
			return int64(n)
		}
	case "number":
		switch n := v.(type) {
		case int64:
			return float64(n)
		case float64:
			return n
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
	case "string":
		if s, ok := v.(string); ok {
			return s
		}
	case "date":
		if s, ok := v.(string); ok {
			if s == "" || s == "null" {
				return "<unknown>"
			}
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return "<invalid>"
			}
			return since(t, true, now)
		}
	}
	return nil
}
