package listwatch

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Kubeconfig mirrors clientcmdapi.Config in client-go tools/clientcmd/api/types.go: the
// parts of a kubeconfig file this client can use. Parse one with ParseKubeconfig or
// LoadKubeconfig, then call ClientConfig.
type Kubeconfig struct {
	CurrentContext string
	Clusters       map[string]*KubeconfigCluster
	Contexts       map[string]*KubeconfigContext
	AuthInfos      map[string]*KubeconfigAuthInfo
	// dir resolves relative file names (certificate-authority, tokenFile, client-certificate,
	// client-key, an exec command with a path separator), as clientcmd resolves them against
	// the kubeconfig's own directory.
	dir string
}

// KubeconfigCluster mirrors clientcmdapi.Cluster.
type KubeconfigCluster struct {
	Server                   string
	CertificateAuthority     string // a file name
	CertificateAuthorityData []byte
	InsecureSkipTLSVerify    bool
	TLSServerName            string
	// unsupported lists fields that need features this client lacks (proxy-url).
	unsupported []string
}

// KubeconfigContext mirrors clientcmdapi.Context.
type KubeconfigContext struct {
	Cluster   string
	AuthInfo  string
	Namespace string
}

// KubeconfigAuthInfo mirrors clientcmdapi.AuthInfo, reduced to bearer tokens, client
// certificates and exec plugins. Other ways to authenticate (auth providers, basic auth,
// impersonation) are remembered only to be refused with a clear error.
type KubeconfigAuthInfo struct {
	// Token mirrors AuthInfo.Token.
	Token string
	// TokenFile mirrors AuthInfo.TokenFile: a file holding the token.
	TokenFile string
	// ClientCertificate mirrors AuthInfo.ClientCertificate: a PEM file (client-certificate).
	ClientCertificate string
	// ClientCertificateData mirrors AuthInfo.ClientCertificateData: PEM bytes, decoded from
	// the file's base64 (client-certificate-data). It wins over ClientCertificate.
	ClientCertificateData []byte
	// ClientKey mirrors AuthInfo.ClientKey: a PEM file (client-key).
	ClientKey string
	// ClientKeyData mirrors AuthInfo.ClientKeyData: PEM bytes (client-key-data). It wins
	// over ClientKey.
	ClientKeyData []byte
	// Exec mirrors AuthInfo.Exec: a credential plugin (exec).
	Exec *ExecConfig
	// unsupported lists the auth fields present that this client cannot use.
	unsupported []string
}

