package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/clientcmd"
)

// serveUntilReady runs `demo serve` with args on a free loopback port and stops it as soon as
// it is ready. It returns what serve reported (zero when it failed), its output and its error.
// The ready callback runs on serve's own goroutine, so nothing here races.
func serveUntilReady(t *testing.T, args ...string) (serveReady, string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ready serveReady
	var out bytes.Buffer
	full := append([]string{"--listen", "127.0.0.1:0", "--seed-pods", "0"}, args...)
	err := cmdServe(ctx, full, &out, func(r serveReady) {
		ready = r
		cancel()
	})
	return ready, out.String(), err
}

// credentialSuffixes are the files `demo serve --token T --client-certs` writes, as suffixes
// of the kubeconfig path.
var credentialSuffixes = []string{"", ".ca.crt", ".client.crt", ".client.key"}

// TestDemo_ServeReplacesWorldReadableCredentialFiles: when the kubeconfig, the CA, the client
// certificate and the client key already exist with mode 0666, serve does not write into them
// (which would keep 0666 and hand the token and key to every user) but replaces each with a
// fresh 0600 file holding the new content, and leaves no temporary file behind.
func TestDemo_ServeReplacesWorldReadableCredentialFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("mode bits are synthetic on Windows")
	}
	dir := t.TempDir()
	kc := filepath.Join(dir, "kubeconfig")
	old := map[string]os.FileInfo{}
	for _, suffix := range credentialSuffixes {
		p := kc + suffix
		require.NoError(t, os.WriteFile(p, []byte("stale\n"), 0o666))
		require.NoError(t, os.Chmod(p, 0o666)) // past the umask
		info, err := os.Stat(p)
		require.NoError(t, err)
		old[suffix] = info
	}

	ready, out, err := serveUntilReady(t, "--kubeconfig", kc, "--token", "s3cret", "--client-certs")
	require.NoError(t, err, out)
	require.Equal(t, kc, ready.kubeconfig)

	cfg, err := clientcmd.BuildConfigFromKubeconfig(kc)
	require.NoError(t, err)
	assert.Equal(t, "s3cret", cfg.BearerToken, "the kubeconfig is the new one")
	cert, key := ready.server.ClientCertificatePEM()
	kubeconfig, err := os.ReadFile(kc)
	require.NoError(t, err)
	for _, tc := range []struct {
		suffix string
		want   []byte
	}{
		{"", kubeconfig},
		{".ca.crt", ready.server.CACertPEM()},
		{".client.crt", cert},
		{".client.key", key},
	} {
		t.Run("kubeconfig"+tc.suffix, func(t *testing.T) {
			p := kc + tc.suffix
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, string(tc.want), string(data))
			assert.NotContains(t, string(data), "stale")
			info, err := os.Lstat(p)
			require.NoError(t, err)
			assert.True(t, info.Mode().IsRegular(), info.Mode())
			assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
			assert.False(t, os.SameFile(old[tc.suffix], info), "a new file, not the old one rewritten")
		})
	}

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Empty(t, cmp.Diff([]string{"kubeconfig", "kubeconfig.ca.crt", "kubeconfig.client.crt", "kubeconfig.client.key"}, names),
		"no temporary file is left behind")
}

// TestDemo_ServeRefusesSymlinkedCredentialFile: a symbolic link at the path of any file serve
// writes is refused with an error naming it, before anything is written: the link's target
// keeps its content and the other files are not created.
func TestDemo_ServeRefusesSymlinkedCredentialFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows")
	}
	for _, suffix := range credentialSuffixes {
		t.Run("kubeconfig"+suffix, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim")
			require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
			kc := filepath.Join(dir, "kubeconfig")
			link := kc + suffix
			require.NoError(t, os.Symlink(victim, link))

			_, out, err := serveUntilReady(t, "--kubeconfig", kc, "--token", "s3cret", "--client-certs")
			require.Error(t, err, out)
			assert.Contains(t, err.Error(), link)
			assert.Contains(t, err.Error(), "symbolic link")

			data, err := os.ReadFile(victim)
			require.NoError(t, err)
			assert.Equal(t, "precious\n", string(data), "the link's target is untouched")
			info, err := os.Lstat(link)
			require.NoError(t, err)
			assert.NotZero(t, info.Mode()&os.ModeSymlink, "the link itself is left alone")
			for _, other := range credentialSuffixes {
				if other != suffix {
					assert.NoFileExists(t, kc+other, "nothing is written once one target is refused")
				}
			}
		})
	}
}

