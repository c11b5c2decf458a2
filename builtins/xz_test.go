package builtins

import "testing"

// xzHello is `printf 'hello\n' | xz` (XZ Utils 5.4.1).
const xzHello = "\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5\xa3\x01\x00\x05\x68\x65\x6c\x6c\x6f\x0a\x00\x00\x00\xa5\x60\x97\xf1\x94\xf6\xfd\xe0\x00\x01\x1e\x06\xc1\x2f\xa4\x1d\x1f\xb6\xf3\x7d\x01\x00\x00\x00\x00\x04\x59\x5a"

// Messages and statuses checked against xz 5.4.1.
func TestXz(t *testing.T) {
	f := map[string]string{"t.xz": xzHello, "t.txz": xzHello, "foo": xzHello, "bad.xz": "hello\n", "t": "old"}
	tree := "bad.xz=hello\n foo=" + xzHello + " t.txz=" + xzHello + " t.xz=" + xzHello + " t=old"
	runTree(t, []treeCase{
		{f, []string{"unxz", "t.txz"}, "", "", 0, "bad.xz=hello\n foo=" + xzHello + " t.tar=hello\n t.xz=" + xzHello + " t=old"},
		{f, []string{"xz", "-dk", "t.xz"}, "", "xz: t: File exists\n", 1, tree},
		{f, []string{"xz", "-dkf", "t.xz"}, "", "", 0, "bad.xz=hello\n foo=" + xzHello + " t.txz=" + xzHello + " t.xz=" + xzHello + " t=hello\n"},
		{f, []string{"xzcat", "t.xz", "t.xz"}, "hello\nhello\n", "", 0, tree},
		{f, []string{"xz", "-d", "foo"}, "", "xz: foo: Filename has an unknown suffix, skipping\n", 2, tree},
		{f, []string{"xz", "-d", "bad.xz"}, "", "xz: bad.xz: File format not recognized\n", 1, tree},
		{f, []string{"xz", "-d", "nosuch.xz"}, "", "xz: nosuch.xz: No such file or directory\n", 1, tree},
		{f, []string{"xz", "-t", "t.xz"}, "", "", 0, tree},
		{f, []string{"xz", "t"}, "", "xz: compression is not supported by llmsh (xz -d, unxz and xzcat decompress)\n", 1, tree},
	})
	runLines(t, []linesCase{
		{nil, []string{"xz", "-dc"}, xzHello + xzHello, "hello\nhello\n", "", 0},
		{nil, []string{"xz", "-d"}, "hello\n", "", "xz: (stdin): File format not recognized\n", 1},
	})
}
