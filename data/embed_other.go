//go:build !js

package data

import "embed"

// Native builds embed the whole lexicon, the served files (served.go)
// included: the commands never fetch anything.
//
//go:embed lexicon
var embeddedFiles embed.FS

// embedsServed: the served files are in embeddedFiles.
const embedsServed = true
