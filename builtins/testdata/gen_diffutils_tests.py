#!/usr/bin/env python3
"""Generate builtins/diffutils_gnu_test.go: table cases for diff (and patch)
whose expected stdout, stderr and exit status come from running the real
GNU tools (diffutils 3.8, patch 2.7.6) with LC_ALL=C on the same files.

Files get the modification time 2026-11-23 10:00:00.123456789 UTC, the time
the Go test harness (duRun) gives them, so -u/-c headers match.

Usage: python3 builtins/testdata/gen_diffutils_tests.py > builtins/diffutils_gnu_test.go
"""
import os
import subprocess
import sys
import tempfile

MTIME_NS = 1795428000 * 10**9 + 123456789  # 2026-11-23 10:00:00.123456789 UTC

A = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
B = "1\n2\nthree\n4\n5\n6\n7\n8\n9\nten\n11\n"
BASE = {
    "a": A,
    "b": B,
    "nonl0": "x\ny",
    "nonl1": "x\ny\n",
    "nonl2": "x\nz",
    "empty": "",
    "case0": "Hello\nWorld\n",
    "case1": "hello\nWORLD\n",
    "ws0": "a b\n  c\nd  \n",
    "ws1": "a   b\nc\nd\n",
    "bl0": "a\n\nb\n",
    "bl1": "a\nb\n\n\n",
    "crlf0": "a\r\nb\r\nc\n",
    "tab0": "a\tb\nab\tc\nx\n",
    "c0": "#include <stdio.h>\n\nint helper(int x)\n{\n\tint y = x;\n\treturn y;\n}\n\n/* a very long comment line that goes on and on */\nint main(void)\n{\n\tint a = 1;\n\tint b = 2;\n\tint c = 3;\n\tint d = 4;\n\tint e = 5;\n\tint f = 6;\n\tint g = 7;\n\tprintf(\"%d\\n\", a);\n\treturn 0;\n}\n",
    "c1": "#include <stdio.h>\n\nint helper(int x)\n{\n\tint y = x + 1;\n\treturn y;\n}\n\n/* a very long comment line that goes on and on */\nint main(void)\n{\n\tint a = 1;\n\tint b = 2;\n\tint c = 3;\n\tint d = 4;\n\tint e = 5;\n\tint f = 6;\n\tint g = 7;\n\tprintf(\"%d\\n\", b);\n\treturn 0;\n}\n",
    "ts0": "# generated 2026-01-01\nkeep\nvalue=1\n# note\n",
    "ts1": "# generated 2026-11-23\nkeep\nvalue=2\n# NOTE\n",
    "tab1": "a\tB\nab\tc\nx\n",
    "crlf1": "a\nb\nc\n",
    "dot": "1\n.\n3\n.\n",
    "ctl0": "\x01ctl\tb\x08c\r\nmore\n\xe9t\xe9 long long long long long long long\n",
    "ctl1": "ctl\nmore\n\xe9t\xe9\n",
    "bin0": "a\0b\n",
    "bin1": "a\0c\n",
    "long0": "".join("line %d\n" % i for i in range(1, 40)),
    "long1": "".join(("line %d\n" % i) if i not in (5, 20, 21, 35) else "changed %d\n" % i for i in range(1, 40)),
}
DIRS = {
    "d1/f": "1\n2\n",
    "d2/f": "1\n3\n",
    "d1/same": "s\n",
    "d2/same": "s\n",
    "d1/onlya": "o\n",
    "d2/onlyb": "p\n",
    "d1/sub/s": "x\n",
    "d2/sub/s": "y\n",
    "d1/sub2/": None,
    "d2/sub2/": None,
    "d1/only/q": "q\n",
    "d1/e/": None,
    "d2/e": "",
    "d1/x y": "1\n",
    "d2/x y": "2\n",
}

