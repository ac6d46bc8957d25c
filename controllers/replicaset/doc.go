// Package replicaset is the simulated cluster's ReplicaSet controller. It mirrors
// k8s.io/kubernetes pkg/controller/replicaset and is written only with this project's
// informers, workqueue and controller.Loop.
//
// One sync of a ReplicaSet key (syncReplicaSet):
//
//  1. Read the ReplicaSet from the informer's cache; gone means forget its expectations.
//  2. Ask the expectations (app.Expectations) whether every create and delete of the last
//     sync has come back through the pod informer. If not, this sync only writes status:
//     the cache is behind the controller's own writes, and acting on it would create or
//     delete twice.
//  3. Claim the pods: those it controls and the orphans its selector matches (adopted with
//     a patch that adds its controller reference); controlled pods that no longer match
//     are released (app.RefManager).
//  4. If the expectations are satisfied, manage replicas: too few pods, create the missing
//     ones (at most 500) in slow-start batches of 1, 2, 4, … after ExpectCreations; too
//     many, delete the best candidates (ActivePodsWithRanks: unscheduled, pending, not
//     ready first) after ExpectDeletions. Each create and delete records SuccessfulCreate,
//     SuccessfulDelete or FailedCreate.
//  5. Write status: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (ready
//     for minReadySeconds), terminatingReplicas, observedGeneration, and the ReplicaFailure
//     condition while creates or deletes fail.
//
// The pod handlers feed the expectations: an added pod with a controller reference is an
// observed create; a pod with a deletionTimestamp, or a deleted pod, an observed delete.
package replicaset
