package builtins_test

import (
	"strings"
	"testing"
)

// Expected values produced by file 5.44 on the same contents.
func TestFile(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 400) + "\n"
	files := map[string]string{
		"ascii": "hello\n", "utf8": "h\xc3\xa9llo\n", "crlf": "a\r\nb\r\n", "cr": "a\rb\r", "noeol": "noeol",
		"empty": "", "sh": "#!/bin/sh\necho\n", "py": "#!/usr/bin/env python3\nprint()\n", "pl": "#!/usr/bin/perl\n",
		"node": "#!/usr/bin/env node\n", "foo": "#!/usr/bin/foo\n", "shcrlf": "#!/bin/sh\r\necho\r\n",
		"png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x08\x08\x06\x00\x00\x00",
		"gif": "GIF89a\x10\x00\x08\x00", "pdf": "%PDF-1.4\n", "bz": bzHello, "xz": xzHello,
		"data": "a\x00b", "utf16": "\xff\xfeh\x00i\x00", "latin1": "hello\xe9\n", "nonIso": "a\x80b\n",
		"json": "{\"a\":1}\n", "xml": "<?xml version=\"1.0\"?>\n<a/>\n", "html": "<!DOCTYPE html>\n<html></html>\n",
		"long": long, "bom": "\xef\xbb\xbfhi\n", "mixed": "a\nb\r\n", "esc": "a\x1b[1mb\n", "bs": "a\bb\n",
		"dir/": "", "zip": "PK\x03\x04\x0a\x00\x00\x00\x00\x00",
		"eps": "%!PS-Adobe-3.0 EPSF-3.0\n%%LanguageLevel: 2\n", "rtf": "{\\rtf1\\mac x}\n", "pdf8": "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
	}
	runLines(t, []linesCase{
		{files, []string{"file", "ascii", "utf8", "crlf", "cr", "noeol", "empty", "dir"}, "",
			"ascii: ASCII text\nutf8:  Unicode text, UTF-8 text\ncrlf:  ASCII text, with CRLF line terminators\ncr:    ASCII text, with CR line terminators\nnoeol: ASCII text, with no line terminators\nempty: empty\ndir:   directory\n", "", 0},
		{files, []string{"file", "sh", "py", "pl", "node", "foo", "shcrlf"}, "",
			"sh:     POSIX shell script, ASCII text executable\npy:     Python script, ASCII text executable\npl:     Perl script text executable\nnode:   Node.js script executable, ASCII text\nfoo:    a /usr/bin/foo script, ASCII text executable\nshcrlf: POSIX shell script, ASCII text executable, with CRLF line terminators\n", "", 0},
		{files, []string{"file", "png", "gif", "pdf", "bz", "xz", "zip"}, "",
			"png: PNG image data, 16 x 8, 8-bit/color RGBA, non-interlaced\ngif: GIF image data, version 89a, 16 x 8\npdf: PDF document, version 1.4\nbz:  bzip2 compressed data, block size = 900k\nxz:  XZ compressed data, checksum CRC64\nzip: Zip archive data, at least v1.0 to extract, compression method=store\n", "", 0},
		{files, []string{"file", "data", "utf16", "latin1", "nonIso", "json", "xml", "html"}, "",
			"data:   data\nutf16:  Unicode text, UTF-16, little-endian text, with no line terminators\nlatin1: ISO-8859 text\nnonIso: Non-ISO extended-ASCII text\njson:   JSON text data\nxml:    XML 1.0 document, ASCII text\nhtml:   HTML document, ASCII text\n", "", 0},
		{files, []string{"file", "long", "bom", "mixed", "esc", "bs"}, "",
			"long:  ASCII text, with very long lines (400)\nbom:   Unicode text, UTF-8 (with BOM) text\nmixed: ASCII text, with CRLF, LF line terminators\nesc:   ASCII text, with escape sequences\nbs:    ASCII text, with overstriking\n", "", 0},
		{files, []string{"file", "-b", "ascii"}, "", "ASCII text\n", "", 0},
		{files, []string{"file", "eps", "rtf"}, "", "eps: PostScript document text conforming DSC level 3.0, type EPS, Level 2\nrtf: Rich Text Format data, version 1, Apple Macintosh\n", "", 0},
		{files, []string{"file", "-i", "eps", "rtf", "pdf8"}, "", "eps:  application/postscript; charset=us-ascii\nrtf:  text/rtf; charset=us-ascii\npdf8: application/pdf; charset=iso-8859-1\n", "", 0},
		{files, []string{"file", "-i", "ascii", "utf8", "png", "dir", "empty", "sh"}, "",
			"ascii: text/plain; charset=us-ascii\nutf8:  text/plain; charset=utf-8\npng:   image/png; charset=binary\ndir:   inode/directory; charset=binary\nempty: inode/x-empty; charset=binary\nsh:    text/x-shellscript; charset=us-ascii\n", "", 0},
		{files, []string{"file", "--mime-type", "png"}, "", "png: image/png\n", "", 0},
		{files, []string{"file", "nosuch"}, "", "nosuch: cannot open `nosuch' (No such file or directory)\n", "", 0},
		// file 5.44's usage after a bad option and without an operand
		{files, []string{"file", "--bogus"}, "", "", "file: unrecognized option '--bogus'\n" + fileUsage, 1},
		{files, []string{"file"}, "", "", fileUsage, 1},
	})
}

