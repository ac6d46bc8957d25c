package storage

import (
	"strconv"

	"github.com/informer-lab/informer-lab/api"
)

// ObjectSize estimates the bytes obj takes, as its JSON would: the unit of the history's and
// the store's byte bounds. etcd counts the bytes it stores; a walk of the tree costs what one
// encoding would, and every write is followed by one anyway (the watchers').
func ObjectSize(obj *api.Unstructured) int {
	if obj == nil {
		return 0
	}
	return valueSize(obj.Object)
}

// sizeWithRV is ObjectSize(obj) once its resourceVersion is rv, from size, ObjectSize(obj)
// before: the quota check has just walked the object, and a second walk under the write
// lock would only count the new resourceVersion. -1 when size is -1, or metadata is not
// an object (then the caller measures).
func sizeWithRV(obj *api.Unstructured, size int, rv string) int {
	if size < 0 {
		return -1
	}
	md, ok := obj.Object["metadata"].(map[string]any)
	if !ok {
		return -1
	}
	if old, had := md["resourceVersion"]; had {
		return size - valueSize(old) + len(rv) + 2
	}
	return size + len("resourceVersion") + 4 + len(rv) + 2
}

func valueSize(v any) int {
	switch t := v.(type) {
	case map[string]any:
		n := 2
		for k, e := range t {
			n += len(k) + 4 + valueSize(e)
		}
		return n
	case []any:
		n := 2
		for _, e := range t {
			n += 1 + valueSize(e)
		}
		return n
	case string:
		return len(t) + 2
	case int64:
		return len(strconv.FormatInt(t, 10))
	case bool:
		return 5
	case nil:
		return 4
	}
	return 8 // float64, json.Number and the like
}

// QuotaExceededMessage is the text of etcd's ErrGRPCNoSpace, which the real server passes
// on unchanged: a storage error that is no api.Status becomes a 500 with no reason
// (ErrorToAPIStatus), which kubectl prints as "Error from server: etcdserver: mvcc:
// database space exceeded".
const QuotaExceededMessage = "etcdserver: mvcc: database space exceeded"

// NewQuotaExceededError mirrors what a write beyond etcd's --quota-backend-bytes becomes
// upstream: 500, no reason, etcd's text.
func NewQuotaExceededError() *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Code:     500,
		Message:  QuotaExceededMessage,
	}
}
