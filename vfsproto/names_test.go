package vfsproto_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/llmsh/llmsh/vfsproto"
)

// TestEncodeName: valid UTF-8 stands for itself, every other byte and NUL
// is NUL and two lower-case hex digits, and the result survives JSON.
func TestEncodeName(t *testing.T) {
	for _, tc := range []struct{ name, wire string }{
		{"", ""},
		{"plain.txt", "plain.txt"},
		{"été", "été"},
		{"\uFFFD", "\uFFFD"}, // the character itself is a name like any
		{"\xfe", "\x00fe"},
		{"a\xffb", "a\x00ffb"},
		{"\xc3", "\x00c3"},                     // a truncated sequence
		{"\xc3\xa9\xa9", "é\x00a9"},            // a stray continuation byte
		{"\xed\xa0\x80", "\x00ed\x00a0\x0080"}, // a surrogate is not UTF-8
		{"\xc0\xaf", "\x00c0\x00af"},           // an overlong '/'
		{"a\x00b", "a\x0000b"},
	} {
		got := EncodeName(tc.name)
		if got != tc.wire {
			t.Errorf("EncodeName(%q) = %q, want %q", tc.name, got, tc.wire)
		}
		if !utf8.ValidString(got) {
			t.Errorf("EncodeName(%q) = %q: not UTF-8", tc.name, got)
		}
		back, err := DecodeName(got)
		if err != nil || back != tc.name {
			t.Errorf("DecodeName(%q) = %q, %v; want %q", got, back, err, tc.name)
		}
		var viaJSON string
		enc, _ := json.Marshal(got)
		if err := json.Unmarshal(enc, &viaJSON); err != nil || viaJSON != got {
			t.Errorf("%q through JSON: %q, %v", got, viaJSON, err)
		}
	}
}

// TestDecodeNameCanonical: every spelling but the one EncodeName writes
// is refused, so that no name has two, and no escape spells a '/', a '.'
// or a character that could stand for itself.
func TestDecodeNameCanonical(t *testing.T) {
	for _, w := range []string{
		"\x00",               // a NUL alone
		"a\x00f",             // a truncated escape
		"\x00FE",             // upper case
		"\x00zz",             // not hex
		"\x002f",             // '/'
		"\x002e\x002e",       // ".."
		"..\x002f..",         // "../.."
		"\x0061",             // 'a'
		"\x00c3\x00a9",       // é, which stands for itself
		"\x00ef\x00bf\x00bd", // U+FFFD, which stands for itself
		"\x00\x00fe",         // a NUL escaping a NUL
		"\xfe",               // a raw byte that is not UTF-8
		"\x00fe\xfe",         // mixed forms
	} {
		if got, err := DecodeName(w); !errors.Is(err, ErrNameEncoding) {
			t.Errorf("DecodeName(%q) = %q, %v; want ErrNameEncoding", w, got, err)
		}
	}
}

