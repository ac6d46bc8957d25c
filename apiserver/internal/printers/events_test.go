package printers

import (
	"testing"
	"time"
)

var eventColumnSpecs = []string{
	"Last Seen|string||0", "Type|string||0", "Reason|string||0", "Object|string||0", "Subobject|string||1",
	"Source|string||1", "Message|string||0", "First Seen|string||1", "Count|string||1", "Name|string|name|1",
}

// TestCh01_Printers_Event checks printEvent on core/v1 Events: last and first seen with
// their fallbacks, series, the object as kind/name, and the source.
func TestCh01_Printers_Event(t *testing.T) {
	assertColumns(t, eventPrinter, eventColumnSpecs...)
	runCellCases(t, eventPrinter, []cellCase{
		{
			name: "repeated kubelet event",
			json: withMeta("web.17f", `,"type":"Warning","reason":"BackOff","message":"  Back-off restarting failed container\n",
				"involvedObject":{"kind":"Pod","name":"web","namespace":"default","fieldPath":"spec.containers{app}"},
				"source":{"component":"kubelet","host":"node-1"},
				"firstTimestamp":"`+ago(5*time.Minute)+`","lastTimestamp":"`+ago(3*time.Minute)+`","count":3`),
			want: []any{"3m", "Warning", "BackOff", "pod/web", "spec.containers{app}", "kubelet, node-1",
				"Back-off restarting failed container", "5m", int64(3), "web.17f"},
		},
		{
			name: "new-style event: eventTime, series and the reporting controller",
			json: withMeta("sched.1", `,"type":"Normal","reason":"Scheduled","message":"assigned","reportingComponent":"x",
				"involvedObject":{"kind":"Pod","name":"web"},"reportingController":"default-scheduler",
				"eventTime":"2026-01-02T03:05:05.000000Z","series":{"count":7,"lastObservedTime":"`+ago(time.Minute)+`"}`),
			want: []any{"60s", "Normal", "Scheduled", "pod/web", "", "default-scheduler", "assigned", "5m", int64(7), "sched.1"},
		},
		{
			name: "no timestamps, no count, an object without a name",
			json: withMeta("n", `,"type":"Normal","reason":"Starting","involvedObject":{"kind":"Node"},"reportingInstance":"node-9"`),
			want: []any{"<unknown>", "Normal", "Starting", "node", "", ", node-9", "", "<unknown>", int64(1), "n"},
		},
		{
			name: "last timestamp missing falls back to first",
			json: withMeta("f", `,"involvedObject":{"kind":"Deployment","name":"web"},"source":{"component":"deployment-controller"},
				"firstTimestamp":"`+ago(2*time.Hour)+`","count":1`),
			want: []any{"120m", "", "", "deployment/web", "", "deployment-controller", "", "120m", int64(1), "f"},
		},
	})
}

// TestCh01_Printers_EventsV1 checks that an events.k8s.io/v1 Event prints as its core
// conversion would: regarding, note, and the deprecated members.
func TestCh01_Printers_EventsV1(t *testing.T) {
	assertColumns(t, eventsV1Printer, eventColumnSpecs...)
	runCellCases(t, eventsV1Printer, []cellCase{
		{
			name: "converted members",
			json: withMeta("web.18a", `,"type":"Warning","reason":"Unhealthy","note":"Readiness probe failed ","action":"Probe",
				"regarding":{"kind":"Pod","name":"web","fieldPath":"spec.containers{app}"},
				"reportingController":"kubelet","reportingInstance":"node-1",
				"deprecatedSource":{"component":"kubelet"},"deprecatedFirstTimestamp":"`+ago(5*time.Minute)+`",
				"deprecatedLastTimestamp":"`+ago(90*time.Second)+`","deprecatedCount":12,"eventTime":null`),
			want: []any{"90s", "Warning", "Unhealthy", "pod/web", "spec.containers{app}", "kubelet, node-1",
				"Readiness probe failed", "5m", int64(12), "web.18a"},
		},
		{
			name: "a series event",
			json: withMeta("s", `,"type":"Normal","reason":"Pulled","note":"ok","regarding":{"kind":"Pod","name":"p"},
				"reportingController":"kubelet","eventTime":"`+ago(4*time.Minute)+`",
				"series":{"count":2,"lastObservedTime":"`+ago(30*time.Second)+`"}`),
			want: []any{"30s", "Normal", "Pulled", "pod/p", "", "kubelet", "ok", "4m", int64(2), "s"},
		},
		{
			name: "core member names are not read",
			json: withMeta("c", `,"message":"core","involvedObject":{"kind":"Pod","name":"p"},"count":5`),
			want: []any{"<unknown>", "", "", "", "", "", "", "<unknown>", int64(1), "c"},
		},
	})
}
