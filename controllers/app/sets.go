package app

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
)

// ControllerRevisionHashLabel mirrors apps.ControllerRevisionHashLabelKey: the label that
// ties a pod (and a ControllerRevision) to the revision it was made from.
const ControllerRevisionHashLabel = "controller-revision-hash"

// safeAlphabet is the alphabet of rand.SafeEncodeString: no vowels and no digits that look
// like letters, so a hash never spells a word.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString mirrors rand.SafeEncodeString of apimachinery: each byte of s picks a
// character of the safe alphabet.
func SafeEncodeString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = safeAlphabet[int(c)%len(safeAlphabet)]
	}
	return string(b)
}

// HashRevisionData mirrors history.HashControllerRevision: the FNV-32a of a revision's data
// with the collision count mixed in, safely encoded. A collision count bump moves the name
// when a revision of the same name but other data already exists.
func HashRevisionData(data []byte, collisionCount *int32) string {
	h := fnv.New32a()
	_, _ = h.Write(data)
	if collisionCount != nil {
		var buf [4]byte
		binary.LittleEndian.PutUint32(buf[:], uint32(*collisionCount))
		_, _ = h.Write(buf[:])
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// ControllerRevisionName mirrors history.ControllerRevisionName: "<prefix>-<hash>", with
// the prefix cut to leave room for the hash in a 253-character name.
func ControllerRevisionName(prefix, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return prefix + "-" + hash
}

// RevisionNumber mirrors reading ControllerRevision.Revision from an unstructured revision.
func RevisionNumber(cr *api.Unstructured) int64 {
	n, _ := NestedInt64(cr.Object, "revision")
	return n
}

// ScaledValueFromIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent: an integer is
// itself, "N%" is N percent of total, rounded up or down. A nil value is 0.
func ScaledValueFromIntOrPercent(v any, total int, roundUp bool) (int, error) {
	switch t := v.(type) {
	case nil:
		return 0, nil
	case int64:
		return int(t), nil
	case float64:
		return int(t), nil
	case int:
		return t, nil
	case string:
		p, ok := strings.CutSuffix(t, "%")
		if !ok {
			if n, err := strconv.Atoi(t); err == nil {
				return n, nil // a number sent as a string: upstream rejects it, we are lenient
			}
			return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q", t)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q", t)
		}
		f := float64(n) * float64(total) / 100
		if roundUp {
			return int(math.Ceil(f)), nil
		}
		return int(math.Floor(f)), nil
	}
	return 0, fmt.Errorf("invalid value for IntOrString: %v", v)
}

// IsPodAvailable mirrors podutil.IsPodAvailable: Ready, and Ready for at least
// minReadySeconds at now (judged by the Ready condition's lastTransitionTime).
func IsPodAvailable(pod *api.Unstructured, minReadySeconds int32, now time.Time) bool {
	if !IsPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	v, _ := nested(pod.Object, "status", "conditions")
	list, _ := v.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		if m["type"] != "Ready" {
			continue
		}
		s, _ := m["lastTransitionTime"].(string)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return false
		}
		return !t.Add(time.Duration(minReadySeconds) * time.Second).After(now)
	}
	return false
}

// CanAdopt mirrors controller.RecheckDeletionTimestamp as the workload controllers'
// canAdoptFunc uses it: before adopting orphans, read the owner from the server, not the
// cache; an owner that is gone, replaced (another UID) or being deleted adopts nothing. A
// cache a step behind would otherwise let a deleted owner take back what an orphaning
// delete just released.
func CanAdopt(ctx context.Context, client *dynamic.DynamicClient, gvr api.GroupVersionResource, owner *api.Unstructured) error {
	fresh, err := client.Resource(gvr).Namespace(owner.GetNamespace()).Get(ctx, owner.GetName(), api.GetOptions{})
	if err != nil {
		return err
	}
	if fresh.GetUID() != owner.GetUID() {
		return fmt.Errorf("original %s %s/%s is gone: got uid %s, wanted %s", owner.GetKind(), owner.GetNamespace(), owner.GetName(), fresh.GetUID(), owner.GetUID())
	}
	if fresh.GetDeletionTimestamp() != nil {
		return fmt.Errorf("%s %s/%s has just been deleted at %v", owner.GetKind(), owner.GetNamespace(), owner.GetName(), fresh.GetDeletionTimestamp())
	}
	return nil
}
