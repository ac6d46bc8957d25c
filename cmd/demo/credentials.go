package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/informer-lab/informer-lab/internal/privfile"
)

// defaultKubeconfigPath is where `demo serve` writes its kubeconfig when not told: a
// directory of this user's, never ~/.kube/config (a workshop must not overwrite it) nor a
// name shared by every user of the machine (another user could read the token or plant a
// link there). It only computes the path; serve creates and checks the directory.
func defaultKubeconfigPath() string {
	return filepath.Join(defaultKubeconfigDir(), "kubeconfig")
}

// defaultKubeconfigDir is $XDG_RUNTIME_DIR/informer-lab (per login, memory-backed, 0700 by
// the session manager) when set, else os.UserConfigDir()/informer-lab, else a per-uid
// directory in os.TempDir(), which serve insists be ours and 0700.
func defaultKubeconfigDir() string {
	// The XDG base directory spec says to ignore a relative value.
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "informer-lab")
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "informer-lab")
	}
	name := "informer-lab"
	if uid := os.Getuid(); uid >= 0 {
		name += "-" + strconv.Itoa(uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// credentialFile is one file `demo serve` writes: the kubeconfig, or one beside it.
type credentialFile struct {
	what string // for errors: "kubeconfig", "client key", ...
	path string
	data []byte
}

// prepareCredentialDir makes the directory of the kubeconfig ready and checks every target
// before anything is written, so a refusal leaves no half-written set behind. The default
// directory must be private (ours, 0700, no link); a directory the user named is created
// 0700 if missing and must merely be safe to write into.
func prepareCredentialDir(kubeconfig string, paths ...string) error {
	dir := filepath.Dir(kubeconfig)
	if kubeconfig == defaultKubeconfigPath() {
		if err := privfile.PrivateDir(dir); err != nil {
			return fmt.Errorf("the default kubeconfig directory: %w", err)
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	if err := privfile.CheckDir(dir); err != nil {
		return err
	}
	for _, p := range append([]string{kubeconfig}, paths...) {
		if p == "" {
			continue // a file this mode of serve does not write
		}
		if err := privfile.CheckTarget(p); err != nil {
			return err
		}
	}
	return nil
}

// writeCredentialFiles writes each file as a fresh 0600 file (privfile.WriteFile): the
// certificates hold no secret, but one rule for every file serve writes is easier to trust.
func writeCredentialFiles(files []credentialFile) error {
	for _, f := range files {
		if len(f.data) == 0 {
			return fmt.Errorf("the server produced no %s", f.what)
		}
	}
	for _, f := range files {
		if err := privfile.WriteFile(f.path, f.data); err != nil {
			return fmt.Errorf("writing the %s: %w", f.what, err)
		}
	}
	return nil
}
