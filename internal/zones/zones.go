// Package zones loads time zones from the zone database inside llmsh,
// never from the host's. time.LoadLocation reads $ZONEINFO, then
// /usr/share/zoneinfo and the like, then $GOROOT/lib/time/zoneinfo.zip,
// and only then the data time/tzdata embeds: a script's TZ named the
// host file llmsh opened (session 28, red team: `TZ=Asia/Tokyo date`
// opened /usr/share/zoneinfo/Asia/Tokyo, refused by Landlock where the
// kernel has it, read by a library Session), and the host's database,
// or a file its $ZONEINFO named, decided the answer.
//
// zoneinfo.zip is Go's own copy of the IANA time zone database (public
// domain), $GOROOT/lib/time/zoneinfo.zip of Go 1.26.8 (tzdata 2025c):
// the data time/tzdata would embed, which llmsh no longer imports.
package zones

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"errors"
	"io"
	"sync"
	"time"
)

//go:embed zoneinfo.zip
var zoneinfo []byte

var (
	once  sync.Once
	files map[string]*zip.File
	cache sync.Map // name -> *time.Location
)

// ErrUnknown is Load's error for a name the database does not hold.
var ErrUnknown = errors.New("unknown time zone")

// Load returns the zone name ("Europe/Paris"), as time.LoadLocation does
// but from llmsh's own database: "" and "UTC" are UTC, and "Local" is
// not a name here (the host's zone is never the script's).
func Load(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	if l, ok := cache.Load(name); ok {
		return l.(*time.Location), nil
	}
	once.Do(func() {
		files = map[string]*zip.File{}
		if z, err := zip.NewReader(bytes.NewReader(zoneinfo), int64(len(zoneinfo))); err == nil {
			for _, f := range z.File {
				files[f.Name] = f
			}
		}
	})
	f := files[name]
	if f == nil {
		return nil, ErrUnknown
	}
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return nil, err
	}
	l, err := time.LoadLocationFromTZData(name, data)
	if err != nil {
		return nil, err
	}
	cache.Store(name, l)
	return l, nil
}
