package flowcontrol

import (
	"encoding/json"
	"fmt"
)

// The internal (unversioned) flowcontrol types of pkg/apis/flowcontrol, field for field and
// without JSON tags: the real validation prints a bad spec as encoding/json writes these,
// Go field names and every member included. Decoding the served JSON into them works
// because encoding/json matches member names without regard to case.

type internalFlowSchemaSpec struct {
	PriorityLevelConfiguration struct{ Name string }
	MatchingPrecedence         int32
	DistinguisherMethod        *internalDistinguisher
	Rules                      []struct {
		Subjects []struct {
			Kind           string
			User           *struct{ Name string }
			Group          *struct{ Name string }
			ServiceAccount *struct{ Namespace, Name string }
		}
		ResourceRules []struct {
			Verbs, APIGroups, Resources []string
			ClusterScope                bool
			Namespaces                  []string
		}
		NonResourceRules []struct{ Verbs, NonResourceURLs []string }
	}
}

type internalDistinguisher struct{ Type string }

type internalPriorityLevelSpec struct {
	Type    string
	Limited *struct {
		NominalConcurrencyShares int32
		LimitResponse            struct {
			Type    string
			Queuing *struct{ Queues, HandSize, QueueLengthLimit int32 }
		}
		LendablePercent       *int32
		BorrowingLimitPercent *int32
	}
	Exempt *struct{ NominalConcurrencyShares, LendablePercent *int32 }
}

// internalText prints v, a member of the served JSON, as the real messages print its
// internal counterpart into (a pointer to one of the types above).
func internalText(v any, into any) string {
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err == nil {
		b, err = json.Marshal(into)
	}
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
