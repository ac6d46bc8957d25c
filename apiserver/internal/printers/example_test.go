package printers_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
)

// A Deployment stored as generic JSON prints as kubectl get deploy -o wide shows it.
func ExampleTableConverter_deployment() {
	var deploy api.Unstructured
	_ = deploy.UnmarshalJSON([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
		"metadata":{"name":"web","namespace":"default","creationTimestamp":"2026-01-02T03:00:00Z"},
		"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
			"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}},
		"status":{"replicas":3,"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}}`))
	objJSON, _ := deploy.MarshalJSON()

	conv := &printers.TableConverter{
		Printer: printers.For("apps", "Deployment", true),
		Version: "v1",
		Include: printers.IncludeNone,
		Now:     time.Date(2026, 1, 2, 3, 45, 0, 0, time.UTC),
	}
	var table api.Table
	_ = json.Unmarshal(conv.Table(api.ListMeta{ResourceVersion: "42"}, []printers.Row{{Object: &deploy, JSON: objJSON}}, true), &table)
	var columns []string
	for _, c := range table.ColumnDefinitions {
		columns = append(columns, fmt.Sprintf("%s(%d)", c.Name, c.Priority))
	}
	fmt.Println(strings.Join(columns, " "))
	fmt.Println(table.Rows[0].Cells...)
	// Output:
	// Name(0) Ready(0) Up-to-date(0) Available(0) Age(0) Containers(1) Images(1) Selector(1)
	// web 2/3 3 2 45m nginx nginx:1.27 app=web
}
