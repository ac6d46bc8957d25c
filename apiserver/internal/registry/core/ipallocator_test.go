package core

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
)

func newAlloc(t *testing.T, cidr string) *ClusterIPAllocator {
	t.Helper()
	a, err := NewClusterIPAllocator(cidr)
	require.NoError(t, err)
	return a
}

// TestCh01_ClusterIP_DefaultRange checks the kubeadm range: .1 held for the kubernetes
// Service, dynamic addresses from the upper part (after the 256 static ones), in order.
func TestCh01_ClusterIP_DefaultRange(t *testing.T) {
	a := newAlloc(t, DefaultServiceCIDR)
	assert.Equal(t, "10.96.0.0/12", a.CIDR())
	assert.Equal(t, "IPv4", a.IPFamily())
	assert.Equal(t, "10.96.0.1", a.KubernetesServiceIP())
	assert.True(t, a.Has("10.96.0.1"))
	for _, want := range []string{"10.96.1.1", "10.96.1.2"} {
		got, err := a.Allocate("", false)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	assert.Equal(t, 3, a.Used())
}

// TestCh01_ClusterIP_Requested checks static requests and upstream's errors for them.
func TestCh01_ClusterIP_Requested(t *testing.T) {
	a := newAlloc(t, DefaultServiceCIDR)
	tests := []struct {
		ip, want string
	}{
		{"10.96.0.10", ""},
		{"10.96.0.10", "provided IP is already allocated"},
		{"10.96.0.1", "provided IP is already allocated"},
		{"10.111.255.254", ""},
		{"10.0.0.5", "the provided network does not match the current range"},
		{"10.96.0.0", "the provided IP (10.96.0.0) is not in the valid range. The range of valid IPs is 10.96.0.0/12"},
		{"10.111.255.255", "the provided IP (10.111.255.255) is not in the valid range. The range of valid IPs is 10.96.0.0/12"},
		{"fd00::1", "the provided network does not match the current range"},
		{"nonsense", `failed to parse service IP "nonsense"`},
	}
	for _, tc := range tests {
		got, err := a.Allocate(tc.ip, false)
		if tc.want == "" {
			require.NoError(t, err, tc.ip)
			assert.Equal(t, tc.ip, got)
			continue
		}
		require.Error(t, err, tc.ip)
		assert.Equal(t, tc.want, err.Error(), tc.ip)
	}
}

// TestCh01_ClusterIP_DryRun checks that a dry run reserves nothing and previews as
// upstream's dry-run allocator does.
func TestCh01_ClusterIP_DryRun(t *testing.T) {
	a := newAlloc(t, DefaultServiceCIDR)
	got, err := a.Allocate("", true)
	require.NoError(t, err)
	assert.Equal(t, "10.96.0.0", got, "a dynamic dry run previews the network address")
	got, err = a.Allocate("10.96.0.1", true)
	require.NoError(t, err, "a static dry run checks the range only")
	assert.Equal(t, "10.96.0.1", got)
	_, err = a.Allocate("10.0.0.1", true)
	assert.ErrorIs(t, err, ErrMismatchedNetwork)
	assert.Equal(t, 1, a.Used())
}

// TestCh01_ClusterIP_FullAndRelease fills a /29 (no static part below 17 addresses).
func TestCh01_ClusterIP_FullAndRelease(t *testing.T) {
	a := newAlloc(t, "192.168.0.0/29")
	var got []string
	for {
		ip, err := a.Allocate("", false)
		if err != nil {
			assert.ErrorIs(t, err, ErrFull)
			break
		}
		got = append(got, ip)
	}
	assert.Equal(t, []string{"192.168.0.2", "192.168.0.3", "192.168.0.4", "192.168.0.5", "192.168.0.6"}, got)
	a.Release("192.168.0.4")
	a.Release("bogus")
	a.Release("192.168.0.4")
	assert.False(t, a.Has("192.168.0.4"))
	ip, err := a.Allocate("", false)
	require.NoError(t, err)
	assert.Equal(t, "192.168.0.4", ip)
}

// TestCh01_ClusterIP_UpperThenLower checks that the static part is used only when the
// dynamic part is full, and that the search wraps.
func TestCh01_ClusterIP_UpperThenLower(t *testing.T) {
	a := newAlloc(t, "10.0.0.0/24") // 254 usable; the static part is .1–.16
	first, err := a.Allocate("", false)
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.17", first)
	for range 237 {
		_, err := a.Allocate("", false)
		require.NoError(t, err)
	}
	assert.True(t, a.Has("10.0.0.254"))
	a.Release("10.0.0.20")
	ip, err := a.Allocate("", false)
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.20", ip, "the search wraps within the dynamic part")
	ip, err = a.Allocate("", false)
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.2", ip, "then falls back to the static part")
}

// TestCh01_ClusterIP_NewErrors checks the ranges NewClusterIPAllocator refuses.
func TestCh01_ClusterIP_NewErrors(t *testing.T) {
	for cidr, want := range map[string]string{
		"10.0.0.0":      `invalid service CIDR "10.0.0.0"`,
		"fd00::/48":     "shortest allowed prefix length for service CIDR is 64, got 48",
		"10.0.0.0/31":   "service CIDR 10.0.0.0/31 is too small",
		"10.0.0.0/32":   "service CIDR 10.0.0.0/32 is too small",
		"10.0.0.5/24x":  `invalid service CIDR "10.0.0.5/24x"`,
		"fd00::/128":    "service CIDR fd00::/128 is too small",
		"300.0.0.0/8":   `invalid service CIDR "300.0.0.0/8"`,
		"10.96.0.10/12": "",
	} {
		a, err := NewClusterIPAllocator(cidr)
		if want == "" {
			require.NoError(t, err)
			assert.Equal(t, "10.96.0.0/12", a.CIDR(), "the prefix is masked")
			continue
		}
		require.Error(t, err, cidr)
		assert.Contains(t, err.Error(), want, cidr)
	}
}

// TestCh01_ClusterIP_IPv6 checks an IPv6 range: its last address may be handed out.
func TestCh01_ClusterIP_IPv6(t *testing.T) {
	a := newAlloc(t, "fd00:10:96::/124")
	assert.Equal(t, "IPv6", a.IPFamily())
	assert.Equal(t, "fd00:10:96::1", a.KubernetesServiceIP())
	ip, err := a.Allocate("fd00:10:96::f", false)
	require.NoError(t, err)
	assert.Equal(t, "fd00:10:96::f", ip)
	n := 0
	for ; ; n++ {
		if _, err := a.Allocate("", false); err != nil {
			break
		}
	}
	assert.Equal(t, 13, n, "16 addresses less the network, .1 and ::f")
}

// TestCh01_ClusterIP_Concurrent allocates from many goroutines: every address once.
func TestCh01_ClusterIP_Concurrent(t *testing.T) {
	a := newAlloc(t, "10.1.0.0/22")
	const workers, each = 8, 50
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				ip, err := a.Allocate("", false)
				if !assert.NoError(t, err) {
					return
				}
				mu.Lock()
				seen[ip]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	assert.Len(t, seen, workers*each)
	for ip, n := range seen {
		assert.Equal(t, 1, n, ip)
	}
	assert.Equal(t, workers*each+1, a.Used())
}

func defaultedService(t *testing.T, spec string) map[string]any {
	t.Helper()
	svc := decodeJSON(t, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},"spec":`+spec+`}`)
	defaulting.Default("", "v1", "Service", svc)
	return svc
}

// TestCh01_ClusterIP_AllocateService checks the write to clusterIP/clusterIPs and the
// Status of each failure, texts as the real server's.
func TestCh01_ClusterIP_AllocateService(t *testing.T) {
	tests := []struct {
		name, spec string
		dryRun     bool
		wantIP     string // "" = no cluster IP written
		code       int32
		msg        string
	}{
		{name: "dynamic", spec: `{"ports":[{"port":80}]}`, wantIP: "10.96.1.1"},
		{name: "dry run", spec: `{"ports":[{"port":80}]}`, dryRun: true, wantIP: "10.96.0.0"},
		{name: "requested", spec: `{"clusterIP":"10.96.0.10"}`, wantIP: "10.96.0.10"},
		{name: "headless", spec: `{"clusterIP":"None","selector":{"a":"b"}}`, wantIP: "None"},
		{name: "headless without selector", spec: `{"clusterIP":"None"}`, wantIP: "None"},
		{name: "external name", spec: `{"type":"ExternalName","externalName":"x.example.com"}`},
		{name: "taken", spec: `{"clusterIP":"10.96.0.1"}`, code: 422,
			msg: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.1"]: failed to allocate IP 10.96.0.1: provided IP is already allocated`},
		{name: "outside", spec: `{"clusterIP":"192.168.1.1"}`, code: 422,
			msg: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["192.168.1.1"]: failed to allocate IP 192.168.1.1: the provided network does not match the current range`},
		{name: "network address", spec: `{"clusterIP":"10.96.0.0"}`, code: 422,
			msg: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.0"]: failed to allocate IP 10.96.0.0: the provided IP (10.96.0.0) is not in the valid range. The range of valid IPs is 10.96.0.0/12`},
		{name: "malformed", spec: `{"clusterIP":"10.96.0.x"}`, code: 422,
			msg: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`},
		{name: "unserved family", spec: `{"ipFamilies":["IPv6"]}`, code: 422,
			msg: `Service "web" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster`},
		{name: "dual stack demanded", spec: `{"ipFamilyPolicy":"RequireDualStack","selector":{"a":"b"}}`, code: 422,
			msg: `Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAlloc(t, DefaultServiceCIDR)
			svc := defaultedService(t, tc.spec)
			err := a.AllocateService(svc, tc.dryRun)
			spec := child(svc, "spec")
			if tc.code != 0 {
				require.Error(t, err)
				assert.Equal(t, tc.code, api.CodeForError(err))
				assert.Equal(t, tc.msg, err.Error())
				return
			}
			require.NoError(t, err)
			if tc.wantIP == "" {
				assert.Nil(t, spec["clusterIP"])
				assert.Nil(t, spec["clusterIPs"])
				return
			}
			assert.Equal(t, tc.wantIP, spec["clusterIP"])
			assert.Equal(t, []any{tc.wantIP}, spec["clusterIPs"])
			wantUsed := 2
			if tc.dryRun || tc.wantIP == "None" {
				wantUsed = 1
			}
			assert.Equal(t, wantUsed, a.Used())
		})
	}
}

