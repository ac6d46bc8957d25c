package clientgo_test

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-lab/informer-lab/apiserver"
)

// Example_defaultConfig is all a client-go program needs to talk to the simulator: a
// rest.Config with its Host. client-go's typed clientsets write protobuf by default, which the
// simulator reads as a real server does (docs/behaviour/wire.md CG1, N2).
func Example_defaultConfig() {
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}

	cs := kubernetes.NewForConfigOrDie(&rest.Config{Host: url})
	created, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("default config (protobuf): created", created.Name, created.Data)
	// Output:
	// default config (protobuf): created settings map[color:blue]
}
