// Package printers is server-side printing (wire spec K7–K9, K15, W21, E43): the
// TableConvertor of each registry (k8s.io/kubernetes pkg/printers/internalversion for pods,
// configmaps and namespaces; the default convertor of k8s.io/apiserver
// pkg/registry/rest/table.go for everything else) and asTable in k8s.io/apiserver
// pkg/endpoints/handlers/response.go, which decides what each row's object is.
//
// The contract:
//
//  1. A Table has the columns of kubectl get: pods NAME READY STATUS RESTARTS AGE (+ IP,
//     NODE, NOMINATED NODE, READINESS GATES at priority 1), configmaps NAME DATA AGE,
//     namespaces NAME STATUS AGE, anything else NAME AGE; one cell per column.
//  2. A Table carries the ListMeta its caller gives: a list's RV, continue and
//     remainingItemCount, or a single object's RV.
//  3. Row objects follow includeObject: PartialObjectMetadata by default and for Metadata,
//     the object for Object, nothing for None, except that the initial-events-end bookmark
//     keeps its metadata; another value is 400 (E43).
//  4. A watch sends each event as a one-row Table whose columnDefinitions come with the
//     first event only (W21).
//  5. There are no container statuses: READY counts every container ready when the pod's
//     Ready condition is True and none otherwise, and RESTARTS is 0. AGE reads as kubectl's.
//  6. Deviation: a kind without a printer gets NAME AGE, as a custom resource without
//     additionalPrinterColumns does, rather than the real default's Name and Created At.
package printers
