//go:build js

package data

import "embed"

// The browser module embeds the lexicon without the served files
// (servedNames in served.go: WordNet's pos.txt and exceptions.txt), which
// the site serves beside it and the page supplies (SupplyServed). A go:embed
// pattern is literal, so this list is every other file or folder of
// lexicon/ by name; a test (served_test.go) checks, through the go command,
// that it embeds exactly the native build's files minus the served ones.
//
//go:embed lexicon/*.txt lexicon/frames lexicon/nouns lexicon/places
//go:embed lexicon/wordnet/LICENSE.txt lexicon/wordnet/README.txt
//go:embed lexicon/wordnet/predicates.txt lexicon/wordnet/relatives.txt lexicon/wordnet/nouns
var embeddedFiles embed.FS

// embedsServed: the served files are not in embeddedFiles.
const embedsServed = false
