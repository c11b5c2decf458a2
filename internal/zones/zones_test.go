package zones_test

import (
	"errors"
	"testing"
	"time"

	"github.com/llmsh/llmsh/internal/zones"
)

// TestLoad: zones come from llmsh's own database; names it does not hold
// (the host's zone, paths, "..") are unknown, whatever the host has.
func TestLoad(t *testing.T) {
	t.Setenv("ZONEINFO", "/nonexistent/zoneinfo.zip")
	for name, want := range map[string]string{"Asia/Tokyo": "JST", "Europe/Paris": "CET", "UTC": "UTC", "": "UTC"} {
		l, err := zones.Load(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if got, _ := time.Date(2020, 1, 1, 0, 0, 0, 0, l).Zone(); got != want {
			t.Errorf("%q: zone %s, want %s", name, got, want)
		}
	}
	for _, name := range []string{"Local", "/etc/localtime", "../../etc/passwd", "Asia/../Asia/Tokyo", "Nowhere/Zone"} {
		if _, err := zones.Load(name); !errors.Is(err, zones.ErrUnknown) {
			t.Errorf("%q: %v, want unknown", name, err)
		}
	}
}
