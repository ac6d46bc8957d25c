package deployment

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// rollback mirrors rollback: the extensions/v1beta1 rollback request, an annotation naming
// a revision (0: the previous one). kubectl rollout undo on apps/v1 does not use it: it
// patches the template from the old ReplicaSet itself, and the controller then rolls as for
// any template change (the old ReplicaSet becomes the new one and takes a new revision).
func (c *Controller) rollback(ctx context.Context, d *deployment, rsList []*api.Unstructured) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return err
	}
	all := append(append([]*api.Unstructured(nil), oldRSs...), newRS)
	to := *getRollbackTo(d)
	if to == 0 {
		if to = LastRevision(all); to == 0 {
			c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeWarning, RollbackRevisionNotFound, "%s", "Unable to find last revision.")
			return c.updateDeploymentAndClearRollbackTo(ctx, d)
		}
	}
	for _, rs := range all {
		if v, err := Revision(rs); err != nil || v != to {
			continue
		}
		done := false
		if !EqualIgnoreHash(d.template(), rsTemplate(rs)) {
			setFromReplicaSetTemplate(d, rsTemplate(rs))
			setDeploymentAnnotationsTo(d, rs)
			done = true
		} else {
			c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeWarning, RollbackTemplateUnchanged, "The rollback revision contains the same template as current deployment %q", d.u.GetName())
		}
		err := c.updateDeploymentAndClearRollbackTo(ctx, d)
		if done && err == nil {
			c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeNormal, RollbackDone, "Rolled back deployment %q to revision %d", d.u.GetName(), to)
		}
		return err
	}
	c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeWarning, RollbackRevisionNotFound, "%s", "Unable to find the revision to rollback to.")
	return c.updateDeploymentAndClearRollbackTo(ctx, d)
}

// setFromReplicaSetTemplate mirrors SetFromReplicaSetTemplate: the ReplicaSet's template
// without its pod-template-hash label.
func setFromReplicaSetTemplate(d *deployment, tmpl map[string]any) {
	app.NestedMap(d.u.Object, "spec")["template"] = withoutHash(tmpl)
}

func (c *Controller) updateDeploymentAndClearRollbackTo(ctx context.Context, d *deployment) error {
	a := d.u.GetAnnotations()
	delete(a, DeprecatedRollbackTo)
	d.u.SetAnnotations(a)
	_, err := c.cc.Client.Resource(app.Deployments).Namespace(d.u.GetNamespace()).Update(ctx, d.u, api.UpdateOptions{})
	trace.Hop(c.cc.Logger, "deployment", "update", d.key(), d.u.GetResourceVersion(), slog.String("cause", "rollback"), slog.Any("err", err))
	return err
}

// getRollbackTo mirrors getRollbackTo: the revision the annotation asks for, nil if none.
func getRollbackTo(d *deployment) *int64 {
	v := d.u.GetAnnotations()[DeprecatedRollbackTo]
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}
