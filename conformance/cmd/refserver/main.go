// Command refserver runs the reference for the conformance suite: an embedded etcd and the real
// kube-apiserver v1.36.3, built from source, in one process on loopback.
//
// It writes <out>/kubeconfig and <out>/server.json (URL and bearer token of a system:masters
// user), waits until /readyz answers ok, then prints "ready <url>" on stdout and serves until
// SIGINT or SIGTERM. No controllers run (see the conformance README).
package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/conformance/runner"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	out := flag.String("out", "", "directory for kubeconfig and server.json (default: a temp dir, printed)")
	compaction := flag.Duration("etcd-compaction-interval", 5*time.Minute, "kube-apiserver --etcd-compaction-interval")
	verbosity := flag.Int("v", 0, "kube-apiserver log verbosity")
	flag.Parse()

	work, err := os.MkdirTemp("", "refserver-")
	must(err)
	defer os.RemoveAll(work)
	if *out == "" {
		*out = work
	}
	must(os.MkdirAll(*out, 0o755))

	etcdURL, stopEtcd := startEtcd(filepath.Join(work, "etcd"))
	defer stopEtcd()

	token := randomToken()
	tokenFile := filepath.Join(work, "tokens.csv")
	must(os.WriteFile(tokenFile, []byte(token+`,conformance-admin,conformance-admin-uid,"system:masters"`+"\n"), 0o600))
	pub, key := serviceAccountKeys(work)
	port := freePort()
	serverURL := "https://127.0.0.1:" + strconv.Itoa(port)

	args := []string{
		"--etcd-servers=" + etcdURL,
		"--secure-port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--cert-dir=" + filepath.Join(work, "certs"),
		"--authorization-mode=AlwaysAllow",
		"--token-auth-file=" + tokenFile,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + pub,
		"--service-account-signing-key-file=" + key,
		"--service-cluster-ip-range=" + runner.ServiceClusterIPRange,
		"--enable-priority-and-fairness=false",
		// As kubeadm, kind and every managed cluster: privileged containers are allowed.
		"--allow-privileged=true",
		"--etcd-compaction-interval=" + compaction.String(),
		"--v=" + strconv.Itoa(*verbosity),
	}
	go announceWhenReady(serverURL, token, *out)

	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(args)
	os.Args = append([]string{"kube-apiserver"}, args...)
	code := cli.Run(cmd)
	stopEtcd()
	os.RemoveAll(work)
	os.Exit(code)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "refserver:", err)
		os.Exit(1)
	}
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startEtcd starts an embedded single-member etcd with its data in dir on two free loopback ports.
func startEtcd(dir string) (string, func()) {
	cfg := embed.NewConfig()
	cfg.Name = "refserver"
	cfg.Dir = dir
	cfg.LogLevel = "error"
	client, _ := url.Parse("http://127.0.0.1:" + strconv.Itoa(freePort()))
	peer, _ := url.Parse("http://127.0.0.1:" + strconv.Itoa(freePort()))
	cfg.ListenClientUrls = []url.URL{*client}
	cfg.AdvertiseClientUrls = []url.URL{*client}
	cfg.ListenPeerUrls = []url.URL{*peer}
	cfg.AdvertisePeerUrls = []url.URL{*peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	must(err)
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		must(fmt.Errorf("etcd not ready after 60s"))
	}
	stopped := false
	return client.String(), func() {
		if !stopped {
			stopped = true
			e.Close()
		}
	}
}

func randomToken() string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	must(err)
	return fmt.Sprintf("%x", b)
}

// serviceAccountKeys writes a fresh RSA key pair for signing service-account tokens.
func serviceAccountKeys(dir string) (pubFile, keyFile string) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	must(err)
	pubDER, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	must(err)
	keyFile = filepath.Join(dir, "sa.key")
	pubFile = filepath.Join(dir, "sa.pub")
	must(os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), 0o600))
	must(os.WriteFile(pubFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644))
	return pubFile, keyFile
}

// announceWhenReady polls /readyz, then writes the kubeconfig and server.json and prints "ready".
func announceWhenReady(serverURL, token, out string) {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, serverURL+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				writeConfig(serverURL, token, out)
				fmt.Println("ready " + serverURL)
				return
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "refserver: /readyz not ok after 5 minutes")
	os.Exit(1)
}

func writeConfig(serverURL, token, out string) {
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: reference
  cluster:
    server: %s
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: %s
contexts:
- name: reference
  context: {cluster: reference, user: admin}
current-context: reference
`, serverURL, token)
	must(os.WriteFile(filepath.Join(out, "kubeconfig"), []byte(kc), 0o600))
	b, _ := json.Marshal(map[string]string{"url": serverURL, "token": token, "kubeconfig": filepath.Join(out, "kubeconfig")})
	must(os.WriteFile(filepath.Join(out, "server.json"), b, 0o600))
}
