package api

import "encoding/json"

// The kubeconfig file, as a wire type: the one shape clientcmd reads and writes and the
// simulated apiserver fills in for its admin. The JSON names are the kubeconfig's own, so
// encoding/json writes a kubeconfig (YAML is a superset of JSON: kubectl reads it as is) and
// reads kubectl's `config view -o json`.

// Config mirrors clientcmd/api/v1.Config in client-go: a kubeconfig file. Lists of named
// entries stay lists, in file order, as in the file.
type Config struct {
	Kind        string      `json:"kind,omitempty"`
	APIVersion  string      `json:"apiVersion,omitempty"`
	Preferences Preferences `json:"preferences"`
	// Clusters mirrors Config.Clusters: where the servers are and how to trust them.
	Clusters []NamedCluster `json:"clusters"`
	// AuthInfos mirrors Config.AuthInfos ("users"): who the client is.
	AuthInfos []NamedAuthInfo `json:"users"`
	// Contexts mirrors Config.Contexts: a cluster, a user and a namespace, by name.
	Contexts []NamedContext `json:"contexts"`
	// CurrentContext mirrors Config.CurrentContext: the context used when none is named.
	CurrentContext string           `json:"current-context"`
	Extensions     []NamedExtension `json:"extensions,omitempty"`
}

