package cmd

import (
	"errors"
	"strings"

	"chainwatch/config"
	"chainwatch/scan"
)

// configFile loads the config file of --config (explicit), else the
// default one if it exists, and returns it with its path ("" when there
// is none). Every headless command reads it so, with the same checks.
func configFile(path string, explicit bool, getenv func(string) string) (config.File, string, error) {
	if explicit && strings.TrimSpace(path) == "" {
		return config.File{}, "", errors.New("--config needs a path")
	}
	if !explicit {
		var err error
		if path, err = config.DefaultPath(getenv); err != nil {
			return config.File{}, "", nil // no home directory: no config file
		}
	}
	fc, _, err := config.Load(path, explicit, scan.CheckSaved)
	return fc, path, err
}
