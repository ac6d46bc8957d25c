package podautoscaler

import (
	"math"
	"sync"
	"time"
)

// The controller's defaults (kube-controller-manager flags and the v2 behavior defaults).
const (
	downscaleStabilisationWindow = 5 * time.Minute // --horizontal-pod-autoscaler-downscale-stabilization
	scaleUpLimitFactor           = 2.0
	scaleUpLimitMinimum          = 4.0
)

type timestampedRecommendation struct {
	recommendation int32
	at             time.Time
}

type timestampedScaleEvent struct {
	change int32
	at     time.Time
}

// history is what the controller remembers between syncs of each HPA: its recent
// recommendations (for stabilisation) and scale events (for the rate policies).
type history struct {
	mu              sync.Mutex
	recommendations map[string][]timestampedRecommendation
	scaleUp         map[string][]timestampedScaleEvent
	scaleDown       map[string][]timestampedScaleEvent
}

func newHistory() *history {
	return &history{recommendations: map[string][]timestampedRecommendation{},
		scaleUp: map[string][]timestampedScaleEvent{}, scaleDown: map[string][]timestampedScaleEvent{}}
}

func (h *history) forget(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.recommendations, key)
	delete(h.scaleUp, key)
	delete(h.scaleDown, key)
}

// recordInitial mirrors recordInitialRecommendation.
func (h *history) recordInitial(key string, current int32, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.recommendations[key] == nil {
		h.recommendations[key] = []timestampedRecommendation{{current, now}}
	}
}

// store replaces the first sample older than the cutoff, or appends.
func (h *history) storeRecommendation(key string, rec int32, now time.Time, old func(time.Time) bool) {
	for i, r := range h.recommendations[key] {
		if old(r.at) {
			h.recommendations[key][i] = timestampedRecommendation{rec, now}
			return
		}
	}
	h.recommendations[key] = append(h.recommendations[key], timestampedRecommendation{rec, now})
}

// stabilize mirrors stabilizeRecommendation: the highest recommendation of the downscale
// window.
func (h *history) stabilize(key string, desired int32, now time.Time) int32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	cutoff := now.Add(-downscaleStabilisationWindow)
	best := desired
	for _, r := range h.recommendations[key] {
		if !r.at.Before(cutoff) && r.recommendation > best {
			best = r.recommendation
		}
	}
	h.storeRecommendation(key, desired, now, func(t time.Time) bool { return t.Before(cutoff) })
	return best
}

// stabilizeWithBehaviors mirrors stabilizeRecommendationWithBehaviors.
func (h *history) stabilizeWithBehaviors(key string, current, desired int32, up, down *scalingRules, now time.Time) (int32, string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	upCutoff := now.Add(-time.Duration(*up.StabilizationWindowSeconds) * time.Second)
	downCutoff := now.Add(-time.Duration(*down.StabilizationWindowSeconds) * time.Second)
	upRec, downRec := desired, desired
	for _, r := range h.recommendations[key] {
		if r.at.After(upCutoff) {
			upRec = min(upRec, r.recommendation)
		}
		if r.at.After(downCutoff) {
			downRec = max(downRec, r.recommendation)
		}
	}
	rec := max(current, upRec)
	rec = min(rec, downRec)
	h.storeRecommendation(key, desired, now, func(t time.Time) bool { return t.Before(upCutoff) && t.Before(downCutoff) })
	if desired >= current {
		return rec, "ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation"
	}
	return rec, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"
}

