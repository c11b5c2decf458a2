package builtins_test

import "testing"

// Expected values checked against GNU sum, cksum and b2sum 9.1 (LC_ALL=C).
func TestCksum(t *testing.T) {
	t.Parallel()
	big := make([]byte, 100000)
	for i := range big {
		big[i] = byte((i*7 + 13) % 251)
	}
	files := map[string]string{"h": "hello\n", "hw": "hello world\n", "big": string(big), "d/": "",
		"s1": "SHA1 (h) = f572d396fae9206628714fb2ce00f72e94f2258f\nSHA1 (hw) = 22596363b3de40b06f981fb85d82312e8c0ed511\n",
		"m":  "b1946ac92492d2347c6235b4d2611184  h\n",
		"b2": "93becc6e9882211c3ec3708c95bcd69baab7bb59c7f4bc84ce637b88a534b783  h\n"}
	runLines(t, []linesCase{
		{files, []string{"sum", "h"}, "", "36979     1 h\n", "", 0},
		{files, []string{"sum"}, "hello\n", "36979     1\n", "", 0},
		{files, []string{"sum", "-"}, "hello\n", "36979     1 -\n", "", 0},
		{files, []string{"sum", "-s", "hw", "h"}, "", "1126 1 hw\n542 1 h\n", "", 0},
		{files, []string{"sum", "-s", "-r", "h"}, "", "36979     1 h\n", "", 0},
		{files, []string{"sum", "big"}, "", "24015    98 big\n", "", 0},
		{files, []string{"sum", "-s", "big"}, "", "47883 196 big\n", "", 0},
		{files, []string{"sum", "d", "nosuch"}, "", "", "sum: d: Is a directory\nsum: nosuch: No such file or directory\n", 1},
		{files, []string{"cksum", "hw"}, "", "3733384285 12 hw\n", "", 0},
		{files, []string{"cksum"}, "x", "12738659 1\n", "", 0},
		{files, []string{"cksum", "big"}, "", "3121554290 100000 big\n", "", 0},
		{files, []string{"cksum", "d"}, "", "4294967295 0 d\n", "", 0},
		{files, []string{"cksum", "-a", "sysv", "hw"}, "", "1126 1 hw\n", "", 0},
		{files, []string{"cksum", "-a", "bsd", "-"}, "hello\n", "36979     1 -\n", "", 0},
		{files, []string{"cksum", "-a", "md5", "h"}, "", "MD5 (h) = b1946ac92492d2347c6235b4d2611184\n", "", 0},
		{files, []string{"cksum", "-a", "md5", "--untagged", "h"}, "", "b1946ac92492d2347c6235b4d2611184  h\n", "", 0},
		{files, []string{"cksum", "-a", "sha1"}, "hello\n", "SHA1 (-) = f572d396fae9206628714fb2ce00f72e94f2258f\n", "", 0},
		{files, []string{"cksum", "-a", "blake2b", "-l", "128", "h"}, "", "BLAKE2b-128 (h) = ea41b4de6c03f13a95758b28dd75693e\n", "", 0},
		{files, []string{"cksum", "-c", "s1"}, "", "h: OK\nhw: OK\n", "", 0},
		{files, []string{"cksum", "-c", "m"}, "", "", "cksum: m: no properly formatted checksum lines found\n", 1},
		{files, []string{"cksum", "-a", "crc", "-c", "m"}, "", "", "cksum: --check is not supported with --algorithm={bsd,sysv,crc}\n", 1},
		{files, []string{"cksum", "-a", "md5", "-c", "m"}, "", "h: OK\n", "", 0},
		{files, []string{"cksum", "-a", "blake2b", "-c", "b2"}, "", "h: OK\n", "", 0},
		{files, []string{"cksum", "-a", "sysv", "-c", "m"}, "", "", "cksum: --check is not supported with --algorithm={bsd,sysv,crc}\n", 1},
		{files, []string{"cksum", "-l", "8", "h"}, "", "", "cksum: --length is only supported with --algorithm=blake2b\n", 1},
		{files, []string{"cksum", "-a", "foo"}, "", "", "cksum: invalid argument 'foo' for '--algorithm'\nValid arguments are:\n  - 'bsd'\n  - 'sysv'\n  - 'crc'\n  - 'md5'\n  - 'sha1'\n  - 'sha224'\n  - 'sha256'\n  - 'sha384'\n  - 'sha512'\n  - 'blake2b'\n  - 'sm3'\nTry 'cksum --help' for more information.\n", 1},
		{files, []string{"b2sum", "h"}, "", "f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f  h\n", "", 0},
		{files, []string{"b2sum", "-l", "256", "h"}, "", "93becc6e9882211c3ec3708c95bcd69baab7bb59c7f4bc84ce637b88a534b783  h\n", "", 0},
		{files, []string{"b2sum", "-c", "b2"}, "", "h: OK\n", "", 0},
		{files, []string{"b2sum", "-c"}, "BLAKE2b-256 (h) = 93becc6e9882211c3ec3708c95bcd69baab7bb59c7f4bc84ce637b88a534b783\n", "h: OK\n", "", 0},
		{files, []string{"b2sum", "-l", "12", "h"}, "", "", "b2sum: invalid length: '12'\nb2sum: length is not a multiple of 8\n", 1},
		{files, []string{"b2sum", "-l", "1024", "h"}, "", "", "b2sum: invalid length: '1024'\nb2sum: maximum digest length for 'BLAKE2b' is 512 bits\n", 1},
	})
}
