package watch

import "os"

// writeTemp writes data to a new temporary file named after pattern and
// returns its path.
func writeTemp(pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(f.Name())
		return "", werr
	}
	return f.Name(), nil
}

func readTemp(path string) ([]byte, error) { return os.ReadFile(path) }

func removeTemp(path string) { _ = os.Remove(path) }