// TestCh01_ClusterIP_FullRangeStatus checks the 500 of a full range and that
// ReleaseService makes room again.
func TestCh01_ClusterIP_FullRangeStatus(t *testing.T) {
	a := newAlloc(t, "10.0.0.0/30") // .1 and .2; .1 is the kubernetes Service's
	first := defaultedService(t, `{}`)
	require.NoError(t, a.AllocateService(first, false))
	assert.Equal(t, "10.0.0.2", child(first, "spec")["clusterIP"])
	err := a.AllocateService(defaultedService(t, `{}`), false)
	require.Error(t, err)
	assert.Equal(t, int32(500), api.CodeForError(err))
	assert.Equal(t, `Internal error occurred: failed to allocate a serviceIP for Service "web": range is full`, err.Error())
	a.ReleaseService(first)
	require.NoError(t, a.AllocateService(defaultedService(t, `{}`), false))
}

func ExampleClusterIPAllocator_AllocateService() {
	a, _ := NewClusterIPAllocator(DefaultServiceCIDR)
	svc := map[string]any{"metadata": map[string]any{"name": "web"}, "spec": map[string]any{}}
	defaulting.Default("", "v1", "Service", svc)
	if err := a.AllocateService(svc, false); err != nil {
		fmt.Println(err)
	}
	spec := svc["spec"].(map[string]any)
	fmt.Println(spec["clusterIP"], spec["clusterIPs"], spec["ipFamilies"], spec["ipFamilyPolicy"])
	// Output: 10.96.1.1 [10.96.1.1] [IPv4] SingleStack
}
