// Package ch14 is chapter 14, "The cluster's own controllers": the simulated cluster runs
// controllers written only with this project's informers, listers and workqueue, as
// kube-controller-manager runs its own beside kube-apiserver. The chapter rebuilds the heart
// of one of them, the ReplicaSet controller of k8s.io/kubernetes
// pkg/controller/replicaset/replica_set.go (manageReplicas, slowStartBatch, getPodsToDelete)
// with the expectations of pkg/controller/controller_utils.go, small enough to read in one
// sitting; lab 14 has the learner write it.
//
// The contract:
//
//  1. NewReplicaSetController is an app.InitFunc: it asks the shared factory for the
//     ReplicaSet and pod informers and registers its handlers; the caller starts the factory,
//     waits for the caches, then calls Run.
//  2. A sync reads only the caches. It creates or deletes pods only when the ReplicaSet's
//     expectations are satisfied (every write of the last sync seen in the cache, or
//     ExpectationsTimeout passed), at most BurstReplicas per sync, creations in slow-start
//     batches of 1, 2, 4, … that stop at the first failure.
//  3. Every write is a hop of component "replicaset" with a cause attribute; so are the
//     start of each sync and the expectations it records.
package ch14
