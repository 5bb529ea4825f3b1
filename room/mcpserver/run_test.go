package mcpserver_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"
)

func runBinary(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runBinaryEnv(t, nil, args...)
}

func runBinaryEnv(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = bytes.NewReader(nil)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}
