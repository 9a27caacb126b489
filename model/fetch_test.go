package model

import (
	"testing"

	"chainwatch/api"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// startTestSandbox is the parts' Common with a client of an in-process
// sandbox on 127.0.0.1 (real OAuth2 client credentials over loopback
// HTTP), all on the tests' stopped clock (modeltest.StartSandbox).
func startTestSandbox(t *testing.T) *common.Common {
	t.Helper()
	return startSandboxWith(t, sandbox.Config{})
}

// startSandboxWith is startTestSandbox with the sandbox's cfg and the
// client's opts.
func startSandboxWith(t *testing.T, cfg sandbox.Config, opts ...api.Option) *common.Common {
	t.Helper()
	c := modeltest.Common(testNow)
	c.Client = modeltest.StartSandbox(t, cfg, opts...)
	return c
}
