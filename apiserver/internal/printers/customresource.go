package printers

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Column is one additionalPrinterColumn of a CustomResourceDefinition version.
type Column struct {
	Name, Type, Format, Description string
	Priority                        int32
	JSONPath                        string // a dotted path: .spec.replicas, .metadata.creationTimestamp
}

// ParseColumnPath checks a column's jsonPath against the subset we evaluate: a dotted path
// of member names (".spec.x", ".status.y", ".metadata.creationTimestamp"). It returns the
// member names, or an error naming the path.
func ParseColumnPath(p string) ([]string, error) {
	rest, ok := strings.CutPrefix(p, ".")
	if !ok || rest == "" {
		return nil, fmt.Errorf("unrecognized column definition %q", p)
	}
	parts := strings.Split(rest, ".")
	for _, part := range parts {
		if part == "" || strings.ContainsAny(part, "[]*@?()'\" {}") {
			return nil, fmt.Errorf("unrecognized column definition %q: this simulator evaluates dotted member paths only", p)
		}
	}
	return parts, nil
}

// ForColumns is the table convertor of a custom resource version. It mirrors
// tableconvertor.New in k8s.io/apiextensions-apiserver pkg/registry/customresource: a Name
// column, then the declared columns; without any, a single Age column (a date), as
// serveDefaultColumnsIfEmpty gives. Columns whose path ParseColumnPath refuses print empty.
func ForColumns(cols []Column) *Printer {
	if len(cols) == 0 {
		cols = []Column{{Name: "Age", Type: "date", Description: ageDescription, JSONPath: ".metadata.creationTimestamp"}}
	}
	defs := []api.TableColumnDefinition{nameColumn()}
	paths := make([][]string, len(cols))
	for i, c := range cols {
		desc := c.Description
		if desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + c.JSONPath
		}
		defs = append(defs, api.TableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: desc, Priority: c.Priority})
		paths[i], _ = ParseColumnPath(c.JSONPath)
	}
	return &Printer{
		columns: defs,
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			cells := make([]any, 1, 1+len(cols))
			cells[0] = o.name()
			for i, c := range cols {
				var v any
				if paths[i] != nil {
					v = o.get(paths[i]...)
				}
				cells = append(cells, cellFor(c.Type, v, now))
			}
			return cells, nil
		},
	}
}

// createdAtPrinter mirrors the default table convertor of k8s.io/apiserver
// pkg/registry/rest/table.go: Name, and Created At as an RFC 3339 date.
var createdAtPrinter = &Printer{
	columns: []api.TableColumnDefinition{
		nameColumn(),
		{Name: "Created At", Type: "date", Description: "CreationTimestamp is when the server created the object."},
	},
	cells: func(o object, _ time.Time) ([]any, []api.TableRowCondition) {
		return []any{o.name(), o.str("metadata", "creationTimestamp")}, nil
	},
}

// cellFor mirrors cellForJSONValue: the value as the column's type, or nil (an empty
// cell) when it is missing or of another type. A string column prints any value.
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
	case "date":
		if s, ok := v.(string); ok {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return "<invalid>"
			}
			return since(t, true, now)
		}
	case "string":
		switch x := v.(type) {
		case string:
			return x
		case int64:
			return strconv.FormatInt(x, 10)
		case bool, float64:
			return fmt.Sprint(x)
		default:
			b, _ := json.Marshal(x)
			return string(b)
		}
	}
	return nil
}