// convertWithRules mirrors convertDesiredReplicasWithRules (no spec.behavior).
func convertWithRules(current, desired, minR, maxR int32) (int32, string, string) {
	scaleUpLimit := int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
	maxAllowed, reason, msg := maxR, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
	if maxR > scaleUpLimit {
		maxAllowed, reason, msg = scaleUpLimit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
	}
	switch {
	case desired < minR:
		return minR, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
	case desired > maxAllowed:
		return maxAllowed, reason, msg
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// changeInPeriod mirrors getReplicasChangePerPeriod.
func changeInPeriod(period int32, events []timestampedScaleEvent, now time.Time) int32 {
	cutoff := now.Add(-time.Duration(period) * time.Second)
	var n int32
	for _, e := range events {
		if e.at.After(cutoff) {
			n += e.change
		}
	}
	return n
}

// convertWithBehaviorRate mirrors convertDesiredReplicasWithBehaviorRate with
// calculateScaleUpLimitWithScalingRules and calculateScaleDownLimitWithBehaviors.
func (h *history) convertWithBehaviorRate(key string, current, desired, minR, maxR int32, up, down *scalingRules, now time.Time) (int32, string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	limit := func(rules *scalingRules, scaleUp bool) int32 {
		sel := "Max"
		if rules.SelectPolicy != nil {
			sel = *rules.SelectPolicy
		}
		if sel == "Disabled" {
			return current
		}
		// scaling up, "Max" takes the largest proposal; scaling down, the smallest
		pickMax := (sel != "Min") == scaleUp
		result := int32(math.MinInt32)
		if !pickMax {
			result = math.MaxInt32
		}
		for _, p := range rules.Policies {
			start := current - changeInPeriod(p.PeriodSeconds, h.scaleUp[key], now) + changeInPeriod(p.PeriodSeconds, h.scaleDown[key], now)
			var proposed int32
			switch {
			case p.Type == "Pods" && scaleUp:
				proposed = start + p.Value
			case p.Type == "Percent" && scaleUp:
				proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
			case p.Type == "Pods":
				proposed = start - p.Value
			default:
				proposed = int32(float64(start) * (1 - float64(p.Value)/100))
			}
			if pickMax {
				result = max(result, proposed)
			} else {
				result = min(result, proposed)
			}
		}
		return result
	}
	switch {
	case desired > current:
		upLimit := max(limit(up, true), current)
		maxAllowed, reason, msg := maxR, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
		if maxAllowed > upLimit {
			maxAllowed, reason, msg = upLimit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
		}
		if desired > maxAllowed {
			return maxAllowed, reason, msg
		}
	case desired < current:
		downLimit := min(limit(down, false), current)
		minAllowed, reason, msg := minR, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
		if minAllowed < downLimit {
			minAllowed, reason, msg = downLimit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if desired < minAllowed {
			return minAllowed, reason, msg
		}
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// storeScaleEvent mirrors storeScaleEvent: only HPAs with spec.behavior keep events; an event
// older than the longest policy period is replaced.
func (h *history) storeScaleEvent(key string, b *behavior, prev, next int32, now time.Time) {
	if b == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	events, rules, change := h.scaleDown, b.ScaleDown, prev-next
	if next > prev {
		events, rules, change = h.scaleUp, b.ScaleUp, next-prev
	}
	var longest int32
	for _, p := range rules.Policies {
		longest = max(longest, p.PeriodSeconds)
	}
	cutoff := now.Add(-time.Duration(longest) * time.Second)
	ev := timestampedScaleEvent{change: change, at: now}
	for i, e := range events[key] {
		if e.at.Before(cutoff) {
			events[key][i] = ev
			return
		}
	}
	events[key] = append(events[key], ev)
}

// defaultBehavior fills what SetDefaults_HorizontalPodAutoscalerBehavior and
// maybeInitScaleDownStabilizationWindow fill, for a behavior the server did not default.
func defaultBehavior(b *behavior) {
	i32 := func(v int32) *int32 { return &v }
	maxPolicy := "Max"
	if b.ScaleUp == nil {
		b.ScaleUp = &scalingRules{}
	}
	if b.ScaleUp.StabilizationWindowSeconds == nil {
		b.ScaleUp.StabilizationWindowSeconds = i32(0)
	}
	if b.ScaleUp.SelectPolicy == nil {
		b.ScaleUp.SelectPolicy = &maxPolicy
	}
	if len(b.ScaleUp.Policies) == 0 {
		b.ScaleUp.Policies = []scalingPolicy{{Type: "Pods", Value: 4, PeriodSeconds: 15}, {Type: "Percent", Value: 100, PeriodSeconds: 15}}
	}
	if b.ScaleDown == nil {
		b.ScaleDown = &scalingRules{}
	}
	if b.ScaleDown.StabilizationWindowSeconds == nil {
		b.ScaleDown.StabilizationWindowSeconds = i32(int32(downscaleStabilisationWindow / time.Second))
	}
	if b.ScaleDown.SelectPolicy == nil {
		b.ScaleDown.SelectPolicy = &maxPolicy
	}
	if len(b.ScaleDown.Policies) == 0 {
		b.ScaleDown.Policies = []scalingPolicy{{Type: "Percent", Value: 100, PeriodSeconds: 15}}
	}
}
