package clientgo_test

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-lab/informer-lab/apiserver"
)

// Example_contentTypeJSON is the configuration a client-go program needs to talk to the
// simulator: ContentType "application/json". client-go's typed clientsets otherwise write
// protobuf, which the simulator refuses with 415 (wire spec CG1, N2).
func Example_contentTypeJSON() {
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}

	// client-go's default: protobuf request bodies.
	protobuf := kubernetes.NewForConfigOrDie(&rest.Config{Host: url})
	_, err = protobuf.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	fmt.Println("default config:", apierrors.ReasonForError(err))

	// What the simulator needs.
	cfg := &rest.Config{Host: url}
	cfg.ContentType = "application/json"
	cs := kubernetes.NewForConfigOrDie(cfg)
	created, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ContentType application/json: created", created.Name, created.Data)
	// Output:
	// default config: UnsupportedMediaType
	// ContentType application/json: created settings map[color:blue]
}
