package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// deleteCRDAndWait deletes a CRD and waits until the CRD finalizer has deleted its objects
// and the CRD is gone (its resource is then no longer served).
func deleteCRDAndWait(t *testing.T, c *client, name string) {
	t.Helper()
	r := c.do(http.MethodDelete, crdPath+"/"+name, nil)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	require.Eventually(t, func() bool { return c.get(crdPath+"/"+name).code == http.StatusNotFound },
		10*time.Second, time.Millisecond, "the CRD finalized and gone")
}

// crdState is what the tests read of a CRD: its finalizers, deletion mark and Terminating
// condition.
type crdState struct {
	Metadata struct {
		ResourceVersion            string
		Finalizers                 []string
		DeletionTimestamp          *string
		DeletionGracePeriodSeconds *int64
	}
	Status struct {
		Conditions []struct{ Type, Status, Reason, Message string }
	}
}

// terminating returns "status reason: message" of the Terminating condition, or "".
func (s crdState) terminating() string {
	for _, c := range s.Status.Conditions {
		if c.Type == "Terminating" {
			return c.Status + " " + c.Reason + ": " + c.Message
		}
	}
	return ""
}

func decodeCRD(t *testing.T, data []byte) crdState {
	t.Helper()
	var st crdState
	require.NoError(t, json.Unmarshal(data, &st), "%s", data)
	return st
}

