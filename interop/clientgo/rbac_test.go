package clientgo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/informer-lab/informer-lab/apiserver"
)

// TestInterop_RBACAndTokens: stock client-go with its default protobuf encoding creates a
// service account's token (serviceaccounts/token), reviews it (TokenReview), asks the server
// who it is and what it may do (SelfSubjectReview, SelfSubjectAccessReview,
// SelfSubjectRulesReview), gets a Forbidden that apierrors recognises, and is allowed once a
// RoleBinding made with the typed RBAC client grants the view ClusterRole.
func TestInterop_RBACAndTokens(t *testing.T) {
	ctx := context.Background()
	srv := apiserver.NewTLSTestServer(t, apiserver.Options{BearerToken: "admin", Authorization: apiserver.AuthorizationRBAC})
	cfg, err := clientcmd.RESTConfigFromKubeConfig(srv.Kubeconfig())
	require.NoError(t, err)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	admin, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)

	_, err = admin.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	tr, err := admin.CoreV1().ServiceAccounts("default").CreateToken(ctx, "robot", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, tr.Status.Token)
	assert.Equal(t, int64(3600), *tr.Spec.ExpirationSeconds)

	review, err := admin.AuthenticationV1().TokenReviews().Create(ctx, &authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: tr.Status.Token}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.True(t, review.Status.Authenticated)
	assert.Equal(t, "system:serviceaccount:default:robot", review.Status.User.Username)

	robotCfg := rest.AnonymousClientConfig(cfg)
	robotCfg.BearerToken = tr.Status.Token
	robot, err := kubernetes.NewForConfig(robotCfg)
	require.NoError(t, err)
	who, err := robot.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}, who.Status.UserInfo.Groups)

	listPods := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "list", Resource: "pods", Namespace: "default"}}}
	sar, err := robot.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, listPods, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.False(t, sar.Status.Allowed)
	_, err = robot.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.Equal(t, `pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"`, err.Error())

	_, err = admin.RbacV1().RoleBindings("default").Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "robot-view"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "robot", Namespace: "default"}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	sar, err = robot.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, listPods, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.True(t, sar.Status.Allowed)
	_, err = robot.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)

	rules, err := robot.AuthorizationV1().SelfSubjectRulesReviews().Create(ctx, &authorizationv1.SelfSubjectRulesReview{
		Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: "default"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Contains(t, rules.Status.ResourceRules, authorizationv1.ResourceRule{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""},
		Resources: []string{"configmaps", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status", "pods",
			"replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services", "services/status"}},
		"system:aggregate-to-view's first rule, through view's aggregation")

	crs, err := admin.RbacV1().ClusterRoles().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, crs.Items, 69)
}
