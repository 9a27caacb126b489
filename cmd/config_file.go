package cmd

import (
	"errors"
	"strings"

	"chainwatch/config"
	"chainwatch/scan"
)

// configFile loads the config file of --config (explicit), else the
// default one if it exists, and returns it with its path ("" when there
// is none) and whether it exists. Every command reads it so, the watch
// screen too, with the same checks.
func configFile(path string, explicit bool, getenv func(string) string) (config.File, string, bool, error) {
	if explicit && strings.TrimSpace(path) == "" {
		return config.File{}, "", false, errors.New("--config needs a path")
	}
	if !explicit {
		var err error
		if path, err = config.DefaultPath(getenv); err != nil {
			return config.File{}, "", false, nil // no home directory: no config file
		}
	}
	fc, exists, err := config.Load(path, explicit, scan.CheckSaved)
	return fc, path, exists, err
}
