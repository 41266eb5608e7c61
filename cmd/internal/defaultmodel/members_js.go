//go:build js

package defaultmodel

import "io/fs"

// membersFS is nil in the browser module: members 2 and 3 would add 0.47 MB
// of weights that hardly compress to a module whose budget is 6 MB
// gzip-compressed, so the page there questions member 1 alone
// (docs/site.md).
var membersFS fs.FS
