//go:build !unix

package train

import "os"

// lockFolder takes no lock where flock does not exist (js/wasm, Windows):
// the browser's tab trains one run at a time anyway.
func lockFolder(dir string) (*os.File, error) { return nil, nil }
