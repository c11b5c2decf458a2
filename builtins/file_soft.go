package builtins

import (
	"bytes"
	"regexp"
	"sync"
)

// fileSoft is the part of file 5.44's text magic (Magdir/python, c-lang,
// diff, make) that names what a text holds: "Python script", "C source",
// "unified diff output". It returns the name, whether file words it as
// executable ("Python script, ASCII text executable"), and the MIME type;
// "" when none matches. The strongest rules come first, as file tries
// them: unified diff, Python, C++, C, the other diffs, makefiles.
func fileSoft(b []byte) (name string, exec bool, mimeType string) {
	if len(b) > 8192 {
		b = b[:8192]
	}
	switch {
	case fileUnifiedDiff(b):
		return "unified diff output", false, "text/x-diff"
	case filePython(b):
		return "Python script", true, "text/x-script.python"
	case fileAnyRe(b, fileRes().cxx):
		return "C++ source", false, "text/x-c++"
	}
	if name, mt := fileC(b); name != "" {
		return name, false, mt
	}
	has := func(p string) bool { return bytes.HasPrefix(b, []byte(p)) }
	switch {
	case has("diff "), has("Only in "), has("Common subdirectories: "):
		return "diff output", false, "text/x-diff"
	case has("*** ") && bytes.Contains(b[:min(len(b), 1028)], []byte("\n--- ")):
		return "context diff output", false, "text/x-diff"
	case has("Index:"):
		return "RCS/CVS diff output", false, "text/x-diff"
	case fileRes().make.Match(b):
		return "makefile script", false, "text/x-makefile"
	case fileRes().automake.Match(b):
		return "automake makefile script", false, "text/x-makefile"
	}
	return "", false, ""
}

// fileStarts are file 5.44's text formats known by how they start:
// name, whether file words it as text ("PHP script, ASCII text") or
// alone ("PEM certificate"), and MIME type; a longer start comes first.
var fileStarts = []struct {
	start, name string
	text        bool
	mime        string
}{
	{"-----BEGIN CERTIFICATE REQUEST-----", "PEM certificate request", false, "text/plain"},
	{"-----BEGIN CERTIFICATE-----", "PEM certificate", false, "text/plain"},
	{"-----BEGIN RSA PRIVATE KEY-----", "PEM RSA private key", false, "text/plain"},
	{"-----BEGIN EC PRIVATE KEY-----", "PEM EC private key", false, "text/plain"},
	{"-----BEGIN DSA PRIVATE KEY-----", "PEM DSA private key", false, "text/plain"},
	{"-----BEGIN OPENSSH PRIVATE KEY-----", "OpenSSH private key", false, "text/plain"},
	{"ssh-rsa ", "OpenSSH RSA public key", false, "text/plain"},
	{"ssh-ed25519 ", "OpenSSH ED25519 public key", false, "text/plain"},
	{"ecdsa-sha2-nistp", "OpenSSH ECDSA public key", false, "text/plain"},
	{"ssh-dss ", "OpenSSH DSA public key", false, "text/plain"},
	{"-----BEGIN PGP SIGNATURE-", "PGP signature", false, "application/pgp-signature"},
	{"-----BEGIN PGP PUBLIC KEY BLOCK-", "PGP public key block", false, "application/pgp-keys"},
	{"-----BEGIN PGP PRIVATE KEY BLOCK-", "PGP private key block", false, "application/pgp-keys"},
	{"-----BEGIN PGP SIGNED MESSAGE-", "PGP signed message", false, "text/PGP"},
	{"-----BEGIN PGP MESSAGE-", "PGP message", false, "application/pgp-encrypted"},
	{"<svg", "SVG Scalable Vector Graphics image", false, "image/svg+xml"},
	{"BEGIN:VCARD", "vCard visiting card", false, "text/vcard"},
	{"BEGIN:VCALENDAR", "vCalendar calendar file", false, "text/calendar"},
	{"\\documentclass", "LaTeX 2e document", true, "text/x-tex"},
	{".TH ", "troff or preprocessor input", true, "text/troff"},
	{"From: ", "news or mail", true, "message/rfc822"},
	{"Received:", "RFC 822 mail", true, "message/rfc822"},
	{"Return-Path:", "SMTP mail", true, "message/rfc822"},
	{"Article", "saved news", true, "message/news"},
	{"Path:", "news", true, "message/news"},
	{"@echo off", "DOS batch file", true, "text/x-msdos-batch"},
}

// fileStart finds b's format in fileStarts; "<?php" in any case is PHP.
func fileStart(b []byte) (name string, text bool, mimeType string) {
	if len(b) >= 5 && bytes.EqualFold(b[:5], []byte("<?php")) {
		return "PHP script", true, "text/x-php"
	}
	for _, s := range fileStarts {
		if bytes.HasPrefix(b, []byte(s.start)) {
			return s.name, s.text, s.mime
		}
	}
	return "", false, ""
}

// fileUnifiedDiff: "--- " in the first 4 KiB, the next line "+++ ", the
// one after it "@@".
func fileUnifiedDiff(b []byte) bool {
	rest := b[:min(len(b), 4096+4)]
	for {
		i := bytes.Index(rest, []byte("--- "))
		if i < 0 {
			return false
		}
		after := b[len(b)-len(rest)+i+4:]
		if nl := bytes.IndexByte(after[:min(len(after), 1024)], '\n'); nl >= 0 {
			next := after[nl+1:]
			if bytes.HasPrefix(next, []byte("+++ ")) {
				if nl2 := bytes.IndexByte(next[4:min(len(next), 1028)], '\n'); nl2 >= 0 && bytes.HasPrefix(next[4+nl2+1:], []byte("@@")) {
					return true
				}
			}
		}
		rest = rest[i+4:]
	}
}

