package printers

import (
	"fmt"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The HorizontalPodAutoscaler printer, the same at both versions: it reads the stored
// autoscaling/v2 object, as the real one reads the internal version.
var hpaPrinter = &Printer{
	specs: []col{
		nameColumn(),
		column("Reference", "string", doc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "scaleTargetRef")),
		column("Targets", "string", doc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "metrics")),
		column("MinPods", "string", doc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "minReplicas")),
		column("MaxPods", "string", doc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "maxReplicas")),
		column("Replicas", "string", doc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus", "currentReplicas")),
		ageColumn(),
	},
	// printHorizontalPodAutoscaler: MaxPods and Replicas are numbers in string columns.
	cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
		spec := o.obj("spec")
		minPods := "<unset>"
		if n, ok := spec.integer("minReplicas"); ok {
			minPods = fmt.Sprint(n)
		}
		ref := spec.str("scaleTargetRef", "kind") + "/" + spec.str("scaleTargetRef", "name")
		return []any{o.name(), ref, hpaMetrics(spec.objects("metrics"), o.objects("status", "currentMetrics")), minPods,
			spec.int("maxReplicas"), o.int("status", "currentReplicas"), age(o, now)}, nil
	},
}

// maxHPAMetrics is how many metrics the Targets cell shows.
const maxHPAMetrics = 2

// hpaMetrics mirrors formatHPAMetrics: each metric as current/target, the status read at the
// same index as the spec; "<unknown>" for a current value not reported yet.
func hpaMetrics(specs, statuses []object) string {
	if len(specs) == 0 {
		return "<none>"
	}
	status := func(i int, member string) object {
		if i < len(statuses) {
			return statuses[i].obj(member)
		}
		return nil
	}
	var list []string
	for i, spec := range specs {
		switch typ := spec.str("type"); typ {
		case "External", "Object":
			member := strings.ToLower(typ)
			src, st := spec.obj(member), status(i, member)
			if src.has("target", "averageValue") {
				current := "<unknown>"
				if st != nil && st.has("current", "averageValue") {
					current = qty(st, "current", "averageValue")
				}
				list = append(list, current+"/"+qty(src, "target", "averageValue")+" (avg)")
			} else {
				current := "<unknown>"
				if st != nil {
					current = qty(st, "current", "value")
				}
				list = append(list, current+"/"+qty(src, "target", "value"))
			}
		case "Pods":
			current := "<unknown>"
			if st := status(i, "pods"); st != nil {
				current = qty(st, "current", "averageValue")
			}
			list = append(list, current+"/"+qty(spec.obj("pods"), "target", "averageValue"))
		case "Resource", "ContainerResource":
			member := "resource"
			if typ == "ContainerResource" {
				member = "containerResource"
			}
			src, st := spec.obj(member), status(i, member)
			if src.has("target", "averageValue") {
				current := "<unknown>"
				if st != nil {
					current = qty(st, "current", "averageValue")
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", src.str("name"), current, qty(src, "target", "averageValue")))
				break
			}
			current, target := "<unknown>", "<auto>"
			if n, ok := st.integer("current", "averageUtilization"); st != nil && ok {
				current = fmt.Sprintf("%d%%", n)
			}
			if n, ok := src.integer("target", "averageUtilization"); ok {
				target = fmt.Sprintf("%d%%", n)
			}
			list = append(list, fmt.Sprintf("%s: %s/%s", src.str("name"), current, target))
		default:
			list = append(list, "<unknown type>")
		}
	}
	if len(list) > maxHPAMetrics {
		return strings.Join(list[:maxHPAMetrics], ", ") + fmt.Sprintf(" + %d more...", len(list)-maxHPAMetrics)
	}
	return strings.Join(list, ", ")
}

// qty prints a quantity as Quantity.String does, "<nil>" for an unset pointer.
func qty(o object, path ...string) string {
	if q, ok := o.quantity(path...); ok {
		return q
	}
	return "<nil>"
}