// TestCh13_CRD_TerminatingPhase follows a CRD's deletion while an object of it is held by a
// finalizer, as kube-apiserver v1.36 answers each step: the DELETE answers the CRD marked
// (deletionTimestamp, the cleanup finalizer, Terminating "InstanceDeletionPending"); the
// finalizer then deletes what it can and the CRD waits, "InstanceDeletionInProgress". The
// resource stays served for reads and deletes, a create is forbidden, discovery lists only
// delete, deletecollection, get, list and watch, and a second DELETE changes nothing. Once
// the held object goes the CRD goes (its DELETED carries its last state), the watch of the
// resource ends without an error after every DELETED, and the resource is unserved.
func TestCh13_CRD_TerminatingPhase(t *testing.T) {
	s, c := newServer(t, Options{})
	createFooCRD(t, c)
	const name = "foos.samplecontroller.k8s.io"
	r := c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	held := foo("held", map[string]any{"deploymentName": "d"})
	at(held, "metadata")["finalizers"] = []any{"example.com/hold"}
	r = c.do(http.MethodPost, foosPath, held)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	rv := strconv.FormatUint(s.ResourceVersion(), 10)
	foos := c.watch(foosPath + "?watch=1&resourceVersion=" + rv)
	crds := c.watch(crdPath + "?watch=1&fieldSelector=metadata.name%3D" + name + "&resourceVersion=" + rv)

	r = c.do(http.MethodDelete, crdPath+"/"+name, nil)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	answer := decodeCRD(t, r.body)
	assert.NotNil(t, answer.Metadata.DeletionTimestamp)
	assert.Equal(t, []string{"customresourcecleanup.apiextensions.k8s.io"}, answer.Metadata.Finalizers)
	assert.Equal(t, "True InstanceDeletionPending: CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon", answer.terminating())

	// The finalizer deletes "a" and marks "held"; the CRD says it is in progress.
	assert.Equal(t, []string{"DELETED a", "MODIFIED held"}, []string{shortNoRV(t, foos.next()), shortNoRV(t, foos.next())})
	var states []string
	for range 2 {
		ev := crds.next()
		require.Equal(t, "MODIFIED", ev.Type)
		states = append(states, decodeCRD(t, ev.Object).terminating())
	}
	assert.Equal(t, []string{
		"True InstanceDeletionPending: CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
		"True InstanceDeletionInProgress: CustomResource deletion is in progress",
	}, states)

	r = c.do(http.MethodPost, foosPath, foo("new", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusForbidden, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, `foos.samplecontroller.k8s.io "new" is forbidden: create not allowed while custom resource definition is terminating`, st.Message)
	assert.Equal(t, api.StatusReasonForbidden, st.Reason)
	require.NotNil(t, st.Details)
	assert.Equal(t, api.StatusDetails{Name: "new", Group: "samplecontroller.k8s.io", Kind: "foos"}, *st.Details)
	assert.Equal(t, http.StatusForbidden, c.do(http.MethodPost, foosPath+"?dryRun=All", foo("new", map[string]any{"deploymentName": "d"})).code)

	var list struct{ Items []map[string]any }
	r = c.get(foosPath)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r.decode(t, &list)
	require.Len(t, list.Items, 1)
	assert.NotNil(t, at(list.Items[0], "metadata")["deletionTimestamp"])
	assert.Equal(t, http.StatusOK, c.get(foosPath+"/held").code)
	var resources api.APIResourceList
	c.get("/apis/samplecontroller.k8s.io/v1alpha1").decode(t, &resources)
	require.NotEmpty(t, resources.APIResources)
	assert.Equal(t, "foos", resources.APIResources[0].Name)
	assert.Equal(t, []string{"delete", "deletecollection", "get", "list", "watch"}, resources.APIResources[0].Verbs)

	// A second DELETE goes through the generic store: it only sets deletionGracePeriodSeconds
	// to 0 (one MODIFIED); a third writes nothing.
	before := decodeCRD(t, c.get(crdPath+"/"+name).body)
	assert.Nil(t, before.Metadata.DeletionGracePeriodSeconds)
	assert.Equal(t, "True InstanceDeletionInProgress: CustomResource deletion is in progress", before.terminating())
	r = c.do(http.MethodDelete, crdPath+"/"+name, nil)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	second := decodeCRD(t, r.body)
	assert.NotEqual(t, before.Metadata.ResourceVersion, second.Metadata.ResourceVersion)
	require.NotNil(t, second.Metadata.DeletionGracePeriodSeconds)
	assert.Zero(t, *second.Metadata.DeletionGracePeriodSeconds)
	assert.Equal(t, "MODIFIED", crds.next().Type)
	r = c.do(http.MethodDelete, crdPath+"/"+name, nil)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Equal(t, second.Metadata.ResourceVersion, decodeCRD(t, r.body).Metadata.ResourceVersion)

	// The held object goes: so does the CRD, and with it the resource.
	r = c.do(http.MethodPatch, foosPath+"/held", `{"metadata":{"finalizers":null}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	rest := foos.ended()
	require.Len(t, rest, 1, "%q", rest)
	var last wireEvent
	require.NoError(t, json.Unmarshal([]byte(rest[0]), &last))
	assert.Equal(t, "DELETED held", shortNoRV(t, last))
	ev := crds.next()
	require.Equal(t, "DELETED", ev.Type)
	gone := decodeCRD(t, ev.Object)
	assert.Equal(t, []string{"customresourcecleanup.apiextensions.k8s.io"}, gone.Metadata.Finalizers, "its last stored state")
	assert.Equal(t, "True InstanceDeletionInProgress: CustomResource deletion is in progress", gone.terminating())
	assert.Equal(t, http.StatusNotFound, c.get(crdPath+"/"+name).code)
	assert.Equal(t, http.StatusNotFound, c.get(foosPath).code)
	assert.Equal(t, http.StatusNotFound, c.get("/apis/samplecontroller.k8s.io/v1alpha1").code)
}

// shortNoRV is "TYPE name".
func shortNoRV(t *testing.T, ev wireEvent) string {
	_, _, name, _, _ := ev.meta(t)
	return ev.Type + " " + name
}

// TestCh13_CRD_FinalizerRounds: a CRD whose object a finalizer holds waits for it in rounds
// of a minute, as the CRD finalizer's poll does: a round that ends with the object still
// there sets Terminating "InstanceDeletionCheck", and the next starts at once
// ("InstanceDeletionInProgress"). Close stops the finalizer while it waits.
func TestCh13_CRD_FinalizerRounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{})
		defer s.Close()
		ctx := context.Background()
		var crd api.Unstructured
		require.NoError(t, crd.UnmarshalJSON([]byte(fooCRDJSON)))
		_, err := s.Create(ctx, "customresourcedefinitions", "", &crd)
		require.NoError(t, err)
		held := func() *api.Unstructured {
			obj := foo("held", map[string]any{"deploymentName": "d"})
			at(obj, "metadata")["finalizers"] = []any{"example.com/hold"}
			return &api.Unstructured{Object: obj}
		}
		_, err = s.Create(ctx, "foos", "default", held())
		require.NoError(t, err)
		w, err := s.Watch(ctx, "customresourcedefinitions", "", api.ListOptions{ResourceVersion: strconv.FormatUint(s.ResourceVersion(), 10)})
		require.NoError(t, err)
		defer w.Stop()
		reason := func() (watch.EventType, string, time.Duration) {
			start := time.Now()
			ev := <-w.ResultChan()
			data, err := json.Marshal(ev.Object)
			require.NoError(t, err)
			st := decodeCRD(t, data)
			return ev.Type, st.terminating(), time.Since(start)
		}
		deleted := time.Now()
		_, err = s.Delete(ctx, "customresourcedefinitions", "", "foos.samplecontroller.k8s.io", nil)
		require.NoError(t, err)
		typ, state, _ := reason()
		assert.Equal(t, watch.Modified, typ)
		assert.Contains(t, state, "InstanceDeletionPending")
		_, state, _ = reason()
		assert.Equal(t, "True InstanceDeletionInProgress: CustomResource deletion is in progress", state)
		_, state, _ = reason()
		assert.Equal(t, "True InstanceDeletionCheck: could not confirm zero CustomResources remaining: context deadline exceeded", state)
		assert.Equal(t, time.Minute, time.Since(deleted), "a round lasts a minute")
		_, state, _ = reason()
		assert.Equal(t, "True InstanceDeletionInProgress: CustomResource deletion is in progress", state)

		_, err = s.Get(ctx, "foos", "default", "held")
		require.NoError(t, err, "still served")
		obj, err := s.Get(ctx, "foos", "default", "held")
		require.NoError(t, err)
		u := obj.(*api.Unstructured)
		u.SetFinalizers(nil)
		_, err = s.Update(ctx, "foos", "default", u)
		require.NoError(t, err)
		typ, _, waited := reason()
		assert.Equal(t, watch.Deleted, typ)
		assert.Zero(t, waited, "the CRD goes as soon as its last object does")
		_, err = s.Get(ctx, "foos", "default", "held")
		assert.Error(t, err, "the resource is gone")

		// Another CRD held the same way: Close ends its finalizer's wait.
		_, err = s.Create(ctx, "customresourcedefinitions", "", &api.Unstructured{Object: fooCRD(t, nil)})
		require.NoError(t, err)
		_, err = s.Create(ctx, "foos", "default", held())
		require.NoError(t, err)
		_, err = s.Delete(ctx, "customresourcedefinitions", "", "foos.samplecontroller.k8s.io", nil)
		require.NoError(t, err)
		synctest.Wait()
		s.Close()
	})
}

// TestCh13_CRD_DeleteEndsTheFinalizersPart: the CRD finalizer's last write as the reference
// makes it. A CRD another finalizer holds stays, Terminating False
// "InstanceDeletionCompleted" without the cleanup finalizer; it no longer counts as
// terminating, so a create succeeds again and discovery lists every verb, until that
// finalizer goes too. A CRD never established has nothing to delete: "NeverEstablished",
// and it goes at once.
func TestCh13_CRD_DeleteEndsTheFinalizersPart(t *testing.T) {
	const name = "foos.samplecontroller.k8s.io"
	tests := []struct {
		name       string
		edit       func(m map[string]any)
		other      func(t *testing.T, c *client) // created before the CRD
		wantStays  string                        // the Terminating condition of a CRD that stays; "" when it goes
		wantObject bool                          // its resource is served after
	}{
		{"held by another finalizer", func(m map[string]any) {
			at(m, "metadata")["finalizers"] = []any{"example.com/keep"}
		}, nil, "False InstanceDeletionCompleted: removed all instances", true},
		{"never established", nil, func(t *testing.T, c *client) {
			// A CRD of the group that already has the kind Foo: ours is not accepted.
			r := c.do(http.MethodPost, crdPath, fooCRD(t, func(m map[string]any) {
				at(m, "metadata")["name"] = "bars.samplecontroller.k8s.io"
				names := at(m, "spec", "names")
				names["plural"], names["singular"], names["shortNames"] = "bars", "bar", []any{"ba"}
			}))
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
		}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, Options{})
			if tc.other != nil {
				tc.other(t, c)
			}
			r := c.do(http.MethodPost, crdPath, fooCRD(t, tc.edit))
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			if tc.wantObject {
				r = c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "d"}))
				require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			} else {
				require.Equal(t, http.StatusNotFound, c.get(foosPath).code, "not established, not served")
			}
			r = c.do(http.MethodDelete, crdPath+"/"+name, nil)
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			if tc.wantStays == "" {
				require.Eventually(t, func() bool { return c.get(crdPath+"/"+name).code == http.StatusNotFound },
					10*time.Second, time.Millisecond, "the CRD gone")
				return
			}
			var st crdState
			require.Eventually(t, func() bool {
				st = decodeCRD(t, c.get(crdPath+"/"+name).body)
				return len(st.Metadata.Finalizers) == 1
			}, 10*time.Second, time.Millisecond, "the cleanup finalizer removed")
			assert.Equal(t, []string{"example.com/keep"}, st.Metadata.Finalizers)
			assert.NotNil(t, st.Metadata.DeletionTimestamp)
			assert.Equal(t, tc.wantStays, st.terminating())
			assert.Equal(t, http.StatusNotFound, c.get(foosPath+"/a").code, "its objects deleted")
			r = c.do(http.MethodPost, foosPath, foo("b", map[string]any{"deploymentName": "d"}))
			assert.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			var resources api.APIResourceList
			c.get("/apis/samplecontroller.k8s.io/v1alpha1").decode(t, &resources)
			require.NotEmpty(t, resources.APIResources)
			assert.Contains(t, resources.APIResources[0].Verbs, "create")

			r = c.do(http.MethodPatch, crdPath+"/"+name, `{"metadata":{"finalizers":null}}`, "Content-Type", "application/merge-patch+json")
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			assert.Equal(t, http.StatusNotFound, c.get(crdPath+"/"+name).code)
			assert.Equal(t, http.StatusNotFound, c.get(foosPath).code)
		})
	}
}
