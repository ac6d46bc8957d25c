// Package deployment is the simulated cluster's Deployment controller. It mirrors
// k8s.io/kubernetes pkg/controller/deployment (deployment_controller.go, sync.go,
// rolling.go, recreate.go, rollback.go, progress.go and util/deployment_util.go) and is
// written only with this project's informers, workqueue and controller.Loop.
//
// A Deployment owns one ReplicaSet per pod template it has had. The current template's is
// the new ReplicaSet, named "<deployment>-<hash>" and labelled pod-template-hash=<hash>
// (ComputeHash: FNV-32a of the template's JSON, written in upstream's alphabet); the others
// are old. Each carries deployment.kubernetes.io/revision (one more than the highest old
// one when it becomes new), desired-replicas and max-replicas, which is what kubectl
// rollout history and undo read.
//
// One sync (syncDeployment) claims the ReplicaSets, then: a Deployment being deleted only
// reports status; a paused one only scales (Progressing Unknown, DeploymentPaused); a
// rollback annotation rolls back; a change of spec.replicas is a scaling event, shared in
// proportion among the active ReplicaSets; otherwise the strategy rolls: RollingUpdate
// scales the new ReplicaSet up within maxSurge and old ones down within maxUnavailable,
// Recreate scales every old one to 0 and waits for their pods to go before the new one
// grows. Status follows (observedGeneration, replicas, updatedReplicas, readyReplicas,
// availableReplicas, unavailableReplicas, the Available and Progressing conditions), old
// ReplicaSets beyond revisionHistoryLimit are deleted once the rollout is complete, and a
// rollout that makes no progress for progressDeadlineSeconds gets ProgressDeadlineExceeded.
package deployment
