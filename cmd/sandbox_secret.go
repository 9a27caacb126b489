package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// The demo client's secret never needs the command line, where `ps` shows
// it: --client-secret-file reads it from a private file, and
// --print-credentials writes the four lines, secret included, to one
// instead of stdout (a terminal's scrollback, a log).

// maxSecretFile bounds what --client-secret-file reads: a secret of at
// most 128 characters, or the four lines of --print-credentials.
const maxSecretFile = 4 << 10

// sandboxSecret is the demo secret the flags or the environment fix
// (--client-secret, --client-secret-file, then envSandboxSecret), checked;
// "" when none does. Every refusal is the caller's mistake (exit 2).
func sandboxSecret(o *SandboxOptions) (string, error) {
	if o.ClientSecret != "" && o.ClientSecretFile != "" {
		return "", usageError{errors.New("--client-secret and --client-secret-file both fix the demo secret: give one of them")}
	}
	secret, from := o.ClientSecret, "--client-secret"
	if o.ClientSecretFile != "" {
		var err error
		if secret, err = readSecretFile(o.ClientSecretFile); err != nil {
			return "", usageError{err}
		}
		from = "--client-secret-file " + o.ClientSecretFile
	}
	if secret == "" && o.Getenv != nil {
		secret, from = o.Getenv(envSandboxSecret), envSandboxSecret
	}
	if secret == "" {
		return "", nil
	}
	if err := sandbox.CheckDemoSecret(secret); err != nil {
		return "", usageError{fmt.Errorf("%s: %w", from, err)}
	}
	return secret, nil
}

// readSecretFile reads a demo secret from a file only its owner may read
// or write: the secret alone, or the client_secret= line of the file
// --print-credentials wrote (so a restart can take back the last secret).
// The errors never quote the file.
func readSecretFile(path string) (string, error) {
	data, err := api.ReadPrivateFile("--client-secret-file", path, maxSecretFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("--client-secret-file %s: no such file", path)
	case errors.Is(err, api.ErrNotRegular), errors.Is(err, api.ErrTooLarge):
		return "", fmt.Errorf("--client-secret-file %w", err)
	case err != nil:
		return "", fmt.Errorf("--client-secret-file: %w", err)
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "client_secret="); ok {
			return v, nil
		}
	}
	secret := strings.TrimSpace(string(data))
	if secret == "" {
		return "", fmt.Errorf("--client-secret-file %s is empty", path)
	}
	return secret, nil
}

// checkCredentialsPath refuses a --print-credentials target that is there
// but is no regular file (a directory, a FIFO, a device), before the
// sandbox starts.
func checkCredentialsPath(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil // a missing file is made; another error shows when it is written
	}
	return usageError{fmt.Errorf("--print-credentials %s is not a regular file; name a file to write", path)}
}

// credentialsText is the four lines the sandbox prints, for scripts: shell
// assignments.
func credentialsText(s *sandbox.Server) string {
	return fmt.Sprintf("base_url=%s\nauth_url=%s\nclient_id=%s\nclient_secret=%s\n", s.BaseURL, s.AuthURL, sandbox.DemoClientID, s.DemoSecret)
}

// writeCredentials writes the four lines to path, 0600 whatever the umask,
// replacing the file whole.
func writeCredentials(path string, s *sandbox.Server) error {
	if err := api.WriteFileAtomic(path, []byte(credentialsText(s))); err != nil {
		return fmt.Errorf("--print-credentials: %w", err)
	}
	return nil
}
