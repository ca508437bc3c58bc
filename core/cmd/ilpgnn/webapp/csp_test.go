package webapp

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The page carries the same policy as a meta tag, so a static host that
// sends no headers still enforces it. frame-ancestors is the one directive
// a meta tag cannot carry (browsers ignore it there), so it is left out.
func TestIndexMetaCSPMatchesHeader(t *testing.T) {
	html, err := os.ReadFile("../../../../public/index.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(html)
	if m == nil {
		t.Fatal("public/index.html has no Content-Security-Policy meta tag")
	}
	var want []string
	for _, d := range strings.Split(CSP, ";") {
		if d = strings.TrimSpace(d); d != "" && !strings.HasPrefix(d, "frame-ancestors") {
			want = append(want, d)
		}
	}
	if got := string(m[1]); got != strings.Join(want, "; ") {
		t.Errorf("index.html meta CSP\n got %s\nwant %s", got, strings.Join(want, "; "))
	}
}
