package clientcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseKubeconfig feeds arbitrary bytes to the kubeconfig reader, as a hand-edited or
// truncated ~/.kube/config would. Whatever arrives, parsing must not panic and must either
// fail with an error or give a Kubeconfig whose every context resolves to a Config with a
// server, or to an error. File references are cleared first: the fuzzer must not make the
// test read /dev/zero.
//
//	go test -run='^$' -fuzz=FuzzParseKubeconfig ./clientcmd/
func FuzzParseKubeconfig(f *testing.F) {
	real, err := os.ReadFile(filepath.Join("testdata", "kubeconfig.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real)
	corpus, err := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"kind":"Config","current-context":"c","clusters":[{"name":"k","cluster":{"server":"https://h:6443"}}],` +
		`"contexts":[{"name":"c","context":{"cluster":"k","user":"u"}}],"users":[{"name":"u","user":{"token":"t"}}]}`))
	f.Add([]byte("current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\n" +
		"clusters:\n- name: k\n  cluster:\n    server: 'https://h'\n    insecure-skip-tls-verify: true\n" +
		"users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x\n" +
		"      env:\n      - name: A\n        value: \"b\"\n      args: [\"-q\", 'y']\n"))
	f.Add([]byte("users:\n- name: u\n  user:\n    client-certificate-data: bm90IHBlbQ==\n    client-key-data: !!binary x\n"))
	f.Add([]byte("clusters: [\n"))
	f.Add([]byte("\t- : :\n  - ]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseKubeconfig(data)
		if err != nil {
			if k != nil {
				t.Fatalf("an error and a kubeconfig: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "clientcmd: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		for _, c := range k.Clusters {
			c.CertificateAuthority = ""
		}
		for _, u := range k.AuthInfos {
			u.TokenFile, u.ClientCertificate, u.ClientKey = "", "", ""
		}
		for name := range k.Contexts {
			cfg, err := k.ClientConfig(name)
			if err == nil && cfg.Host == "" {
				t.Fatalf("context %q: a Config without a server", name)
			}
			if _, err := k.Namespace(name); err != nil {
				t.Fatalf("context %q: Namespace: %v", name, err)
			}
		}
		_, _ = k.ClientConfig("")
	})
}