// Preferences mirrors clientcmd/api/v1.Preferences; no client here reads it, but a file
// written back keeps it.
type Preferences struct {
	Colors     bool             `json:"colors,omitempty"`
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// NamedCluster mirrors clientcmd/api/v1.NamedCluster.
type NamedCluster struct {
	Name    string  `json:"name"`
	Cluster Cluster `json:"cluster"`
}

// Cluster mirrors clientcmd/api/v1.Cluster. The *Data fields hold the bytes themselves;
// encoding/json writes and reads them in base64, as the file has them.
type Cluster struct {
	Server                   string           `json:"server"`
	TLSServerName            string           `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool             `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthority     string           `json:"certificate-authority,omitempty"`
	CertificateAuthorityData []byte           `json:"certificate-authority-data,omitempty"`
	ProxyURL                 string           `json:"proxy-url,omitempty"`
	DisableCompression       bool             `json:"disable-compression,omitempty"`
	Extensions               []NamedExtension `json:"extensions,omitempty"`
}

// NamedAuthInfo mirrors clientcmd/api/v1.NamedAuthInfo.
type NamedAuthInfo struct {
	Name     string   `json:"name"`
	AuthInfo AuthInfo `json:"user"`
}

// AuthInfo mirrors clientcmd/api/v1.AuthInfo: every way a kubeconfig user can authenticate,
// including those (auth providers, basic auth, impersonation) the client here refuses.
type AuthInfo struct {
	ClientCertificate     string `json:"client-certificate,omitempty"`
	ClientCertificateData []byte `json:"client-certificate-data,omitempty"`
	ClientKey             string `json:"client-key,omitempty"`
	ClientKeyData         []byte `json:"client-key-data,omitempty"`
	Token                 string `json:"token,omitempty"`
	// TokenFile mirrors AuthInfo.TokenFile; the file's name for it really is camel case.
	TokenFile            string              `json:"tokenFile,omitempty"`
	Impersonate          string              `json:"as,omitempty"`
	ImpersonateUID       string              `json:"as-uid,omitempty"`
	ImpersonateGroups    []string            `json:"as-groups,omitempty"`
	ImpersonateUserExtra map[string][]string `json:"as-user-extra,omitempty"`
	Username             string              `json:"username,omitempty"`
	Password             string              `json:"password,omitempty"`
	AuthProvider         *AuthProviderConfig `json:"auth-provider,omitempty"`
	Exec                 *ExecConfig         `json:"exec,omitempty"`
	Extensions           []NamedExtension    `json:"extensions,omitempty"`
}

// NamedContext mirrors clientcmd/api/v1.NamedContext.
type NamedContext struct {
	Name    string  `json:"name"`
	Context Context `json:"context"`
}

// Context mirrors clientcmd/api/v1.Context. AuthInfo is the user's name ("user").
type Context struct {
	Cluster    string           `json:"cluster"`
	AuthInfo   string           `json:"user"`
	Namespace  string           `json:"namespace,omitempty"`
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// NamedExtension mirrors clientcmd/api/v1.NamedExtension. The extension stays raw JSON, as
// client-go's runtime.RawExtension keeps an object of a kind it does not know.
type NamedExtension struct {
	Name      string          `json:"name"`
	Extension json.RawMessage `json:"extension"`
}

// AuthProviderConfig mirrors clientcmd/api/v1.AuthProviderConfig (oidc, gcp, azure), kept
// only so that a kubeconfig using it is refused with its name.
type AuthProviderConfig struct {
	Name   string            `json:"name"`
	Config map[string]string `json:"config,omitempty"`
}

// ExecConfig mirrors clientcmd/api/v1.ExecConfig: a credential plugin, the `exec` stanza that
// EKS, GKE and AKS kubeconfigs carry. It is also the type of rest.Config.ExecProvider, as
// client-go's rest.Config.ExecProvider is a clientcmdapi.ExecConfig. The cluster extension
// config (spec.cluster.config) and the plugin allowlist policy are left out.
type ExecConfig struct {
	// Command mirrors ExecConfig.Command: the executable, looked up in PATH when it holds no
	// path separator; in a kubeconfig a relative path resolves against the file's directory.
	Command string `json:"command"`
	// Args mirrors ExecConfig.Args.
	Args []string `json:"args"`
	// Env mirrors ExecConfig.Env: variables set on top of this process's environment.
	Env []ExecEnvVar `json:"env"`
	// APIVersion mirrors ExecConfig.APIVersion: client.authentication.k8s.io/v1 or v1beta1.
	APIVersion string `json:"apiVersion,omitempty"`
	// InstallHint mirrors ExecConfig.InstallHint: shown when Command is not found.
	InstallHint string `json:"installHint,omitempty"`
	// ProvideClusterInfo mirrors ExecConfig.ProvideClusterInfo: when true, the plugin's input
	// carries spec.cluster (server, CA data, insecure-skip-tls-verify, tls-server-name).
	ProvideClusterInfo bool `json:"provideClusterInfo"`
	// InteractiveMode mirrors ExecConfig.InteractiveMode; see ExecInteractiveMode.
	InteractiveMode ExecInteractiveMode `json:"interactiveMode,omitempty"`
}

// ExecEnvVar mirrors clientcmd/api/v1.ExecEnvVar: one environment variable for the plugin.
type ExecEnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ExecInteractiveMode mirrors clientcmd/api/v1.ExecInteractiveMode: whether the plugin wants
// the user's terminal.
type ExecInteractiveMode string

// The interactive modes. The client here never gives a plugin a terminal: Never and
// IfAvailable (and "", which kubectl defaults to IfAvailable for v1beta1) run the plugin with
// no stdin, and Always is refused.
const (
	// NeverExecInteractiveMode mirrors clientcmdapi.NeverExecInteractiveMode.
	NeverExecInteractiveMode ExecInteractiveMode = "Never"
	// IfAvailableExecInteractiveMode mirrors clientcmdapi.IfAvailableExecInteractiveMode.
	IfAvailableExecInteractiveMode ExecInteractiveMode = "IfAvailable"
	// AlwaysExecInteractiveMode mirrors clientcmdapi.AlwaysExecInteractiveMode.
	AlwaysExecInteractiveMode ExecInteractiveMode = "Always"
)

// DeepCopy mirrors the generated ExecConfig.DeepCopy: a rest.Config built from a kubeconfig
// never shares slices with it.
func (in *ExecConfig) DeepCopy() *ExecConfig {
	if in == nil {
		return nil
	}
	out := *in
	if in.Args != nil {
		out.Args = append([]string(nil), in.Args...)
	}
	if in.Env != nil {
		out.Env = append([]ExecEnvVar(nil), in.Env...)
	}
	return &out
}
