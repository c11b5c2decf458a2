package vfsproto

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
)

// FeatureByteNames is the hello feature that lets file names that are
// not valid UTF-8 cross the wire unchanged. JSON strings are UTF-8, and
// encoding/json replaces every invalid byte with U+FFFD, so a name such
// as $'\376' would be another name on the far side. Once negotiated,
// every file name and path in requests (open, stat, list, walk, rename,
// ...) and answers (list and walk entries and paths, readlink's target,
// create_temp's path, virtual_files) is in wire form (EncodeName):
// valid UTF-8 stands for itself; a byte that is not part of valid UTF-8,
// and NUL, is written as NUL followed by its two lower-case hex digits.
// No file name holds a NUL, so the form is unambiguous, and only its
// canonical spelling is accepted (DecodeName).
const FeatureByteNames = "byte_names"

// ErrNameEncoding is the error of a string that is not the canonical
// wire form of any name (DecodeName), or of a name that the wire cannot
// carry because byte_names was not negotiated (WireParams).
var ErrNameEncoding = errors.New("invalid name encoding")

// MsgNameEncoding is the message of the E_ARG that refuses a request
// whose name is not in canonical wire form.
const MsgNameEncoding = "invalid name encoding"

const hexDigits = "0123456789abcdef"

// EncodeName returns the wire form of the name s under byte_names: s
// itself when it is valid UTF-8 without NUL (no allocation); else each
// byte that is not part of a valid UTF-8 sequence, and each NUL, as
// NUL followed by the byte's two lower-case hex digits.
func EncodeName(s string) string {
	if plainName(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0 && c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if c == 0 || r == utf8.RuneError && size == 1 {
			b.WriteByte(0)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// plainName reports whether s is its own wire form: valid UTF-8 without
// a NUL.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 {
			return false
		} else if c >= utf8.RuneSelf {
			return strings.IndexByte(s[i:], 0) < 0 && utf8.ValidString(s[i:])
		}
	}
	return true
}

// DecodeName returns the name whose wire form (EncodeName) is w. Only
// the canonical form is accepted: w must be valid UTF-8, every NUL in it
// must start an escape of two lower-case hex digits, and the escapes
// must be of bytes that EncodeName escapes (NUL, or a byte not part of
// valid UTF-8). Anything else (an escape of '/', '.' or of the bytes of
// a valid character, an upper-case or truncated escape, a NUL alone)
// is ErrNameEncoding: each name has exactly one spelling. The name may
// hold a NUL (escaped as NUL "00"); the caller refuses it as it refuses
// a NUL in a name anywhere.
func DecodeName(w string) (string, error) {
	if strings.IndexByte(w, 0) < 0 {
		if !utf8.ValidString(w) {
			return "", ErrNameEncoding
		}
		return w, nil
	}
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		if w[i] != 0 {
			b = append(b, w[i])
			continue
		}
		if i+2 >= len(w) {
			return "", ErrNameEncoding
		}
		hi, lo := strings.IndexByte(hexDigits, w[i+1]), strings.IndexByte(hexDigits, w[i+2])
		if hi < 0 || lo < 0 {
			return "", ErrNameEncoding
		}
		b = append(b, byte(hi<<4|lo))
		i += 2
	}
	s := string(b)
	if EncodeName(s) != w {
		return "", ErrNameEncoding
	}
	return s, nil
}

// nameFields returns pointers to the file names v holds (v a pointer to
// a parameter or result type of an operation that names files; nil for
// any other, and for the listings, which EncodeNames and DecodeNames
// walk in place), and whether v is a result (whose names never hold a
// NUL).
func nameFields(v any) (names []*string, result bool) {
	switch p := v.(type) {
	case *OpenParams:
		return []*string{&p.Path}, false
	case *StatParams:
		if p.Path != nil {
			return []*string{p.Path}, false
		}
	case *PathParams:
		return []*string{&p.Path}, false
	case *MkdirParams:
		return []*string{&p.Path}, false
	case *RenameParams:
		return []*string{&p.From, &p.To}, false
	case *UtimesParams:
		return []*string{&p.Path}, false
	case *ChmodParams:
		return []*string{&p.Path}, false
	case *CreateTempParams:
		return []*string{&p.Prefix}, false
	case *ListParams:
		return []*string{&p.Path}, false
	case *WalkParams:
		return []*string{&p.Path, &p.After}, false
	case *ReadFileParams:
		return []*string{&p.Path}, false
	case *ReadFilesParams:
		for i := range p.Paths {
			names = append(names, &p.Paths[i])
		}
	case *ReadlinkResult:
		return []*string{&p.Target}, true
	case *CreateTempResult:
		return []*string{&p.Path}, true
	case *VirtualsResult:
		for i := range p.Files {
			names = append(names, &p.Files[i].Path)
		}
		return names, true
	}
	return names, false
}

