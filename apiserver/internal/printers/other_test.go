package printers

import "testing"

// TestCh01_Printers_Lease checks printLease.
func TestCh01_Printers_Lease(t *testing.T) {
	assertColumns(t, leasePrinter, "Name|string|name|0", "Holder|string||0", "Age|string||0")
	runCellCases(t, leasePrinter, []cellCase{
		{
			name: "held",
			json: withMeta("kube-scheduler", `,"spec":{"holderIdentity":"cp-1_6b1f","leaseDurationSeconds":15,"renewTime":"2026-01-02T03:10:00.000000Z"}`),
			want: []any{"kube-scheduler", "cp-1_6b1f", "5m"},
		},
		{name: "free", json: withMeta("free", `,"spec":{}`), want: []any{"free", "", "5m"}},
	})
}

// TestCh01_Printers_EndpointSlice checks printEndpointSlice: ports by number, name or
// "*", the first three addresses, and "<unset>" for none.
func TestCh01_Printers_EndpointSlice(t *testing.T) {
	assertColumns(t, endpointSlicePrinter,
		"Name|string|name|0", "AddressType|string||0", "Ports|string||0", "Endpoints|string||0", "Age|string||0")
	runCellCases(t, endpointSlicePrinter, []cellCase{
		{
			name: "two endpoints",
			json: withMeta("web-abc", `,"addressType":"IPv4","ports":[{"name":"http","port":8080,"protocol":"TCP"}],
				"endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true}},{"addresses":["10.0.0.2"]}]`),
			want: []any{"web-abc", "IPv4", "8080", "10.0.0.1,10.0.0.2", "5m"},
		},
		{
			name: "more than three of each",
			json: withMeta("big", `,"addressType":"IPv6","ports":[{"port":1},{"name":"named"},{},{"port":4},{"port":5}],
				"endpoints":[{"addresses":["fd00::1","fd00::2"]},{"addresses":["fd00::3"]},{"addresses":["fd00::4"]}]`),
			want: []any{"big", "IPv6", "1,named,* + 2 more...", "fd00::1,fd00::2,fd00::3 + 1 more...", "5m"},
		},
		{
			name: "empty",
			json: withMeta("empty", `,"addressType":"FQDN","ports":null,"endpoints":[]`),
			want: []any{"empty", "FQDN", "<unset>", "<unset>", "5m"},
		},
	})
}