// fileRes are fileSoft's regular expressions, compiled on first use
// (package init stays small: TestStartupInit).
var fileRes = sync.OnceValue(func() *fileRegexps {
	c := regexp.MustCompile
	return &fileRegexps{
		pyFrom:   c(`(?m)^from[ \t]+([A-Za-z0-9_]|\.)+[ \t]+import.*$`),
		pyImport: c(`(?m)^import [_[:alpha:]]+ as [[:alpha:]][[:space:]]*$`),
		pyExcept: c(`(?m)^[[:space:]]*except.*:$`),
		pyClass:  c(`(?m)^class [_[:alpha:]]+(\(.*\))?( )*:([ \t]+pass)?$`),
		pyDef:    c(`(?m)^[[:space:]]{0,50}def {1,50}[_a-zA-Z]{1,100}`),
		pyArgs:   c(`(?m)\(([[:alpha:]*_, ]){0,255}\):$`),
		cxx: []*regexp.Regexp{
			c(`(?m)^namespace[[:space:]]+[_[:alpha:]]{1,20}[[:space:]]*\{`),
			c(`(?m)^using[[:space:]]+(namespace )?std(::)?[[:alpha:]]*[[:space:]]*;`),
			c(`(?m)^[[:space:]]*template[[:space:]]*<.*>[[:space:]]*$`),
			c(`(?m)^[[:space:]]*virtual[[:space:]]+.*[};][[:space:]]*$`),
			c(`(?m)^[[:space:]]*(public|private|protected):`),
		},
		c: []*regexp.Regexp{
			c(`(?m)^#include`),
			c(`(?m)^#[[:space:]]*pragma`),
			c(`(?m)^[[:space:]]*char( \*|\*)(.+)(=.*)?;[[:space:]]*$`),
			c(`(?m)^[[:space:]]*double( \*|\*)(.+)(=.*)?;[[:space:]]*$`),
			c(`(?m)^[[:space:]]*extern[[:space:]]+`),
			c(`(?m)^[[:space:]]*float( \*|\*)(.+)(=.*)?;[[:space:]]*$`),
			c(`(?m)^struct[[:space:]]+`),
			c(`(?m)^union[[:space:]]+`),
		},
		cIfdef:   c(`(?m)^#[[:space:]]*(if|ifn)def`),
		cEndif:   c(`(?m)^#[[:space:]]*endif$`),
		cMain:    c(`\)[[:space:]]*\{`),
		make:     c(`(?m)^(CFLAGS|LDFLAGS|all:|.PRECIOUS)`),
		automake: c(`(?m)^SUBDIRS`),
	}
})

type fileRegexps struct {
	pyFrom, pyImport, pyExcept, pyClass, pyDef, pyArgs *regexp.Regexp
	cxx, c                                             []*regexp.Regexp
	cIfdef, cEndif, cMain, make, automake              *regexp.Regexp
}

func fileAnyRe(b []byte, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.Match(b) {
			return true
		}
	}
	return false
}

// fileAfter reports whether sub starts within n bytes after the first
// word in b.
func fileAfter(b []byte, word, sub string, n int) bool {
	i := bytes.Index(b, []byte(word))
	if i < 0 {
		return false
	}
	rest := b[i+len(word):]
	return bytes.Contains(rest[:min(len(rest), n+len(sub)-1)], []byte(sub))
}

func filePython(b []byte) bool {
	re := fileRes()
	if bytes.Contains(b, []byte("import")) && (re.pyFrom.Match(b) || re.pyImport.Match(b)) {
		return true
	}
	if fileAfter(b, "def __init__", "self", 64) ||
		fileAfter(b, "if __name__", "'__main__'", 64) || fileAfter(b, `if __name__`, `"__main__"`, 64) {
		return true
	}
	if i := bytes.Index(b, []byte("try:")); i >= 0 {
		rest := b[i+4:]
		if re.pyExcept.Match(rest) || bytes.Contains(rest, []byte("finally:")) {
			return true
		}
	}
	if bytes.Contains(b, []byte("class")) && re.pyClass.Match(b) {
		return true
	}
	if loc := re.pyDef.FindIndex(b); loc != nil && re.pyArgs.Match(b[loc[1]:]) {
		return true
	}
	return false
}

// fileC is c-lang's C rules; "main(" followed by "String" is Java.
func fileC(b []byte) (string, string) {
	re := fileRes()
	if fileAnyRe(b, re.c) {
		return "C source", "text/x-c"
	}
	if loc := re.cIfdef.FindIndex(b); loc != nil && re.cEndif.Match(b[loc[1]:]) {
		return "C source", "text/x-c"
	}
	if i := bytes.Index(b, []byte("main(")); i >= 0 {
		rest := b[i+5:]
		if bytes.Contains(rest[:min(len(rest), 64+5)], []byte("String")) {
			return "Java source", "text/x-java"
		}
		if re.cMain.Match(rest) {
			return "C source", "text/x-c"
		}
	}
	return "", ""
}