// TestDemo_ServeDefaultKubeconfigIsPerUser: without --kubeconfig, serve writes into a
// directory of this user's: $XDG_RUNTIME_DIR/informer-lab, else the user config directory,
// else informer-lab-<uid> in the temp directory; the directory is 0700 and the file 0600. An
// existing temp-directory fallback that is a symbolic link or not 0700 is refused.
func TestDemo_ServeDefaultKubeconfigIsPerUser(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("mode bits are synthetic on Windows")
	}
	perUID := "informer-lab-" + strconv.Itoa(os.Getuid())
	for _, tc := range []struct {
		name    string
		linux   bool // os.UserConfigDir reads XDG_CONFIG_HOME on Linux only
		env     func(base string) map[string]string
		prepare func(t *testing.T, base string)
		want    func(base string) string // the kubeconfig path; "" when refused
		wantErr string
	}{{
		name: "XDG_RUNTIME_DIR",
		env:  func(base string) map[string]string { return map[string]string{"XDG_RUNTIME_DIR": base} },
		want: func(base string) string { return filepath.Join(base, "informer-lab", "kubeconfig") },
	}, {
		name:  "user config directory",
		linux: true,
		env: func(base string) map[string]string {
			return map[string]string{"XDG_RUNTIME_DIR": "", "XDG_CONFIG_HOME": filepath.Join(base, "config")}
		},
		want: func(base string) string { return filepath.Join(base, "config", "informer-lab", "kubeconfig") },
	}, {
		name: "temp directory fallback",
		env:  tempFallbackEnv,
		want: func(base string) string { return filepath.Join(base, perUID, "kubeconfig") },
	}, {
		name: "temp directory fallback that exists and is ours",
		env:  tempFallbackEnv,
		prepare: func(t *testing.T, base string) {
			require.NoError(t, os.Mkdir(filepath.Join(base, perUID), 0o700))
		},
		want: func(base string) string { return filepath.Join(base, perUID, "kubeconfig") },
	}, {
		name: "temp directory fallback readable by others",
		env:  tempFallbackEnv,
		prepare: func(t *testing.T, base string) {
			d := filepath.Join(base, perUID)
			require.NoError(t, os.Mkdir(d, 0o755))
			require.NoError(t, os.Chmod(d, 0o755))
		},
		wantErr: "not 0700",
	}, {
		name: "temp directory fallback is a symbolic link",
		env:  tempFallbackEnv,
		prepare: func(t *testing.T, base string) {
			elsewhere := filepath.Join(base, "elsewhere")
			require.NoError(t, os.Mkdir(elsewhere, 0o700))
			require.NoError(t, os.Symlink(elsewhere, filepath.Join(base, perUID)))
		},
		wantErr: "symbolic link",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.linux && runtime.GOOS != "linux" {
				t.Skip("os.UserConfigDir ignores XDG_CONFIG_HOME here")
			}
			base := t.TempDir()
			// Whatever the case, never fall back to the real temp directory.
			t.Setenv("TMPDIR", t.TempDir())
			for k, v := range tc.env(base) {
				t.Setenv(k, v)
			}
			if tc.prepare != nil {
				tc.prepare(t, base)
			}

			ready, out, err := serveUntilReady(t, "--token", "s3cret")
			if tc.wantErr != "" {
				require.Error(t, err, out)
				assert.Contains(t, err.Error(), filepath.Join(base, perUID))
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.NoFileExists(t, filepath.Join(base, perUID, "kubeconfig"))
				return
			}
			require.NoError(t, err, out)
			want := tc.want(base)
			assert.Equal(t, want, ready.kubeconfig)
			assert.Contains(t, out, "  kubeconfig "+want+"\n")
			dirInfo, err := os.Lstat(filepath.Dir(want))
			require.NoError(t, err)
			assert.True(t, dirInfo.IsDir())
			assert.Equal(t, os.FileMode(0o700), dirInfo.Mode().Perm(), "the directory is private")
			info, err := os.Lstat(want)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
		})
	}
}

// tempFallbackEnv leaves os.UserConfigDir nothing to go on, so the default falls back to the
// temp directory, base.
func tempFallbackEnv(base string) map[string]string {
	return map[string]string{"XDG_RUNTIME_DIR": "", "XDG_CONFIG_HOME": "", "HOME": "", "TMPDIR": base}
}