DIFF_CASES = [
    ("normal", BASE, "", ["a", "b"]),
    ("unified", BASE, "", ["-u", "a", "b"]),
    ("unified U1", BASE, "", ["-U1", "a", "b"]),
    ("unified U 0", BASE, "", ["-U", "0", "a", "b"]),
    ("unified long", BASE, "", ["--unified=2", "a", "b"]),
    ("context", BASE, "", ["-c", "a", "b"]),
    ("context C1", BASE, "", ["-C1", "a", "b"]),
    ("context long", BASE, "", ["--context", "a", "b"]),
    ("hunks merge", BASE, "", ["-u", "long0", "long1"]),
    ("hunks context", BASE, "", ["-c", "long0", "long1"]),
    ("hunks normal", BASE, "", ["long0", "long1"]),
    ("reverse", BASE, "", ["b", "a"]),
    ("no newline normal", BASE, "", ["nonl0", "nonl1"]),
    ("no newline unified", BASE, "", ["-u", "nonl0", "nonl2"]),
    ("no newline context", BASE, "", ["-c", "nonl1", "nonl2"]),
    ("no newline ctx line", BASE, "", ["-u", "nonl0", "a"]),
    ("empty to file", BASE, "", ["empty", "b"]),
    ("empty unified", BASE, "", ["-u", "empty", "nonl0"]),
    ("to empty context", BASE, "", ["-c", "nonl1", "empty"]),
    ("identical", BASE, "", ["a", "a"]),
    ("identical -s", BASE, "", ["-s", "a", "a"]),
    ("brief", BASE, "", ["-q", "a", "b"]),
    ("brief same", BASE, "", ["--brief", "a", "a"]),
    ("ignore case", BASE, "", ["-i", "case0", "case1"]),
    ("ignore case brief", BASE, "", ["-qi", "case0", "case1"]),
    ("no ignore case", BASE, "", ["case0", "case1"]),
    ("ignore all space", BASE, "", ["-w", "ws0", "ws1"]),
    ("ignore space change", BASE, "", ["-b", "ws0", "ws1"]),
    ("ignore trailing", BASE, "", ["-Z", "ws0", "ws1"]),
    ("ignore space unified", BASE, "", ["-bu", "ws0", "ws1"]),
    ("blank lines", BASE, "", ["-B", "bl0", "bl1"]),
    ("blank lines unified", BASE, "", ["-B", "-u", "bl0", "bl1"]),
    ("blank lines not", BASE, "", ["bl0", "bl1"]),
    ("binary", BASE, "", ["bin0", "bin1"]),
    ("binary brief", BASE, "", ["-q", "bin0", "bin1"]),
    ("binary same", BASE, "", ["bin0", "bin0"]),
    ("text", BASE, "", ["-a", "bin0", "bin1"]),
    ("labels", BASE, "", ["-u", "--label", "old", "--label=new", "a", "b"]),
    ("one label", BASE, "", ["-c", "--label", "old", "nonl0", "nonl2"]),
    ("stdin first", BASE, "1\n2\n", ["-", "a"]),
    ("stdin second", BASE, "1\n2\n", ["a", "-"]),
    ("stdin both", BASE, "1\n2\n", ["-s", "-", "-"]),
    ("missing", BASE, "", ["a", "nosuch"]),
    ("both missing", BASE, "", ["nosuch1", "nosuch2"]),
    ("new file", BASE, "", ["-N", "nosuch", "a"]),
    ("new file unified", BASE, "", ["-uN", "a", "nosuch"]),
    ("no operands", BASE, "", []),
    ("one operand", BASE, "", ["a"]),
    ("extra operand", BASE, "", ["a", "b", "c"]),
    ("bad option", BASE, "", ["--frobnicate", "a", "b"]),
    ("bad context", BASE, "", ["-U", "x", "a", "b"]),
    ("conflicting styles", BASE, "", ["-u", "-c", "a", "b"]),
    ("context max", BASE, "", ["-U1", "-u", "a", "b"]),
    ("color unified", BASE, "", ["--color=always", "-u", "--label", "A", "--label", "B", "nonl0", "nonl2"]),
    ("color context", BASE, "", ["--color=always", "-C1", "--label", "A", "--label", "B", "a", "b"]),
    ("color normal", BASE, "", ["--color=always", "a", "b"]),
    ("color never", BASE, "", ["--color=never", "a", "b"]),
    ("color auto", BASE, "", ["--color", "a", "b"]),
    ("color bad", BASE, "", ["--color=bogus", "a", "b"]),
    ("strip cr", BASE, "", ["--strip-trailing-cr", "crlf0", "crlf1"]),
    ("expand tabs", BASE, "", ["-t", "tab0", "tab1"]),
    ("show function", BASE, "", ["-p", "-u", "--label", "A", "--label", "B", "c0", "c1"]),
    ("show function U1", BASE, "", ["-p", "-U1", "--label", "A", "--label", "B", "c0", "c1"]),
    ("show function context", BASE, "", ["-p", "-C1", "--label", "A", "--label", "B", "c0", "c1"]),
    ("show function line", BASE, "", ["-F", "^/\\*", "-U1", "--label", "A", "--label", "B", "c0", "c1"]),
    ("show function color", BASE, "", ["--color=always", "-p", "-U1", "--label", "A", "--label", "B", "c0", "c1"]),
    ("show function normal", BASE, "", ["-p", "c0", "c1"]),
    ("function line normal", BASE, "", ["-F", "^int", "c0", "c1"]),
    ("ignore matching", BASE, "", ["-I", "^# generated", "ts0", "ts1"]),
    ("ignore matching two", BASE, "", ["-I", "^#", "--ignore-matching-lines=value", "ts0", "ts1"]),
    ("ignore matching unified", BASE, "", ["-u", "-I", "generated", "--label", "A", "--label", "B", "ts0", "ts1"]),
    ("ignore matching case", BASE, "", ["-i", "-I", "^# NOTE", "-I", "generated", "ts0", "ts1"]),
    ("ignore matching bad", BASE, "", ["-I", "a[", "ts0", "ts1"]),
    ("expand tabs unified", BASE, "", ["-tu", "--label", "A", "--label", "B", "tab0", "tab1"]),
    ("initial tab", BASE, "", ["-T", "tab0", "tab1"]),
    ("initial tab unified", BASE, "", ["-T", "-u", "--label", "A", "--label", "B", "tab0", "tab1"]),
    ("initial tab context", BASE, "", ["-T", "-c", "--label", "A", "--label", "B", "tab0", "tab1"]),
    ("both tabs", BASE, "", ["-tT", "tab0", "tab1"]),
    ("no strip cr", BASE, "", ["crlf0", "crlf1"]),
    ("dirs", DIRS, "", ["d1", "d2"]),
    ("dirs exclude", DIRS, "", ["-r", "-x", "s*", "--exclude=only", "d1", "d2"]),
    ("dirs switches quoted", DIRS, "", ["-r", "--label=x=y", "-U1", "d1/sub", "d2/sub"]),
    ("name quoted", DIRS, "", ["-u", "d1/x y", "d2/x y"]),
    ("dirs recursive", DIRS, "", ["-r", "d1", "d2"]),
    ("dirs recursive unified", DIRS, "", ["-ru", "d1", "d2"]),
    ("dirs recursive new", DIRS, "", ["-rN", "d1", "d2"]),
    ("dirs brief", DIRS, "", ["-rq", "d1", "d2"]),
    ("dirs identical", DIRS, "", ["-rs", "d1/sub2", "d2/sub2"]),
    ("file and dir", DIRS, "", ["d1/f", "d2"]),
    ("dir and file", DIRS, "", ["-u", "d1", "d2/f"]),
    ("stdin and dir", DIRS, "x\n", ["-", "d2"]),
    ("dir missing entry", DIRS, "", ["d1/onlya", "d2"]),
    ("ed", BASE, "", ["-e", "a", "b"]),
    ("ed long", BASE, "", ["--ed", "long0", "long1"]),
    ("ed no newline", BASE, "", ["-e", "nonl0", "nonl2"]),
    ("ed only newline", BASE, "", ["-e", "nonl0", "nonl1"]),
    ("ed dot line", BASE, "", ["-e", "a", "dot"]),
    ("ed blank ignored", BASE, "", ["-e", "-B", "bl0", "bl1"]),
    ("ed dirs", DIRS, "", ["-e", "-r", "d1", "d2"]),
    ("rcs", BASE, "", ["-n", "a", "b"]),
    ("rcs long", BASE, "", ["--rcs", "long0", "long1"]),
    ("rcs no newline", BASE, "", ["-n", "nonl1", "nonl2"]),
    ("rcs empty", BASE, "", ["-n", "b", "empty"]),
    ("ifdef", BASE, "", ["-D", "NEW", "a", "b"]),
    ("ifdef long", BASE, "", ["--ifdef=X", "long0", "long1"]),
    ("ifdef same", BASE, "", ["-DX", "a", "a"]),
    ("ifdef blank", BASE, "", ["-DX", "-B", "bl0", "bl1"]),
    ("ifdef no newline", BASE, "", ["-DX", "nonl0", "nonl2"]),
    ("ifdef dirs", DIRS, "", ["-DX", "d1", "d2"]),
    ("side", BASE, "", ["-y", "a", "b"]),
    ("side width", BASE, "", ["-y", "-W", "40", "a", "b"]),
    ("side narrow", BASE, "", ["--side-by-side", "--width=7", "a", "b"]),
    ("side tiny", BASE, "", ["-yW3", "a", "b"]),
    ("side suppress", BASE, "", ["-y", "--suppress-common-lines", "long0", "long1"]),
    ("side left column", BASE, "", ["-y", "--left-column", "a", "b"]),
    ("side same", BASE, "", ["-y", "case0", "case0"]),
    ("side tabs", BASE, "", ["-y", "-W", "30", "tab0", "tab1"]),
    ("side expand tabs", BASE, "", ["-yt", "-W", "30", "tab0", "tab1"]),
    ("side no newline", BASE, "", ["-y", "nonl0", "nonl1"]),
    ("side no newline both", BASE, "", ["-y", "nonl0", "nonl2"]),
    ("side blank", BASE, "", ["-y", "-B", "bl0", "bl1"]),
    ("side control", BASE, "", ["-y", "-W", "50", "ctl0", "ctl1"]),
    ("side long lines", BASE, "", ["-y", "-W", "50", "c0", "c1"]),
    ("side dirs", DIRS, "", ["-y", "-r", "d1/sub", "d2/sub"]),
    ("side bad width", BASE, "", ["-y", "-W", "0", "a", "b"]),
    ("side width not number", BASE, "", ["-y", "--width=x", "a", "b"]),
    ("side and unified", BASE, "", ["-y", "-u", "a", "b"]),
    ("ed and rcs", BASE, "", ["-e", "-n", "a", "b"]),
]