// TestDecodeNamesResults: an answer's names are decoded; one with a NUL,
// or a listing's name that holds a '/' or is "." or "..", fails.
func TestDecodeNamesResults(t *testing.T) {
	l := &ListResult{Entries: []Entry{{Name: "a\x00ffb"}, {Name: "plain"}}}
	if err := DecodeNames(l); err != nil || l.Entries[0].Name != "a\xffb" || l.Entries[1].Name != "plain" {
		t.Errorf("DecodeNames(list) = %v, %+v", err, l.Entries)
	}
	w := &WalkResult{Dirs: []WalkDir{{Path: "d\x00fe", Entries: []Entry{{Name: "x\x00fe"}}}}}
	if err := DecodeNames(w); err != nil || w.Dirs[0].Path != "d\xfe" || w.Dirs[0].Entries[0].Name != "x\xfe" {
		t.Errorf("DecodeNames(walk) = %v, %+v", err, w.Dirs)
	}
	for _, v := range []any{
		&ListResult{Entries: []Entry{{Name: "a\x0000"}}},
		&ListResult{Entries: []Entry{{Name: "a/b"}}},
		&ListResult{Entries: []Entry{{Name: ".."}}},
		&WalkResult{Dirs: []WalkDir{{Path: ".", Entries: []Entry{{Name: "."}}}}},
		&WalkResult{Dirs: []WalkDir{{Path: "d\x0000", Entries: []Entry{{Name: "x"}}}}},
		&WalkResult{Dirs: []WalkDir{{Path: "d", Entries: []Entry{{Name: "x"}}}, {Path: "d/x", Entries: []Entry{{Name: "y"}, {Name: ""}}}}},
		&WalkResult{Dirs: []WalkDir{{Path: "d", Entries: []Entry{{Name: "x"}}}, {Path: "d/\xfe"}}},
		&ReadlinkResult{Target: "x\x0000"},
		&VirtualsResult{Files: []VirtualFile{{Path: "/tmp/\x00FE"}}},
	} {
		if err := DecodeNames(v); err == nil {
			t.Errorf("DecodeNames(%+v): no error", v)
		}
	}
	// EncodeNames writes a listing's names in wire form in place, which
	// DecodeNames reads back.
	w = &WalkResult{Dirs: []WalkDir{{Path: "d\xfe", Entries: []Entry{{Name: "x\xfe"}, {Name: "y"}}}, {Path: "d\xfe/x\xfe"}}}
	EncodeNames(w)
	if w.Dirs[0].Path != "d\x00fe" || w.Dirs[0].Entries[0].Name != "x\x00fe" || w.Dirs[0].Entries[1].Name != "y" || w.Dirs[1].Path != "d\x00fe/x\x00fe" {
		t.Errorf("EncodeNames(walk) = %+v", w.Dirs)
	}
	if err := DecodeNames(w); err != nil || w.Dirs[1].Path != "d\xfe/x\xfe" || w.Dirs[0].Entries[0].Name != "x\xfe" {
		t.Errorf("DecodeNames(EncodeNames(walk)) = %v, %+v", err, w.Dirs)
	}
	l = &ListResult{Entries: []Entry{{Name: "a\xffb"}}}
	if EncodeNames(l); l.Entries[0].Name != "a\x00ffb" {
		t.Errorf("EncodeNames(list) = %+v", l.Entries)
	}
	// A parameter's NUL is left for the policy, which refuses it.
	p := &PathParams{Path: "a\x0000b"}
	if err := DecodeNames(p); err != nil || p.Path != "a\x00b" {
		t.Errorf("DecodeNames(params) = %v, %q", err, p.Path)
	}
}

// TestWireParams: names are encoded in a copy with byte_names, sent as
// they are without it, and one that is not UTF-8 is refused then.
func TestWireParams(t *testing.T) {
	name := "d\xfe/f"
	orig := StatParams{Path: &name}
	got, err := WireParams(orig, true)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := got.(*StatParams); !ok || *p.Path != "d\x00fe/f" || name != "d\xfe/f" {
		t.Errorf("WireParams(stat) = %#v (name now %q)", got, name)
	}
	files := ReadFilesParams{Paths: []string{"ok", "\xff"}, Max: 1}
	got, _ = WireParams(files, true)
	if p := got.(*ReadFilesParams); p.Paths[1] != "\x00ff" || files.Paths[1] != "\xff" {
		t.Errorf("WireParams(read_files) = %q, original %q", p.Paths, files.Paths)
	}
	plain := OpenParams{Path: "a.txt", Mode: ModeRead}
	if got, err := WireParams(plain, true); err != nil || got != any(plain) {
		t.Errorf("WireParams(plain) = %#v, %v: want the value itself", got, err)
	}
	if _, err := WireParams(RenameParams{From: "a", To: "b\xff"}, false); !errors.Is(err, ErrNameEncoding) {
		t.Errorf("WireParams without byte_names: %v", err)
	}
	if got, err := WireParams(PathParams{Path: "a\x00b"}, false); err != nil || got != any(PathParams{Path: "a\x00b"}) {
		t.Errorf("WireParams(NUL) without byte_names = %#v, %v: want it as it is", got, err)
	}
}

// FuzzNameRoundTrip: every byte string encodes to valid UTF-8 that
// decodes back to it, and whatever decodes is the encoding of what it
// decodes to (one spelling per name).
func FuzzNameRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a", "\xfe", "a\x00ffb", "\x002f", "é\xff", "\x00\x00", "\x00fe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := EncodeName(s)
		if !utf8.ValidString(w) {
			t.Fatalf("EncodeName(%q) = %q: not UTF-8", s, w)
		}
		if back, err := DecodeName(w); err != nil || back != s {
			t.Fatalf("DecodeName(EncodeName(%q)) = %q, %v", s, back, err)
		}
		if d, err := DecodeName(s); err == nil {
			if EncodeName(d) != s {
				t.Fatalf("DecodeName(%q) = %q, whose encoding is %q", s, d, EncodeName(d))
			}
			if (d == s) == strings.Contains(s, "\x00") {
				t.Fatalf("DecodeName(%q) = %q: a name is itself exactly when it has no escape", s, d)
			}
		}
	})
}
