package deployment

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// syncRolloutStatus mirrors syncRolloutStatus: the status of calculateStatus plus the
// Progressing condition (NewReplicaSetAvailable when complete, ReplicaSetUpdated while
// progressing, ProgressDeadlineExceeded after progressDeadlineSeconds without progress) and
// the new ReplicaSet's ReplicaFailure.
func (c *Controller) syncRolloutStatus(ctx context.Context, allRSs []*api.Unstructured, newRS *api.Unstructured, d *deployment) error {
	st := c.calculateStatus(allRSs, newRS, d)
	if !d.hasProgressDeadline() {
		st.Conditions = removeCondition(st.Conditions, Progressing)
	}
	cur := getCondition(d.status, Progressing)
	complete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == NewRSAvailableReason
	now := c.now()
	if d.hasProgressDeadline() && !complete {
		name := func(f, g string) string {
			if newRS != nil {
				return fmt.Sprintf(f, newRS.GetName())
			}
			return fmt.Sprintf(g, d.u.GetName())
		}
		switch {
		case d.deploymentComplete(&st):
			msg := name("ReplicaSet %q has successfully progressed.", "Deployment %q has successfully progressed.")
			setCondition(&st, newCondition(Progressing, "True", NewRSAvailableReason, msg, now))
		case d.deploymentProgressing(&st):
			msg := name("ReplicaSet %q is progressing.", "Deployment %q is progressing.")
			cond := newCondition(Progressing, "True", ReplicaSetUpdatedReason, msg, now)
			// progress moves lastUpdateTime, and keeps lastTransitionTime while it stays True
			if cur != nil {
				if cur.Status == "True" {
					cond.LastTransitionTime = cur.LastTransitionTime
				}
				st.Conditions = removeCondition(st.Conditions, Progressing)
			}
			setCondition(&st, cond)
		case d.deploymentTimedOut(&st, now):
			msg := name("ReplicaSet %q has timed out progressing.", "Deployment %q has timed out progressing.")
			setCondition(&st, newCondition(Progressing, "False", TimedOutReason, msg, now))
		}
	}
	if failures := replicaFailures(allRSs, newRS); len(failures) > 0 {
		setCondition(&st, failures[0])
	} else {
		st.Conditions = removeCondition(st.Conditions, ReplicaFailure)
	}
	if reflect.DeepEqual(d.status, st) {
		c.requeueStuckDeployment(d, st)
		return nil
	}
	d.setStatus(st)
	return c.updateStatus(ctx, d, "rollout status")
}

// replicaFailures mirrors getReplicaFailures: the new ReplicaSet's ReplicaFailure first,
// else any old one's.
func replicaFailures(allRSs []*api.Unstructured, newRS *api.Unstructured) []Condition {
	conv := func(rs *api.Unstructured) []Condition {
		var out []Condition
		for _, rc := range rsStatus(rs).Conditions {
			if rc.Type == ReplicaFailure {
				out = append(out, Condition{Type: rc.Type, Status: rc.Status, LastTransitionTime: rc.LastTransitionTime,
					LastUpdateTime: rc.LastTransitionTime, Reason: rc.Reason, Message: rc.Message})
			}
		}
		return out
	}
	if newRS != nil {
		if out := conv(newRS); len(out) > 0 {
			return out
		}
	}
	var out []Condition
	for _, rs := range allRSs {
		if rs != nil {
			out = append(out, conv(rs)...)
		}
	}
	return out
}

// requeueStuckDeployment mirrors requeueStuckDeployment: a rollout with a deadline that
// neither progressed nor finished is looked at again when the deadline passes, since no
// event would wake it.
func (c *Controller) requeueStuckDeployment(d *deployment, st Status) time.Duration {
	cur := getCondition(d.status, Progressing)
	if !d.hasProgressDeadline() || cur == nil {
		return -1
	}
	if d.deploymentComplete(&st) || cur.Reason == TimedOutReason {
		return -1
	}
	from, err := time.Parse(time.RFC3339, cur.LastUpdateTime)
	if err != nil {
		return -1
	}
	after := from.Add(time.Duration(*d.progressDeadlineSeconds) * time.Second).Sub(c.now())
	if after < time.Second {
		c.queue.AddRateLimited(d.key())
		return 0
	}
	c.queue.AddAfter(d.key(), after+time.Second)
	return after
}