// Comma-separated values as file 5.44 finds them (expected values from it):
// three lines or more with as many commas each (up to the tenth line),
// quotes hiding commas, tried before scripts and HTML.
func TestFileCSV(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"c1": "a,b\n1,2\n3,4\n", "c2": "a,b\n1,2\n", "c3": "a,b\r\n1,2\r\n3,4\r\n", "c4": "\xc3\xa9,b\n1,2\n3,4\n",
		"c6": "a,\"b,c\"\n1,2\n3,\"x\"\"y\"\n", "c7": "a,b\n1,2\n3,4", "c8": "a,b\n1,2,3\n3,4\n",
		"c9": "1,x\n2,x\n3,x\n4,x\n5,x\n6,x\n7,x\n8,x\n9,x\n10,x\n11,x\n12,x\n1,2,3\n", "c10": "a,b\n\n1,2\n",
		"d1": "#!/bin/sh a,b\necho a,b\necho c,d\n", "d2": "<html>a,b\n1,2\n3,4\n", "d4": "a\tb,\n1,2\n3,4\n",
		"j": "[1,\n2,\n3]\n",
	}
	runLines(t, []linesCase{
		{files, []string{"file", "c1", "c2", "c3", "c4", "c6", "c7", "c8", "c9", "c10", "d1", "d2", "d4", "j"}, "",
			"c1:  CSV text\nc2:  ASCII text\nc3:  CSV text\nc4:  CSV text\nc6:  CSV text\nc7:  ASCII text\nc8:  ASCII text\nc9:  CSV text\nc10: ASCII text\nd1:  CSV text\nd2:  CSV text\nd4:  CSV text\nj:   JSON text data\n", "", 0},
		{files, []string{"file", "-i", "c1", "c4"}, "", "c1: text/csv; charset=us-ascii\nc4: text/csv; charset=utf-8\n", "", 0},
	})
}

// New Line Delimited JSON as file 5.44 finds it (expected values from it):
// an object or array, then a second value of the same kind, whatever
// follows; tried before CSV; no JSON at all after a byte-order mark.
func TestFileNDJSON(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"n1": "{\"a\":1}\n{\"b\":2}\n", "n2": "[1]\n[2]\n", "n3": "{\"a\":1}\n[2]\n", "n4": "{\"a\":1} {\"b\":2}\n",
		"n5": "{}\n{}\nxx\n", "n6": "{\"a\":1}\n{\"b\":2", "n7": "{\"a\":1,\"b\":2}\n{\"a\":1,\"b\":3}\n{\"a\":4,\"b\":2}\n",
		"n8": "{}\r\n{}\r\n", "n9": "1\n2\n", "b1": "\xef\xbb\xbf{}\n{}\n", "b2": "\xef\xbb\xbf{\"a\":1}\n",
	}
	runLines(t, []linesCase{
		{files, []string{"file", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "b1", "b2"}, "",
			"n1: New Line Delimited JSON text data\nn2: New Line Delimited JSON text data\nn3: ASCII text\n" +
				"n4: New Line Delimited JSON text data\nn5: New Line Delimited JSON text data\nn6: ASCII text\n" +
				"n7: New Line Delimited JSON text data\nn8: New Line Delimited JSON text data\nn9: ASCII text\n" +
				"b1: Unicode text, UTF-8 (with BOM) text\nb2: Unicode text, UTF-8 (with BOM) text\n", "", 0},
		{files, []string{"file", "-i", "n1"}, "", "n1: application/x-ndjson; charset=us-ascii\n", "", 0},
	})
}

const fileUsage = "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n" +
	"            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n" +
	"            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n" +
	"            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n"
