package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildCommit is the commit the Makefile builds from (-ldflags "-X
// main.buildCommit=..."), for builds where the toolchain records none
// (-buildvcs=false).
var buildCommit string

// versionLine says which build this is: the module's version and the
// commit it was built from (with "+dirty" for uncommitted changes), as
// the Go toolchain records them or the Makefile passes them, and the Go
// version.
func versionLine() string {
	version := "(devel)"
	commit, dirty := strings.CutSuffix(buildCommit, "+dirty")
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" {
			version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				dirty = dirty || s.Value == "true"
			}
		}
	}
	line := "ilpgnn " + version
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if dirty {
			commit += "+dirty"
		}
		line += " (commit " + commit + ")"
	}
	return fmt.Sprintf("%s, %s %s/%s", line, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
