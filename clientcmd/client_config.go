package clientcmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/plugin/pkg/client/auth/exec"
	"github.com/informer-lab/informer-lab/rest"
)

func (k *Kubeconfig) resolve(path string) string {
	if path == "" || filepath.IsAbs(path) || k.dir == "" {
		return path
	}
	return filepath.Join(k.dir, path)
}

// context returns the named context, or the current one for "".
func (k *Kubeconfig) context(name string) (string, *api.Context, error) {
	if name == "" {
		name = k.CurrentContext
	}
	if name == "" {
		return "", nil, errors.New("clientcmd: invalid kubeconfig: no current-context is set and no context was named")
	}
	c, ok := k.Contexts[name]
	if !ok {
		return "", nil, fmt.Errorf("clientcmd: context %q not found in kubeconfig (have %s)", name, keysOf(k.Contexts))
	}
	return name, c, nil
}

func keysOf[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, fmt.Sprintf("%q", k))
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// ClientConfig mirrors DirectClientConfig.ClientConfig: the Config for the named context
// ("" = current-context). A user may authenticate with a token or token file, a client
// certificate and key (data or files; data wins, as in clientcmd) and an exec plugin, which
// the Config's token or certificate overrides (see Config). Auth providers, basic auth and
// impersonation are refused with an error naming the field, rather than silently sending no
// credentials.
func (k *Kubeconfig) ClientConfig(contextName string) (*rest.Config, error) {
	name, ctx, err := k.context(contextName)
	if err != nil {
		return nil, err
	}
	cl, ok := k.Clusters[ctx.Cluster]
	if !ok {
		return nil, fmt.Errorf("clientcmd: context %q names cluster %q, which is not in the kubeconfig", name, ctx.Cluster)
	}
	if cl.Server == "" {
		return nil, fmt.Errorf("clientcmd: cluster %q has no server", ctx.Cluster)
	}
	if cl.ProxyURL != "" {
		return nil, fmt.Errorf("clientcmd: cluster %q uses proxy-url, which this client does not support", ctx.Cluster)
	}
	cfg := &rest.Config{Host: cl.Server, Insecure: cl.InsecureSkipTLSVerify, TLSServerName: cl.TLSServerName, CAData: cl.CertificateAuthorityData}
	if len(cfg.CAData) == 0 && cl.CertificateAuthority != "" {
		if cfg.CAData, err = os.ReadFile(k.resolve(cl.CertificateAuthority)); err != nil {
			return nil, fmt.Errorf("clientcmd: cluster %q certificate-authority: %w", ctx.Cluster, err)
		}
	}
	if ctx.AuthInfo != "" {
		u, ok := k.AuthInfos[ctx.AuthInfo]
		if !ok {
			return nil, fmt.Errorf("clientcmd: context %q names user %q, which is not in the kubeconfig", name, ctx.AuthInfo)
		}
		if err := k.applyAuthInfo(cfg, ctx.AuthInfo, u); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// applyAuthInfo mirrors the user half of DirectClientConfig.getUserIdentificationPartialConfig
// with the checks of clientcmd's validateAuthInfo.
func (k *Kubeconfig) applyAuthInfo(cfg *rest.Config, user string, u *api.AuthInfo) error {
	if unsupported := unsupportedAuth(u); len(unsupported) > 0 {
		return fmt.Errorf("clientcmd: user %q authenticates with %s, which this client does not support; "+
			"use a token (for example from `kubectl create token <serviceaccount>`), a client certificate or an exec plugin instead",
			user, strings.Join(unsupported, ", "))
	}
	cfg.BearerToken = u.Token
	if cfg.BearerToken == "" && u.TokenFile != "" {
		b, err := os.ReadFile(k.resolve(u.TokenFile))
		if err != nil {
			return fmt.Errorf("clientcmd: user %q tokenFile: %w", user, err)
		}
		cfg.BearerToken = strings.TrimSpace(string(b))
	}
	hasCert := u.ClientCertificate != "" || len(u.ClientCertificateData) > 0
	hasKey := u.ClientKey != "" || len(u.ClientKeyData) > 0
	switch {
	case hasCert && !hasKey:
		return fmt.Errorf("clientcmd: user %q has a client certificate but no key: set client-key or client-key-data too", user)
	case hasKey && !hasCert:
		return fmt.Errorf("clientcmd: user %q has a client key but no certificate: set client-certificate or client-certificate-data too", user)
	}
	var err error
	if cfg.CertData, err = k.dataOrFile(u.ClientCertificateData, u.ClientCertificate); err != nil {
		return fmt.Errorf("clientcmd: user %q client-certificate: %w", user, err)
	}
	if cfg.KeyData, err = k.dataOrFile(u.ClientKeyData, u.ClientKey); err != nil {
		return fmt.Errorf("clientcmd: user %q client-key: %w", user, err)
	}
	if u.Exec != nil {
		e := u.Exec.DeepCopy()
		// As clientcmd does, only a command with a path separator is relative to the file;
		// a bare name is looked up in PATH.
		if strings.ContainsRune(e.Command, filepath.Separator) {
			e.Command = k.resolve(e.Command)
		}
		if err := exec.Validate(e); err != nil {
			return fmt.Errorf("clientcmd: user %q: %w", user, err)
		}
		cfg.ExecProvider = e
	}
	return nil
}

// dataOrFile mirrors dataFromSliceOrFile in client-go rest/config.go: the data when set,
// else the file's contents (relative to the kubeconfig), else nil.
func (k *Kubeconfig) dataOrFile(data []byte, file string) ([]byte, error) {
	if len(data) > 0 {
		return data, nil
	}
	if file == "" {
		return nil, nil
	}
	return os.ReadFile(k.resolve(file))
}

// Namespace mirrors ClientConfig.Namespace: the context's namespace, or "default".
func (k *Kubeconfig) Namespace(contextName string) (string, error) {
	_, ctx, err := k.context(contextName)
	if err != nil {
		return "", err
	}
	if ctx.Namespace == "" {
		return "default", nil
	}
	return ctx.Namespace, nil
}

// unsupportedAuth names the fields of u that ask for a way to authenticate this client does
// not have (auth providers, basic auth, impersonation), in the order the file documents them.
func unsupportedAuth(u *api.AuthInfo) []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"auth-provider", u.AuthProvider != nil},
		{"username", u.Username != ""},
		{"password", u.Password != ""},
		{"as", u.Impersonate != ""},
		{"as-groups", u.ImpersonateGroups != nil},
		{"as-uid", u.ImpersonateUID != ""},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}