// EncodeNames puts the file names of v (a pointer to a result, or to
// parameters) in wire form, in place.
func EncodeNames(v any) {
	switch p := v.(type) {
	case *ListResult:
		encodeEntries(p.Entries)
		return
	case *WalkResult:
		for i := range p.Dirs {
			p.Dirs[i].Path = EncodeName(p.Dirs[i].Path)
			encodeEntries(p.Dirs[i].Entries)
		}
		return
	}
	names, _ := nameFields(v)
	for _, n := range names {
		*n = EncodeName(*n)
	}
}

// encodeEntries puts the names of entries in wire form, in place. A
// listing is walked as it is, with no list of its names made first (a
// walk's answer has thousands).
func encodeEntries(entries []Entry) {
	for i := range entries {
		entries[i].Name = EncodeName(entries[i].Name)
	}
}

// DecodeNames decodes the file names of v (a pointer to parameters or a
// result, as decoded from JSON) from wire form, in place. A name that is
// not in canonical wire form is ErrNameEncoding, and so is a result's
// name that holds a NUL or a listing's name that holds a '/' or is "."
// or "..": no file has such a name. (A parameter's NUL is left for the
// server's policy, which refuses it as it refuses any NUL in a path.)
func DecodeNames(v any) error {
	switch p := v.(type) {
	case *ListResult:
		return decodeEntries(p.Entries)
	case *WalkResult:
		for i := range p.Dirs {
			if err := decodeResultName(&p.Dirs[i].Path); err != nil {
				return err
			}
			if err := decodeEntries(p.Dirs[i].Entries); err != nil {
				return err
			}
		}
		return nil
	}
	names, result := nameFields(v)
	for _, n := range names {
		if result {
			if err := decodeResultName(n); err != nil {
				return err
			}
			continue
		}
		s, err := DecodeName(*n)
		if err != nil {
			return ErrNameEncoding
		}
		*n = s
	}
	return nil
}

// decodeResultName decodes a result's name n in place: ErrNameEncoding
// if it is not in canonical wire form or holds a NUL.
func decodeResultName(n *string) error {
	s, err := DecodeName(*n)
	if err != nil || strings.IndexByte(s, 0) >= 0 {
		return ErrNameEncoding
	}
	*n = s
	return nil
}

// decodeEntries decodes the names of a listing's entries in place, in
// the listing itself (a walk's answer has thousands): ErrNameEncoding for
// a name decodeResultName refuses, and for "", ".", ".." or one with a
// '/'.
func decodeEntries(entries []Entry) error {
	for i := range entries {
		e := &entries[i]
		if err := decodeResultName(&e.Name); err != nil {
			return err
		}
		if e.Name == "" || e.Name == "." || e.Name == ".." || strings.IndexByte(e.Name, '/') >= 0 {
			return ErrNameEncoding
		}
	}
	return nil
}

// WireParams returns params (a parameter value, as a client passes it to
// be marshalled) with its file names in wire form: params itself when
// every name is its own wire form, else a pointer to a copy. Without
// byte_names (byteNames false) names go as they are, and one that is
// not valid UTF-8 cannot be carried: ErrNameEncoding.
func WireParams(params any, byteNames bool) (any, error) {
	var cp any
	switch p := params.(type) {
	case OpenParams:
		cp = &p
	case StatParams:
		if p.Path != nil {
			s := *p.Path
			p.Path = &s
		}
		cp = &p
	case PathParams:
		cp = &p
	case MkdirParams:
		cp = &p
	case RenameParams:
		cp = &p
	case UtimesParams:
		cp = &p
	case ChmodParams:
		cp = &p
	case CreateTempParams:
		cp = &p
	case ListParams:
		cp = &p
	case WalkParams:
		cp = &p
	case ReadFileParams:
		cp = &p
	case ReadFilesParams:
		p.Paths = slices.Clone(p.Paths)
		cp = &p
	default:
		return params, nil
	}
	names, _ := nameFields(cp)
	changed := false
	for _, n := range names {
		switch w := EncodeName(*n); {
		case w == *n:
		case !byteNames && !utf8.ValidString(*n):
			return nil, ErrNameEncoding
		case byteNames:
			*n, changed = w, true
		}
	}
	if !changed {
		return params, nil
	}
	return cp, nil
}
