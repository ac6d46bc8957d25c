package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// The kubectl commands of authentication and authorization against the simulator: auth
// whoami and can-i (SelfSubjectReview, SelfSubjectAccessReview, SelfSubjectRulesReview),
// create token (serviceaccounts/token), create role, rolebinding and clusterrole, and the
// RBAC answers to impersonated and service-account users.

// TestCh01_Kubectl_AuthWhoamiCanI checks kubectl auth whoami and can-i under the default
// AlwaysAllow: the admin token's user, and yes to everything, also for an impersonated user.
func TestCh01_Kubectl_AuthWhoamiCanI(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret"})
	out := e.ok("auth", "whoami")
	assert.Regexp(t, `Username\s+kubernetes-admin`, out)
	assert.Regexp(t, `Groups\s+\[system:masters system:authenticated\]`, out)
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "delete", "nodes"))
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "list", "pods", "--as", "alice"), "AlwaysAllow allows impersonation too")
	list := e.ok("auth", "can-i", "--list")
	assert.Regexp(t, `\*\.\*\s+\[\]\s+\[\]\s+\[\*\]`, list)
	assert.Regexp(t, `(?m)^\s+\[\*\]\s+\[\]\s+\[\*\]`, list)
	out = e.ok("auth", "whoami", "--as", "bob", "--as-group", "devs", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}")
	assert.Equal(t, `bob ["devs","system:authenticated"]`, out)
}

// TestCh01_Kubectl_RBACCanIAs checks kubectl auth can-i --as under RBAC: a user with no
// binding may not, a RoleBinding made with kubectl create rolebinding lets it, and the
// refusal of a real command is the real message.
func TestCh01_Kubectl_RBACCanIAs(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret", Authorization: apiserver.AuthorizationRBAC})
	out, _, err := e.run("auth", "can-i", "list", "pods", "--as", "alice")
	require.Error(t, err, "can-i exits 1 on no")
	assert.Equal(t, "no\n", out)
	_, errOut, err := e.run("get", "pods", "--as", "alice")
	require.Error(t, err)
	assert.Contains(t, errOut, `Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)

	assert.Equal(t, "rolebinding.rbac.authorization.k8s.io/alice-view created\n",
		e.ok("create", "rolebinding", "alice-view", "--clusterrole=view", "--user=alice"))
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "list", "pods", "--as", "alice"))
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "watch", "deployments.apps", "--as", "alice"), "view aggregates the apps rules")
	out, _, err = e.run("auth", "can-i", "delete", "pods", "--as", "alice")
	require.Error(t, err)
	assert.Equal(t, "no\n", out)
	out, _, _ = e.run("auth", "can-i", "list", "pods", "--as", "alice", "-n", "kube-system")
	assert.Equal(t, "no\n", out, "a RoleBinding grants in its namespace only")
	list := e.ok("auth", "can-i", "--list", "--as", "alice")
	assert.Regexp(t, `(?m)^pods\s+\[\]\s+\[\]\s+\[get list watch\]`, list)
	assert.Regexp(t, `(?m)^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]`, list)

	_, errOut, err = e.run("get", "pods", "--as", "system:serviceaccount:default:nobody", "--as-group", "x")
	require.Error(t, err)
	assert.Contains(t, errOut, `pods is forbidden: User "system:serviceaccount:default:nobody" cannot list resource "pods"`)

	table := e.ok("get", "rolebindings", "-o", "wide")
	assert.Regexp(t, `NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS`, table)
	assert.Regexp(t, `alice-view\s+ClusterRole/view\s+\S+\s+alice`, table)
	assert.Contains(t, e.ok("get", "clusterroles"), "system:public-info-viewer")
}

// TestCh01_Kubectl_CreateTokenRefusedThenAllowed is the chapter's story with kubectl: a
// service account's token from kubectl create token is refused, then allowed once kubectl
// create role and rolebinding grant it; whoami shows who it is.
func TestCh01_Kubectl_CreateTokenRefusedThenAllowed(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret", Authorization: apiserver.AuthorizationRBAC})
	e.createPod("web-1", nil)
	assert.Equal(t, "serviceaccount/robot created\n", e.ok("create", "serviceaccount", "robot"))
	token := strings.TrimSpace(e.ok("create", "token", "robot", "--duration", "10m"))
	require.Len(t, strings.Split(token, "."), 3, "a JWT")

	out := e.ok("auth", "whoami", "--token", token)
	assert.Regexp(t, `Username\s+system:serviceaccount:default:robot`, out)
	_, errOut, err := e.run("get", "pods", "--token", token)
	require.Error(t, err)
	assert.Contains(t, errOut, `pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"`)

	assert.Equal(t, "role.rbac.authorization.k8s.io/pod-reader created\n",
		e.ok("create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods"))
	assert.Equal(t, "rolebinding.rbac.authorization.k8s.io/robot-reads created\n",
		e.ok("create", "rolebinding", "robot-reads", "--role=pod-reader", "--serviceaccount=default:robot"))
	assert.Contains(t, e.ok("get", "pods", "--token", token), "web-1")
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "get", "pods/web-1", "--token", token))
	out, _, _ = e.run("auth", "can-i", "get", "pods/web-1", "--subresource", "log", "--token", token)
	assert.Equal(t, "no\n", out, "pods does not reach pods/log")

	_, errOut, err = e.run("get", "pods", "--token", token+"x")
	require.Error(t, err)
	assert.Contains(t, errOut, "You must be logged in to the server (Unauthorized)")
	_, errOut, err = e.run("create", "token", "missing")
	require.Error(t, err)
	assert.Contains(t, errOut, `serviceaccounts "missing" not found`)
}

