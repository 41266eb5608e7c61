//go:build !unix

package checkpoint

// writeToReader leaves a named pipe to be replaced where there is no
// non-blocking open to ask whether a reader holds it (js/wasm's file system
// has no pipes).
func writeToReader(path string, data []byte) (done bool, err error) {
	return false, nil
}
