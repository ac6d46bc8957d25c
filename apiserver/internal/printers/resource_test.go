package printers

import "testing"

// TestCh01_Printers_ResourceClaim checks printResourceClaim's state: pending, allocated,
// reserved, deleted.
func TestCh01_Printers_ResourceClaim(t *testing.T) {
	assertColumns(t, resourceClaimPrinter, "Name|string|name|0", "State|string||0", "Age|string||0")
	deleted := `"deletionTimestamp":"` + created + `"`
	runCellCases(t, resourceClaimPrinter, []cellCase{
		{name: "pending", json: withMeta("c", `,"spec":{},"status":{}`), want: []any{"c", "pending", "5m"}},
		{name: "allocated", json: withMeta("c", `,"status":{"allocation":{"devices":{}}}`), want: []any{"c", "allocated", "5m"}},
		{name: "reserved", json: withMeta("c", `,"status":{"allocation":{},"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}`),
			want: []any{"c", "allocated,reserved", "5m"}},
		{name: "deleted", json: `{"metadata":{"name":"c","creationTimestamp":"` + created + `",` + deleted + `}}`, want: []any{"c", "deleted", "5m"}},
		{name: "deleted while reserved", json: `{"metadata":{"name":"c","creationTimestamp":"` + created + `",` + deleted + `},
			"status":{"allocation":{},"reservedFor":[{}]}}`, want: []any{"c", "deleted,allocated,reserved", "5m"}},
	})
}

// TestCh01_Printers_ResourceSlice checks printResourceSlice: node, driver and pool.
func TestCh01_Printers_ResourceSlice(t *testing.T) {
	assertColumns(t, resourceSlicePrinter, "Name|string|name|0", "Node|string||0", "Driver|string||0", "Pool|string||0", "Age|string||0")
	runCellCases(t, resourceSlicePrinter, []cellCase{
		{name: "node-local", json: withMeta("s", `,"spec":{"nodeName":"w1","driver":"gpu.example.com","pool":{"name":"w1"}}`),
			want: []any{"s", "w1", "gpu.example.com", "w1", "5m"}},
		{name: "all nodes", json: withMeta("s", `,"spec":{"allNodes":true,"driver":"d","pool":{"name":"p"}}`), want: []any{"s", "", "d", "p", "5m"}},
	})
}

// TestCh01_Printers_DeviceClassAndTemplate checks printDeviceClass and
// printResourceClaimTemplate: the name and the age.
func TestCh01_Printers_DeviceClassAndTemplate(t *testing.T) {
	for _, p := range []*Printer{deviceClassPrinter, resourceClaimTemplatePrinter} {
		assertColumns(t, p, "Name|string|name|0", "Age|string||0")
		runCellCases(t, p, []cellCase{{name: "any", json: withMeta("x", `,"spec":{}`), want: []any{"x", "5m"}}})
	}
}
