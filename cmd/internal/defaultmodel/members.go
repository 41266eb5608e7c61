//go:build !js

package defaultmodel

import (
	"embed"
	"io/fs"
)

// The other members' run folders, model/members/<k>/: their checkpoint and
// weights (metrics and epoch logs stay on disk, for people to read).
//
//go:embed model/members/*/checkpoint.json model/members/*/*.safetensors
var members embed.FS

var membersFS fs.FS = members