// defaultKubeconfigPath mirrors clientcmd's loading rules, reduced to one file: the first
// entry of $KUBECONFIG, else ~/.kube/config.
func defaultKubeconfigPath() (string, error) {
	if env := os.Getenv("KUBECONFIG"); env != "" {
		for _, p := range filepath.SplitList(env) {
			if p != "" {
				return p, nil
			}
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("listwatch: no kubeconfig path given and no home directory: %w", err)
	}
	return filepath.Join(home, ".kube", "config"), nil
}

// LoadKubeconfig mirrors clientcmd.LoadFromFile; an empty path means $KUBECONFIG (its first
// entry) or ~/.kube/config.
func LoadKubeconfig(path string) (*Kubeconfig, error) {
	if path == "" {
		var err error
		if path, err = defaultKubeconfigPath(); err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("listwatch: reading kubeconfig: %w", err)
	}
	k, err := ParseKubeconfig(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	k.dir = filepath.Dir(path)
	return k, nil
}

// BuildConfigFromKubeconfig mirrors clientcmd.BuildConfigFromFlags("", path): the Config of
// the kubeconfig's current context.
func BuildConfigFromKubeconfig(path string) (*Config, error) {
	k, err := LoadKubeconfig(path)
	if err != nil {
		return nil, err
	}
	return k.ClientConfig("")
}

// ParseKubeconfig mirrors clientcmd.Load: it reads a kubeconfig in YAML (the subset
// kubeconfig files use) or JSON. Relative file names resolve against the working directory.
func ParseKubeconfig(data []byte) (*Kubeconfig, error) {
	var tree any
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if err := json.Unmarshal(trimmed, &tree); err != nil {
			return nil, fmt.Errorf("listwatch: kubeconfig is not valid JSON: %w", err)
		}
	} else {
		var err error
		if tree, err = parseYAMLSubset(data); err != nil {
			return nil, fmt.Errorf("listwatch: kubeconfig: %w", err)
		}
	}
	root, ok := tree.(map[string]any)
	if !ok {
		if tree == nil {
			return nil, errors.New("listwatch: kubeconfig is empty")
		}
		return nil, fmt.Errorf("listwatch: kubeconfig must be a mapping, got %T", tree)
	}
	if kind := str(root["kind"]); kind != "" && kind != "Config" {
		return nil, fmt.Errorf("listwatch: kubeconfig has kind %q, want Config", kind)
	}
	k := &Kubeconfig{
		CurrentContext: str(root["current-context"]),
		Clusters:       map[string]*KubeconfigCluster{},
		Contexts:       map[string]*KubeconfigContext{},
		AuthInfos:      map[string]*KubeconfigAuthInfo{},
	}
	err := namedEntries(root, "clusters", "cluster", func(name string, m map[string]any) error {
		c := &KubeconfigCluster{
			Server:               str(m["server"]),
			CertificateAuthority: str(m["certificate-authority"]),
			TLSServerName:        str(m["tls-server-name"]),
		}
		var err error
		if c.InsecureSkipTLSVerify, err = boolean(m["insecure-skip-tls-verify"]); err != nil {
			return fmt.Errorf("insecure-skip-tls-verify: %w", err)
		}
		if c.CertificateAuthorityData, err = base64Field(m, "certificate-authority-data"); err != nil {
			return err
		}
		if m["proxy-url"] != nil {
			c.unsupported = append(c.unsupported, "proxy-url")
		}
		k.Clusters[name] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = namedEntries(root, "contexts", "context", func(name string, m map[string]any) error {
		k.Contexts[name] = &KubeconfigContext{Cluster: str(m["cluster"]), AuthInfo: str(m["user"]), Namespace: str(m["namespace"])}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = namedEntries(root, "users", "user", func(name string, m map[string]any) error {
		u := &KubeconfigAuthInfo{Token: str(m["token"]), TokenFile: str(m["tokenFile"]),
			ClientCertificate: str(m["client-certificate"]), ClientKey: str(m["client-key"])}
		var err error
		if u.ClientCertificateData, err = base64Field(m, "client-certificate-data"); err != nil {
			return err
		}
		if u.ClientKeyData, err = base64Field(m, "client-key-data"); err != nil {
			return err
		}
		if u.Exec, err = parseExec(m["exec"]); err != nil {
			return fmt.Errorf("exec: %w", err)
		}
		for _, f := range []string{"auth-provider", "username", "password", "as", "as-groups", "as-uid"} {
			if v, ok := m[f]; ok && v != nil && v != "" {
				u.unsupported = append(u.unsupported, f)
			}
		}
		k.AuthInfos[name] = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// base64Field decodes the base64 string m[key] (the *-data fields); absent is nil.
func base64Field(m map[string]any, key string) ([]byte, error) {
	s := str(m[key])
	if s == "" {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%s is not base64: %w", key, err)
	}
	return b, nil
}

// parseExec reads a user's exec mapping into an ExecConfig, as clientcmd decodes
// clientcmdapi.ExecConfig; nil when there is none. Whether the values make sense is checked
// by ClientConfig.
func parseExec(v any) (*ExecConfig, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a mapping, got %T", v)
	}
	e := &ExecConfig{Command: str(m["command"]), APIVersion: str(m["apiVersion"]),
		InstallHint: str(m["installHint"]), InteractiveMode: ExecInteractiveMode(str(m["interactiveMode"]))}
	var err error
	if e.ProvideClusterInfo, err = boolean(m["provideClusterInfo"]); err != nil {
		return nil, fmt.Errorf("provideClusterInfo: %w", err)
	}
	if e.Args, err = stringList(m["args"], "args"); err != nil {
		return nil, err
	}
	switch env := m["env"].(type) {
	case nil:
	case []any:
		for i, item := range env {
			vm, ok := item.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("env[%d] must be a mapping with name and value", i)
			}
			e.Env = append(e.Env, ExecEnvVar{Name: str(vm["name"]), Value: str(vm["value"])})
		}
	default:
		return nil, fmt.Errorf("env must be a list, got %T", env)
	}
	return e, nil
}

// stringList reads a list of scalars, as exec args.
func stringList(v any, what string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a list, got %T", what, v)
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		switch it.(type) {
		case string, float64, bool:
			out = append(out, fmt.Sprint(it))
		default:
			return nil, fmt.Errorf("%s[%d] must be a string, got %T", what, i, it)
		}
	}
	return out, nil
}

// namedEntries walks a list of {name: …, <inner>: {…}} entries, as in "clusters".
func namedEntries(root map[string]any, list, inner string, fn func(name string, m map[string]any) error) error {
	raw, ok := root[list]
	if !ok || raw == nil {
		return nil
	}
	items, ok := raw.([]any)
	if !ok {
		return fmt.Errorf("listwatch: kubeconfig %s must be a list, got %T", list, raw)
	}
	for i, it := range items {
		entry, ok := it.(map[string]any)
		if !ok {
			return fmt.Errorf("listwatch: kubeconfig %s[%d] must be a mapping", list, i)
		}
		name := str(entry["name"])
		if name == "" {
			return fmt.Errorf("listwatch: kubeconfig %s[%d] has no name", list, i)
		}
		m, ok := entry[inner].(map[string]any)
		if !ok && entry[inner] != nil {
			return fmt.Errorf("listwatch: kubeconfig %s %q: %s must be a mapping", list, name, inner)
		}
		if m == nil {
			m = map[string]any{}
		}
		if err := fn(name, m); err != nil {
			return fmt.Errorf("listwatch: kubeconfig %s %q: %w", list, name, err)
		}
	}
	return nil
}

// str returns v as a string; numbers from JSON are printed, other types give "".
func str(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return fmt.Sprint(t)
	}
	return ""
}

// boolean accepts a JSON bool or the YAML words true/false (any case).
func boolean(v any) (bool, error) {
	switch t := v.(type) {
	case nil:
		return false, nil
	case bool:
		return t, nil
	case string:
		switch strings.ToLower(t) {
		case "true":
			return true, nil
		case "false", "":
			return false, nil
		}
	}
	return false, fmt.Errorf("want true or false, got %v", v)
}

func (k *Kubeconfig) resolve(path string) string {
	if path == "" || filepath.IsAbs(path) || k.dir == "" {
		return path
	}
	return filepath.Join(k.dir, path)
}

// context returns the named context, or the current one for "".
func (k *Kubeconfig) context(name string) (string, *KubeconfigContext, error) {
	if name == "" {
		name = k.CurrentContext
	}
	if name == "" {
		return "", nil, errors.New("listwatch: invalid kubeconfig: no current-context is set and no context was named")
	}
	c, ok := k.Contexts[name]
	if !ok {
		return "", nil, fmt.Errorf("listwatch: context %q not found in kubeconfig (have %s)", name, keysOf(k.Contexts))
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
func (k *Kubeconfig) ClientConfig(contextName string) (*Config, error) {
	name, ctx, err := k.context(contextName)
	if err != nil {
		return nil, err
	}
	cl, ok := k.Clusters[ctx.Cluster]
	if !ok {
		return nil, fmt.Errorf("listwatch: context %q names cluster %q, which is not in the kubeconfig", name, ctx.Cluster)
	}
	if cl.Server == "" {
		return nil, fmt.Errorf("listwatch: cluster %q has no server", ctx.Cluster)
	}
	if len(cl.unsupported) > 0 {
		return nil, fmt.Errorf("listwatch: cluster %q uses %s, which this client does not support", ctx.Cluster, strings.Join(cl.unsupported, ", "))
	}
	cfg := &Config{Host: cl.Server, Insecure: cl.InsecureSkipTLSVerify, TLSServerName: cl.TLSServerName, CAData: cl.CertificateAuthorityData}
	if len(cfg.CAData) == 0 && cl.CertificateAuthority != "" {
		if cfg.CAData, err = os.ReadFile(k.resolve(cl.CertificateAuthority)); err != nil {
			return nil, fmt.Errorf("listwatch: cluster %q certificate-authority: %w", ctx.Cluster, err)
		}
	}
	if ctx.AuthInfo != "" {
		u, ok := k.AuthInfos[ctx.AuthInfo]
		if !ok {
			return nil, fmt.Errorf("listwatch: context %q names user %q, which is not in the kubeconfig", name, ctx.AuthInfo)
		}
		if err := k.applyAuthInfo(cfg, ctx.AuthInfo, u); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// applyAuthInfo mirrors the user half of DirectClientConfig.getUserIdentificationPartialConfig
// with the checks of clientcmd's validateAuthInfo.
func (k *Kubeconfig) applyAuthInfo(cfg *Config, user string, u *KubeconfigAuthInfo) error {
	if len(u.unsupported) > 0 {
		return fmt.Errorf("listwatch: user %q authenticates with %s, which this client does not support; "+
			"use a token (for example from `kubectl create token <serviceaccount>`), a client certificate or an exec plugin instead",
			user, strings.Join(u.unsupported, ", "))
	}
	cfg.BearerToken = u.Token
	if cfg.BearerToken == "" && u.TokenFile != "" {
		b, err := os.ReadFile(k.resolve(u.TokenFile))
		if err != nil {
			return fmt.Errorf("listwatch: user %q tokenFile: %w", user, err)
		}
		cfg.BearerToken = strings.TrimSpace(string(b))
	}
	hasCert := u.ClientCertificate != "" || len(u.ClientCertificateData) > 0
	hasKey := u.ClientKey != "" || len(u.ClientKeyData) > 0
	switch {
	case hasCert && !hasKey:
		return fmt.Errorf("listwatch: user %q has a client certificate but no key: set client-key or client-key-data too", user)
	case hasKey && !hasCert:
		return fmt.Errorf("listwatch: user %q has a client key but no certificate: set client-certificate or client-certificate-data too", user)
	}
	var err error
	if cfg.CertData, err = k.dataOrFile(u.ClientCertificateData, u.ClientCertificate); err != nil {
		return fmt.Errorf("listwatch: user %q client-certificate: %w", user, err)
	}
	if cfg.KeyData, err = k.dataOrFile(u.ClientKeyData, u.ClientKey); err != nil {
		return fmt.Errorf("listwatch: user %q client-key: %w", user, err)
	}
	if u.Exec != nil {
		e := u.Exec.clone()
		// As clientcmd does, only a command with a path separator is relative to the file;
		// a bare name is looked up in PATH.
		if strings.ContainsRune(e.Command, filepath.Separator) {
			e.Command = k.resolve(e.Command)
		}
		if err := e.validate(); err != nil {
			return fmt.Errorf("listwatch: user %q: %w", user, err)
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
