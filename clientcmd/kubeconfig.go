package clientcmd

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/rest"
)

// Kubeconfig mirrors clientcmdapi.Config in client-go tools/clientcmd/api/types.go: a loaded
// kubeconfig with its entries by name, ready to give a rest.Config (ClientConfig). Its
// entries are the wire types of api.Config; parse one with ParseKubeconfig or
// LoadKubeconfig.
type Kubeconfig struct {
	CurrentContext string
	Clusters       map[string]*api.Cluster
	Contexts       map[string]*api.Context
	AuthInfos      map[string]*api.AuthInfo
	// dir resolves relative file names (certificate-authority, tokenFile, client-certificate,
	// client-key, an exec command with a path separator), as clientcmd resolves them against
	// the kubeconfig's own directory.
	dir string
}

// NewKubeconfig mirrors client-go's conversion from clientcmd/api/v1.Config to
// clientcmdapi.Config: it indexes the entries by name; of two entries with one name, the last
// wins. Relative file names resolve against the working directory.
func NewKubeconfig(cfg *api.Config) *Kubeconfig {
	k := &Kubeconfig{
		CurrentContext: cfg.CurrentContext,
		Clusters:       map[string]*api.Cluster{},
		Contexts:       map[string]*api.Context{},
		AuthInfos:      map[string]*api.AuthInfo{},
	}
	for _, c := range cfg.Clusters {
		k.Clusters[c.Name] = &c.Cluster
	}
	for _, c := range cfg.Contexts {
		k.Contexts[c.Name] = &c.Context
	}
	for _, u := range cfg.AuthInfos {
		k.AuthInfos[u.Name] = &u.AuthInfo
	}
	return k
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
		return "", fmt.Errorf("clientcmd: no kubeconfig path given and no home directory: %w", err)
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
		return nil, fmt.Errorf("clientcmd: reading kubeconfig: %w", err)
	}
	k, err := ParseKubeconfig(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	k.dir = filepath.Dir(path)
	return k, nil
}

// BuildConfigFromKubeconfig mirrors clientcmd.BuildConfigFromFlags("", path): the rest.Config
// of the kubeconfig's current context.
func BuildConfigFromKubeconfig(path string) (*rest.Config, error) {
	k, err := LoadKubeconfig(path)
	if err != nil {
		return nil, err
	}
	return k.ClientConfig("")
}

// ParseKubeconfig mirrors clientcmd.Load followed by the conversion to clientcmdapi.Config:
// a kubeconfig in YAML or JSON, indexed by name. Relative file names resolve against the
// working directory.
func ParseKubeconfig(data []byte) (*Kubeconfig, error) {
	cfg, err := Load(data)
	if err != nil {
		return nil, err
	}
	return NewKubeconfig(cfg), nil
}

// Write mirrors clientcmd.Write: the kubeconfig in YAML as kubectl writes it (keys sorted,
// list items at their key's indentation), which Load and kubectl read back unchanged.
func Write(cfg *api.Config) ([]byte, error) {
	out := *cfg
	if out.Kind == "" {
		out.Kind = "Config"
	}
	if out.APIVersion == "" {
		out.APIVersion = "v1"
	}
	return marshalYAML(&out)
}

// WriteToFile mirrors clientcmd.WriteToFile: Write's bytes in path, readable by the owner
// only (the file holds credentials).
func WriteToFile(cfg *api.Config, path string) error {
	data, err := Write(cfg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("clientcmd: writing kubeconfig: %w", err)
	}
	return nil
}