def tmpl_files():
    f = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
    new = "1\n2\nthree\n4\n5\n6\n7\n8\n9\nten\n"
    p1 = ("--- a/sub/f\t2026-11-23 10:43:40.608236076 +0000\n+++ b/sub/f\t2026-11-23 10:43:40.632241014 +0000\n"
          "@@ -1,10 +1,10 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n 9\n-10\n+ten\n")
    big = "".join("l%d\n" % i for i in range(1, 41))
    big_diff = run_text(["diff", "-u", "--label", "big", "--label", "big", "-", "big2"], big,
                        {"big2": "".join(("L%d\n" % i if i in (5, 20) else "" if i == 30 else
                                          "l38\nextra\n" if i == 38 else "l%d\n" % i) for i in range(1, 41))})
    return {
        "sub/f": f, "p1.diff": p1, "off": "0\n00\n" + f, "bad": f.replace("9\n", "nine\n"),
        "already": new, "two": f,
        "two.diff": "--- f\n+++ f\n@@ -1,2 +1,2 @@\n 1\n-2\n+two\n@@ -9,2 +9,2 @@\n 9\n-XX\n+ten\n",
        "create.diff": "--- /dev/null\n+++ b/new/file.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n",
        "del.diff": "--- a/new/file.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-hello\n-world\n",
        "new/file.txt": "hello\nworld\n",
        "evil1.diff": "--- ../outside\n+++ ../outside\n@@ -0,0 +1 @@\n+evil\n",
        "evil2.diff": "--- /tmp/abs-outside\n+++ /tmp/abs-outside\n@@ -0,0 +1 @@\n+evil\n",
        "nr.diff": "--- f\n+++ f\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n", "g": "1\n2\n3",
        "nn": "a\nb\nc", "nn.diff": "--- nn\n+++ nn\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n",
        "garbage.diff": "junk\n", "empty.diff": "",
        "e.ed": "10c\nten\n.\n3c\nthree\n.\n", "dot.ed": "1a\n..\n.\ns/.//\na\nx\n.\n5,6d\n",
        "one": "only\n", "empty1.diff": "--- one\n+++ one\n@@ -1 +0,0 @@\n-only\n",
        "big.diff": big_diff, "bigoff": "pre1\npre2\n" + big,
        "multi.diff": "diff -u a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-x\n+X\ndiff -u a/y b/y\n--- a/y\n+++ b/y\n@@ -1,2 +1,2 @@\n-y\n+Y\n z\n",
        "x": "x\n", "y": "y\nz\n",
        "m": "1\n2\n3\n4\n",
        "crlf": "a\r\nb\r\n",
        "crlf.diff": "--- crlf\n+++ crlf\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n",
        "u.diff": "--- u\n+++ u2\n@@ -1,6 +1,7 @@\n 1\n 2\n 3\n+new\n 4\n 5\n 6\n@@ -12,7 +13,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n",
        "u3": "".join("%d\n" % i if i != 16 else "X\n" for i in range(1, 21)),
        "u5": "0\n" + "".join("%d\n" % i if i != 16 else "X\n" for i in range(1, 21)),
        "mal.diff": "--- m\n+++ m\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n@@ -3,2 +3,2 @@\n 3\n-4\n+four\n",
        "eof.diff": "--- m\n+++ m\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n",
        "short.diff": "--- m\n+++ m\n@@ -1,2 +1,2 @@\n 1\n-2\n+two\n 3\n@@ -4 +4 @@\n-4\n+four\n",
    }