// TestCh01_Kubectl_CreateClusterRole checks kubectl create clusterrole, with rules and with
// an aggregation rule, and that an aggregated role's rules reach the users bound to it.
func TestCh01_Kubectl_CreateClusterRole(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret", Authorization: apiserver.AuthorizationRBAC})
	assert.Equal(t, "clusterrole.rbac.authorization.k8s.io/node-reader created\n",
		e.ok("create", "clusterrole", "node-reader", "--verb=get", "--resource=nodes", "--non-resource-url=/healthz/*"))
	e.ok("label", "clusterrole", "node-reader", "team/aggregate=true")
	assert.Equal(t, "clusterrole.rbac.authorization.k8s.io/team created\n",
		e.ok("create", "clusterrole", "team", "--aggregation-rule=team/aggregate=true"))
	assert.Equal(t, "clusterrolebinding.rbac.authorization.k8s.io/team-carol created\n",
		e.ok("create", "clusterrolebinding", "team-carol", "--clusterrole=team", "--user=carol"))
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "get", "nodes", "--as", "carol"))
	assert.Equal(t, "yes\n", e.ok("auth", "can-i", "get", "/healthz/etcd", "--as", "carol"))
	out, _, _ := e.run("auth", "can-i", "delete", "nodes", "--as", "carol")
	assert.Equal(t, "no\n", out)
	assert.Equal(t, `{"clusterRoleSelectors":[{"matchLabels":{"team/aggregate":"true"}}]}`,
		e.ok("get", "clusterrole", "team", "-o", "jsonpath={.aggregationRule}"))
	_, errOut, err := e.run("create", "clusterrolebinding", "team-carol", "--clusterrole=view", "--user=carol", "--dry-run=server", "-o", "name")
	require.Error(t, err)
	assert.Contains(t, errOut, "already exists")
}

// TestCh01_Kubectl_DemoServeRBAC: demo serve --authorization=RBAC makes its kubeconfig's user
// an admin by a random token over https, so the printed kubectl line works and other users'
// tokens and --as can be shown being refused.
func TestCh01_Kubectl_DemoServeRBAC(t *testing.T) {
	kubectl := kubectlPath(t)
	dir := t.TempDir()
	d := startDemoServe(t, dir, "--seed-pods", "1", "--authorization", "RBAC")
	assert.True(t, strings.HasPrefix(d.url, "https://127.0.0.1:"), "RBAC's admin token implies https: %s", d.url)
	assert.Contains(t, strings.Join(d.banner, "\n"), "  authz      RBAC: ")

	e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}
	assert.Regexp(t, `Groups\s+\[system:masters system:authenticated\]`, e.ok("auth", "whoami"))
	assert.Contains(t, e.ok("get", "pods"), "web-1")
	out, _, err := e.run("auth", "can-i", "list", "pods", "--as", "alice")
	require.Error(t, err)
	assert.Equal(t, "no\n", out)
	assert.Equal(t, []string{"stopped"}, d.interrupt(t))
}
