package job

import (
	"sort"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The pod failure back-off of job_controller.go: DefaultJobPodFailureBackOff doubles with
// each failure since the last success, up to MaxJobPodFailureBackOff.
const (
	DefaultJobPodFailureBackOff = 10 * time.Second
	MaxJobPodFailureBackOff     = 360 * time.Second
)

// backoffRecord mirrors backoffRecord: the failures since the last success and when the
// last one happened.
type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// backoffStore mirrors backoffStore: one record per Job key, kept in memory (so a restarted
// controller starts without back-off, as upstream's does).
type backoffStore struct {
	mu sync.Mutex
	m  map[string]backoffRecord
}

func newBackoffStore() *backoffStore { return &backoffStore{m: map[string]backoffRecord{}} }

func (s *backoffStore) updateBackoffRecord(r backoffRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[r.key] = r
}

func (s *backoffStore) removeBackoffRecord(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}

// newBackoffRecord mirrors newBackoffRecord: the stored record moved on by the pods that
// finished since. A success resets the count; failures after the last success count.
func (s *backoffStore) newBackoffRecord(key string, succeeded, failed []*api.Unstructured) backoffRecord {
	s.mu.Lock()
	r, ok := s.m[key]
	s.mu.Unlock()
	if !ok {
		r = backoffRecord{key: key}
	}
	sortByFinishedTime(succeeded)
	sortByFinishedTime(failed)
	if len(succeeded) == 0 {
		if len(failed) == 0 {
			return r
		}
		r.failuresAfterLastSuccess += int32(len(failed))
		t := getFinishedTime(failed[len(failed)-1])
		r.lastFailureTime = &t
		return r
	}
	r.failuresAfterLastSuccess, r.lastFailureTime = 0, nil
	lastSuccess := getFinishedTime(succeeded[len(succeeded)-1])
	for i := len(failed) - 1; i >= 0; i-- {
		t := getFinishedTime(failed[i])
		if !t.After(lastSuccess) {
			break
		}
		if r.lastFailureTime == nil {
			r.lastFailureTime = &t
		}
		r.failuresAfterLastSuccess++
	}
	return r
}

func sortByFinishedTime(pods []*api.Unstructured) {
	sort.SliceStable(pods, func(i, j int) bool { return getFinishedTime(pods[i]).Before(getFinishedTime(pods[j])) })
}

// getFinishedTime mirrors getFinishedTime: the last container's finishedAt, else when Ready
// turned False, else the deletion time less its grace period, else the creation time.
func getFinishedTime(p *api.Unstructured) time.Time {
	if t, ok := finishTimeFromContainers(p); ok {
		return t
	}
	for _, c := range conditionList(p) {
		if c["type"] == "Ready" && c["status"] == "False" {
			if t, ok := parseTime(c["lastTransitionTime"]); ok {
				return t
			}
		}
	}
	if d := p.GetDeletionTimestamp(); d != nil {
		var grace int64
		if g := p.GetDeletionGracePeriodSeconds(); g != nil {
			grace = *g
		}
		return d.Add(-time.Duration(grace) * time.Second)
	}
	return p.GetCreationTimestamp().Time
}

// finishTimeFromContainers is the latest finishedAt, when every container has one.
func finishTimeFromContainers(p *api.Unstructured) (time.Time, bool) {
	var latest time.Time
	found := false
	for _, cs := range containerStatuses(p, "containerStatuses") {
		v, _ := app.Nested(cs, "state", "terminated", "finishedAt")
		t, ok := parseTime(v)
		if !ok {
			return time.Time{}, false
		}
		if !found || latest.Before(t) {
			latest, found = t, true
		}
	}
	return latest, found
}

func conditionList(p *api.Unstructured) []map[string]any {
	return containerStatuses(p, "conditions")
}

// getRemainingTime mirrors getRemainingTime: how long pod creation must still wait.
func (r backoffRecord) getRemainingTime(now time.Time, base, maxDelay time.Duration) time.Duration {
	if r.failuresAfterLastSuccess == 0 || r.lastFailureTime == nil {
		return 0
	}
	d := base
	for i := 1; i < int(r.failuresAfterLastSuccess); i++ {
		d *= 2
		if d >= maxDelay {
			d = maxDelay
			break
		}
	}
	elapsed := now.Sub(*r.lastFailureTime)
	if d < elapsed {
		return 0
	}
	return d - elapsed
}
