package clientcmd

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Load mirrors clientcmd.Load: it reads a kubeconfig in YAML or JSON into the wire shape,
// entries in file order. Relative file names are left as written; LoadKubeconfig resolves
// them against the file's directory.
func Load(data []byte) (*api.Config, error) {
	var tree any
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if err := json.Unmarshal(trimmed, &tree); err != nil {
			return nil, fmt.Errorf("clientcmd: kubeconfig is not valid JSON: %w", err)
		}
	} else {
		var err error
		if tree, err = parseYAML(data); err != nil {
			return nil, fmt.Errorf("clientcmd: kubeconfig: %w", err)
		}
	}
	return configFromTree(tree)
}

// configFromTree fills the wire shape from a parsed file. It is written out field by field,
// not left to encoding/json, so that errors name the entry (`users "u": exec: …`) and so that
// a YAML plain scalar is read as its field wants: "true" is a boolean for
// insecure-skip-tls-verify and text for a token.
func configFromTree(tree any) (*api.Config, error) {
	root, ok := tree.(map[string]any)
	if !ok {
		if tree == nil {
			return nil, errors.New("clientcmd: kubeconfig is empty")
		}
		return nil, fmt.Errorf("clientcmd: kubeconfig must be a mapping, got %s", describe(tree))
	}
	cfg := &api.Config{Kind: str(root["kind"]), APIVersion: str(root["apiVersion"]), CurrentContext: str(root["current-context"])}
	if cfg.Kind != "" && cfg.Kind != "Config" {
		return nil, fmt.Errorf("clientcmd: kubeconfig has kind %q, want Config", cfg.Kind)
	}
	var err error
	if cfg.Extensions, err = extensions(root["extensions"]); err != nil {
		return nil, fmt.Errorf("clientcmd: kubeconfig %w", err)
	}
	if prefs, ok := root["preferences"].(map[string]any); ok {
		if cfg.Preferences.Colors, err = boolean(prefs["colors"]); err != nil {
			return nil, fmt.Errorf("clientcmd: kubeconfig preferences: colors: %w", err)
		}
		if cfg.Preferences.Extensions, err = extensions(prefs["extensions"]); err != nil {
			return nil, fmt.Errorf("clientcmd: kubeconfig preferences: %w", err)
		}
	}
	err = namedEntries(root, "clusters", "cluster", func(name string, m map[string]any) (err error) {
		c := api.Cluster{Server: str(m["server"]), CertificateAuthority: str(m["certificate-authority"]),
			TLSServerName: str(m["tls-server-name"]), ProxyURL: str(m["proxy-url"])}
		if c.InsecureSkipTLSVerify, err = boolean(m["insecure-skip-tls-verify"]); err != nil {
			return fmt.Errorf("insecure-skip-tls-verify: %w", err)
		}
		if c.DisableCompression, err = boolean(m["disable-compression"]); err != nil {
			return fmt.Errorf("disable-compression: %w", err)
		}
		if c.CertificateAuthorityData, err = base64Field(m, "certificate-authority-data"); err != nil {
			return err
		}
		if c.Extensions, err = extensions(m["extensions"]); err != nil {
			return err
		}
		cfg.Clusters = append(cfg.Clusters, api.NamedCluster{Name: name, Cluster: c})
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = namedEntries(root, "contexts", "context", func(name string, m map[string]any) (err error) {
		c := api.Context{Cluster: str(m["cluster"]), AuthInfo: str(m["user"]), Namespace: str(m["namespace"])}
		if c.Extensions, err = extensions(m["extensions"]); err != nil {
			return err
		}
		cfg.Contexts = append(cfg.Contexts, api.NamedContext{Name: name, Context: c})
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = namedEntries(root, "users", "user", func(name string, m map[string]any) error {
		u, err := authInfoFromTree(m)
		if err != nil {
			return err
		}
		cfg.AuthInfos = append(cfg.AuthInfos, api.NamedAuthInfo{Name: name, AuthInfo: *u})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

func authInfoFromTree(m map[string]any) (u *api.AuthInfo, err error) {
	u = &api.AuthInfo{Token: str(m["token"]), TokenFile: str(m["tokenFile"]),
		ClientCertificate: str(m["client-certificate"]), ClientKey: str(m["client-key"]),
		Impersonate: str(m["as"]), ImpersonateUID: str(m["as-uid"]),
		Username: str(m["username"]), Password: str(m["password"])}
	if u.ClientCertificateData, err = base64Field(m, "client-certificate-data"); err != nil {
		return nil, err
	}
	if u.ClientKeyData, err = base64Field(m, "client-key-data"); err != nil {
		return nil, err
	}
	if u.Exec, err = parseExec(m["exec"]); err != nil {
		return nil, fmt.Errorf("exec: %w", err)
	}
	if u.ImpersonateGroups, err = stringList(m["as-groups"], "as-groups"); err != nil {
		return nil, err
	}
	if extra, ok := m["as-user-extra"].(map[string]any); ok {
		u.ImpersonateUserExtra = map[string][]string{}
		for k, v := range extra {
			if u.ImpersonateUserExtra[k], err = stringList(v, "as-user-extra"); err != nil {
				return nil, err
			}
		}
	}
	switch ap := m["auth-provider"].(type) {
	case nil:
	case map[string]any:
		u.AuthProvider = &api.AuthProviderConfig{Name: str(ap["name"])}
		if conf, ok := ap["config"].(map[string]any); ok {
			u.AuthProvider.Config = map[string]string{}
			for k, v := range conf {
				u.AuthProvider.Config[k] = str(v)
			}
		}
	default:
		return nil, fmt.Errorf("auth-provider must be a mapping, got %s", describe(ap))
	}
	if u.Extensions, err = extensions(m["extensions"]); err != nil {
		return nil, err
	}
	return u, nil
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

// parseExec reads a user's exec mapping, as clientcmd decodes clientcmdapi.ExecConfig; nil
// when there is none. Whether the values make sense is checked by ClientConfig.
func parseExec(v any) (*api.ExecConfig, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a mapping, got %s", describe(v))
	}
	e := &api.ExecConfig{Command: str(m["command"]), APIVersion: str(m["apiVersion"]),
		InstallHint: str(m["installHint"]), InteractiveMode: api.ExecInteractiveMode(str(m["interactiveMode"]))}
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
			e.Env = append(e.Env, api.ExecEnvVar{Name: str(vm["name"]), Value: str(vm["value"])})
		}
	default:
		return nil, fmt.Errorf("env must be a list, got %s", describe(env))
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
		return nil, fmt.Errorf("%s must be a list, got %s", what, describe(v))
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		switch it.(type) {
		case string, plain, float64, bool:
			out = append(out, str(it))
		default:
			return nil, fmt.Errorf("%s[%d] must be a string, got %s", what, i, describe(it))
		}
	}
	return out, nil
}

// extensions reads a list of {name, extension} entries; each extension is kept as JSON,
// with YAML plain scalars typed as YAML 1.1 types them.
func extensions(v any) ([]api.NamedExtension, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("extensions must be a list, got %s", describe(v))
	}
	out := make([]api.NamedExtension, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("extensions[%d] must be a mapping with name and extension", i)
		}
		raw, err := json.Marshal(jsonValue(m["extension"]))
		if err != nil {
			return nil, fmt.Errorf("extensions[%d]: %w", i, err)
		}
		out = append(out, api.NamedExtension{Name: str(m["name"]), Extension: raw})
	}
	return out, nil
}

// jsonValue turns a parsed tree into what encoding/json writes, typing plain scalars.
func jsonValue(v any) any {
	switch t := v.(type) {
	case plain:
		return resolvePlain(string(t)) // NaN and ±Inf make encoding/json fail, as kubectl does
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}

// namedEntries walks a list of {name: …, <inner>: {…}} entries, as in "clusters".
func namedEntries(root map[string]any, list, inner string, fn func(name string, m map[string]any) error) error {
	raw, ok := root[list]
	if !ok || raw == nil {
		return nil
	}
	items, ok := raw.([]any)
	if !ok {
		return fmt.Errorf("clientcmd: kubeconfig %s must be a list, got %s", list, describe(raw))
	}
	for i, it := range items {
		entry, ok := it.(map[string]any)
		if !ok {
			return fmt.Errorf("clientcmd: kubeconfig %s[%d] must be a mapping", list, i)
		}
		name := str(entry["name"])
		if name == "" {
			return fmt.Errorf("clientcmd: kubeconfig %s[%d] has no name", list, i)
		}
		m, ok := entry[inner].(map[string]any)
		if !ok && entry[inner] != nil {
			return fmt.Errorf("clientcmd: kubeconfig %s %q: %s must be a mapping", list, name, inner)
		}
		if m == nil {
			m = map[string]any{}
		}
		if err := fn(name, m); err != nil {
			return fmt.Errorf("clientcmd: kubeconfig %s %q: %w", list, name, err)
		}
	}
	return nil
}

// str returns a scalar as text: a YAML plain scalar as written, a JSON number printed; other
// values give "".
func str(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case plain:
		return string(t)
	case float64:
		return fmt.Sprint(t)
	}
	return ""
}

// boolean accepts a JSON bool, a YAML 1.1 boolean (yes, on, true… as kubectl's parser does)
// or the words true and false in any case.
func boolean(v any) (bool, error) {
	switch t := v.(type) {
	case nil:
		return false, nil
	case bool:
		return t, nil
	case plain:
		if b, ok := resolvePlain(string(t)).(bool); ok {
			return b, nil
		}
		return boolean(string(t))
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

// describe names the kind of a parsed value for an error message.
func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string, plain:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}