def run_text(args, stdin, files):
    d = setup(files)
    p = subprocess.run(args, cwd=d, input=stdin.encode(), capture_output=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    return p.stdout.decode("latin-1")


PATCH_CASES = [
    ("strip 1", "", ["-p1", "-i", "p1.diff"]),
    ("stdin strip 1", "@p1.diff", ["-p1"]),
    ("default basename", "@p1.diff", []),
    ("wrong strip", "@p1.diff", ["-p2"]),
    ("offset", "", ["off", "p1.diff"]),
    ("fails", "", ["bad", "p1.diff"]),
    ("already applied", "", ["already", "-i", "p1.diff"]),
    ("already applied forward", "", ["-N", "already", "-i", "p1.diff"]),
    ("already applied dry run", "", ["--dry-run", "already", "-i", "p1.diff"]),
    ("dry run", "", ["--dry-run", "-p1", "-i", "p1.diff"]),
    ("second hunk fails", "@two.diff", ["two"]),
    ("create", "@create.diff", ["-p1"]),
    ("delete", "@del.diff", ["-p1"]),
    ("create exists", "@create.diff", ["-p1"]),
    ("dangerous dotdot", "@evil1.diff", ["-p0"]),
    ("dangerous absolute", "@evil2.diff", ["-p0"]),
    ("fuzz at end of file", "", ["g", "nr.diff"]),
    ("no newline", "@nn.diff", ["-p0"]),
    ("reverse", "", ["-R", "-p1", "-i", "p1.diff", "sub/f"]),
    ("unreversed", "", ["-R", "already", "p1.diff"]),
    ("garbage", "@garbage.diff", []),
    ("empty", "@empty.diff", []),
    ("no patch file", "", ["-i", "nosuch"]),
    ("output", "", ["-o", "out.txt", "off", "p1.diff"]),
    ("hunks offset", "", ["bigoff", "big.diff"]),
    ("multi file", "@multi.diff", ["-p1"]),
    ("failed after added lines", "", ["u3", "u.diff"]),
    ("failed after offset", "", ["u5", "u.diff"]),
    ("malformed", "@mal.diff", []),
    ("crlf", "", ["crlf", "crlf.diff"]),
    ("extra operand", "", ["a", "b", "c"]),
    ("chopped blank context", "@eof.diff", []),
    ("count too small", "@short.diff", []),
    ("backup", "", ["-b", "-p1", "-i", "p1.diff"]),
    ("backup suffix", "", ["--backup", "-z", ".bak", "-p1", "-i", "p1.diff"]),
    ("backup created", "@create.diff", ["-b", "-p1"]),
    ("backup dry run", "", ["-b", "--dry-run", "-p1", "-i", "p1.diff"]),
    ("backup skipped", "", ["-b", "already", "p1.diff"]),
    ("no backup if mismatch", "", ["--no-backup-if-mismatch", "off", "p1.diff"]),
    ("reject file", "", ["-r", "r.txt", "bad", "p1.diff"]),
    ("reject discard", "", ["--reject-file=-", "bad", "p1.diff"]),
    ("reject file reversed", "", ["-r", "r.txt", "already", "p1.diff"]),
    ("directory", "", ["-d", "sub", "-p2", "-i", "../p1.diff"]),
    ("directory stdin", "@p1.diff", ["--directory=sub", "-p2"]),
    ("directory missing", "", ["-d", "nosuch", "-i", "p1.diff"]),
    ("directory not dir", "", ["-d", "off", "-i", "p1.diff"]),
    ("remove empty", "@empty1.diff", ["-E"]),
    ("keep empty", "@empty1.diff", []),
    ("reverse backup", "", ["-R", "-b", "already", "p1.diff"]),
    ("ed", "", ["-e", "sub/f", "e.ed"]),
    ("ed detected", "@e.ed", ["sub/f"]),
    ("ed dot line", "", ["--ed", "sub/f", "dot.ed"]),
    ("ed no file", "@e.ed", []),
    ("ed missing file", "", ["-e", "nosuch", "e.ed"]),
    ("ed dry run", "", ["-e", "--dry-run", "sub/f", "e.ed"]),
    ("ed backup", "", ["-e", "-b", "sub/f", "e.ed"]),
]


def snapshot(d):
    tree = {}
    for root, dirs, files in os.walk(d):
        for n in dirs:
            p = os.path.relpath(os.path.join(root, n), d)
            if not os.listdir(os.path.join(root, n)):
                tree[p + "/"] = ""
        for n in files:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                tree[os.path.relpath(p, d)] = f.read().decode("latin-1")
    return tree


def go_str(s):
    out = ['"']
    for ch in s.encode("latin-1"):
        c = chr(ch)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif 32 <= ch < 127:
            out.append(c)
        else:
            out.append("\\x%02x" % ch)
    out.append('"')
    return "".join(out)


def setup(files):
    d = tempfile.mkdtemp()
    for name, content in files.items():
        p = os.path.join(d, name)
        if content is None:
            os.makedirs(p, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(content.encode("latin-1"))
        os.utime(p, ns=(MTIME_NS, MTIME_NS))
    return d


def run(tool, files, stdin, args):
    d = setup(files)
    p = subprocess.run([os.path.basename(tool)] + args, executable=tool, cwd=d, input=stdin.encode("latin-1"),
                       capture_output=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    return p.stdout.decode("latin-1"), p.stderr.decode("latin-1"), p.returncode


def files_var(files):
    return "map[string]string{" + ", ".join(
        "%s: %s" % (go_str(k), go_str(v if v is not None else "")) for k, v in sorted(files.items())) + "}"


def main():
    w = sys.stdout.write
    w("// Code generated by testdata/gen_diffutils_tests.py from GNU diffutils 3.8\n")
    w("// (LC_ALL=C); DO NOT EDIT.\n\npackage builtins\n\nimport \"testing\"\n\n")
    w("var duBaseFiles = %s\n\n" % files_var(BASE))
    w("var duDirFiles = %s\n\n" % files_var(DIRS))
    w("func TestDiffGNU(t *testing.T) {\n\tduRunAll(t, []duCase{\n")
    for name, files, stdin, args in DIFF_CASES:
        out, err, st = run("/usr/bin/diff", files, stdin, args)
        fv = "duBaseFiles" if files is BASE else "duDirFiles"
        # The time of standard input is the time of the run: blank it.
        w("\t\t{name: %s, files: %s, stdin: %s, args: []string{%s}, out: %s, err: %s, status: %d},\n" % (
            go_str(name), fv, go_str(stdin), ", ".join(go_str(a) for a in ["diff"] + args),
            go_str(out), go_str(err), st))
    w("\t})\n}\n\n")
    pf = tmpl_files()
    w("var duPatchFiles = %s\n\n" % files_var(pf))
    w("// Checked against GNU patch 2.7.6: output, status and the whole tree after.\n")
    w("func TestPatchGNU(t *testing.T) {\n\tduRunAll(t, []duCase{\n")
    for name, stdin, args in PATCH_CASES:
        if stdin.startswith("@"):
            stdin = pf[stdin[1:]]
        d = setup(pf)
        p = subprocess.run(["patch"] + args, executable="/usr/bin/patch", cwd=d, input=stdin.encode("latin-1"),
                           capture_output=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
        tree = snapshot(d)
        w("\t\t{name: %s, files: duPatchFiles, stdin: %s, args: []string{%s}, out: %s, err: %s, status: %d,\n\t\t\ttree: %s},\n" % (
            go_str(name), go_str(stdin), ", ".join(go_str(a) for a in ["patch"] + args),
            go_str(p.stdout.decode("latin-1")), go_str(p.stderr.decode("latin-1")), p.returncode, files_var(tree)))
    w("\t})\n}\n")


main()
