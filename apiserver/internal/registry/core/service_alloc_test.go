package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func newServiceAllocators(t *testing.T) ServiceAllocators {
	return ServiceAllocators{IPs: newAlloc(t, DefaultServiceCIDR), Ports: NewNodePortAllocator(DefaultNodePortRange)}
}

// TestCh01_Service_IPFamilies pins what a single-stack IPv4 kube-apiserver v1.36.3 answers
// to the IP family fields of a new Service (initIPFamilyFields and
// ValidateServiceClusterIPsRelatedFields, before any allocation): the fields it fills, or
// its 422 with the same causes in the same order.
func TestCh01_Service_IPFamilies(t *testing.T) {
	tests := []struct {
		name, spec string
		ips        string // the clusterIPs, families and policy, as kubectl's jsonpath prints them
		msg        string
	}{
		{name: "default", spec: `{"ports":[{"port":80}]}`, ips: `[10.96.1.1] [IPv4] SingleStack`},
		{name: "PreferDualStack gets the one family", spec: `{"ipFamilyPolicy":"PreferDualStack","ports":[{"port":80}]}`, ips: `[10.96.1.1] [IPv4] PreferDualStack`},
		{name: "headless without selector", spec: `{"clusterIP":"None","ports":[{"port":80}]}`, ips: `[None] [IPv4 IPv6] RequireDualStack`},
		{name: "headless with selector", spec: `{"clusterIP":"None","selector":{"a":"b"}}`, ips: `[None] [IPv4] SingleStack`},
		{name: "headless PreferDualStack", spec: `{"clusterIP":"None","ipFamilyPolicy":"PreferDualStack","selector":{"a":"b"}}`, ips: `[None] [IPv4] PreferDualStack`},
		{name: "headless IPv6 single", spec: `{"clusterIP":"None","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv6"]}`, ips: `[None] [IPv6] SingleStack`},
		{name: "headless IPv6 prefer dual", spec: `{"clusterIP":"None","ipFamilyPolicy":"PreferDualStack","ipFamilies":["IPv6"]}`, ips: `[None] [IPv6 IPv4] PreferDualStack`},
		{name: "RequireDualStack", spec: `{"ipFamilyPolicy":"RequireDualStack","ports":[{"port":80}]}`,
			msg: `Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`},
		{name: "both families", spec: `{"ipFamilyPolicy":"PreferDualStack","ipFamilies":["IPv4","IPv6"]}`,
			msg: `Service "web" is invalid: spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster`},
		{name: "IPv6 family", spec: `{"ipFamilies":["IPv6"]}`,
			msg: `Service "web" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster`},
		{name: "IPv6 address", spec: `{"clusterIP":"fd00::5"}`,
			msg: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00::5"]: IPv6 is not configured on this cluster`},
		{name: "two addresses", spec: `{"clusterIP":"10.96.0.50","clusterIPs":["10.96.0.50","fd00::5"],"ipFamilyPolicy":"PreferDualStack"}`,
			msg: `Service "web" is invalid: spec.clusterIPs[1]: Invalid value: ["10.96.0.50","fd00::5"]: IPv6 is not configured on this cluster`},
		{name: "two addresses single stack", spec: `{"clusterIP":"10.96.0.51","clusterIPs":["10.96.0.51","fd00::5"]}`,
			msg: `Service "web" is invalid: [spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified, spec.clusterIPs[1]: Invalid value: ["10.96.0.51","fd00::5"]: IPv6 is not configured on this cluster]`},
		{name: "address against family", spec: `{"clusterIP":"10.96.0.52","ipFamilies":["IPv6"]}`,
			msg: "Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: \"10.96.0.52\": expected an IPv6 value as indicated by `ipFamilies[0]`"},
		{name: "clusterIPs against clusterIP", spec: `{"clusterIP":"10.96.0.53","clusterIPs":["10.96.0.54"]}`,
			msg: "Service \"web\" is invalid: spec.clusterIPs: Invalid value: [\"10.96.0.54\"]: first value must match `clusterIP`"},
		{name: "clusterIPs alone", spec: `{"clusterIPs":["10.96.0.50","fd00::5"],"ipFamilyPolicy":"PreferDualStack"}`,
			msg: "Service \"web\" is invalid: spec.clusterIPs: Invalid value: [\"10.96.0.50\",\"fd00::5\"]: must be empty when `clusterIP` is not specified"},
		{name: "None twice", spec: `{"clusterIP":"None","clusterIPs":["None","None"]}`,
			msg: `Service "web" is invalid: [spec.clusterIPs: Invalid value: ["None","None"]: 'None' must be the first and only value, spec.clusterIPs[1]: Invalid value: "None": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)]`},
		{name: "two of a family", spec: `{"clusterIP":"10.96.0.55","clusterIPs":["10.96.0.55","10.96.0.56"],"ipFamilyPolicy":"PreferDualStack"}`,
			msg: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.55","10.96.0.56"]: may specify no more than one IP for each IP family`},
		{name: "unknown policy", spec: `{"ipFamilyPolicy":"Bogus"}`,
			msg: `Service "web" is invalid: spec.ipFamilyPolicy: Unsupported value: "Bogus": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"`},
		{name: "family twice", spec: `{"ipFamilies":["IPv4","IPv4"],"ipFamilyPolicy":"PreferDualStack"}`,
			msg: `Service "web" is invalid: spec.ipFamilies[1]: Duplicate value: "IPv4"`},
		{name: "unknown family", spec: `{"ipFamilies":["IPv5"]}`,
			msg: `Service "web" is invalid: spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"`},
		{name: "single stack, two families", spec: `{"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4","IPv6"]}`,
			msg: `Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`},
		{name: "leading zeros", spec: `{"clusterIP":"010.96.0.1"}`,
			msg: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "010.96.0.1": must not have leading 0s`},
		{name: "IPv4-mapped", spec: `{"clusterIP":"::ffff:10.96.0.1"}`,
			msg: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "::ffff:10.96.0.1": must not be an IPv4-mapped IPv6 address`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			al := newServiceAllocators(t)
			svc := defaultedService(t, tc.spec)
			finish, err := al.AllocateCreate(svc, false)
			if tc.msg != "" {
				require.Error(t, err)
				assert.Equal(t, int32(422), api.CodeForError(err))
				assert.Equal(t, tc.msg, err.Error())
				assert.Equal(t, 1, al.IPs.Used(), "nothing held")
				return
			}
			require.NoError(t, err)
			finish(true)
			spec := child(svc, "spec")
			got := jsonpathList(strs(spec, "clusterIPs")) + " " + jsonpathList(strs(spec, "ipFamilies")) + " " + str(spec, "ipFamilyPolicy")
			assert.Equal(t, tc.ips, got)
		})
	}
}

func jsonpathList(l []string) string {
	out := "["
	for i, s := range l {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + "]"
}

// TestCh01_Service_NodePorts pins the node ports of a new Service against the real
// server: allocated for NodePort and LoadBalancer services (ports of one number share one),
// requested ones honoured or refused with the allocator's texts, a health check node port
// for a LoadBalancer keeping traffic local, none for a LoadBalancer that turns them off.
func TestCh01_Service_NodePorts(t *testing.T) {
	al := newServiceAllocators(t)
	create := func(spec string) (map[string]any, error) {
		svc := defaultedService(t, spec)
		finish, err := al.AllocateCreate(svc, false)
		if err == nil {
			finish(true)
		}
		return child(svc, "spec"), err
	}
	spec, err := create(`{"type":"NodePort","ports":[{"port":80,"nodePort":30555}]}`)
	require.NoError(t, err)
	assert.Equal(t, []int{30555}, serviceNodePorts(spec))

	for _, tc := range []struct{ spec, msg string }{
		{`{"type":"NodePort","ports":[{"port":80,"nodePort":30555}]}`,
			`Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 30555: provided port is already allocated`},
		{`{"type":"NodePort","ports":[{"port":80,"nodePort":40000}]}`,
			`Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767`},
		{`{"type":"NodePort","ports":[{"port":80,"nodePort":30558},{"port":81,"nodePort":30558}]}`,
			`Service "web" is invalid: spec.ports[1].nodePort: Invalid value: 30558: provided port is already allocated`},
	} {
		before := al.Ports.Used()
		_, err := create(tc.spec)
		require.Error(t, err, tc.spec)
		assert.Equal(t, tc.msg, err.Error())
		assert.Equal(t, before, al.Ports.Used(), "a refused create holds nothing: %s", tc.spec)
	}

	spec, err = create(`{"type":"NodePort","ports":[{"port":80,"name":"a"},{"port":80,"name":"b","protocol":"UDP"},{"port":81,"name":"c"}]}`)
	require.NoError(t, err)
	np := serviceNodePorts(spec)
	require.Len(t, np, 3)
	assert.Equal(t, np[0], np[1], "TCP and UDP of one port share a node port")
	assert.NotEqual(t, np[0], np[2])

	spec, err = create(`{"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":80}]}`)
	require.NoError(t, err)
	assert.Len(t, serviceNodePorts(spec), 1)
	assert.NotZero(t, intOf(spec["healthCheckNodePort"]))

	spec, err = create(`{"type":"LoadBalancer","allocateLoadBalancerNodePorts":false,"ports":[{"port":80,"name":"a"},{"port":81,"name":"b","nodePort":30557}]}`)
	require.NoError(t, err)
	assert.Equal(t, []int{30557}, serviceNodePorts(spec), "only the requested one")

	spec, err = create(`{"type":"ClusterIP","ports":[{"port":80}]}`)
	require.NoError(t, err)
	assert.Empty(t, serviceNodePorts(spec))

	used := al.Ports.Used()
	svc := defaultedService(t, `{"type":"NodePort","ports":[{"port":80}]}`)
	finish, err := al.AllocateCreate(svc, true)
	require.NoError(t, err)
	finish(true)
	assert.Equal(t, []int{32769}, serviceNodePorts(child(svc, "spec")), "a dry run numbers on from 32768")
	assert.Equal(t, used, al.Ports.Used(), "and holds nothing")

	al.Release(svc) // not held: nothing happens
	real := defaultedService(t, `{"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":80}]}`)
	finish, err = al.AllocateCreate(real, false)
	require.NoError(t, err)
	finish(true)
	assert.Equal(t, used+2, al.Ports.Used())
	al.Release(real)
	assert.Equal(t, used, al.Ports.Used(), "a delete frees the node port and the health check port")
}

// TestCh01_Service_NodePortValidation pins the node port rules of the strategy's validation.
func TestCh01_Service_NodePortValidation(t *testing.T) {
	s := Services(newAlloc(t, DefaultServiceCIDR)).Strategy
	for _, tc := range []struct {
		spec   string
		causes []api.StatusCause
	}{
		{`{"type":"ClusterIP","ports":[{"port":80,"nodePort":30556}]}`, []api.StatusCause{{Type: api.CauseTypeForbidden,
			Field: "spec.ports[0].nodePort", Message: "Forbidden: may not be used when `type` is 'ClusterIP'"}}},
		{`{"type":"NodePort","ports":[{"name":"a","port":80,"nodePort":30556},{"name":"b","port":81,"nodePort":30556}]}`, []api.StatusCause{{Type: api.CauseTypeFieldValueDuplicate,
			Field: "spec.ports[1].nodePort", Message: "Duplicate value: 30556"}}},
		{`{"type":"NodePort","ports":[{"name":"a","port":80,"nodePort":30556},{"name":"b","port":80,"protocol":"UDP","nodePort":30556}]}`, nil},
		{`{"type":"NodePort","healthCheckNodePort":30001,"ports":[{"port":80}]}`, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid,
			Field: "spec.healthCheckNodePort", Message: "Invalid value: 30001: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"}}},
	} {
		obj := &api.Unstructured{Object: defaultedService(t, tc.spec)}
		assert.Equal(t, tc.causes, s.Validate(obj), tc.spec)
	}
}

// TestCh01_Service_NodePortRangeFull: a dynamic node port from a full range is the real
// 500, and a delete makes room again.
func TestCh01_Service_NodePortRangeFull(t *testing.T) {
	al := ServiceAllocators{IPs: newAlloc(t, DefaultServiceCIDR), Ports: NewNodePortAllocator(PortRange{Base: 30000, Size: 2})}
	var held []map[string]any
	for range 2 {
		svc := defaultedService(t, `{"type":"NodePort","ports":[{"port":80}]}`)
		finish, err := al.AllocateCreate(svc, false)
		require.NoError(t, err)
		finish(true)
		held = append(held, svc)
	}
	svc := defaultedService(t, `{"type":"NodePort","ports":[{"port":80}]}`)
	_, err := al.AllocateCreate(svc, false)
	require.Error(t, err)
	assert.Equal(t, int32(500), api.CodeForError(err))
	assert.Equal(t, "Internal error occurred: failed to allocate a nodePort: range is full", err.Error())
	assert.Equal(t, 3, al.IPs.Used(), "the refused create gave its cluster IP back")
	al.Release(held[0])
	finish, err := al.AllocateCreate(svc, false)
	require.NoError(t, err)
	finish(true)
}
